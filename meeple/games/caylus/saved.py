"""Reading a saved Caylus body back, refusing anything that is not a state the rules can reach.

Checks are structural (types, lengths, ranges) plus the conservation laws of rules §7.5 (workers,
tiles, castle), so a tampered document raises ``InvalidState`` instead of being played on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.errors import InvalidState
from meeple.games.caylus.actions import ACTIONS
from meeple.games.caylus.data import (
    FAVOUR_CAP,
    FIXED_SPACES,
    JEWELLER_ID,
    LAST_SPACE,
    LOTS,
    NEUTRAL,
    NEUTRAL_IDS,
    OVER,
    PRESTIGE_IDS,
    RESIDENCE_ID,
    SECTION_SIZE,
    STABLES_SPOTS,
    STONE_IDS,
    TILE_ID,
    TILES,
    WOOD_IDS,
    WORKERS,
)

if TYPE_CHECKING:
    from meeple.games.caylus.state import CaylusState

LOG_EVENTS = 12


def _int(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InvalidState(f"{what} must be an integer in {low}..{high}, not {value!r}")
    return value


def _ints(value: Any, length: int | None, low: int, high: int, what: str) -> list[int]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise InvalidState(f"{what} must be a list of {length} integers")
    return [_int(v, low, high, what) for v in value]


def _seats(value: Any, n: int, what: str, limit: int) -> list[int]:
    seats = _ints(value, None, 0, n - 1, what)
    if len(seats) > limit or len(set(seats)) != len(seats):
        raise InvalidState(f"{what} holds a seat twice or too many seats")
    return seats


def load_into(state: CaylusState, body: Any) -> None:
    """Fill ``state`` from ``body`` or raise ``InvalidState``."""
    if not isinstance(body, dict):
        raise InvalidState("the body must be an object")
    n = state.players
    big = 1 << 30
    state.turn = _int(body["turn"], 1, 40, "turn")
    state.phase = _int(body["phase"], 1, 8, "phase")
    state.is_over = state.phase == OVER
    state.cur = _int(body["cursor"], 0, LAST_SPACE + 1, "cursor")
    state.sub = _int(body["sub"], 0, 1, "sub")
    state.p2i = _int(body["placing"], 0, n - 1, "placing")
    state.turn_order = _ints(body["turn_order"], n, 0, n - 1, "turn_order")
    if sorted(state.turn_order) != list(range(n)):
        raise InvalidState("turn_order must hold every seat once")
    state.bridge = _seats(body["bridge"], n, "bridge", n)
    state.money = _ints(body["deniers"], n, 0, big, "deniers")
    raw_cubes = body["cubes"]
    if not isinstance(raw_cubes, list) or len(raw_cubes) != n:
        raise InvalidState("cubes must hold one list per seat")
    state.cubes = [_ints(c, 5, 0, big, "cubes") for c in raw_cubes]
    low_pp = 0 if state.pp_floor else -big
    state.pp = _ints(body["prestige"], n, low_pp, big, "prestige")
    raw_fav = body["favours"]
    if not isinstance(raw_fav, list) or len(raw_fav) != n:
        raise InvalidState("favours must hold one list per seat")
    state.cap = _int(body["favour_cap"], 2, 5, "favour_cap")
    state.fav = [_ints(f, 4, 0, state.cap, "favour markers") for f in raw_fav]
    state.fav_used = _ints(body["favour_rows_used"], n, 0, 15, "favour_rows_used")
    state.avail = _ints(body["workers"], n, 0, WORKERS, "workers")
    state.batches = _ints(body["batches"], n, 0, 30, "batches")

    road = body["road"]
    if not isinstance(road, list) or len(road) != LAST_SPACE:
        raise InvalidState(f"road must list {LAST_SPACE} spaces")
    tile = [-1]
    for space, slug in enumerate(road, start=1):
        if slug is None:
            tile.append(-1)
        elif isinstance(slug, str) and slug in TILE_ID:
            tile.append(TILE_ID[slug])
        else:
            raise InvalidState(f"unknown building {slug!r} on space {space}")
    state.tile = tile
    state.owner = [-1, *_ints(body["owners"], LAST_SPACE, -1, n - 1, "owners")]
    state.worker = [-1, *_ints(body["road_workers"], LAST_SPACE, -1, n - 1, "road_workers")]
    state.conv = [-1, *_ints(body["conversions"], LAST_SPACE, -1, n - 1, "conversions")]
    state.gate = _int(body["gate"], -1, n - 1, "gate")
    state.tpost = _int(body["trading_post"], -1, n - 1, "trading_post")
    state.guild = _int(body["guild"], -1, n - 1, "guild")
    state.joust = _int(body["joust"], -1, n - 1, "joust")
    state.stables = _seats(body["stables"], n, "stables", STABLES_SPOTS if n > 2 else 0)
    inn = _ints(body["inn"], 2, -1, n - 1, "inn")
    state.inn_left, state.inn_right = inn
    state.castle = _seats(body["castle_workers"], n, "castle_workers", n)
    raw_houses = body["houses"]
    if not isinstance(raw_houses, list) or len(raw_houses) != 3:
        raise InvalidState("houses must hold three sections")
    state.houses = [_ints(h, n, 0, SECTION_SIZE[x], "houses") for x, h in enumerate(raw_houses)]
    state.castle_count = [sum(h) for h in state.houses]
    state.scored = _int(body["scored"], 0, 3, "scored")
    state.bailiff = _int(body["bailiff"], 6, 25, "bailiff")
    state.provost = _int(body["provost"], 1, LAST_SPACE, "provost")

    stock = body["stock"]
    buildable = (*WOOD_IDS, *STONE_IDS, *PRESTIGE_IDS)
    if not isinstance(stock, dict) or set(stock) != {TILES[t].slug for t in buildable}:
        raise InvalidState("stock must give a count for every wood, stone and prestige tile")
    state.stock = [0] * len(TILES)
    for t in buildable:
        state.stock[t] = _int(stock[TILES[t].slug], 0, TILES[t].copies, "stock")
    removed = body["removed"]
    if not isinstance(removed, list) or not all(isinstance(r, str) and r in TILE_ID for r in removed):
        raise InvalidState("removed must list neutral tiles")
    state.removed = [TILE_ID[r] for r in removed]
    raw_stack = body["favour_stack"]
    if not isinstance(raw_stack, list):
        raise InvalidState("favour_stack must be a list")
    state.fstack = []
    for entry in raw_stack:
        seat, count = _ints(entry, 2, 0, 30, "favour_stack")
        _int(seat, 0, n - 1, "favour seat")
        _int(count, 1, 30, "favour count")
        state.fstack.append((seat, count))
    state.fsub, state.fsub_seat, state.fsub_col = _ints(body["favour_choice"], 3, 0, 12, "favour_choice")
    if state.fsub not in (0, 11, 12) or state.fsub_seat >= n or state.fsub_col > 5:
        raise InvalidState("favour_choice is not a favour decision")
    raw_log = body["log"]
    if not isinstance(raw_log, list):
        raise InvalidState("log must be a list")
    state.log = []
    for entry in raw_log:
        code, seat, a, b = _ints(entry, 4, -1, big, "log entry")
        if not 0 <= code < LOG_EVENTS or seat >= n or (code == 0 and not 0 <= a < len(ACTIONS)) or (
            code == 3 and not 0 <= a < 3
        ):
            raise InvalidState(f"not a log entry: {entry!r}")
        state.log.append((code, seat, a, b))
    _check_consistency(state)


def _check_consistency(state: CaylusState) -> None:
    n = state.players
    on_board = [0] * n
    for s in range(1, LAST_SPACE + 1):
        t = state.tile[s]
        w = state.worker[s]
        if w >= 0:
            if t < 0 or TILES[t].kind not in (0, 1, 2, 3):
                raise InvalidState(f"a worker stands on space {s}, which takes none")
            on_board[w] += 1
        if state.conv[s] >= 0 and w < 0:
            raise InvalidState(f"a conversion waits on space {s} without a worker")
        if s in FIXED_SPACES and t != FIXED_SPACES[s]:
            raise InvalidState(f"space {s} must hold its fixed building")
        if s <= 6 and (t < 0 or (TILES[t].kind != NEUTRAL and t != RESIDENCE_ID and TILES[t].kind != 5)):
            raise InvalidState(f"space {s} must hold a neutral tile or what replaced it")
        owner = state.owner[s]
        if t >= 0 and TILES[t].kind in (2, 3, 4, 5) and owner < 0:
            raise InvalidState(f"the building on space {s} has no owner")
        if (t < 0 or TILES[t].kind in (0, 1)) and owner >= 0:
            raise InvalidState(f"space {s} cannot have an owner")
    built = 0
    for s in LOTS:
        if state.tile[s] >= 0:
            built += 1
        elif any(state.tile[later] >= 0 for later in LOTS[LOTS.index(s) + 1 :]):
            raise InvalidState("built lots must form a prefix of the road")
    state.built_lots = built
    for seat in (state.gate, state.tpost, state.guild, state.joust, state.inn_left, state.inn_right):
        if seat >= 0:
            on_board[seat] += 1
    for seat in (*state.stables, *state.castle):
        on_board[seat] += 1
    for p in range(n):
        if on_board[p] + state.avail[p] != WORKERS:
            raise InvalidState(f"seat {p} does not have exactly {WORKERS} workers")
    neutral_on_road = sum(1 for t in state.tile if t in NEUTRAL_IDS)
    if neutral_on_road + len(state.removed) != len(NEUTRAL_IDS) or len(set(state.removed)) != len(state.removed):
        raise InvalidState("the six neutral tiles are not all accounted for")
    if any(r not in NEUTRAL_IDS for r in state.removed):
        raise InvalidState("only neutral tiles leave the game")
    for t in (*WOOD_IDS, *STONE_IDS, *PRESTIGE_IDS):
        on_road = state.tile.count(t)
        expected = 0 if t == JEWELLER_ID and not state.options["jeweller"] else TILES[t].copies
        if state.stock[t] + on_road != expected:
            raise InvalidState(f"the {TILES[t].slug} tiles are not all accounted for")
    if state.cap != FAVOUR_CAP[state.scored] and state.cap != FAVOUR_CAP[max(0, state.scored - 1)]:
        raise InvalidState("favour_cap does not match the scored sections")
