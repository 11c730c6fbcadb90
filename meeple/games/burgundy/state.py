"""The Castles of Burgundy game state: setup, legal actions, resolution, scoring, views, saving.

Internally everything is small ints and lists (tiles are codes from ``data``), so random playouts
stay fast; strings appear only in views, logs and saved states. Multi-step decisions (a die's
action, a castle's bonus action, a building's effect, a ship's goods, an overflowing storage) are
entries on an explicit ``pending`` stack; the top entry fixes what the current player may do.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import Any, Final, Self

from meeple.core.contract import JSON, GameState
from meeple.core.errors import InvalidState
from meeple.core.events import view_logs
from meeple.core.logview import log_views, public_only
from meeple.core.rng import Rng
from meeple.games.burgundy import actions as act
from meeple.games.burgundy.actions import ALL_ACTIONS, BAction
from meeple.games.burgundy.data import (
    ANIMAL_COUNT,
    ANIMAL_KIND,
    BANK,
    BANK_SILVER,
    BLACK_DEPOT_SPACES,
    BOARDING,
    BOARDING_WORKERS,
    BOARDS,
    BUILDINGS,
    CARPENTER,
    CASTLE,
    CENTRE,
    CHURCH,
    CITYHALL,
    DEPOT_SPACES,
    DIE,
    DIST,
    FIRST_BUILDING,
    GOODS_KINDS,
    GOODS_PER_KIND,
    GOODS_SLOTS,
    GOODS_TOTAL,
    HEX_STORAGE,
    KNOWLEDGE_NUMBER,
    MARKET,
    MINE,
    NEIGHBOUR_BITS,
    NEIGHBOURS,
    PHASE_BONUS,
    PHASE_LETTERS,
    PHASES,
    PURCHASE_COST,
    REACH,
    REGION_VP,
    ROUNDS,
    SPACE_DIE,
    SPACES,
    START_GOODS,
    START_SILVER,
    TILE_BY_NAME,
    TILE_COUNTS,
    TILE_KINDS,
    TILE_NAMES,
    TILE_TYPE,
    TYPE_LETTERS,
    VALUE_SPACES,
    WAREHOUSE,
    WATCHTOWER,
    WATCHTOWER_VP,
    A,
    B,
    Board,
    C,
    K,
    M,
    S,
    depot_space_type,
)

# pending decision kinds (top of ``pending`` decides)
P_DIE: Final = 0
P_BONUS: Final = 1
P_CITYHALL: Final = 2
P_WAREHOUSE: Final = 3
P_BUILD_TAKE: Final = 4
P_DISCARD: Final = 5
P_SHIP: Final = 6
P_KEEP: Final = 7
P_BOARD: Final = 8
P_START: Final = 9
#: What the other seats see of a board or start castle chosen under ``secret_setup`` (§3.18): that a
#: choice was made, not which, until all have chosen (``action_seen_by``).
_UNSEEN_SETUP: Final = {P_BOARD: ("unseen", "board"), P_START: ("unseen", "start_castle")}
PENDING_NAMES: Final = (
    "die",
    "castle_bonus",
    "city_hall",
    "warehouse",
    "building_take",
    "discard",
    "ship",
    "ship_keep",
    "board",
    "start_castle",
)
#: compact log entries, ``(code, values...)``: the frequent events, stored as tuples (see ``log``)
E_DIE: Final = 0
E_PASS: Final = 1
E_TAKE: Final = 2
E_DISCARD: Final = 3
E_WORKERS: Final = 4
E_SELL: Final = 5
E_BUY: Final = 6
E_ROUND: Final = 7
E_SKIP: Final = 8
E_PLACE: Final = 9
E_PHASE: Final = 10
E_PHASE_END: Final = 11
#: per code: the event name and the keys of the values that follow it
_EVENT_FIELDS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("die", ("seat", "value")),
    ("pass", ("seat",)),
    ("take", ("seat", "depot", "tile", "by", "workers")),
    ("discard", ("seat", "tile")),
    ("workers", ("seat", "workers", "silverlings", "by")),
    ("sell", ("seat", "goods", "count", "vp", "silverlings", "workers_gained", "by", "workers")),
    ("buy", ("seat", "depot", "tile", "workers")),
    ("round", ("phase", "round", "order", "dice", "white", "goods")),
    ("skip", ("seat", "effect")),
    ("place", ("seat", "tile", "space", "by", "workers")),  # then (key, value) pairs of what it scored
    ("phase", ("phase", "fill", "goods")),
    ("phase_end", ("phase", "mines")),
)



def _view_event(entry: dict[str, Any] | tuple[Any, ...]) -> dict[str, Any]:
    """A log entry as a view shows it: a copy of a stored dict, or the compact entry made a dict."""
    return dict(entry) if isinstance(entry, dict) else _event_dict(entry)

def _event_dict(entry: tuple[Any, ...]) -> dict[str, Any]:
    """A compact log entry as the dict the log shows and saves."""
    name, keys = _EVENT_FIELDS[entry[0]]
    event = {"event": name}
    if entry[0] == E_ROUND:  # (E_ROUND, phase, round index, order, dice drawn, where the round's start, goods)
        _, phase, index, order, rolls, at, goods = entry
        dice = [[0, 0] for _ in order]
        for i, seat in enumerate(order):
            dice[seat] = [rolls[at + 2 * i], rolls[at + 2 * i + 1]]
        event.update(phase=PHASE_LETTERS[phase], round=index + 1, order=list(order), dice=dice,
                     white=rolls[at + 2 * len(order)], goods=goods)
    elif entry[0] == E_PHASE:  # (E_PHASE, phase, the tiles laid on each depot, the phase's goods)
        _, phase, fills, goods = entry
        event.update(phase=PHASE_LETTERS[phase], fill={str(d): [TILE_NAMES[t] for t in tiles]
                                                      for d, tiles in enumerate(fills)}, goods=list(goods))
    elif entry[0] == E_PLACE:
        event.update(zip(keys, entry[1:-1], strict=True))
        event.update(entry[-1])
    else:
        event.update(zip(keys, entry[1:], strict=True))
    return event


#: what a Carpenter's Workshop, Church or Market may take: a bit mask of tile types.
BUILD_TAKE_TYPES: Final = {CARPENTER: 1 << B, CHURCH: (1 << C) | (1 << M) | (1 << K), MARKET: (1 << S) | (1 << A)}

# knowledge tile bits in ``kmask`` (bit = tile number)
K01: Final = 1 << 1
K02: Final = 1 << 2
K03: Final = 1 << 3
K04: Final = 1 << 4
K05: Final = 1 << 5
K06: Final = 1 << 6
K07: Final = 1 << 7
K08: Final = 1 << 8
K09: Final = 1 << 9
K10: Final = 1 << 10
K11: Final = 1 << 11
K12: Final = 1 << 12
K13: Final = 1 << 13
K14: Final = 1 << 14

EMPTY: Final = -1
KIND_DIE: Final = act.DIE
KIND_TAKE: Final = act.TAKE
KIND_PLACE: Final = act.PLACE
KIND_SELL: Final = act.SELL
KIND_BUY: Final = act.BUY
KIND_SKIP: Final = act.SKIP
KIND_WORKERS: Final = act.WORKERS
#: the pending entry a chosen die pushes, by die value
DIE_PENDING: Final = tuple((P_DIE, r) for r in range(7))


def _free_bit_for(tile_type: int) -> int:
    """The knowledge tile giving a free ±1 when placing a tile of this type (K09/K10/K11)."""
    if tile_type == B:
        return K09
    if tile_type in (S, A):
        return K10
    return K11


FREE_BIT: Final = tuple(_free_bit_for(t) for t in range(6))
TILE_FREE_BIT: Final = tuple(FREE_BIT[TILE_TYPE[t]] for t in range(TILE_KINDS))


class BurgundyState(GameState[BAction]):
    #: every attribute in a slot (the base class's too): a fixed offset instead of a lookup in a
    #: ~55-entry instance dict, on every read of the hot path
    __slots__ = (
        "_dice_ahead",
        "_history_notations",
        "_legal",
        "_log",
        "_log_dicts",
        "_seat",
        "_track_order",
        "_undo_floor",
        "allowed",
        "arrival_counter",
        "black_pile",
        "board",
        "bonus_large",
        "bonus_small",
        "bought",
        "box",
        "colour_left",
        "dactions",
        "depot_goods",
        "depots",
        "dice",
        "dice_left",
        "estate",
        "final",
        "frontier",
        "game",
        "gmask",
        "goods",
        "is_over",
        "kmask",
        "occupied",
        "options",
        "order",
        "pending",
        "phase",
        "piles",
        "players",
        "private_log",
        "region_left",
        "removed",
        "rng",
        "round",
        "round_goods",
        "seed",
        "silver",
        "sold",
        "stacks",
        "start_castles",
        "start_space",
        "storage",
        "track_arrival",
        "track_pos",
        "turn_index",
        "vp",
        "white",
        "workers",
    )

    # per seat
    board: list[str]
    estate: list[list[int]]
    frontier: list[int]  # per seat: bit mask of the empty spaces next to a tile (derived)
    occupied: list[int]  # per seat: bit mask of the spaces holding a tile (derived)
    #: per seat, per tile code: bit mask of the spaces of the tile's colour, minus (for a building) the
    #: cities that already hold one (derived; K01 lifts that rule, so it is checked when used)
    allowed: list[list[int]]
    start_space: list[int]
    region_left: list[list[int]]
    colour_left: list[list[int]]
    storage: list[list[int]]
    goods: list[list[int]]
    gmask: list[int]  # per seat: bit mask of the goods kinds held (derived)
    sold: list[list[int]]
    silver: list[int]
    workers: list[int]
    vp: list[int]
    kmask: list[int]
    dice: list[list[int]]
    track_pos: list[int]
    track_arrival: list[int]
    final: list[dict[str, int]] | None
    # shared
    arrival_counter: int
    bonus_large: list[int]
    bonus_small: list[int]
    phase: int
    round: int
    order: list[int]
    turn_index: int
    _seat: int  # order[turn_index] while a seat has the turn (derived: read on every decision)
    #: (track_pos, track_arrival, the order they give) as last sorted: ships move seldom (derived; the
    #: lists themselves, so replacing either one, as loading or cloning does, also means sorting again)
    _track_order: tuple[list[int], list[int], list[int]] | None
    dice_left: list[int]
    bought: bool
    pending: list[tuple[int, ...]]
    depots: list[list[int]]
    #: per depot, the actions on its distinct tiles in tile order (derived; ``action.b`` is the tile):
    #: for the black depot 0 the purchases for 2 silverlings, for the numbered depots 1-6 the takes.
    dactions: list[tuple[BAction, ...]]
    depot_goods: list[list[int]]
    round_goods: list[int]
    white: int
    stacks: list[list[int]]
    box: list[int]
    piles: list[list[int]]
    black_pile: list[int]
    removed: list[int]
    start_castles: int
    #: the public log: frequent events as compact tuples ``(E_..., values...)``, the rest as dicts;
    #: ``log`` shows every entry as a dict (a tuple costs a third of a dict, on nearly every action)
    _log: list[dict[str, Any] | tuple[Any, ...]]
    _log_dicts: list[dict[str, Any]]  # the first entries of the log as dicts, extended by ``log`` (derived)
    private_log: list[list[dict[str, Any]]]
    is_over: bool  # a plain attribute rather than a property: read on every apply
    _legal: tuple[BAction, ...] | None  # cached legal actions; immutable so clones may share it
    #: the dice of the rounds to come, drawn at once: (the generator state this round starts from, the
    #: dice, where this round's start in them); derived from the generator alone and immutable, so
    #: clones may share it (see ``_dice_to_come``)
    _dice_ahead: tuple[int, tuple[int, ...], int] | None

    # --- setup --------------------------------------------------------------------------------------

    def setup(self) -> None:
        n = self.players
        rng = self.rng
        self._legal = None
        self._dice_ahead = None
        self._track_order = None
        self._log = []
        self._log_dicts = []
        self.private_log = [[] for _ in range(n)]
        self.is_over = False
        self.final = None
        # hex piles: one white pile per colour, one black pile (reference §3.1); goods: 5 stacks of 5,
        # 3 per player, the rest to the box. Shuffled in this order, in one batch; piles of one tile
        # kind (ships, mines, castles) take the same draws with nothing to swap.
        self.piles = piles = list(map(list, _WHITE_PILES))
        self.black_pile = list(_BLACK_PILE)
        goods = list(_GOODS)
        white: list[list[int] | int] = [len(p) if alike else p for p, alike in zip(piles, _UNIFORM_PILES, strict=True)]
        rng.shuffle_each([*white, self.black_pile, goods])
        del piles[C][:n]  # the start castles come from the white castle pile (all alike)
        self.start_castles = n
        self.stacks = [goods[5 * i : 5 * i + 5] for i in range(PHASES)]
        rest = goods[25:]
        # turn order: a random start player, then clockwise (D27)
        first = self.options.get("first_seat")
        start = int(first) if isinstance(first, int) else rng.randrange(n)
        initial = [(start + i) % n for i in range(n)]
        self.track_pos = [0] * n
        # the i-th seat in the initial order: arrived n - i on the track, has i + 1 workers
        self.track_arrival = [n - (seat - start) % n for seat in range(n)]
        self.arrival_counter = n
        self.silver = [START_SILVER] * n
        self.workers = [(seat - start) % n + 1 for seat in range(n)]
        self.vp = [0] * n
        self.kmask = [0] * n
        self.goods = [[0] * 7 for _ in range(n)]
        self.sold = [[0] * 7 for _ in range(n)]
        self.gmask = [0] * n
        for seat in range(n):
            row = self.goods[seat]
            mask = 0
            for g in rest[3 * seat : 3 * seat + START_GOODS]:
                row[g] += 1
                mask |= 1 << g
            self.gmask[seat] = mask
        self.box = rest[3 * n :]
        self.storage = [[] for _ in range(n)]
        self.dice = [[0, 0] for _ in range(n)]
        self.bonus_large = [EMPTY] * 6
        self.bonus_small = [EMPTY] * 6
        self.removed = []
        self.depots = [[EMPTY] * (BLACK_DEPOT_SPACES if d == 0 else 4) for d in range(7)]
        self.dactions = [()] * 7
        self.depot_goods = [[0] * 7 for _ in range(7)]
        self.round_goods = []
        self.white = 0
        self.pending = []
        self.order = list(initial)
        self.turn_index = 0
        self._seat = initial[0]
        self.dice_left = []
        self.bought = False
        self.phase = 0
        self.round = 0
        # estates
        boards = self._initial_boards(initial)
        self.board = boards
        self.estate = [[EMPTY] * (SPACES + 1) for _ in range(n)]
        self.frontier = [0] * n
        self.occupied = [0] * n
        self.allowed = [[] for _ in range(n)]
        self.start_space = [0] * n
        self.region_left = [[] for _ in range(n)]
        self.colour_left = [[] for _ in range(n)]
        for seat in range(n):
            if boards[seat]:
                self._init_estate(seat, boards[seat])
        self._log.append({"event": "setup", "order": list(initial), "boards": list(boards)})
        self._start_phase()
        choose_board = self.options["boards"] == "choose"
        choose_start = self.options["start_castle"] == "choose"
        for seat in reversed(initial):
            if choose_start:
                self.pending.append((P_START, seat))
            if choose_board:
                self.pending.append((P_BOARD, seat))
        if not choose_start:
            for seat in range(n):
                self._place_start_castle(seat, CENTRE)
        if not self.pending:
            self._start_round()

    def _board_key(self, board_id: int) -> str:
        if board_id in (4, 8):
            return f"{board_id}{self.options[f'board_variant_{board_id}']}"
        return str(board_id)

    def _initial_boards(self, initial: list[int]) -> list[str]:
        mode = str(self.options["boards"])
        n = self.players
        if mode == "basic":
            return ["1"] * n
        if mode == "choose":
            return [""] * n
        if mode == "random":
            pool = [int(x) for x in str(self.options["random_board_pool"]).split(",")]
            drawn = self.rng.sample(pool, n)
            boards = [""] * n
            for seat, board_id in zip(initial, drawn, strict=True):
                boards[seat] = self._board_key(board_id)
            return boards
        return [self._board_key(int(x)) for x in mode.split(",")]

    def _init_estate(self, seat: int, key: str) -> None:
        board = BOARDS[key]
        self.board[seat] = key
        self.region_left[seat] = list(board.region_sizes)
        self.colour_left[seat] = list(board.colour_total)
        self.allowed[seat] = list(board.tile_spaces)

    def _place_start_castle(self, seat: int, space: int) -> None:
        """The start castle: occupies its space, scores nothing, triggers nothing (D10)."""
        board = BOARDS[self.board[seat]]
        self.estate[seat][space] = CASTLE
        self.start_castles -= 1
        self.start_space[seat] = space
        self.region_left[seat][board.region_of[space]] -= 1
        self.colour_left[seat][C] -= 1
        self.occupied[seat] = 1 << space
        self.frontier[seat] = NEIGHBOUR_BITS[space]

    # --- phases and rounds --------------------------------------------------------------------------

    def _start_phase(self) -> None:
        """Clear and refill the depots, lay this phase's goods face up (reference §3.2)."""
        phase = self.phase
        kept = _SMC if self.options["keep_smc_on_depots"] else _NOT_KEPT
        piles = [*self.piles, self.black_pile]  # index 6: the black pile
        removed = self.removed
        depots = self.depots
        dactions = self.dactions
        fills = []
        for d, plan in enumerate(_FILL_PLAN[self.players][phase]):
            slots = depots[d]
            placed = []
            for i, p in plan:  # clear each space in use (unless it keeps its tile) and refill it
                tile = slots[i]
                if tile != EMPTY:
                    if kept[tile]:
                        continue
                    removed.append(tile)
                pile = piles[p]
                if pile:
                    slots[i] = tile = pile.pop()
                    placed.append(tile)
                else:
                    slots[i] = EMPTY
            fills.append(placed)
            dactions[d] = _depot_actions(_DEPOT_ROW[d], slots)
        goods = self.round_goods = self.stacks[phase]
        self.stacks[phase] = []
        self._log.append((E_PHASE, phase, fills, tuple(goods)))

    def seal_history(self) -> None:
        """The base class's, for this game's ``apply``, which records the notation before the work:
        the action being applied is already the last of the history."""
        self._undo_floor = len(self._history_notations)

    def _start_round(self) -> None:
        """Roll this round's dice (§3.3): a random draw, so undo stops here."""
        self.seal_history()
        pos, arr = self.track_pos, self.track_arrival
        known = self._track_order
        if known is not None and known[0] is pos and known[1] is arr:  # no ship moved since: the same order
            order = known[2]
        else:  # furthest on the track first, then the later arrival
            order = sorted(range(self.players), key=lambda s: (-pos[s], -arr[s]))
            self._track_order = (pos, arr, order)
        self.order = order  # never changed in place: rounds, clones and the log may share it
        # this round's dice, exactly rng.dice(2 * players + 1): two per seat in turn order, then white
        rng = self.rng
        count = len(order) * 2 + 1
        ahead = self._dice_ahead
        if ahead is not None and ahead[0] == rng.state:
            values, at = ahead[1], ahead[2]
            rng.skip(count)
        else:
            values, at = self._dice_to_come(count), 0
        end = at + count
        self._dice_ahead = (rng.state, values, end) if end < len(values) else None
        dice = self.dice
        i = at
        for seat in order:
            dice[seat] = [values[i], values[i + 1]]
            i += 2
        white = self.white = values[i]
        index = self.round
        g = self.round_goods[index]
        self.round_goods[index] = EMPTY
        self.depot_goods[white][g] += 1
        self._log.append((E_ROUND, self.phase, index, order, values, at, g))
        self.turn_index = 0  # the first seat's turn: its two dice, no purchase yet
        self._seat = seat = order[0]
        self.dice_left = dice[seat].copy()
        self.bought = False

    def _dice_to_come(self, count: int) -> tuple[int, ...]:
        """The dice of this round and all rounds to come (``count`` a round), this round's first;
        leaves the generator after this round's dice, as ``rng.dice(count)`` would.

        They are drawn at once (a die costs half as much in a big batch) and used while the
        generator is still where they start: a clone, a loaded state or a determinization with
        another generator simply draws anew. A rejected draw (odds below 2**-61) means the dice are
        not one draw each: then only this round's are drawn.
        """
        rng = self.rng
        start = rng.state
        total = count * ((PHASES - self.phase) * ROUNDS - self.round)
        values = tuple(rng.dice(total))
        end = rng.state
        rng.state = start
        rng.skip(total)
        if total >= count and rng.state == end:
            rng.state = start
            rng.skip(count)
            return values
        rng.state = start
        return tuple(rng.dice(count))

    def _end_phase(self) -> None:
        """Mine income (+K02 workers), then the next phase or the end of the game (§3.14)."""
        income = []
        for seat in range(self.players):
            mines = self.estate[seat].count(MINE)
            self.silver[seat] += mines
            if self.kmask[seat] & K02:
                self.workers[seat] += mines
            income.append(mines)
        self._log.append((E_PHASE_END, PHASE_LETTERS[self.phase], income))
        self.phase += 1
        self.round = 0
        if self.phase == PHASES:
            self._final_scoring()
            return
        self._start_phase()
        self._start_round()

    def _final_scoring(self) -> None:
        self.is_over = True
        self.final = []
        for seat in range(self.players):
            part = self.final_breakdown(seat)
            self.final.append(part)
            self.vp[seat] += sum(part.values())
        self._log.append({"event": "game_end", "final": [dict(f) for f in self.final], "vp": list(self.vp)})

    def final_breakdown(self, seat: int) -> dict[str, int]:
        """The end-of-game additions for one seat (reference §3.15, §1.4 K15–K26)."""
        estate = self.estate[seat]
        kmask = self.kmask[seat]
        sold = self.sold[seat]
        part = {
            "goods": sum(self.goods[seat]),
            "silverlings": self.silver[seat],
            "workers": self.workers[seat] // 2,
        }
        if kmask & (1 << 15):
            part["K15"] = 3 * sum(1 for g in sold if g)
        if kmask & (0xFF << 16):  # K16-K23: 4 VP per building of one kind
            for i in range(8):
                if kmask & (1 << (16 + i)):
                    part[f"K{16 + i}"] = 4 * estate.count(FIRST_BUILDING + i)
        if kmask & (1 << 24):
            part["K24"] = 4 * len({ANIMAL_KIND[t] for t in estate if t >= 0 and ANIMAL_KIND[t] >= 0})
        if kmask & (1 << 25):
            part["K25"] = sum(sold)
        if kmask & (1 << 26):
            owned = sum(1 for t in range(6) if self.bonus_large[t] == seat) + sum(
                1 for t in range(6) if self.bonus_small[t] == seat
            )
            part["K26"] = 2 * owned
        return part

    # --- contract basics ----------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        pending = self.pending
        if pending and pending[-1][0] >= P_BOARD:
            return pending[-1][1]
        return self.order[self.turn_index]

    def scores(self) -> list[int]:
        return list(self.vp)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The public event log, every entry as a dict (the saved and viewed form).

        The log only grows, so each entry is turned into a dict once, the first time it is asked for.
        """
        done = self._log_dicts
        if len(done) < len(self._log):
            done += [e if isinstance(e, dict) else _event_dict(e) for e in self._log[len(done) :]]
        return done.copy()

    def track_order(self) -> list[int]:
        """Turn order on the track now (the order the next round would have)."""
        pos, arr = self.track_pos, self.track_arrival
        return sorted(range(self.players), key=lambda s: (-pos[s], -arr[s]))

    def empty_spaces(self, seat: int) -> int:
        return self.estate[seat].count(EMPTY) - 1 if self.board[seat] else SPACES

    def winners(self) -> list[int]:
        """Most VP; then fewest (option: most) empty spaces; then later in track order (D1, D2)."""
        best = max(self.vp)
        tied = [s for s in range(self.players) if self.vp[s] == best]
        if len(tied) > 1:
            sign = 1 if self.options["tiebreak_empty"] == "fewest" else -1
            key = min(sign * self.empty_spaces(s) for s in tied)
            tied = [s for s in tied if sign * self.empty_spaces(s) == key]
        if len(tied) > 1:
            order = self.track_order()
            tied = [max(tied, key=order.index)]
        return tied

    def stats(self) -> dict[str, int]:
        played = self.phase * ROUNDS + self.round if not self.is_over else PHASES * ROUNDS
        return {"actions": len(self._history_notations), "rounds": played,
                "tiles_placed": sum(37 - self.empty_spaces(s) for s in range(self.players))}

    # --- legal actions ------------------------------------------------------------------------------

    def action_seen_by(self, action: BAction, seat: int) -> Hashable:
        pending = self.pending
        if pending and pending[-1][0] >= P_BOARD and seat != pending[-1][1] and self.options["secret_setup"]:
            return _UNSEEN_SETUP[pending[-1][0]]
        return action

    def legal_actions(self) -> tuple[BAction, ...]:
        """The cached legal actions, computed once per position (the frequent cases directly)."""
        legal = self._legal
        if legal is not None:
            return legal
        pending = self.pending
        if self.is_over:
            legal = ()
        elif pending:
            top = pending[-1]
            kind = top[0]
            if kind == P_DIE:
                legal = self._die_actions(self._seat, top[1])
            elif kind == P_DISCARD:  # a tenth of random play: spared the general path
                legal = _discards(self.storage[self._seat])
            else:
                legal = tuple(self._compute_legal())
        else:  # the turn itself (half of all decisions): choose a die, buy once, or pass (§3.3)
            left = self.dice_left  # two dice, one (then left[-1] is left[0]) or none
            legal = _TURN_CHOICES[left[0] * 8 + left[-1]] if left else _PASS_ONLY
            if not self.bought:
                seat = self._seat
                if self.kmask[seat] & K06:
                    buys = self._buy_actions(seat)
                elif self.silver[seat] >= PURCHASE_COST:  # as _buy_actions without K06 (most turns)
                    buys = self.dactions[0]
                else:
                    buys = ()
                if buys:  # purchases come after the dice and before the pass
                    legal = legal + buys if left else (*buys, act.PASS_ACTION)
        self._legal = legal
        return legal

    def _compute_legal(self) -> Sequence[BAction]:
        """The legal actions of the rarer pending decisions (not a die's action, not a discard)."""
        top = self.pending[-1]
        kind = top[0]
        seat = top[1] if kind >= P_BOARD else self._seat
        if kind == P_BONUS:
            out = [a for d in range(1, 7) for a in self.dactions[d]]
            out += self._place_actions(seat)
            goods = self.goods[seat]
            out += [act.SELL_ACTIONS[g] for g in range(1, 7) if goods[g]]
            out.append(act.WORKERS_ACTION)
            return out
        if kind == P_CITYHALL:
            out = self._place_actions(seat)
            if not self.options["forced_building_effects"] or not out:
                out.append(act.SKIP_ACTION)
            return out
        if kind == P_WAREHOUSE:
            goods = self.goods[seat]
            out = [act.SELL_ACTIONS[g] for g in range(1, 7) if goods[g]]
            if not self.options["forced_building_effects"] or not out:
                out.append(act.SKIP_ACTION)
            return out
        if kind == P_BUILD_TAKE:
            out = self._take_actions(BUILD_TAKE_TYPES[top[1]])
            if not self.options["forced_building_effects"] or not out:
                out.append(act.SKIP_ACTION)
            return out
        if kind == P_SHIP:
            return _SHIP_CHOICES_K05 if self.kmask[seat] & K05 else _SHIP_CHOICES
        if kind == P_KEEP:
            new = self._new_kinds(seat, top[1])
            return [act.KEEP_ACTIONS[sum(1 << g for g in combo)] for combo in combinations(new, top[2])]
        if kind == P_BOARD:
            if self.options["secret_setup"]:  # simultaneous choice: nobody knows what the others took
                return [act.BOARD_ACTIONS[b] for b in range(1, 10)]
            taken = {self.board[s] for s in range(self.players)}
            return [act.BOARD_ACTIONS[b] for b in range(1, 10) if b == 1 or self._board_key(b) not in taken]
        # P_START
        return [act.START_ACTIONS[s] for s in BOARDS[self.board[seat]].castle_spaces]

    def _buy_actions(self, seat: int) -> tuple[BAction, ...]:
        silver = self.silver[seat]
        has_k06 = self.kmask[seat] & K06
        if has_k06 and self.options["k06_pay_with_workers"]:
            workers = self.workers[seat]
            pays = [w for w in range(3) if silver >= PURCHASE_COST - w and workers >= w]
        else:
            pays = [0] if silver >= PURCHASE_COST else []
        if not pays:
            return ()
        if pays == [0] and not has_k06:
            return self.dactions[0]
        out = []
        for d in range(7) if has_k06 else (0,):
            tiles = [a.b for a in self.dactions[d]]
            for w in pays:
                row = act.BUY_ACTIONS[w][d]
                out += [row[t] for t in tiles]
        return tuple(out)

    def _take_actions(self, type_mask: int) -> list[BAction]:
        """Takes from the numbered depots of tiles whose type is in ``type_mask`` (building effects)."""
        return [a for d in range(1, 7) for a in self.dactions[d] if type_mask & _TYPE_BIT[a.b]]

    def _can_take(self, type_mask: int) -> bool:
        """Whether ``_take_actions(type_mask)`` has any."""
        for d in range(1, 7):
            for a in self.dactions[d]:
                if type_mask & _TYPE_BIT[a.b]:
                    return True
        return False

    def _refresh_depot(self, d: int) -> None:
        """Keep the actions on a depot's sorted distinct tiles ready for legal_actions."""
        self.dactions[d] = _depot_actions(_DEPOT_ROW[d], self.depots[d])

    def _remove_from_depot(self, d: int, tile: int) -> None:
        slots = self.depots[d]
        slots[slots.index(tile)] = EMPTY
        if tile not in slots:  # the last copy left: drop its action
            actions = self.dactions[d]
            i = actions.index(_DEPOT_ROW[d][tile])
            self.dactions[d] = actions[:i] + actions[i + 1 :]

    def _die_cost(self, seat: int, rolled: int, target: int, free: int) -> int:
        """Workers needed to turn ``rolled`` into ``target`` (reference §3.5, D13, D14)."""
        need = DIST[rolled][target] - free
        if need <= 0:
            return 0
        if self.kmask[seat] & K08:
            return (need + 1) >> 1
        return need

    def _die_action_cost(self, seat: int, rolled: int, action: BAction) -> int:
        """Workers ``seat`` spends to take, place or sell with a die showing ``rolled``: they bridge the
        distance to the value ``action`` needs, less a free ±1 from K09-K12, halved by K08 (§3.5)."""
        value, free_bit = _DIE_TARGET[action]
        return self._die_cost(seat, rolled, value, 1 if self.kmask[seat] & free_bit else 0)

    def worker_cost(self, action: BAction | str) -> int:
        """Workers the seat to move spends on ``action`` now: a die's take, placement or sale (its cost
        by ``_die_action_cost``); 0 for anything else, a castle bonus or City Hall among them."""
        if not isinstance(action, BAction):
            action = act.from_notation(action)
        pending = self.pending
        if self.is_over or not pending or pending[-1][0] != P_DIE or action not in _DIE_TARGET:
            return 0
        seat = self.current_player
        assert seat is not None
        return self._die_action_cost(seat, pending[-1][1], action)

    def action_hints(self) -> list[JSON] | None:
        """Beside the benefits a ``pass`` forgoes (the contract's hints), each legal action's worker cost
        at a die decision, ``{"workers": n}`` (nothing when free; nothing else costs workers)."""
        hints = super().action_hints()
        pending = self.pending
        if self.is_over or not pending or pending[-1][0] != P_DIE:
            return hints
        cost = self.worker_cost
        costs: list[JSON] = [{"workers": spent} if (spent := cost(action)) else {} for action in self.legal_actions()]
        if hints is None:
            return costs
        return [{**spent, **hint} for spent, hint in zip(costs, hints, strict=True)]

    def die_actions(self, seat: int, value: int) -> tuple[BAction, ...]:
        """What ``seat`` could do now with a die showing ``value``: exactly the legal actions after it
        chose that die (bots weigh each die by them without cloning the state)."""
        return self._die_actions(seat, value)

    def _die_actions(self, seat: int, r: int) -> tuple[BAction, ...]:
        """A die's actions: values within reach of the workers (and free ±1) of ``r`` (§3.5, §3.6).

        Takes, then placements, then sales and the workers action; a third of random play is here.
        Without the knowledge tiles that change reach or placing (four calls in five in random play),
        a shorter path.
        """
        kmask = self.kmask[seat]
        if kmask & _CHANGES_REACH:
            return self._die_actions_knowing(seat, r, kmask)
        steps = self.workers[seat]
        near = _REACH[r][steps if steps < 3 else 3]  # die values reachable with the workers
        dactions = self.dactions
        out: list[BAction] = []
        for d in _VALUES[near]:
            out += dactions[d]
        storage = self.storage[seat]
        if storage:
            reach = VALUE_SPACES[near] & self.frontier[seat]
            if reach:  # some empty space next to the estate has a number within reach
                allowed = self.allowed[seat]
                # the distinct stored tiles in increasing order, as _distinct (inlined: the hot path)
                stored = len(storage)
                if stored == 3:
                    a, b, c = storage
                    if a > b:
                        a, b = b, a
                    if b > c:
                        b, c = c, b
                    if a > b:
                        a, b = b, a
                    tiles: Sequence[int] = (a,) if a == c else (a, c) if a == b or b == c else (a, b, c)
                elif stored == 2:
                    a, b = storage
                    tiles = (a,) if a == b else (a, b) if a < b else (b, a)
                else:
                    tiles = storage
                for t in tiles:
                    spaces = reach & allowed[t]
                    if spaces:  # _placements, its memo read inline (the hot path)
                        out += _PLACEMENT_MEMO[t].get(spaces) or _placements(t, spaces)
        out += _SELLS_THEN_WORKERS[self.gmask[seat] & near]
        return tuple(out)

    def _die_actions_knowing(self, seat: int, r: int, kmask: int) -> tuple[BAction, ...]:
        """``_die_actions`` for a seat holding K01, K08 or one of K09-K12."""
        steps = self.workers[seat]
        if kmask & K08:  # each worker moves the die two steps
            steps += steps
        if steps > 3:  # three steps reach every value
            steps = 3
        reach = _REACH[r]
        near = reach[steps]  # die values reachable with the workers
        wide = reach[steps + 1]  # ... and with a free ±1 (K09-K12)
        dactions = self.dactions
        out: list[BAction] = []
        for d in _VALUES[wide if kmask & K12 else near]:
            out += dactions[d]
        storage = self.storage[seat]
        if storage:
            frontier = self.frontier[seat]
            near_spaces = VALUE_SPACES[near] & frontier
            wide_spaces = VALUE_SPACES[wide] & frontier if kmask & _FREE_PLACING else near_spaces
            if wide_spaces:  # some empty space next to the estate has a number within reach
                allowed = _BOARDS[self.board[seat]].tile_spaces if kmask & K01 else self.allowed[seat]
                for t in _distinct(storage):
                    out += _placements(t, (wide_spaces if kmask & TILE_FREE_BIT[t] else near_spaces) & allowed[t])
        out += _SELLS_THEN_WORKERS[self.gmask[seat] & near]
        return tuple(out)

    def _place_actions(self, seat: int) -> list[BAction]:
        """Placements with any die number (castle bonus action, City Hall): every empty space next to
        the estate, minus cities that already hold that building (unless K01)."""
        storage = self.storage[seat]
        if not storage:
            return []
        frontier = self.frontier[seat]
        allowed = _BOARDS[self.board[seat]].tile_spaces if self.kmask[seat] & K01 else self.allowed[seat]
        out: list[BAction] = []
        for t in _distinct(storage):
            out += _placements(t, frontier & allowed[t])
        return out

    def _new_kinds(self, seat: int, mask: int) -> tuple[int, ...]:
        """The goods kinds on the depots in ``mask`` that the seat does not hold, in increasing order."""
        return _VALUES[self._depot_kinds(mask) & ~self.gmask[seat]]

    def _depot_kinds(self, mask: int) -> int:
        """Bit mask of the goods kinds lying on the depots in ``mask``."""
        present = 0
        depot_goods = self.depot_goods
        for d in _VALUES[mask]:
            here = depot_goods[d]
            for g in _KINDS:
                if here[g]:
                    present |= 1 << g
        return present

    # --- applying actions ---------------------------------------------------------------------------

    def apply(self, action: BAction | str) -> None:
        """Apply a legal action or its exact notation, and every automatic step after it; the base
        class's semantics (anything else raises ``IllegalAction`` and changes nothing).

        The check and the work are one method here, not ``apply`` then ``_apply``: a Python call less
        on every action, 2% of a random playout. Shorthands and refusals go through the base class.
        """
        legal = self._legal
        if legal is None or action not in legal:  # rare: actions are interned, found by identity in the cache
            found = action if type(action) is BAction else ALL_ACTIONS.get(action) if type(action) is str else None
            if found is None or found not in self.legal_actions():  # nothing is legal once the game is over
                super().apply(action)
                return
            action = found
        self._history_notations.append(action.notation)
        self._legal = None
        pending = self.pending
        if not pending:  # the turn itself: a die, a purchase or the pass
            kind = action.kind
            if kind == KIND_DIE:
                value = action.a
                seat = self._seat
                self.dice_left.remove(value)
                pending.append(DIE_PENDING[value])
                self._log.append((E_DIE, seat, value))
                # what legal_actions would do next, done now (the next question is always this one)
                self._legal = self._die_actions(seat, value)
            elif kind == KIND_BUY:
                self._buy(self._seat, action)
            else:  # PASS: the next seat's turn (its two dice, no purchase yet) or the round's end
                self._log.append((E_PASS, self._seat))
                index = self.turn_index = self.turn_index + 1
                if index < self.players:
                    seat = self._seat = self.order[index]
                    self.dice_left = self.dice[seat].copy()
                    self.bought = False
                else:  # the round's end: the next round, or the phase's end after the fifth
                    index = self.round = self.round + 1
                    if index < ROUNDS:
                        self._start_round()
                    else:
                        self._end_phase()
            return
        top = pending.pop()
        pkind = top[0]
        if pkind == P_DIE:
            seat = self._seat
            kind = action.kind
            if kind == KIND_WORKERS:  # any die value
                self._gain_workers(seat, "die")
                return
            # a take, placement or sale: workers bridge the distance (_die_action_cost, which a
            # knowledge tile's free step or halving needs; the plain distance otherwise)
            value, free_bit = _DIE_TARGET[action]
            spent = DIST[top[1]][value]
            if spent:
                if self.kmask[seat] & (free_bit | K08):
                    spent = self._die_action_cost(seat, top[1], action)
                self.workers[seat] -= spent
            if kind == KIND_TAKE:
                self._take(seat, action, "die", spent)
            elif kind == KIND_PLACE:
                self._place(seat, action.a, action.b, "die", spent)
            else:
                self._sell(seat, action.a, "die", spent)
            return
        seat = top[1] if pkind >= P_BOARD else self._seat
        if pkind == P_DISCARD:
            storage = self.storage[seat]
            storage.remove(action.a)
            self.removed.append(action.a)
            storage.append(top[1])
            self._log.append((E_DISCARD, seat, TILE_NAMES[action.a]))
        elif pkind == P_BONUS:
            self._do_action(seat, action, "castle", 0)
        elif pkind in (P_CITYHALL, P_WAREHOUSE, P_BUILD_TAKE):
            if action.kind == KIND_SKIP:
                self._log.append((E_SKIP, seat, PENDING_NAMES[pkind]))
            else:
                self._do_action(seat, action, PENDING_NAMES[pkind], 0)
        elif pkind == P_SHIP:
            self._ship(seat, action.a)
        elif pkind == P_KEEP:
            taken = self._take_goods(seat, top[1], action.a)
            self._log.append({"event": "goods", "seat": seat, "taken": taken})
        else:
            if pkind == P_BOARD:
                key = self._board_key(action.a)
                self._init_estate(seat, key)
                self._log_setup_choice(seat, {"event": "board", "seat": seat, "board": key})
            else:  # P_START
                self._place_start_castle(seat, action.a)
                self._log_setup_choice(seat, {"event": "start_castle", "seat": seat, "space": action.a})
            if not pending:
                if self.options["secret_setup"]:
                    self._log.append({"event": "setup_revealed", "boards": list(self.board),
                                      "start_spaces": list(self.start_space)})
                self._start_round()

    def _apply(self, action: BAction) -> None:
        """The contract's hook for an action already checked (the base class appends its notation
        after it): ``apply`` does the work."""
        self.apply(action)
        self._history_notations.pop()

    def _log_setup_choice(self, seat: int, event: dict[str, Any]) -> None:
        """Open choices go to the public log; secret ones only to the seat's own log until all have chosen."""
        if self.options["secret_setup"]:
            self.private_log[seat].append(event)
            self._log.append({"event": "setup_choice", "seat": seat, "choice": event["event"]})
        else:
            self._log.append(event)

    def hidden_setup_seats(self, seat: int | None) -> list[int]:
        """Seats whose secret board and start-castle choices ``seat`` may not see yet (§3.18)."""
        if not self.options["secret_setup"] or not any(p[0] >= P_BOARD for p in self.pending):
            return []
        return [s for s in range(self.players) if s != seat]

    def _do_action(self, seat: int, action: BAction, source: str, spent: int) -> None:
        kind = action.kind
        if kind == KIND_TAKE:
            self._take(seat, action, source, spent)
        elif kind == KIND_PLACE:
            self._place(seat, action.a, action.b, source, spent)
        elif kind == KIND_SELL:
            self._sell(seat, action.a, source, spent)
        else:  # WORKERS
            self._gain_workers(seat, source)

    def _take(self, seat: int, action: BAction, source: str, spent: int) -> None:
        d = action.a
        tile = action.b
        slots = self.depots[d]
        slots[slots.index(tile)] = EMPTY
        if tile not in slots:  # the last copy left, as in _remove_from_depot (the take is its action)
            actions = self.dactions[d]
            i = actions.index(action)
            self.dactions[d] = actions[:i] + actions[i + 1 :]
        self._log.append((E_TAKE, seat, d, TILE_NAMES[tile], source, spent))
        storage = self.storage[seat]
        if len(storage) >= HEX_STORAGE:
            self.pending.append((P_DISCARD, tile))
        else:
            storage.append(tile)

    def _gain_workers(self, seat: int, source: str) -> None:
        kmask = self.kmask[seat]
        gained = 4 if kmask & K14 else 2
        self.workers[seat] += gained
        silver = 1 if kmask & K13 else 0
        self.silver[seat] += silver
        self._log.append((E_WORKERS, seat, gained, silver, source))

    def _gain_tile(self, seat: int, tile: int) -> None:
        storage = self.storage[seat]
        if len(storage) >= HEX_STORAGE:
            self.pending.append((P_DISCARD, tile))
        else:
            storage.append(tile)

    def _buy(self, seat: int, action: BAction) -> None:
        paid_workers = action.c
        self.silver[seat] -= PURCHASE_COST - paid_workers
        self.workers[seat] -= paid_workers
        self.bought = True
        self._remove_from_depot(action.a, action.b)
        self._log.append((E_BUY, seat, action.a, TILE_NAMES[action.b], paid_workers))
        self._gain_tile(seat, action.b)

    def _sell(self, seat: int, g: int, source: str, spent: int) -> None:
        goods = self.goods[seat]
        count = goods[g]
        goods[g] = 0
        self.gmask[seat] &= ~(1 << g)
        self.sold[seat][g] += count
        kmask = self.kmask[seat]
        silver = 2 if kmask & K03 else 1
        workers = 1 if kmask & K04 else 0
        self.silver[seat] += silver
        self.workers[seat] += workers
        vp = self.players * (count if self.options["sale_vp"] == "per_tile" else 1)
        self.vp[seat] += vp
        self._log.append((E_SELL, seat, g, count, vp, silver, workers, source, spent))

    def _place(self, seat: int, tile: int, space: int, source: str, spent: int) -> None:
        """Put a stored tile on the estate, then region score, colour bonus, type effect (D21)."""
        board = _BOARDS[self.board[seat]]
        estate = self.estate[seat]
        self.storage[seat].remove(tile)
        estate[space] = tile
        occupied = self.occupied[seat] = self.occupied[seat] | 1 << space
        self.frontier[seat] = (self.frontier[seat] | NEIGHBOUR_BITS[space]) & ~occupied
        extras: tuple[tuple[str, Any], ...] = ()  # what the log entry adds, in order
        ttype = TILE_TYPE[tile]
        region = board.region_of[space]
        left = self.region_left[seat]
        left[region] -= 1
        if not left[region]:
            vp = REGION_VP[board.region_sizes[region]] + PHASE_BONUS[self.phase]
            self.vp[seat] += vp
            extras = (("region_vp", vp),)
        colour = self.colour_left[seat]
        colour[ttype] -= 1
        if not colour[ttype]:
            if self.bonus_large[ttype] == EMPTY:
                self.bonus_large[ttype] = seat
                self.vp[seat] += self.players + 3
                extras += (("bonus", "large"),)
            elif self.bonus_small[ttype] == EMPTY:
                self.bonus_small[ttype] = seat
                self.vp[seat] += self.players
                extras += (("bonus", "small"),)
        if ttype == B:
            self.allowed[seat][tile] &= ~board.region_spaces[region]
            if self._building_effect(seat, tile):
                extras += (("building_vp", WATCHTOWER_VP),)
        elif ttype == K:
            self.kmask[seat] |= 1 << KNOWLEDGE_NUMBER[tile]
        elif ttype == A:
            kind = ANIMAL_KIND[tile]
            animals = tiles = 0
            for s in board.regions[region]:
                other = estate[s]
                if other >= 0 and ANIMAL_KIND[other] == kind:
                    animals += ANIMAL_COUNT[other]
                    tiles += 1
            vp = animals + (tiles if self.kmask[seat] & K07 else 0)
            self.vp[seat] += vp
            extras += (("animal_vp", vp),)
        elif ttype == S:
            self.arrival_counter += 1
            self.track_pos[seat] += 1
            self.track_arrival[seat] = self.arrival_counter
            self._track_order = None  # the turn order may change
            self.pending.append((P_SHIP,))
        elif ttype == C:
            self.pending.append((P_BONUS,))
        self._log.append((E_PLACE, seat, TILE_NAMES[tile], space, source, spent, extras))

    def _building_effect(self, seat: int, tile: int) -> bool:
        """A building's effect; True for the Watchtower's VP (the log notes them)."""
        if tile == WATCHTOWER:
            self.vp[seat] += WATCHTOWER_VP
            return True
        if tile == BOARDING:
            self.workers[seat] += BOARDING_WORKERS
        elif tile == BANK:
            self.silver[seat] += BANK_SILVER
        elif tile == WAREHOUSE:
            if self.gmask[seat]:
                self.pending.append((P_WAREHOUSE,))
        elif tile == CITYHALL:
            if self._place_actions(seat):
                self.pending.append((P_CITYHALL,))
        elif self._can_take(BUILD_TAKE_TYPES[tile]):  # carpenter, church, market
            self.pending.append((P_BUILD_TAKE, tile))
        return False

    def _ship(self, seat: int, mask: int) -> None:
        """Take the ship's goods (D12): held kinds fully, new kinds while slots remain."""
        held = self.gmask[seat]  # the goods kinds held
        present = self._depot_kinds(mask)
        taken = self._take_goods(seat, mask, held & present)
        new = present & ~held
        free = GOODS_SLOTS - len(_VALUES[held])
        if len(_VALUES[new]) <= free:
            taken += self._take_goods(seat, mask, new)
        elif free > 0:
            self.pending.append((P_KEEP, mask, free))
        self._log.append({"event": "ship", "seat": seat, "depots": list(_VALUES[mask]), "taken": taken})

    def _take_goods(self, seat: int, depot_mask: int, kind_mask: int) -> list[int]:
        goods = self.goods[seat]
        taken: list[int] = []
        kinds = _VALUES[kind_mask]
        for d in _VALUES[depot_mask]:
            here = self.depot_goods[d]
            for g in kinds:
                count = here[g]
                if count:
                    goods[g] += count
                    self.gmask[seat] |= 1 << g
                    taken += [g] * count
                    here[g] = 0
        return taken

    def expand_notation(self, notation: str) -> list[str] | None:
        """A whole turn as space-separated tokens, or a die action with its ``~w<n>`` worker count."""
        tokens = notation.split()
        if len(tokens) > 1:
            return tokens
        if "~w" not in notation or self.is_over or not self.pending or self.pending[-1][0] != P_DIE:
            return None
        base, _, count = notation.partition("~w")
        found = next((a for a in self.legal_actions() if a.notation == base), None)
        if found is None or not count.isdigit():
            return None
        return [base] if int(count) == self.worker_cost(found) else None

    # --- views --------------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> JSON:
        """Everything is public except future goods stacks, the box and the hex piles' order (§6)."""
        n = self.players
        logs = self._log_views = log_views(self._log_views, self._log, public_only, _view_event)
        players = []
        hidden = self.hidden_setup_seats(seat)
        hide_board = self.options["boards"] == "choose"
        for s in range(n):
            estate = self.estate[s]
            if s in hidden:
                estate = [EMPTY] * (SPACES + 1)
            players.append({
                "seat": s,
                "board": None if s in hidden and hide_board else self.board[s] or None,
                "board_types": None if s in hidden and hide_board else _board_letters(self.board[s]),
                "estate": {str(i): TILE_NAMES[estate[i]] for i in range(1, SPACES + 1) if estate[i] != EMPTY},
                "start_space": None if s in hidden else self.start_space[s] or None,
                "empty_spaces": None if s in hidden else self.empty_spaces(s),
                "vp": self.vp[s],
                "silverlings": self.silver[s],
                "workers": self.workers[s],
                "goods": {str(g): self.goods[s][g] for g in range(1, 7) if self.goods[s][g]},
                "sold": {str(g): self.sold[s][g] for g in range(1, 7) if self.sold[s][g]},
                "storage": [TILE_NAMES[t] for t in self.storage[s]],
                "dice": list(self.dice[s]),
                "knowledge": [f"K{k:02d}" for k in range(1, 27) if self.kmask[s] >> k & 1],
                "bonus_tiles": [TYPE_LETTERS[t] + ":large" for t in range(6) if self.bonus_large[t] == s]
                + [TYPE_LETTERS[t] + ":small" for t in range(6) if self.bonus_small[t] == s],
                "track": {"position": self.track_pos[s], "arrival": self.track_arrival[s]},
            })
        current = self.current_player
        return {
            "game": "burgundy",
            "seat": seat,
            "players": players,
            "phase": PHASE_LETTERS[min(self.phase, PHASES - 1)],
            "phase_index": min(self.phase, PHASES - 1),
            "round": min(self.round, ROUNDS - 1) + 1,
            "current_player": current,
            "round_order": list(self.order),
            "track_order": self.track_order(),
            "turn": None if self.is_over or (self.pending and self.pending[-1][0] >= P_BOARD) else {
                "seat": self.order[self.turn_index], "dice_left": list(self.dice_left), "bought": self.bought},
            "pending": self._pending_view(),
            "depots": {str(d): [TILE_NAMES[t] for t in self.depots[d] if t != EMPTY] for d in range(7)},
            "depot_goods": {str(d): [g for g in range(1, 7) for _ in range(self.depot_goods[d][g])]
                            for d in range(1, 7)},
            "round_goods": [g for g in self.round_goods if g != EMPTY],
            "white_die": self.white,
            "space_dice": DIE,
            "future_goods_stacks": [len(st) for st in self.stacks],
            "box_goods": len(self.box),
            "white_piles": {TYPE_LETTERS[t]: len(self.piles[t]) for t in range(6)},
            "black_pile": len(self.black_pile),
            "removed": [TILE_NAMES[t] for t in self.removed],
            "bonus_tiles": {TYPE_LETTERS[t]: {"large": _seat_or_none(self.bonus_large[t]),
                                              "small": _seat_or_none(self.bonus_small[t])} for t in range(6)},
            "scores": list(self.vp),
            "is_over": self.is_over,
            "winners": self.winners() if self.is_over else None,
            "final": [dict(f) for f in self.final] if self.final is not None else None,
            **view_logs(logs.public, {s: map(dict, entries) for s, entries in enumerate(self.private_log)}, seat),
        }

    def _pending_view(self) -> JSON | None:
        if self.is_over or not self.pending:
            return None
        top = self.pending[-1]
        kind = top[0]
        out: JSON = {"kind": PENDING_NAMES[kind], "seat": self.current_player,
                     "stack": [PENDING_NAMES[p[0]] for p in self.pending]}
        if kind == P_DIE:
            out["die"] = top[1]
        elif kind == P_BUILD_TAKE:
            out["building"] = BUILDINGS[top[1] - FIRST_BUILDING]
        elif kind == P_DISCARD:
            out["incoming"] = TILE_NAMES[top[1]]
        elif kind == P_KEEP:
            out["depots"] = [d for d in range(1, 7) if top[1] >> d & 1]
            out["free_slots"] = top[2]
        return out

    # --- saving -------------------------------------------------------------------------------------

    def dump_body(self) -> JSON:
        return {
            "board": list(self.board),
            "estate": [[TILE_NAMES[t] if t != EMPTY else None for t in e[1:]] for e in self.estate],
            "start_space": list(self.start_space),
            "storage": [[TILE_NAMES[t] for t in st] for st in self.storage],
            "goods": [g[1:] for g in self.goods],
            "sold": [g[1:] for g in self.sold],
            "silver": list(self.silver),
            "workers": list(self.workers),
            "vp": list(self.vp),
            "dice": [list(d) for d in self.dice],
            "track_pos": list(self.track_pos),
            "track_arrival": list(self.track_arrival),
            "arrival_counter": self.arrival_counter,
            "bonus_large": list(self.bonus_large),
            "bonus_small": list(self.bonus_small),
            "phase": self.phase,
            "round": self.round,
            "order": list(self.order),
            "turn_index": self.turn_index,
            "dice_left": list(self.dice_left),
            "bought": self.bought,
            "pending": [list(p) for p in self.pending],
            "depots": [[TILE_NAMES[t] if t != EMPTY else None for t in d] for d in self.depots],
            "depot_goods": [g[1:] for g in self.depot_goods[1:]],
            "round_goods": list(self.round_goods),
            "white": self.white,
            "stacks": [list(s) for s in self.stacks],
            "box": list(self.box),
            "piles": [[TILE_NAMES[t] for t in p] for p in self.piles],
            "black_pile": [TILE_NAMES[t] for t in self.black_pile],
            "removed": [TILE_NAMES[t] for t in self.removed],
            "start_castles": self.start_castles,
            "over": self.is_over,
            "final": [dict(f) for f in self.final] if self.final is not None else None,
            "log": self.log,
            "private_log": [list(p) for p in self.private_log],
        }

    def load_body(self, body: JSON) -> None:
        if not isinstance(body, dict):
            raise InvalidState("the body must be an object")
        n = self.players
        self._legal = None
        self._dice_ahead = None
        self._track_order = None
        self.board = _str_list(body["board"], n)
        for key in self.board:
            if key and key not in BOARDS:
                raise InvalidState(f"unknown board {key!r}")
        self.estate = [[EMPTY, *_tiles(e, SPACES, nullable=True)] for e in _list(body["estate"], n)]
        self.start_space = _ints(body["start_space"], n, 0, SPACES)
        self.storage = [_tiles(st) for st in _list(body["storage"], n)]
        self.goods = [[0, *_ints(g, 6, 0, GOODS_TOTAL)] for g in _list(body["goods"], n)]
        self.sold = [[0, *_ints(g, 6, 0, GOODS_TOTAL)] for g in _list(body["sold"], n)]
        self.silver = _ints(body["silver"], n, 0, 10**6)
        self.workers = _ints(body["workers"], n, 0, 10**6)
        self.vp = _ints(body["vp"], n, 0, 10**6)
        self.dice = [_ints(d, 2, 0, 6) for d in _list(body["dice"], n)]
        self.track_pos = _ints(body["track_pos"], n, 0, 6 * 4)
        self.track_arrival = _ints(body["track_arrival"], n, 0, 10**6)
        self.arrival_counter = _int(body["arrival_counter"], 0, 10**6)
        self.bonus_large = _ints(body["bonus_large"], 6, EMPTY, n - 1)
        self.bonus_small = _ints(body["bonus_small"], 6, EMPTY, n - 1)
        self.phase = _int(body["phase"], 0, PHASES)
        self.round = _int(body["round"], 0, ROUNDS)
        self.order = _ints(body["order"], n, 0, n - 1)
        if sorted(self.order) != list(range(n)):
            raise InvalidState("order must list every seat once")
        self.turn_index = _int(body["turn_index"], 0, n)
        self.dice_left = _ints(body["dice_left"], None, 1, 6)
        if len(self.dice_left) > 2:
            raise InvalidState("at most two dice are left")
        self.bought = _bool(body["bought"])
        self.pending = [tuple(_ints(p, None, 0, 10**3)) for p in _list(body["pending"], None)]
        for p in self.pending:
            _check_pending(p, n)
        depots = _list(body["depots"], 7)
        self.depots = [_tiles(d, BLACK_DEPOT_SPACES if i == 0 else 4, nullable=True) for i, d in enumerate(depots)]
        for d, plan in enumerate(_FILL_PLAN[n][0]):  # the spaces in use are the same in every phase
            in_use = {i for i, _ in plan}
            if any(t != EMPTY for i, t in enumerate(self.depots[d]) if i not in in_use):
                raise InvalidState(f"depot {d} holds a tile on a space not used with {n} players")
        self.depot_goods = [[0] * 7] + [[0, *_ints(g, 6, 0, GOODS_TOTAL)] for g in _list(body["depot_goods"], 6)]
        self.round_goods = _ints(body["round_goods"], None, EMPTY, 6)
        self.white = _int(body["white"], 0, 6)
        self.stacks = [_ints(s, None, 1, 6) for s in _list(body["stacks"], PHASES)]
        self.box = _ints(body["box"], None, 1, 6)
        self.piles = [_tiles(p) for p in _list(body["piles"], 6)]
        self.black_pile = _tiles(body["black_pile"])
        self.removed = _tiles(body["removed"])
        self.start_castles = _int(body["start_castles"], 0, n)
        self.is_over = _bool(body["over"])
        final = body["final"]
        if final is None:
            self.final = None
        else:
            self.final = [{str(k): _int(v, 0, 10**6) for k, v in _dict(f).items()} for f in _list(final, n)]
        log = body["log"]
        if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
            raise InvalidState("log must be a list of objects")
        self._log = [dict(e) for e in log]
        self._log_dicts = []
        private = _list(body["private_log"], n)
        if not all(isinstance(p, list) and all(isinstance(e, dict) for e in p) for p in private):
            raise InvalidState("private_log must hold one list of objects per seat")
        self.private_log = [[dict(e) for e in p] for p in private]
        self.rebuild_derived()
        self._check_conservation()
        in_setup = any(p[0] >= P_BOARD for p in self.pending)
        for p in self.pending:
            if p[0] == P_START and self.pending[-1] == p and not self.board[p[1]]:
                raise InvalidState(f"seat {p[1]} must choose a board before its start castle")
        if not self.is_over and self.turn_index >= n:
            raise InvalidState("turn_index must name a seat of the round while the game is on")
        if not in_setup and not self.is_over:
            if not all(self.board) or not all(self.start_space):
                raise InvalidState("every seat needs a board and a start castle once play has started")
            if not all(1 <= v <= 6 for d in self.dice for v in d):
                raise InvalidState("dice must show 1–6 once play has started")

    def rebuild_derived(self) -> None:
        """Frontier, region and colour counters and knowledge bits follow from the estates.

        Called after loading, and by tests that lay out a position by editing estates directly.
        """
        n = self.players
        self._legal = None
        self._seat = self.order[self.turn_index] if self.turn_index < n else EMPTY
        self.frontier = [0] * n
        self.occupied = [0] * n
        self.allowed = [[] for _ in range(n)]
        self.region_left = [[] for _ in range(n)]
        self.colour_left = [[] for _ in range(n)]
        self.kmask = [0] * n
        self.gmask = [sum(1 << g for g in range(1, 7) if goods[g]) for goods in self.goods]
        self.dactions = [()] * 7
        for d in range(7):
            self._refresh_depot(d)
        for seat in range(n):
            estate = self.estate[seat]
            if not self.board[seat]:
                if any(t != EMPTY for t in estate):
                    raise InvalidState("an estate without a board holds tiles")
                continue
            board = BOARDS[self.board[seat]]
            self.region_left[seat] = [sum(1 for s in r if estate[s] == EMPTY) for r in board.regions]
            allowed = list(board.tile_spaces)
            for s in range(1, SPACES + 1):
                if estate[s] != EMPTY and TILE_TYPE[estate[s]] == B:
                    allowed[estate[s]] &= ~board.region_spaces[board.region_of[s]]
            self.allowed[seat] = allowed
            self.colour_left[seat] = [sum(1 for s in board.spaces_of_type[t] if estate[s] == EMPTY)
                                      for t in range(6)]
            frontier = occupied = 0
            for s in range(1, SPACES + 1):
                tile = estate[s]
                if tile == EMPTY:
                    continue
                occupied |= 1 << s
                if TILE_TYPE[tile] != board.types[s]:
                    raise InvalidState(f"seat {seat}: {TILE_NAMES[tile]} on a {TYPE_LETTERS[board.types[s]]} space")
                if TILE_TYPE[tile] == K:
                    self.kmask[seat] |= 1 << KNOWLEDGE_NUMBER[tile]
                for nb in _NEIGHBOURS[s]:
                    if estate[nb] == EMPTY:
                        frontier |= 1 << nb
            self.frontier[seat] = frontier
            self.occupied[seat] = occupied

    def _check_conservation(self) -> None:
        counts = self.tile_census()
        for code, (white, black) in enumerate(TILE_COUNTS):
            if counts[code] != white + black:
                raise InvalidState(f"{TILE_NAMES[code]}: {counts[code]} tiles instead of {white + black}")
        goods = self.goods_census()
        if goods != [0] + [GOODS_PER_KIND] * GOODS_KINDS:
            raise InvalidState(f"goods do not add up: {goods[1:]}")
        for seat in range(self.players):
            if len(self.storage[seat]) > HEX_STORAGE:
                raise InvalidState(f"seat {seat} stores more than {HEX_STORAGE} tiles")
            if sum(1 for g in self.goods[seat] if g) > GOODS_SLOTS:
                raise InvalidState(f"seat {seat} stores more than {GOODS_SLOTS} goods kinds")

    def tile_census(self) -> list[int]:
        """How many of each tile kind are anywhere (conservation: always the catalogue's totals)."""
        counts = [0] * TILE_KINDS
        places: list[list[int]] = [*self.piles, self.black_pile, *self.depots, *self.storage, *self.estate,
                                   self.removed]
        for place in places:
            for t in place:
                if t != EMPTY:
                    counts[t] += 1
        for p in self.pending:
            if p[0] == P_DISCARD:
                counts[p[1]] += 1
        counts[CASTLE] += self.start_castles
        return counts

    def goods_census(self) -> list[int]:
        counts = [0] * 7
        for place in [*self.stacks, self.box, [g for g in self.round_goods if g != EMPTY]]:
            for g in place:
                counts[g] += 1
        for row in [*self.goods, *self.sold, *self.depot_goods]:
            for g in range(1, 7):
                counts[g] += row[g]
        return counts

    # --- copies -------------------------------------------------------------------------------------

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        self._copy_common_to(other)
        other.board = self.board.copy()
        other.estate = list(map(list, self.estate))
        other.frontier = self.frontier.copy()
        other.occupied = self.occupied.copy()
        other.allowed = list(map(list, self.allowed))
        other.start_space = self.start_space.copy()
        other.region_left = list(map(list, self.region_left))
        other.colour_left = list(map(list, self.colour_left))
        other.storage = list(map(list, self.storage))
        other.goods = list(map(list, self.goods))
        other.gmask = self.gmask.copy()
        other.sold = list(map(list, self.sold))
        other.silver = self.silver.copy()
        other.workers = self.workers.copy()
        other.vp = self.vp.copy()
        other.kmask = self.kmask.copy()
        other.dice = list(map(list, self.dice))
        other.track_pos = self.track_pos.copy()
        other.track_arrival = self.track_arrival.copy()
        other.final = [dict(f) for f in self.final] if self.final is not None else None
        other.arrival_counter = self.arrival_counter
        other.bonus_large = self.bonus_large.copy()
        other.bonus_small = self.bonus_small.copy()
        other.phase = self.phase
        other.round = self.round
        other.order = self.order.copy()
        other.turn_index = self.turn_index
        other._seat = self._seat
        other.dice_left = self.dice_left.copy()
        other.bought = self.bought
        other.pending = self.pending.copy()
        other.depots = list(map(list, self.depots))
        other.dactions = self.dactions.copy()
        other.depot_goods = list(map(list, self.depot_goods))
        other.round_goods = self.round_goods.copy()
        other.white = self.white
        other.stacks = list(map(list, self.stacks))
        other.box = self.box.copy()
        other.piles = list(map(list, self.piles))
        other.black_pile = self.black_pile.copy()
        other.removed = self.removed.copy()
        other.start_castles = self.start_castles
        other._log = self._log.copy()
        other._log_dicts = self._log_dicts.copy()
        other.private_log = list(map(list, self.private_log))
        other.is_over = self.is_over
        other._legal = self._legal
        other._dice_ahead = self._dice_ahead
        other._track_order = self._track_order
        return other

    def determinize(self, seat: int | None, rng: Rng | int | None = None) -> Self:
        """Reshuffle the unseen goods (future stacks + box), the hex piles, and future dice (§6)."""
        sampler = self._determinization_rng(rng)
        other = self.clone()
        # sorted first, so the copy depends only on what the seat knows (the unseen multisets)
        unseen = sorted([g for st in other.stacks for g in st] + other.box)
        sampler.shuffle(unseen)
        at = 0
        for i, st in enumerate(other.stacks):
            other.stacks[i] = unseen[at : at + len(st)]
            at += len(st)
        other.box = unseen[at:]
        for pile in [*other.piles, other.black_pile]:
            pile.sort()
            sampler.shuffle(pile)
        for hidden in other.hidden_setup_seats(seat):
            other._resample_setup_choice(hidden, sampler)
        other.rng = sampler.fork()
        return other

    def _resample_setup_choice(self, seat: int, sampler: Rng) -> None:
        """Replace another seat's secret board / start-castle choice by a random legal one, and its private
        log of them with the sampled choice (its record of the real one is hidden too)."""
        chose_board = self.options["boards"] == "choose" and bool(self.board[seat])
        had_castle = bool(self.start_space[seat])
        if not chose_board and not had_castle:
            return
        if had_castle:
            self.start_castles += 1
        self.estate[seat] = [EMPTY] * (SPACES + 1)
        self.start_space[seat] = 0
        self.frontier[seat] = 0
        self.occupied[seat] = 0
        if chose_board:
            self._init_estate(seat, self._board_key(sampler.randint(1, 9)))
        else:
            self._init_estate(seat, self.board[seat])
        if had_castle:
            self._place_start_castle(seat, sampler.choice(BOARDS[self.board[seat]].castle_spaces))
        self.private_log[seat] = [
            *([{"event": "board", "seat": seat, "board": self.board[seat]}] if chose_board else []),
            *([{"event": "start_castle", "seat": seat, "space": self.start_space[seat]}] if had_castle else []),
        ]


_NEIGHBOURS: Final = NEIGHBOURS
#: the unshuffled hex piles: one white pile per type, and the black pile, in tile-code order
_WHITE_PILES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(code for code, (white, _) in enumerate(TILE_COUNTS) if TILE_TYPE[code] == t for _ in range(white))
    for t in range(6)
)
_BLACK_PILE: Final[tuple[int, ...]] = tuple(code for code, (_, black) in enumerate(TILE_COUNTS) for _ in range(black))
#: whether a white pile holds a single tile kind (ships, mines, castles)
_UNIFORM_PILES: Final[tuple[bool, ...]] = tuple(len(set(pile)) == 1 for pile in _WHITE_PILES)
#: the goods tiles, unshuffled
_GOODS: Final[tuple[int, ...]] = tuple(g for g in range(1, GOODS_KINDS + 1) for _ in range(GOODS_PER_KIND))
_BOARDS: Final[dict[str, Board]] = dict(BOARDS)  # a plain dict: a little faster to index than the read-only view
_SELL: Final = act.SELL_ACTIONS
_DISCARD: Final = act.DISCARD_ACTIONS
_PLACE: Final = act.PLACE_ACTIONS
#: the knowledge tiles giving a free ±1 when placing some tile type
_FREE_PLACING: Final = K09 | K10 | K11
#: _VALUES[mask] = the die values (or depot / goods numbers) 1-6 whose bits are set in ``mask``
_VALUES: Final = tuple(tuple(v for v in range(1, 7) if mask >> v & 1) for mask in range(128))
#: _REACH[rolled][limit]: REACH with one more column, so that ``limit`` may be 4 (a free +1 on 3 steps)
_REACH: Final[tuple[tuple[int, ...], ...]] = tuple((*row, row[3]) for row in REACH)
#: the knowledge tiles changing a die's reach (K08, K12) or where a tile may go (K01, K09-K11)
_CHANGES_REACH: Final = K01 | K08 | K09 | K10 | K11 | K12


#: per tile kind: ``_placements``'s answers by bit mask of spaces, those on one space made at import
#: (nearly half of the masks asked for)
_PLACEMENT_MEMO: Final[tuple[dict[int, tuple[BAction, ...]], ...]] = tuple(
    {1 << space: (_PLACE[tile][space],) for space in range(1, SPACES + 1)} for tile in range(TILE_KINDS)
)
#: masks kept per tile kind, then no more are added (at most ~100k small tuples in all, ~15 MB); random
#: 4-player games had met about 1,500 for the busiest kinds after 4,000 games
_PLACEMENT_MEMO_MAX: Final = 2048


def _placements(tile: int, spaces: int) -> tuple[BAction, ...]:
    """The placements of ``tile`` on each space of the bit mask ``spaces``, in increasing order.

    Memoised: the masks are 37-bit integers, whose bit operations allocate, and a die's actions ask
    for the same few masks of a tile again and again.
    """
    memo = _PLACEMENT_MEMO[tile]
    found = memo.get(spaces)
    if found is None:
        row = _PLACE[tile]
        out = []
        rest = spaces
        while rest:
            low = rest & -rest
            rest ^= low
            out.append(row[low.bit_length() - 1])
        found = tuple(out)
        if len(memo) < _PLACEMENT_MEMO_MAX:
            memo[spaces] = found
    return found


def _distinct(tiles: list[int]) -> Sequence[int]:
    """The distinct tiles of a storage (at most three) in increasing order.

    A sorting network: ``sorted(set(tiles))`` costs twice as much, and the die's actions and the
    discards ask for this on most decisions.
    """
    if len(tiles) == 3:
        a, b, c = tiles
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        return (a,) if a == c else (a, c) if a == b or b == c else (a, b, c)
    if len(tiles) == 2:
        a, b = tiles
        return (a,) if a == b else (a, b) if a < b else (b, a)
    return tiles if len(tiles) < 2 else sorted(set(tiles))


def _depot_actions(row: Sequence[BAction], slots: list[int]) -> tuple[BAction, ...]:
    """The actions ``row[t]`` on a depot's distinct tiles ``t`` in increasing order.

    Empty spaces (-1) sort first; a loop over the sorted slots costs less than a set, its sort and
    a filter, and every depot is rebuilt at each phase start.
    """
    out = []
    last = EMPTY
    for tile in sorted(slots):
        if tile != last:
            out.append(row[tile])
            last = tile
    return tuple(out)


def _discards(storage: list[int]) -> tuple[BAction, ...]:
    """The discards from a storage: its distinct tiles in increasing order (a full storage of three
    through the sorting network of ``_distinct``, straight to actions)."""
    if len(storage) != 3:
        return tuple([_DISCARD[t] for t in _distinct(storage)])
    a, b, c = storage
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    if a == c:
        return (_DISCARD[a],)
    if a == b or b == c:
        return (_DISCARD[a], _DISCARD[c])
    return (_DISCARD[a], _DISCARD[b], _DISCARD[c])


def _turn_choices() -> tuple[tuple[BAction, ...], ...]:
    """The turn's choices without purchases, indexed by the dice left: 8 * a + b for dice a and b as
    rolled, 8 * a + a for one die a (the same as two equal dice). Two dice are offered in increasing
    order."""
    die = act.DIE_ACTIONS
    table: list[tuple[BAction, ...]] = [()] * 56
    for a in range(7):
        for b in range(7):
            table[8 * a + b] = (die[a],) if a == b else (die[min(a, b)], die[max(a, b)])
    return tuple(table)


_TURN_CHOICES: Final = _turn_choices()
_PASS_ONLY: Final = (act.PASS_ACTION,)
#: _SELLS_THEN_WORKERS[goods kinds mask] = the sales of those kinds, then the workers action: how a
#: die's actions end
_SELLS_THEN_WORKERS: Final[tuple[tuple[BAction, ...], ...]] = tuple(
    (*(_SELL[g] for g in _VALUES[mask]), act.WORKERS_ACTION) for mask in range(128)
)
#: a ship's depot choices: one numbered depot, or (with K05) also two neighbouring ones
_SHIP_CHOICES: Final = act.SHIP_ACTIONS[1:]
_SHIP_CHOICES_K05: Final = (*act.SHIP_ACTIONS[1:], *act.SHIP_PAIR_ACTIONS[1:])

#: whether a tile is a ship, mine or castle (these may stay on the depots, D5)
_SMC: Final[tuple[bool, ...]] = tuple(TILE_TYPE[t] in (S, M, C) for t in range(TILE_KINDS))
_NOT_KEPT: Final = (False,) * TILE_KINDS
_KINDS: Final = range(1, GOODS_KINDS + 1)  # the goods kinds (index 0 of a goods row is unused)
#: 1 << the tile's type
_TYPE_BIT: Final[tuple[int, ...]] = tuple(1 << TILE_TYPE[t] for t in range(TILE_KINDS))
#: per depot, the action on each tile kind there: the purchase for 2 silverlings, or the take
_DEPOT_ROW: Final = (act.BUY_ACTIONS[0][0], *act.TAKE_ACTIONS[1:])


def _fill_plan(players: int, phase: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per depot, its spaces in use with this many players and the pile refilling each at a phase
    start: (space index, tile type or 6 for the black pile)."""
    plan = [tuple((i, 6) for i in range(min(2 * players, BLACK_DEPOT_SPACES)))]
    for d in range(1, 7):
        plan.append(tuple((i, depot_space_type(d, i, players, phase)) for i in range(4)
                          if DEPOT_SPACES[d][i][1] <= players))
    return tuple(plan)


#: _FILL_PLAN[players][phase]
_FILL_PLAN: Final = tuple(tuple(_fill_plan(n, phase) for phase in range(PHASES)) for n in range(5))


def _die_targets() -> dict[BAction, tuple[int, int]]:
    """For each take, placement and sale: the die value it needs and the knowledge bit giving a free ±1."""
    targets: dict[BAction, tuple[int, int]] = {}
    for d in range(1, 7):
        for take in act.TAKE_ACTIONS[d]:
            targets[take] = (d, K12)
        targets[act.SELL_ACTIONS[d]] = (d, 0)
    for tile in range(TILE_KINDS):
        for space in range(1, SPACES + 1):
            targets[act.PLACE_ACTIONS[tile][space]] = (SPACE_DIE[space], FREE_BIT[TILE_TYPE[tile]])
    return targets


#: what ``_die_cost`` needs to know about a die's action (the workers action needs no particular value)
_DIE_TARGET: Final = _die_targets()


#: how many integers follow the kind in each pending entry
_PENDING_ARGS: Final = (1, 0, 0, 0, 1, 1, 0, 2, 1, 1)


def _check_pending(p: tuple[int, ...], players: int) -> None:
    """Refuse a saved pending decision whose fields could not have been produced by play."""
    if not p or not 0 <= p[0] < len(PENDING_NAMES) or len(p) != 1 + _PENDING_ARGS[p[0]]:
        raise InvalidState(f"bad pending decision {list(p)}")
    kind = p[0]
    ok = True
    if kind == P_DIE:
        ok = 1 <= p[1] <= 6
    elif kind == P_BUILD_TAKE:
        ok = p[1] in BUILD_TAKE_TYPES
    elif kind == P_DISCARD:
        ok = 0 <= p[1] < TILE_KINDS
    elif kind == P_KEEP:
        ok = 0 < p[1] < 1 << 7 and not p[1] & 1 and 1 <= p[2] <= GOODS_SLOTS
    elif kind in (P_BOARD, P_START):
        ok = 0 <= p[1] < players
    if not ok:
        raise InvalidState(f"bad pending decision {PENDING_NAMES[kind]} {list(p[1:])}")


def _board_letters(key: str) -> str | None:
    if not key:
        return None
    return "".join(TYPE_LETTERS[t] for t in BOARDS[key].types[1:])


def _seat_or_none(value: int) -> int | None:
    return None if value == EMPTY else value


# --- validation helpers for load_body ---------------------------------------------------------------


def _list(value: Any, length: int | None) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidState(f"expected a list, got {value!r}"[:200])
    if length is not None and len(value) != length:
        raise InvalidState(f"expected {length} entries, got {len(value)}")
    return value


def _dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidState(f"expected an object, got {value!r}"[:200])
    return value


def _int(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InvalidState(f"expected an integer in {low}..{high}, got {value!r}"[:200])
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise InvalidState(f"expected true or false, got {value!r}"[:200])
    return value


def _ints(value: Any, length: int | None, low: int, high: int) -> list[int]:
    return [_int(v, low, high) for v in _list(value, length)]


def _str_list(value: Any, length: int) -> list[str]:
    items = _list(value, length)
    if not all(isinstance(v, str) for v in items):
        raise InvalidState("expected a list of strings")
    return list(items)


def _tiles(value: Any, length: int | None = None, nullable: bool = False) -> list[int]:
    out = []
    for v in _list(value, length):
        if v is None and nullable:
            out.append(EMPTY)
        elif isinstance(v, str) and v in TILE_BY_NAME:
            out.append(TILE_BY_NAME[v])
        else:
            raise InvalidState(f"unknown tile {v!r}"[:200])
    return out
