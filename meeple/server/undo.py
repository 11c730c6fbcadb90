"""Undo in the stored log: the actions table stays append-only and an undo is one more row.

A row whose notation is ``~undo:K`` takes back the last ``K`` moves still in effect; the moves in
effect (what the game state replays) are derived from the rows by playing these markers. So nothing
stored is ever lost, a table's version (its row count) only grows and is never reused, and a stale
client's move or undo at an old version is refused like any stale move. No game notation starts
with ``~`` (tests/server/test_undo.py checks every game's notations).

Which moves may be taken back is the engine's to say (``GameState.undoable_moves``: the seat's own
consecutive last moves above the game's ``undo_floor``, while it is still its turn).

Each row reaches a client as an ``Event`` (``meeple.core.events``), the same on every channel:
``{"event": "move", "seat": s, "index": i, "action": notation, "kind": ..., "args": ...}`` (``"undone":
true`` once taken back) or ``{"event": "undo", "seat": s, "index": i, "taken_back": [indexes]}``.
Nothing stored changes: the entries are made from the rows when sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from meeple.core.events import PUBLIC, Event, redacted

UNDO_PREFIX = "~undo:"
MOVE, UNDO = "move", "undo"
PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {MOVE: ("action", "kind", "args"), UNDO: ()}
"""The fields of each kind of platform entry only its seat sees (other kinds are public whole): another
seat's notation may name a hidden choice (a character called, a card kept), so everyone else learns
only that the seat moved."""

Shape = Callable[[str], "list[Any] | None"]
"""A notation's ``[kind, args]`` (``meeple.server.actions.action_shape`` of a game), None if it has none."""


def undo_notation(moves: int) -> str:
    """The stored row of an undo taking back ``moves`` moves."""
    return f"{UNDO_PREFIX}{moves}"


def undone_count(notation: str) -> int | None:
    """How many moves a stored row takes back, or ``None`` if it is a move."""
    if not notation.startswith(UNDO_PREFIX):
        return None
    return int(notation[len(UNDO_PREFIX):])


def moves_in_effect(notations: Iterable[str]) -> int:
    """How many moves are in effect after these rows (a rating's count of moves played, say)."""
    count = 0
    for notation in notations:
        taken_back = undone_count(notation)
        count = count + 1 if taken_back is None else count - taken_back
    return count


def move_event(index: int, seat: int, notation: str, shape: Shape | None = None, undone: bool = False) -> Event:
    """Row ``index``, a move, whole (as its mover sees it); ``as_seen`` hides what others may not see."""
    entry: dict[str, Any] = {"event": MOVE, "seat": seat, "index": index, "action": notation}
    kind_args = shape(notation) if shape is not None else None
    if kind_args is not None:
        entry["kind"], entry["args"] = kind_args
    if undone:
        entry["undone"] = True
    return cast(Event, entry)


def undo_event(index: int, seat: int, taken_back: Iterable[int]) -> Event:
    """Row ``index``, an undo by ``seat`` taking back the moves at ``taken_back``: public."""
    return cast(Event, {"event": UNDO, "seat": seat, "index": index, "taken_back": list(taken_back)})


def as_seen(entry: Event, seat: int | None) -> Event:
    """A platform entry as ``seat`` (None: a spectator) may see it: its ``PRIVATE_FIELDS`` go to the seat
    it is about only, by the one rule of ``meeple.core.events``."""
    return redacted(entry, PRIVATE_FIELDS.get(entry["event"], ()), entry.get("seat", PUBLIC), seat)


class MoveLedger:
    """The rows of a table's log and which of them are moves in effect.

    ``rows[i]`` is ``(seat, notation)`` of row ``i`` (its version is ``i + 1``); ``in_effect`` lists the
    indexes of the moves not taken back, in order; ``undone_by[i]`` the moves the undo at row ``i`` took back.
    """

    def __init__(self) -> None:
        self.rows: list[tuple[int, str]] = []
        self.in_effect: list[int] = []
        self.actors: list[int] = []
        """Who made each move in effect (kept along, since the runtime asks on every update)."""
        self.undone_by: dict[int, tuple[int, ...]] = {}
        self.undone: set[int] = set()

    def add(self, seat: int, notation: str) -> int | None:
        """Append one row; returns how many moves it takes back (``None``: it is a move)."""
        index = len(self.rows)
        self.rows.append((seat, notation))
        count = undone_count(notation)
        if count is None:
            self.in_effect.append(index)
            self.actors.append(seat)
            return None
        if not 0 < count <= len(self.in_effect):
            raise ValueError(f"row {index} takes back {count} moves but {len(self.in_effect)} are in effect")
        taken = tuple(self.in_effect[-count:])
        del self.in_effect[-count:]
        del self.actors[-count:]
        self.undone_by[index] = taken
        self.undone.update(taken)
        return count

    def extend(self, rows: Iterable[tuple[int, str]]) -> None:
        for seat, notation in rows:
            self.add(seat, notation)

    @property
    def version(self) -> int:
        return len(self.rows)

    def moves(self) -> list[str]:
        """The notations of the moves in effect: what replays the game as it stands."""
        return [self.rows[index][1] for index in self.in_effect]

    def event(self, index: int, shape: Shape | None = None) -> Event:
        """Row ``index`` as an Event, whole: a move (marked ``undone`` once taken back) or an undo."""
        mover, notation = self.rows[index]
        taken = self.undone_by.get(index)
        if taken is not None:
            return undo_event(index, mover, taken)
        return move_event(index, mover, notation, shape, index in self.undone)

    def entry(self, index: int, seat: int | None, shape: Shape | None = None) -> Event:
        """Row ``index`` as ``seat`` sees it in the log (``as_seen``)."""
        return as_seen(self.event(index, shape), seat)
