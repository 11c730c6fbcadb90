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
Memo = dict[tuple[int, int], tuple[Any, Any, tuple[str, Any] | None]]


def diff(old: Any, new: Any, memo: Memo | None = None) -> Patch:
    """The patch that turns container ``old`` (a dict, or a list) into ``new`` of the same type.

    ``memo``: the changes already worked out between two containers, by their identity, for diffs of
    views that share parts (``GameState.views``): the parts every seat sees are compared once per
    update, not once per seat. It keeps the containers it names, so their identities stay theirs."""
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
            continue
        if before is after:
            continue
        if memo is not None and isinstance(before, (dict, list)):
            known = memo.get((id(before), id(after)))
            if known is None:
                known = memo[id(before), id(after)] = (before, after, _change(before, after, memo))
            change = known[2]
        else:
            change = _change(before, after, memo)
        if change is not None:
            patch.setdefault(change[0], {})[key] = change[1]
    return patch


def _change(before: Any, after: Any, memo: Memo | None) -> tuple[str, Any] | None:
    """How one member changed: ``None`` (it did not), or the patch key and what goes under it."""
    if before == after:
        return None
    if (isinstance(before, dict) and isinstance(after, dict)) or (
            isinstance(before, list) and isinstance(after, list) and len(before) == len(after)):
        return "sub", diff(before, after, memo)
    if (isinstance(before, list) and isinstance(after, list) and len(after) > len(before)
            and after[:len(before)] == before):
        return "add", after[len(before):]
    return "set", after


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
