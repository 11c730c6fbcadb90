"""The one event type every game's log is made of, and the one rule of who sees an entry.

A view's log entries are JSON objects of one shape (docs/engine-contract.md, "Events"):
``{"event": <kind>, "seat": <the seat it is about, when there is one>, ...the kind's own fields}``.
Who may see an entry is not part of the entry: a game keeps each entry's *visibility* beside it,
``PUBLIC`` or the one seat it is private to, and that visibility only decides which view holds the
entry. The rule, stated here once: an entry is in seat ``s``'s view iff it is public or private to
``s``; a spectator sees the public entries only. A view lists the public entries under ``"log"`` and
the viewer's private ones under ``"private_log"``, each in the order they happened.

An entry may also be public in part: everyone sees it, but some of its fields belong to one seat (the
platform's move entry: everyone sees that seat ``s`` moved, only ``s`` sees the notation, which may name
a hidden choice). The same rule decides: ``redacted`` gives the whole entry to the seats ``visible_to``
admits and the entry without those fields to everyone else.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import Any, NotRequired, Required, TypedDict, cast

PUBLIC = -1
"""The visibility of an entry everyone sees; any other value is the one seat that sees it."""


class Event(TypedDict, total=False):
    """One log entry as a view shows it; a kind adds its own JSON fields (``"card"``, ``"gold"``, ...)."""

    event: Required[str]
    """The kind of event, a snake_case name the game's docs and renderer know (``"build"``, ``"drew"``)."""
    seat: NotRequired[int]
    """The seat the event is about (usually the one acting); absent when it is about no one seat."""


def visible_to(visibility: int, seat: int | None) -> bool:
    """The rule: whether an entry of ``visibility`` belongs in the view of ``seat`` (None: a spectator)."""
    return visibility == PUBLIC or (seat is not None and visibility == seat)


def redacted(entry: Event, private_fields: Collection[str], visibility: int, seat: int | None) -> Event:
    """``entry`` as ``seat`` (None: a spectator) sees it: whole if ``visible_to(visibility, seat)``, else
    without ``private_fields`` (a new dict; ``entry`` is left as it was)."""
    if visible_to(visibility, seat) or not any(field in entry for field in private_fields):
        return entry
    return cast(Event, {key: value for key, value in entry.items() if key not in private_fields})


def view_logs(public: Iterable[dict[str, Any]], private: Mapping[int, Iterable[dict[str, Any]]],
              seat: int | None) -> dict[str, list[dict[str, Any]]]:
    """The ``"log"`` and ``"private_log"`` of ``seat``'s view, by the rule above.

    ``private`` holds each seat's private entries (a seat without any may be missing); a spectator
    gets none of them. The lists are new; the entries are shared with the caller (a view is for reading).
    """
    own = [entry for visibility, entries in private.items() if visible_to(visibility, seat) for entry in entries]
    return {"log": list(public), "private_log": own}


def event_problem(entry: object, players: int) -> str | None:
    """What keeps ``entry`` from being an ``Event`` of a ``players``-seat game, or None when it is one."""
    if not isinstance(entry, dict):
        return f"a log entry must be a JSON object, not {type(entry).__name__}"
    kind = entry.get("event")
    if not isinstance(kind, str) or not kind:
        return f"a log entry needs an 'event' kind (a non-empty string): {entry!r}"
    if "seat" in entry:
        seat = entry["seat"]
        if type(seat) is not int or not 0 <= seat < players:
            return f"a {kind!r} entry's 'seat' must be a seat of the game (0–{players - 1}), not {seat!r}"
    try:
        plain = json.loads(json.dumps(entry))
    except (TypeError, ValueError) as error:
        return f"a {kind!r} entry is not plain JSON: {error}"
    if plain != entry:
        return f"a {kind!r} entry does not survive JSON unchanged (tuples or non-string keys?): {entry!r}"
    return None


def check_event(entry: object, players: int) -> Event:
    """``entry`` as an ``Event``, or ValueError saying what is wrong with it."""
    problem = event_problem(entry, players)
    if problem is not None:
        raise ValueError(problem)
    return cast(Event, entry)
