"""Restoring a saved Palais Royal body, checked field by field.

A malformed document raises ``InvalidState`` naming the field; a document whose parts do not add up
(25 servants per colour, 42 nobles, 36 cards, the gold) is refused too, so a corrupted save can
never start a game that the rules could not have produced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.contract import JSON
from meeple.core.errors import InvalidState
from meeple.games.card_knowledge import check_record, record_from_json, watch
from meeple.games.palais_royal.data import (
    CARD_CODES,
    GARDEN_SIZE,
    NOBLE_COUNT,
    PRIVILEGE_CODES,
    ROOM_CODES,
    SQUARE_NAMES,
    SUPPLY,
    components,
)
from meeple.games.palais_royal.rules import CARD_INDEX, PRIVILEGE_INDEX, ROOM_INDEX, Rules

if TYPE_CHECKING:
    from meeple.games.palais_royal.state import PalaisRoyalState

_TURN_INTS = ("gate_left", "gate_bonus", "move_left", "move_bonus", "virtual_slots", "virtual_turquoise",
              "virtual_violet", "patron", "backdoor_left")
_TURN_BOOLS = ("mint_done", "king_done", "pomp_done", "tie", "drew")


def _fail(field: str, problem: str) -> InvalidState:
    return InvalidState(f"saved palais_royal body: {field}: {problem}")


def _int(value: Any, field: str, low: int = 0, high: int = 1 << 30) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _fail(field, f"must be an integer in [{low}, {high}], not {value!r}")
    return value


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise _fail(field, f"must be true or false, not {value!r}")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise _fail(field, f"must be a list{'' if length is None else f' of {length} items'}")
    return value


def _ints(value: Any, field: str, length: int, low: int = 0, high: int = 1 << 30) -> list[int]:
    return [_int(v, f"{field}[{i}]", low, high) for i, v in enumerate(_list(value, field, length))]


def _code(value: Any, field: str, codes: dict[str, int]) -> int:
    if not isinstance(value, str) or value not in codes:
        raise _fail(field, f"unknown code {value!r}")
    return codes[value]


def _counts(value: Any, field: str, codes: dict[str, int], size: int) -> list[int]:
    if not isinstance(value, dict):
        raise _fail(field, "must be an object of code -> count")
    out = [0] * size
    for key, count in value.items():
        out[_code(key, field, codes)] = _int(count, f"{field}.{key}", 1)
    return out


def load_into(state: PalaisRoyalState, body: JSON) -> None:
    """Fill ``state`` from ``body`` (the output of ``dump_body``) or raise ``InvalidState``."""
    from meeple.games.palais_royal.state import LOCATIONS, PHASES, PLAY, SETUP

    if not isinstance(body, dict):
        raise _fail("body", "must be an object")
    n = state.players
    comps = components()
    layout = tuple(_code(c, f"layout[{i}]", ROOM_INDEX) for i, c in enumerate(_list(body["layout"], "layout", 9)))
    if len(set(layout)) != 9:
        raise _fail("layout", "must hold each room once")
    rules = Rules(comps, state.options, layout)
    state.rules = rules
    phase = body["phase"]
    if phase not in PHASES:
        raise _fail("phase", f"unknown phase {phase!r}")
    state._set_phase(PHASES.index(phase))
    state.seat = _int(body["seat"], "seat", 0, n - 1)
    state.start_seat = _int(body["start_seat"], "start_seat", 0, n - 1)
    state.setup_left = _int(body["setup_left"], "setup_left", 0, 10)
    state.round = _int(body["round"], "round")
    state.final_round = _bool(body["final_round"], "final_round")
    state.step = _int(body["step"], "step", 0, 5)
    if (state.phase == PLAY) != (1 <= state.step <= 5):
        raise _fail("step", "must be 1-5 during play and 0 otherwise")
    rooms_body = body["rooms"]
    if not isinstance(rooms_body, dict) or sorted(rooms_body) != sorted(ROOM_CODES):
        raise _fail("rooms", "must have one entry per room code")
    state.rooms = [[0] * 9 for _ in range(n)]
    for code, counts in rooms_body.items():
        for p, c in enumerate(_ints(counts, f"rooms.{code}", n)):
            state.rooms[p][ROOM_INDEX[code]] = c
    state.pool = _ints(body["pool"], "pool", n)
    state.supply = _ints(body["general_supply"], "general_supply", n)
    state.gold = _ints(body["gold"], "gold", n)
    state.bank = _int(body["gold_supply"], "gold_supply", -(1 << 30))
    if state.bank + sum(state.gold) != rules.gold_total:
        raise _fail("gold_supply", f"gold does not add up to {rules.gold_total}")
    if rules.gold_limited and state.bank < 0:
        raise _fail("gold_supply", "cannot be negative when gold is limited")

    noble_index = rules.noble_index
    state.garden = [
        -1 if t is None else _code(t, f"garden[{q}]", noble_index)
        for q, t in enumerate(_list(body["garden"], "garden", GARDEN_SIZE))
    ]
    state.garden_servants = [
        -1 if s is None else _int(s, f"garden_servants[{q}]", 0, n - 1)
        for q, s in enumerate(_list(body["garden_servants"], "garden_servants", GARDEN_SIZE))
    ]
    for q in range(GARDEN_SIZE):
        if state.garden_servants[q] >= 0 and (state.garden[q] >= 0 or not rules.is_edge[q]):
            raise _fail(f"garden_servants[{q}]", "a garden servant stands only on an emptied edge square")
    state.garden_left = sum(1 for t in state.garden if t >= 0)
    state.boxed = [_code(t, f"boxed[{i}]", noble_index) for i, t in enumerate(_list(body["boxed"], "boxed"))]
    state.owned = [
        [_code(t, f"nobles[{p}][{i}]", noble_index) for i, t in enumerate(_list(o, f"nobles[{p}]"))]
        for p, o in enumerate(_list(body["nobles"], "nobles", n))
    ]
    every = [t for t in state.garden if t >= 0] + state.boxed + [t for o in state.owned for t in o]
    if sorted(every) != list(range(NOBLE_COUNT)):
        raise _fail("nobles", f"garden, box and players must hold each of the {NOBLE_COUNT} nobles once")
    if len(state.boxed) != NOBLE_COUNT - GARDEN_SIZE:
        raise _fail("boxed", f"must hold {NOBLE_COUNT - GARDEN_SIZE} nobles")

    state.active = [_counts(a, f"active[{p}]", PRIVILEGE_INDEX, 10)
                    for p, a in enumerate(_list(body["active"], "active", n))]
    state.waiting = [_counts(w, f"waiting[{p}]", PRIVILEGE_INDEX, 10)
                     for p, w in enumerate(_list(body["waiting"], "waiting", n))]
    edge = body["turn"]["edge_square"] if isinstance(body.get("turn"), dict) else None
    for p in range(n):
        expected = [0] * 10
        # A recruit waiting for its garden servant has not given its privilege yet (§2.4).
        owned = state.owned[p][:-1] if edge is not None and p == state.seat else state.owned[p]
        for t in owned:
            k = rules.noble_privilege[t]
            if k >= 0 and k != SUPPLY:
                expected[k] += rules.noble_param[t]
        got = [state.active[p][k] + state.waiting[p][k] for k in range(10)]
        if got != expected or state.active[p][SUPPLY] or state.waiting[p][SUPPLY]:
            raise _fail(f"active[{p}]", f"privileges do not match the nobles owned ({PRIVILEGE_CODES})")

    state.hands = [_counts(h, f"hands[{p}]", CARD_INDEX, 9) for p, h in enumerate(_list(body["hands"], "hands", n))]
    state.deck = [_code(c, f"deck[{i}]", CARD_INDEX) for i, c in enumerate(_list(body["deck"], "deck"))]
    state.discard = [_code(c, f"discard[{i}]", CARD_INDEX) for i, c in enumerate(_list(body["discard"], "discard"))]
    state.front = [_counts(f, f"played_cards[{p}]", CARD_INDEX, 9)
                   for p, f in enumerate(_list(body["played_cards"], "played_cards", n))]

    turn = body["turn"]
    if not isinstance(turn, dict):
        raise _fail("turn", "must be an object")
    state.gate_left = _int(turn["gate_left"], "turn.gate_left", -1)
    state.gate_bonus = _int(turn["gate_bonus"], "turn.gate_bonus")
    state.move_left = _int(turn["move_left"], "turn.move_left", -1)
    state.move_bonus = _int(turn["move_bonus"], "turn.move_bonus")
    for key in _TURN_INTS[4:]:
        _int(turn[key], f"turn.{key}")
    for key in _TURN_BOOLS:
        _bool(turn[key], f"turn.{key}")
    state.mint_done = turn["mint_done"]
    state.king_done = turn["king_done"]
    state.pomp_done = turn["pomp_done"]
    state.tie = turn["tie"]
    state.v_slots = turn["virtual_slots"]
    state.v_turquoise = turn["virtual_turquoise"]
    state.v_violet = turn["virtual_violet"]
    state.patron = turn["patron"]
    state.backdoor_left = turn["backdoor_left"]
    state.drew = turn["drew"]
    edge = turn["edge_square"]
    squares = {name: i for i, name in enumerate(SQUARE_NAMES)}
    state.edge_square = -1 if edge is None else _code(edge, "turn.edge_square", squares)
    q = state.edge_square
    if q >= 0 and (state.garden[q] >= 0 or state.garden_servants[q] >= 0 or state.step != 4):
        raise _fail("turn.edge_square", "must be an emptied edge square awaiting its servant in step 4")
    state.drawn = [_code(c, f"turn.drawn[{i}]", CARD_INDEX) for i, c in enumerate(_list(turn["drawn"], "turn.drawn"))]
    if state.drawn and not state.drew:
        raise _fail("turn.drawn", "cards are drawn only by the draw action")

    cards = (len(state.deck) + len(state.discard) + len(state.drawn)
             + sum(map(sum, state.hands)) + sum(map(sum, state.front)))
    if cards != comps.card_total:
        raise _fail("cards", f"deck, discard, hands, played and drawn cards must add up to "
                    f"{comps.card_total}, not {cards}")
    for k in range(9):
        copies = (state.deck.count(k) + state.discard.count(k) + state.drawn.count(k)
                  + sum(h[k] for h in state.hands) + sum(f[k] for f in state.front))
        if copies != comps.cards[k].copies:
            raise _fail("cards", f"there must be {comps.cards[k].copies} {CARD_CODES[k]} cards, not {copies}")
    for p in range(n):
        servants = state.pool[p] + sum(state.rooms[p]) + state.supply[p] + state.garden_servants.count(p)
        if servants != rules.servants_per_colour:
            raise _fail(f"servants of seat {p}", f"must add up to {rules.servants_per_colour}, not {servants}")
    state.counters = _ints(body["counters"], "counters", 4)
    log = _list(body["log"], "log")
    state.log = []
    for i, entry in enumerate(log):
        entry = _list(entry, f"log[{i}]", 2)
        visible = _int(entry[0], f"log[{i}][0]", -1, n - 1)
        if not isinstance(entry[1], dict):
            raise _fail(f"log[{i}][1]", "must be an event object")
        state.log.append((visible, entry[1]))
    if state.phase == SETUP and state.setup_left == 0:
        raise _fail("setup_left", "a seat placing servants must have some left to place")
    try:
        state.knowledge = [record_from_json(r, LOCATIONS, 9) for r in _list(body["knowledge"], "knowledge", n + 1)]
        for me, record in enumerate(state.knowledge):
            check_record(record, state.knowledge_contents(me), (), 0)
    except (ValueError, TypeError) as error:
        raise _fail("knowledge", f"not true of the state: {error}") from error
    state._watched = watch(state.knowledge)[1]
    state._legal = None
