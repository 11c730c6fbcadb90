"""The game log: compact tuples in the state, turned into JSON dicts only when a view is asked for.

An entry is ``(visibility, code, *fields)``; visibility −1 is public, otherwise the one seat that may
see it. Fields are ints or tuples of ints (cards, characters); ``EVENTS`` says how to name and decode
them, so the hot path never builds a dict or a string.
"""

from __future__ import annotations

from typing import Any

from meeple.games.citadels.data import CHARACTER_SLUGS, DISTRICT_SLUGS

LogEntry = tuple[Any, ...]

(E_ROUND, E_FACE_UP, E_PICK, E_PICKED, E_DISCARD_CHAR, E_DISCARDED, E_FACE_DOWN, E_SAW_FACE_DOWN,
 E_REVEAL, E_NO_ANSWER, E_ROBBED, E_CROWN, E_MERCHANT_BONUS, E_DRAW, E_DREW, E_GOLD, E_KEPT, E_KEPT_CARDS,
 E_BUILD, E_COMPLETE, E_TAX, E_KILL, E_ROB, E_SWAP, E_SWAPPED, E_REDRAW, E_REDRAWN, E_DESTROY, E_GRAVE_TAKE,
 E_GRAVE_PASS, E_LAB, E_LAB_CARD, E_SMITHY, E_END_TURN, E_HEIR, E_GAME_OVER) = range(36)

#: Where cards were drawn from (field kind "source").
SOURCES: tuple[str, ...] = ("gather", "architect", "smithy", "redraw")
SRC_GATHER, SRC_ARCHITECT, SRC_SMITHY, SRC_REDRAW = range(4)

#: code -> (event name, ((field name, field kind), ...)); kinds: int, seat, char, chars, card, cards, source, ints
EVENTS: dict[int, tuple[str, tuple[tuple[str, str], ...]]] = {
    E_ROUND: ("round", (("round", "int"), ("crown", "seat"))),
    E_FACE_UP: ("face_up_discards", (("characters", "chars"),)),
    E_PICK: ("pick", (("seat", "seat"), ("offered_count", "int"))),
    E_PICKED: ("picked", (("seat", "seat"), ("offered", "chars"), ("character", "char"))),
    E_DISCARD_CHAR: ("discard_character", (("seat", "seat"),)),
    E_DISCARDED: ("discarded_character", (("seat", "seat"), ("character", "char"))),
    E_FACE_DOWN: ("last_character_face_down", ()),
    E_SAW_FACE_DOWN: ("saw_face_down", (("seat", "seat"), ("character", "char"))),
    E_REVEAL: ("reveal", (("rank", "int"), ("character", "char"), ("seat", "seat"))),
    E_NO_ANSWER: ("no_answer", (("rank", "int"), ("character", "char"))),
    E_ROBBED: ("robbed", (("thief", "seat"), ("seat", "seat"), ("gold", "int"))),
    E_CROWN: ("crown", (("seat", "seat"),)),
    E_MERCHANT_BONUS: ("merchant_bonus", (("seat", "seat"), ("gold", "int"))),
    E_DRAW: ("draw", (("seat", "seat"), ("source", "source"), ("count", "int"))),
    E_DREW: ("drew", (("seat", "seat"), ("source", "source"), ("cards", "cards"))),
    E_GOLD: ("gold", (("seat", "seat"), ("gold", "int"))),
    E_KEPT: ("keep", (("seat", "seat"), ("kept_count", "int"), ("bottom_count", "int"))),
    E_KEPT_CARDS: ("kept_cards", (("seat", "seat"), ("kept", "cards"), ("bottom", "cards"))),
    E_BUILD: ("build", (("seat", "seat"), ("card", "card"), ("cost", "int"))),
    E_COMPLETE: ("city_complete", (("seat", "seat"), ("first", "int"))),
    E_TAX: ("tax", (("seat", "seat"), ("character", "char"), ("gold", "int"))),
    E_KILL: ("kill", (("seat", "seat"), ("character", "char"))),
    E_ROB: ("rob", (("seat", "seat"), ("character", "char"))),
    E_SWAP: ("swap", (("seat", "seat"), ("with", "seat"), ("gave_count", "int"), ("got_count", "int"))),
    E_SWAPPED: ("swapped_hands", (("seat", "seat"), ("with", "seat"), ("gave", "cards"), ("got", "cards"))),
    E_REDRAW: ("redraw", (("seat", "seat"), ("count", "int"))),
    E_REDRAWN: ("redraw_cards", (("seat", "seat"), ("discarded", "cards"), ("drawn", "cards"))),
    E_DESTROY: ("destroy", (("seat", "seat"), ("target", "seat"), ("card", "card"), ("cost", "int"))),
    E_GRAVE_TAKE: ("graveyard_take", (("seat", "seat"), ("card", "card"))),
    E_GRAVE_PASS: ("graveyard_pass", (("seat", "seat"), ("card", "card"))),
    E_LAB: ("laboratory", (("seat", "seat"), ("gold", "int"))),
    E_LAB_CARD: ("laboratory_card", (("seat", "seat"), ("card", "card"))),
    E_SMITHY: ("smithy", (("seat", "seat"), ("paid", "int"), ("count", "int"))),
    E_END_TURN: ("end_turn", (("seat", "seat"), ("character", "char"))),
    E_HEIR: ("heir", (("seat", "seat"),)),
    E_GAME_OVER: ("game_over", (("scores", "ints"),)),
}

_TUPLE_KINDS = frozenset(("chars", "cards", "ints"))


def _decode(kind: str, value: Any) -> Any:
    if kind == "card":
        return DISTRICT_SLUGS[value]
    if kind == "cards":
        return [DISTRICT_SLUGS[v] for v in value]
    if kind == "char":
        return CHARACTER_SLUGS[value]
    if kind == "chars":
        return [CHARACTER_SLUGS[v] for v in value]
    if kind == "source":
        return SOURCES[value]
    if kind == "ints":
        return list(value)
    return value


def event_dict(entry: LogEntry) -> dict[str, Any]:
    """The JSON form of a log entry, e.g. ``{"event": "build", "seat": 2, "card": "castle", "cost": 4}``."""
    name, fields = EVENTS[entry[1]]
    out: dict[str, Any] = {"event": name}
    for (field, kind), value in zip(fields, entry[2:], strict=True):
        out[field] = _decode(kind, value)
    return out


def entry_to_json(entry: LogEntry) -> list[Any]:
    return [list(v) if isinstance(v, tuple) else v for v in entry]


def entry_from_json(data: Any) -> LogEntry:
    """Validate and rebuild a saved log entry; malformed data raises ValueError/TypeError/KeyError."""
    if not isinstance(data, list) or len(data) < 2:
        raise ValueError(f"bad log entry {data!r}")
    vis, code = data[0], data[1]
    if type(vis) is not int or type(code) is not int or not -1 <= vis < 7:
        raise ValueError(f"bad log entry {data!r}")
    _, fields = EVENTS[code]
    if len(data) != 2 + len(fields):
        raise ValueError(f"bad log entry {data!r}")
    out: list[Any] = [vis, code]
    for (_, kind), value in zip(fields, data[2:], strict=True):
        if kind in _TUPLE_KINDS:
            if not isinstance(value, list) or not all(type(v) is int for v in value):
                raise ValueError(f"bad log entry {data!r}")
            out.append(tuple(value))
        else:
            if type(value) is not int:
                raise ValueError(f"bad log entry {data!r}")
            out.append(value)
        values = out[-1] if isinstance(out[-1], tuple) else (out[-1],)
        if kind in ("card", "cards", "char", "chars", "source") and any(v < 0 for v in values):
            raise ValueError(f"bad log entry {data!r}")
        _decode(kind, out[-1])  # range check through the lookup tables
    return tuple(out)
