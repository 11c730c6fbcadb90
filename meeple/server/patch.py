"""Patches between two JSON views, so a seat is sent what changed after a move, not its whole view.

A game's view carries logs that grow for the whole game (Citadels' ``log``, Palais Royal's
``private_log``, ...); sending the whole view after every move made messages, and the server's
encoding work, grow with the game's length. ``diff(old, new)`` gives a patch whose size depends only
on what changed: a list that grew by appending is sent as its new items, a dict or an equally long
list as the patches of its changed members, anything else as its new value.

A patch is a JSON object with any of these keys (``meeple/web/js/patch.js`` applies the same format)::

    {"set": {key: value}, "del": [key], "sub": {key: patch}, "add": {key: [item, ...]}}

Keys of a list are its indexes as strings; ``del`` only ever names keys of a dict. ``{}`` changes
nothing.
"""

from __future__ import annotations

from typing import Any

Patch = dict[str, Any]


def diff(old: Any, new: Any) -> Patch:
    """The patch that turns container ``old`` (a dict, or a list) into ``new`` of the same type."""
    patch: Patch = {}
    if isinstance(old, dict) and isinstance(new, dict):
        pairs = [(key, old.get(key, _MISSING), value) for key, value in new.items()]
        removed = [key for key in old if key not in new]
        if removed:
            patch["del"] = removed
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        pairs = [(str(index), before, after) for index, (before, after) in enumerate(zip(old, new, strict=True))]
    else:
        raise TypeError("diff() compares two dicts or two lists of one length")
    for key, before, after in pairs:
        if before is _MISSING:
            patch.setdefault("set", {})[key] = after
        elif before == after:
            continue
        elif (isinstance(before, dict) and isinstance(after, dict)) or (
                isinstance(before, list) and isinstance(after, list) and len(before) == len(after)):
            patch.setdefault("sub", {})[key] = diff(before, after)
        elif (isinstance(before, list) and isinstance(after, list) and len(after) > len(before)
              and after[:len(before)] == before):
            patch.setdefault("add", {})[key] = after[len(before):]
        else:
            patch.setdefault("set", {})[key] = after
    return patch


def apply_patch(value: Any, patch: Patch) -> Any:
    """``value`` with ``patch`` applied, as a new container (``value`` itself is left unchanged)."""
    if isinstance(value, list):
        result: Any = list(value)

        def index(key: str) -> int:
            return int(key)
    else:
        result = dict(value)

        def index(key: str) -> Any:  # type: ignore[misc]
            return key
    for key in patch.get("del", ()):
        result.pop(key, None)
    for key, item in patch.get("set", {}).items():
        result[index(key)] = item
    for key, items in patch.get("add", {}).items():
        result[index(key)] = [*result[index(key)], *items]
    for key, sub in patch.get("sub", {}).items():
        result[index(key)] = apply_patch(result[index(key)], sub)
    return result


class _Missing:
    pass


_MISSING = _Missing()
