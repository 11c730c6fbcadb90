"""What a seat sees and what it can do, as typed data.

``view(seat)`` is JSON shaped for people and the browser (names, logs, nested dicts). Programs — bots,
the research adapters (``meeple.research``) — want the same facts as plain values: an ``Observation``
is a frozen dataclass of ints, bools, strings and tuples built from exactly what ``view(seat)`` shows
(each game's ``meeple/games/<name>/observation.py``), without the logs, and only when asked for, so
``legal_actions`` and ``apply`` never pay for it. Because it is built from what the seat may know, it
is identical on every ``state.determinize(seat, rng)``; tests check that for every game.

An ``ActionInfo`` is one action as ``{notation, kind, args}``: the notation's verb and its arguments by
name, so a client never splits notation strings. Every game can write the notation back from
``kind`` and ``args`` (``Game.notation_from_info``), so the two forms carry the same information.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Protocol

#: An action argument: a seat, a count or an index (int), a code or name as written in the
#: notation (str), a yes/no (bool), or several ints (e.g. the goods kinds kept at once).
ArgValue = int | str | bool | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ActionInfo:
    """One action as data: ``kind`` is the notation's verb, ``args`` its arguments by name.

    ``notation`` is ``str(action)``; a game's ``notation_from_info(kind, args)`` rebuilds it.
    Instances are shared (one per interned action), hence the read-only ``args``.
    """

    notation: str
    kind: str
    args: Mapping[str, ArgValue]

    def to_json(self) -> dict[str, Any]:
        return {"notation": self.notation, "kind": self.kind, "args": {k: _plain(v) for k, v in self.args.items()}}


def action_info(notation: str, kind: str, **args: ArgValue) -> ActionInfo:
    """An ``ActionInfo`` with read-only arguments."""
    return ActionInfo(notation, kind, MappingProxyType(args))


@dataclass(frozen=True, slots=True)
class Observation:
    """The fields every game's observation starts with; games subclass it with their own.

    ``seat`` is the observer (``None``: a spectator, public facts only). Per-seat tuples are indexed
    by seat number (not relative to the observer); the encoders of ``meeple.research`` rotate them.
    """

    game: str
    players: int
    seat: int | None
    current_player: int | None
    is_over: bool

    def to_json(self) -> dict[str, Any]:
        """The observation as JSON-safe data (tuples become lists, nested observations dicts)."""
        return {field.name: _plain(getattr(self, field.name)) for field in dataclasses.fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    return value


class Lens:
    """A live, read-only window on one state for one seat: each attribute reads the state when asked,
    and only what that seat may know.

    An ``Observation`` copies every fact at once (tens to hundreds of µs), which is right for keeping
    and encoding but too dear for a bot that decides thousands of times a second inside a search. A
    lens costs two slots to make and a property read per fact used, so the heuristic bots read their
    facts through it instead of the engine's fields. Each game subclasses it
    (``meeple/games/<name>/observation.py``) with properties named as its ``Observation``'s fields; a
    lens is valid until its state changes and must not be kept past that. ``seat`` is the observer
    (never ``None``: a spectator takes no decisions).
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: Any, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def players(self) -> int:
        return int(self._state.players)

    @property
    def current_player(self) -> int | None:
        player: int | None = self._state.current_player
        return player

    @property
    def is_over(self) -> bool:
        return bool(self._state.is_over)


def reads(path: str, doc: str | None = None) -> Any:
    """A lens property that is one of the state's fields as it stands (``"gold"``, ``"rules.cost"``).

    Declared with its type, ``gold: list[int] = reads("gold", "...")``: the field is stated once, and
    reading it runs no Python code (``operator.attrgetter``), so the commonest lens read is the cheapest.
    Only for a field every seat may see as it is; anything filtered or converted is a real property.
    """
    return property(attrgetter("_state." + path), doc=doc)


def reads_own(path: str, doc: str | None = None) -> Any:
    """A lens property that is the observer's own entry of a per-seat field (``"hands"``: its hand), as
    the state keeps it: ``hand: list[int] = reads_own("hands", "...")``."""
    field = attrgetter("_state." + path)
    return property(lambda lens: field(lens)[lens.seat], doc=doc)


class ObservationAPI(Protocol):
    """What a game's ``observation`` module offers (``Game.observation_module`` names it)."""

    def observe(self, state: Any, seat: int | None) -> Observation:
        """The observation of a valid seat (or ``None``), from the facts ``view(seat)`` shows."""

    def lens(self, state: Any, seat: int) -> Lens:
        """A live window on ``state`` for ``seat`` (a valid seat, not a spectator); see ``Lens``."""

    def describe_action(self, action: Any) -> ActionInfo:
        """An interned action, or its notation, as data (``KeyError``/``ValueError`` if unknown)."""

    def notation_from_info(self, kind: str, args: Mapping[str, ArgValue]) -> str:
        """The notation written from ``kind`` and ``args``; ``ValueError`` if no action has them."""

    def action_notations(self, players: int) -> tuple[str, ...]:
        """Every notation at ``players`` seats, in a fixed order derived from the components."""
