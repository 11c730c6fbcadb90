"""The Caylus state machine: the seven phases of rules/caylus.md §2 as explicit cursors.

The state is always parked at a decision with at least two options (or at the end): every step with
a single outcome (income, the trading post, fixed production, a forced pass, …) runs inside
``_advance`` and leaves no notation (D26). Royal favours earned at any moment go on ``fstack`` (seat,
count) and are resolved before the flow moves on; a favour's follow-up choice (``res``/``bld``) is
``fsub``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from operator import add
from typing import Any, Final, Self, TypeAlias

from meeple.core.contract import JSON, GameState
from meeple.core.errors import InvalidState
from meeple.core.rng import Rng
from meeple.games.caylus import actions as A
from meeple.games.caylus.actions import Act
from meeple.games.caylus.data import (
    BAILIFF_START,
    CASTLE_PENALTY,
    DENIERS_PER_PP,
    E_ALCHEMIST,
    E_ARCHITECT,
    E_BANK,
    E_CARPENTER,
    E_CHURCH,
    E_JEWELLER,
    E_LAWYER,
    E_MARKET,
    E_MASON,
    E_PEDDLER,
    E_PRODUCE,
    E_PRODUCE_BONUS,
    E_TAILOR,
    FAVOUR_CAP,
    FIRST_PASS_BONUS,
    FIXED,
    FIXED_SPACES,
    GOLD_PP,
    INCOME,
    JEWELLER_ID,
    LAST_SPACE,
    LAWYER_ID,
    LOTS,
    NEUTRAL,
    NEUTRAL_IDS,
    OVER,
    P_ACTIVATE,
    P_BONUS,
    P_CASTLE,
    P_FAV_BLD,
    P_FAV_RES,
    P_FAV_ROW,
    P_GATE,
    P_GUILD,
    P_INN,
    P_JOUST,
    P_NONE,
    P_PLACE,
    P_PROVOST,
    PENDING_NAMES,
    PLAIN,
    PLAIN_PER_PP,
    PRESTIGE,
    PRESTIGE_IDS,
    PROVOST_START,
    RESIDENCE_ID,
    ROW_MONEY,
    ROW_PP,
    ROW_RES,
    SECTION_MARK,
    SECTION_PP,
    SECTION_SCORING,
    SECTION_SIZE,
    SECTIONS,
    SIMPLIFIED_FAVOUR_PP,
    SPECIAL_NAMES,
    START_CUBES,
    START_DENIERS,
    START_DENIERS_2P,
    STONE,
    STONE_IDS,
    T_CASTLE,
    T_GATE,
    T_GUILD,
    T_INN,
    T_JOUST,
    T_STABLES,
    T_TRADING_POST,
    TILE_ID,
    TILES,
    TWO_PLAYER_PRICE,
    WOOD,
    WOOD_IDS,
    WORKABLE,
    WORKERS,
    C,
    G,
    S,
    W,
)
from meeple.games.caylus.saved import load_into
from meeple.games.caylus.views import ACTION_LIST as VIEW_ACTIONS
from meeple.games.caylus.views import build_view

# Decision kinds (rules §7.3): P_NONE … P_FAV_BLD and PENDING_NAMES live in data.py (the lens names them),
# as does the phase OVER.

# Log events: tuples (code, seat, a, b) of ints, turned into dicts only in ``view``.
EV_ACTION: Final = 0
EV_INCOME: Final = 1
EV_BAILIFF: Final = 2
EV_SCORING: Final = 3
EV_CASTLE_PENALTY: Final = 4
EV_BEST_BUILDER: Final = 5
EV_FAVOUR_LOST: Final = 6
EV_TURN: Final = 7
EV_RETURNED: Final = 8
EV_CONVERTED: Final = 9
EV_GAME_OVER: Final = 10
EV_INN_EVICTED: Final = 11

ACTION_LIST: Final[tuple[Act, ...]] = VIEW_ACTIONS
ACTION_INDEX: Final[dict[Act, int]] = {act: i for i, act in enumerate(ACTION_LIST)}
TARGET_BY_NAME: Final = {name: t for t, name in SPECIAL_NAMES.items()}

Log: TypeAlias = tuple[int, int, int, int]

ROAD: Final = tuple(range(1, LAST_SPACE + 1))
INCOME_OF: Final = tuple(tile.income for tile in TILES)  # [tile] its phase-1 income
#: ``WORKABLE_AT[tile]`` for a road tile number, where -1 (an empty lot) reads the final ``False``.
WORKABLE_AT: Final = (*WORKABLE, False)
PLACE_BY_TARGET: Final = tuple(A.PLACE.get(t, A.PASS) for t in range(T_CASTLE + 1))
# Decision lists read from tables instead of built: by the favour rows used (a 4-bit mask), provost and
# guild moves from -3 to +3 (sliced by the room the road leaves), by tile the bonus and production choices.
_FAVOURS_LEFT: Final = tuple(tuple(A.FAVOUR[row] for row in range(4) if not used & (1 << row)) for used in range(16))
_PASS_ONLY: Final = (A.PASS,)
_SELLS: Final = tuple(A.SELL[k] for k in range(5))  # compressed by the cubes held
_PROVOST_STEPS: Final = tuple(A.PROVOST[k] for k in range(-3, 4))
_GUILD_STEPS: Final = tuple(A.GUILD[k] for k in range(-3, 4))
_BONUS_OF: Final = tuple(tuple(A.BONUS[k] for k in tile.bonus) for tile in TILES)
_PRODUCE_OF: Final = tuple(tuple(A.PRODUCE[c] for c in tile.produce) for tile in TILES)


#: Every attribute of ``CaylusState``, each in a slot, and what ``clone`` reads to copy them (mypyc, which
#: compiles this module on request, docs/compiled.md, refuses ``CaylusState.__slots__``).
_FIELDS: Final = (
    "_history_notations",
    "_legal",
    "_log_views",
    "_open_places",
    "_undo_floor",
    "avail",
    "bailiff",
    "batches",
    "bridge",
    "built_lots",
    "cap",
    "castle",
    "castle_count",
    "conv",
    "cubes",
    "cur",
    "fav",
    "fav_used",
    "fstack",
    "fsub",
    "fsub_col",
    "fsub_seat",
    "game",
    "gate",
    "guild",
    "houses",
    "inn_left",
    "inn_right",
    "is_over",
    "joust",
    "lawyer_pp",
    "log",
    "money",
    "options",
    "owner",
    "p2i",
    "penalty_if_no_batch",
    "phase",
    "pk",
    "players",
    "pp",
    "pp_floor",
    "provost",
    "ps",
    "removed",
    "rng",
    "scored",
    "seed",
    "simplified",
    "stables",
    "stock",
    "sub",
    "tile",
    "tpost",
    "turn",
    "turn_order",
    "wood_only",
    "worker",
)


class CaylusState(GameState[Act]):
    """One game of Caylus. Everything is public (§6); fields are plain ints and lists for speed."""

    #: every attribute in a slot (the base class's too): read at a fixed offset. With ~58 attributes an
    #: instance dict is each game's own (Python 3.11 shares the keys of at most 30), so most attribute
    #: and method reads of the hot path missed their specialisations from one game to the next.
    __slots__ = _FIELDS

    #: a plain attribute, not a property: asked before every decision; True only once ``phase`` is OVER
    #: (set by ``setup``, where the game ends and by ``load_into``)
    is_over: bool

    # options, read once
    lawyer_pp: int
    wood_only: bool
    pp_floor: bool
    penalty_if_no_batch: bool
    simplified: bool
    # flow
    turn: int
    phase: int
    cur: int
    sub: int
    p2i: int
    pk: int
    ps: int
    turn_order: list[int]
    bridge: list[int]
    # players
    money: list[int]
    cubes: list[list[int]]
    pp: list[int]
    fav: list[list[int]]
    fav_used: list[int]
    avail: list[int]
    batches: list[int]
    # board
    tile: list[int]
    owner: list[int]
    worker: list[int]
    conv: list[int]
    gate: int
    tpost: int
    guild: int
    joust: int
    stables: list[int]
    inn_left: int
    inn_right: int
    castle: list[int]
    houses: list[list[int]]
    castle_count: list[int]
    scored: int
    cap: int
    bailiff: int
    provost: int
    built_lots: int
    stock: list[int]
    removed: list[int]
    fstack: list[tuple[int, int]]
    fsub: int
    fsub_seat: int
    fsub_col: int
    log: list[Log]
    _legal: tuple[Act, ...]
    _open_places: tuple[Act, ...] | None  # phase 2: ``_open_places_now``, kept up to date as workers are placed

    # --- setup --------------------------------------------------------------------------------

    def _read_options(self) -> None:
        options = self.options
        self.lawyer_pp = int(options["lawyer_pp"] or 0)
        self.wood_only = options["lawyer_targets"] == "wood_only"
        self.pp_floor = bool(options["pp_floor"])
        self.penalty_if_no_batch = options["tower_full_penalty"] == "if_no_batch"
        self.simplified = bool(options["simplified_favours"])

    def setup(self) -> None:
        self._read_options()
        self.is_over = False
        n = self.players
        neutral_option = self.options["neutral_order"]
        if isinstance(neutral_option, str):
            neutrals = [TILE_ID[slug] for slug in neutral_option.split(",")]
        else:
            neutrals = list(NEUTRAL_IDS)
            self.rng.shuffle(neutrals)
        order_option = self.options["turn_order"]
        if isinstance(order_option, str):
            self.turn_order = [int(seat) for seat in order_option.split(",")]
        else:
            self.turn_order = list(range(n))
            self.rng.shuffle(self.turn_order)
        self.tile = [-1] * (LAST_SPACE + 1)
        for space, tile in zip(range(1, 7), neutrals, strict=True):
            self.tile[space] = tile
        for space, tile in FIXED_SPACES.items():
            self.tile[space] = tile
        self.owner = [-1] * (LAST_SPACE + 1)
        self.worker = [-1] * (LAST_SPACE + 1)
        self.conv = [-1] * (LAST_SPACE + 1)
        self.stock = [t.copies if t.kind in (WOOD, STONE, PRESTIGE) else 0 for t in TILES]
        if not self.options["jeweller"]:
            self.stock[JEWELLER_ID] = 0
        self.removed = []
        start = START_DENIERS_2P if n == 2 else START_DENIERS
        self.money = [0] * n
        for position, seat in enumerate(self.turn_order):
            self.money[seat] = start[position]
        self.cubes = [list(START_CUBES) for _ in range(n)]
        self.pp = [0] * n
        self.fav = [[0, 0, 0, 0] for _ in range(n)]
        self.fav_used = [0] * n
        self.avail = [WORKERS] * n
        self.batches = [0] * n
        self.gate = self.tpost = self.guild = self.joust = -1
        self.stables = []
        self.inn_left = self.inn_right = -1
        self.castle = []
        self.houses = [[0] * n for _ in range(3)]
        self.castle_count = [0, 0, 0]
        self.scored = 0
        self.cap = FAVOUR_CAP[0]
        self.bailiff = BAILIFF_START
        self.provost = PROVOST_START
        self.built_lots = 0
        self.bridge = []
        self.fstack = []
        self.fsub = self.fsub_seat = self.fsub_col = 0
        self.log = []
        self.turn = 1
        self.phase = 1
        self.cur = self.sub = self.p2i = 0
        self.pk = P_NONE
        self.ps = -1
        self._legal = ()
        self._open_places = None
        self._advance()

    # --- the contract -------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.ps

    def legal_actions(self) -> Sequence[Act]:
        return self._legal

    def apply(self, action: Act | str) -> None:
        """The base class's ``apply`` with a fast path: an interned action found by identity in the legal
        actions is applied at once (a notation, a shorthand or a refusal goes the general way)."""
        if action not in self._legal:
            super().apply(action)
            return
        # ``_apply`` inlined; no RNG comparison: after setup Caylus never draws (§6), so no action can
        # raise the undo floor (tests/games/test_undo_rules.py)
        self.log.append((EV_ACTION, self.ps, ACTION_INDEX[action], 0))
        self._do(action)  # only actions are in the list (narrowed by the `in` test)
        self._advance()
        self._history_notations.append(action.notation)

    def _apply(self, action: Act) -> None:
        self.log.append((EV_ACTION, self.ps, ACTION_INDEX[action], 0))
        self._do(action)
        self._advance()

    def end_bonuses(self, seat: int) -> dict[str, tuple[int, int]]:
        """The end-of-game bonuses of §3.2 of ``seat``, each ``(what it holds, the PP it gives)``: its gold
        cubes, its plain (food, wood, stone, cloth) cubes and its deniers."""
        held = self.cubes[seat]
        plain = held[0] + held[1] + held[2] + held[3]
        money = self.money[seat]
        return {"gold": (held[G], GOLD_PP * held[G]), "plain_cubes": (plain, plain // PLAIN_PER_PP),
                "deniers": (money, money // DENIERS_PER_PP)}

    def final_scores(self) -> list[int]:
        """Track PP plus the end-of-game bonuses of §3.2 (``end_bonuses``)."""
        return [self.pp[p] + sum(pp for _held, pp in self.end_bonuses(p).values()) for p in range(self.players)]

    def scores(self) -> list[int]:
        return self.final_scores() if self.phase == OVER else list(self.pp)

    def winners(self) -> list[int]:
        scores = self.final_scores()
        best = max(scores)
        return [p for p, score in enumerate(scores) if score == best]

    def stats(self) -> dict[str, int]:
        return {
            "actions": len(self._history_notations),
            "rounds": self.turn,
            "buildings": self.built_lots,
            "castle_houses": sum(self.castle_count),
            "bailiff": self.bailiff,
        }

    def determinize(self, seat: int | None, rng: Rng | int | None = None) -> Self:
        """Caylus hides nothing and draws nothing after setup (§6): a copy with a fresh RNG.

        Only the generator is replaced (future chance counts as unseen); it never drives a rule.
        """
        sampler = self._determinization_rng(rng)
        other = self.clone()
        other.rng = sampler.fork()
        return other

    # --- flow: find the next decision, running automatic steps ----------------------------------

    def settle(self) -> None:
        """Run automatic steps from the current cursors up to the next real decision.

        Used after setup and after every action; tests call it after building a position by hand.
        """
        self._open_places = None
        self._advance()

    def _advance(self) -> None:
        while True:
            if not self._find_decision():
                self._legal = ()
                self.ps = -1
                return
            if self.pk == P_PLACE:  # the commonest decision: _gen_legal's first case without its call
                p = self.ps
                money = self.money[p]
                if self.avail[p] > 0 and money >= 1:
                    out: list[Act] = []
                    self._placements(p, money, out)
                    out.append(A.PASS)
                    legal = tuple(out)
                else:
                    legal = _PASS_ONLY
            else:
                legal = self._gen_legal()
            if len(legal) == 1:
                only = legal[0]
                self.log.append((EV_ACTION, self.ps, ACTION_INDEX[only], 1))
                self._do(only)
                continue
            self._legal = legal
            return

    def _find_decision(self) -> bool:
        """Move through automatic steps until someone must decide; False once the game is over."""
        while True:
            if self.fsub:
                self.pk = self.fsub
                self.ps = self.fsub_seat
                return True
            if self.fstack:
                seat, _count = self.fstack[-1]
                if self.fav_used[seat] == 15:  # every row used this phase: the favour is lost (D14)
                    self._pop_favour()
                    self.log.append((EV_FAVOUR_LOST, seat, 0, 0))
                    continue
                self.pk = P_FAV_ROW
                self.ps = seat
                return True
            phase = self.phase
            if phase == 2:
                if len(self.bridge) == self.players:
                    self._start_phase3()
                    continue
                self.pk = P_PLACE
                self.ps = self.turn_order[self.p2i]
                return True
            if phase == 3:
                if self._phase3_step():
                    return True
                continue
            if phase == 4:
                if self.cur < len(self.bridge):
                    self.pk = P_PROVOST
                    self.ps = self.bridge[self.cur]
                    return True
                self._start_phase5()
                continue
            if phase == 5:
                s = self.cur
                provost = self.provost
                worker = self.worker
                while s <= provost and worker[s] < 0:
                    s += 1
                if s > provost:
                    self._start_phase6()
                    continue
                self.cur = s
                if self.sub:
                    self.pk = P_BONUS
                    self.ps = self.owner[s]
                else:
                    self.pk = P_ACTIVATE
                    self.ps = worker[s]
                return True
            if phase == 6:
                if self.cur < len(self.castle):
                    self.pk = P_CASTLE
                    self.ps = self.castle[self.cur]
                    return True
                if not self.sub:
                    self._end_castle()
                    continue
                self._start_phase7()
                continue
            if phase == 7:
                if self.cur == 0:
                    self._move_bailiff()
                    continue
                if self._scoring_step():
                    continue
                if self.phase == OVER:
                    return False
                self._end_turn()
                continue
            if phase == 1:
                self._income()
                continue
            return False  # OVER

    # --- phase transitions --------------------------------------------------------------------

    def _income(self) -> None:
        n = self.players
        gain = [INCOME] * n
        for o, t in zip(self.owner, self.tile, strict=True):
            if o >= 0:
                gain[o] += INCOME_OF[t]
        for p in range(n):
            self.money[p] += gain[p]
            self.log.append((EV_INCOME, p, gain[p], 0))
        self.phase = 2
        self.bridge = []
        self.p2i = 0
        self._open_places = None
        self.fav_used = [0] * n

    def _start_phase3(self) -> None:
        self.phase = 3
        self.cur = 0
        self.fav_used = [0] * self.players

    def _phase3_step(self) -> bool:
        """One step of the special buildings (§2.4); True when a decision is set."""
        cur = self.cur
        if cur == 0:
            if self.gate >= 0:
                self.pk = P_GATE
                self.ps = self.gate
                return True
            self.cur = 1
        elif cur == 1:
            if self.tpost >= 0:
                self.money[self.tpost] += 3
                self.avail[self.tpost] += 1
                self.tpost = -1
            self.cur = 2
        elif cur == 2:
            if self.guild >= 0:
                self.pk = P_GUILD
                self.ps = self.guild
                return True
            self.cur = 3
        elif cur == 3:
            if self.joust >= 0:
                self.pk = P_JOUST
                self.ps = self.joust
                return True
            self.cur = 4
        elif cur == 4:
            if self.stables:
                spots = self.stables
                self.turn_order = spots + [p for p in self.turn_order if p not in spots]
                for p in spots:
                    self.avail[p] += 1
                self.stables = []
            self.cur = 5
        elif cur == 5:
            if self.inn_left >= 0:
                if self.inn_right >= 0:
                    self.avail[self.inn_right] += 1
                    self.log.append((EV_INN_EVICTED, self.inn_right, 0, 0))
                self.inn_right = self.inn_left
                self.inn_left = -1
            elif self.inn_right >= 0:
                self.pk = P_INN
                self.ps = self.inn_right
                return True
            self.cur = 6
        else:
            self.phase = 4
            self.cur = 0
            self.fav_used = [0] * self.players
        return False

    def _start_phase5(self) -> None:
        self.phase = 5
        self.fav_used = [0] * self.players
        worker = self.worker
        for s in range(self.provost + 1, LAST_SPACE + 1):
            if worker[s] >= 0:
                self.log.append((EV_RETURNED, worker[s], s, 0))
                self._release(s)
        self.cur = 1
        self.sub = 0

    def _release(self, s: int) -> None:
        """The worker on road space ``s`` goes home; a conversion waiting on it happens now (§2.6.4)."""
        self.avail[self.worker[s]] += 1
        self.worker[s] = -1
        if self.conv[s] >= 0:
            self._convert(s, self.conv[s])

    def _start_phase6(self) -> None:
        self.phase = 6
        self.cur = 0
        self.sub = 0
        self.fav_used = [0] * self.players
        self.batches = [0] * self.players

    def _end_castle(self) -> None:
        best, best_count = -1, 0
        for p in self.castle:
            if self.batches[p] > best_count:
                best, best_count = p, self.batches[p]
            self.avail[p] += 1
        self.castle = []
        self.sub = 1
        if best >= 0:
            self.log.append((EV_BEST_BUILDER, best, best_count, 0))
            self._grant(best, 1)

    def _start_phase7(self) -> None:
        self.phase = 7
        self.cur = 0
        self.fav_used = [0] * self.players

    def _move_bailiff(self) -> None:
        self.bailiff += 2 if self.provost > self.bailiff else 1
        self.provost = self.bailiff
        self.log.append((EV_BAILIFF, -1, self.bailiff, 0))
        self.cur = 1

    def _scoring_step(self) -> bool:
        """Score the lowest unscored section if it qualifies (D13); True if one was scored.

        The favour cap changes only here, once the favours of the previous scoring are resolved.
        """
        self.cap = FAVOUR_CAP[self.scored]
        x = self.scored
        if x == 3:
            self.phase = OVER
            self.is_over = True
            self.log.append((EV_GAME_OVER, -1, 0, 0))
            return False
        if self.castle_count[x] < SECTION_SIZE[x] and self.bailiff < SECTION_MARK[x]:
            return False
        table = SECTION_SCORING[x]
        grants = []
        for p in self.turn_order:
            held = self.houses[x][p]
            outcome = table[held if held < 6 else 6]
            self.log.append((EV_SCORING, p, x, held))
            if outcome < 0:
                self._lose(p, -outcome)
            elif outcome > 0:
                grants.append((p, outcome))
        self.scored = x + 1
        for p, count in reversed(grants):
            self._grant(p, count)
        return True

    def _end_turn(self) -> None:
        if self.players == 2:
            self.turn_order.reverse()
        self.turn += 1
        self.log.append((EV_TURN, -1, self.turn, 0))
        self.phase = 1

    # --- helpers ------------------------------------------------------------------------------

    def _lose(self, p: int, amount: int) -> None:
        self.pp[p] -= amount
        if self.pp_floor and self.pp[p] < 0:
            self.pp[p] = 0

    def _grant(self, p: int, count: int) -> None:
        if count <= 0:
            return
        if self.simplified:
            self.pp[p] += SIMPLIFIED_FAVOUR_PP * count
        else:
            self.fstack.append((p, count))

    def _pop_favour(self) -> None:
        seat, count = self.fstack[-1]
        if count > 1:
            self.fstack[-1] = (seat, count - 1)
        else:
            self.fstack.pop()

    def _castle_section(self) -> int:
        """The section the next house goes into (overflow, D29), or -1 if the castle has no room."""
        count = self.castle_count
        for x in range(self.scored, 3):
            if count[x] < SECTION_SIZE[x]:
                return x
        return -1

    def _can_batch(self, p: int) -> bool:
        held = self.cubes[p]
        if not held[0]:
            return False
        return (held[1] > 0) + (held[2] > 0) + (held[3] > 0) + (held[4] > 0) >= 2

    def _place_worker(self, p: int, target: int) -> None:
        """Put one of ``p``'s workers on a target (phase 2 placement or a gate move)."""
        open_places = self._open_places
        if open_places is not None:
            if self.phase != 2:
                self._open_places = None
            elif target != T_CASTLE and (target != T_STABLES or len(self.stables) == 2):  # now full
                index = open_places.index(PLACE_BY_TARGET[target])  # legal, so it was open
                self._open_places = open_places[:index] + open_places[index + 1:]
        if target <= LAST_SPACE:
            self.worker[target] = p
            o = self.owner[target]
            if o >= 0 and o != p:
                self.pp[o] += 1
        elif target == T_CASTLE:
            self.castle.append(p)
        elif target == T_STABLES:
            self.stables.append(p)
        elif target == T_INN:
            self.inn_left = p
        elif target == T_TRADING_POST:
            self.tpost = p
        elif target == T_GUILD:
            self.guild = p
        elif target == T_JOUST:
            self.joust = p
        else:
            self.gate = p

    def _gate_targets(self, p: int) -> list[int]:
        """Where the gate may send ``p``'s worker (D16): any phase-2 target but the gate, cost ignored."""
        result = []
        tile = self.tile
        worker = self.worker
        for s in range(1, LAST_SPACE + 1):
            t = tile[s]
            if t >= 0 and worker[s] < 0 and WORKABLE[t]:
                result.append(s)
        if self.tpost < 0:
            result.append(T_TRADING_POST)
        if self.guild < 0:
            result.append(T_GUILD)
        if self.joust < 0:
            result.append(T_JOUST)
        if self.players > 2 and len(self.stables) < 3 and p not in self.stables:
            result.append(T_STABLES)
        if self.inn_left < 0:
            result.append(T_INN)
        if p not in self.castle:
            result.append(T_CASTLE)
        return result

    def _open_places_now(self) -> tuple[Act, ...]:
        """The phase-2 places open to every seat: the free workable road spaces in road order, then the
        special buildings with room (the castle, open to each seat once, is left to ``_placements``)."""
        place = PLACE_BY_TARGET
        tile = self.tile
        worker = self.worker
        out = [place[s] for s in ROAD if worker[s] < 0 and WORKABLE_AT[tile[s]]]
        if self.gate < 0:
            out.append(place[T_GATE])
        if self.tpost < 0:
            out.append(place[T_TRADING_POST])
        if self.guild < 0:
            out.append(place[T_GUILD])
        if self.joust < 0:
            out.append(place[T_JOUST])
        if self.players > 2 and len(self.stables) < 3:
            out.append(place[T_STABLES])
        if self.inn_left < 0:
            out.append(place[T_INN])
        return tuple(out)

    def _placements(self, p: int, money: int, out: list[Act]) -> None:
        """Phase-2 placements ``p`` can pay for: ``_targets`` and ``price`` fused for speed."""
        open_places = self._open_places
        if open_places is None:  # once per phase 2, then kept up to date by _place_worker
            open_places = self._open_places = self._open_places_now()
        bridge = self.bridge  # price(p, T_GATE) inlined: what a place not his own costs
        if self.inn_right == p:
            price = 1
        elif self.players == 2 and bridge:
            price = TWO_PLAYER_PRICE
        else:
            price = len(bridge) + 1
        if money < price:  # only his own buildings, at 1 d
            owner = self.owner
            if p in owner:  # most often he has none
                out += [action for action in open_places if action.a <= LAST_SPACE and owner[action.a] == p]
            return
        out += open_places
        stables = self.stables
        if p in stables and len(stables) < 3:  # one worker of each seat in the stables
            out.remove(PLACE_BY_TARGET[T_STABLES])
        if p not in self.castle:
            out.append(PLACE_BY_TARGET[T_CASTLE])

    def price(self, p: int, target: int) -> int:
        """What placing a worker on ``target`` costs ``p`` now (the table of §2.3 and §3.3)."""
        if self.inn_right == p:
            return 1
        if target <= LAST_SPACE and self.owner[target] == p:
            return 1
        if self.players == 2 and self.bridge:
            return TWO_PLAYER_PRICE
        return len(self.bridge) + 1

    def _convert(self, s: int, p: int) -> None:
        t = self.tile[s]
        if TILES[t].kind == NEUTRAL:
            self.removed.append(t)
        else:
            self.stock[t] += 1
        self.tile[s] = RESIDENCE_ID
        self.owner[s] = p
        self.conv[s] = -1
        self.log.append((EV_CONVERTED, p, s, 0))

    def _lawyer_targets(self, p: int) -> list[int]:
        result = []
        tile = self.tile
        owner = self.owner
        conv = self.conv
        for s in range(1, LAST_SPACE + 1):
            t = tile[s]
            if t < 0 or conv[s] >= 0:
                continue
            kind = TILES[t].kind
            if kind == NEUTRAL or (
                owner[s] == p and t != LAWYER_ID and (kind == WOOD or (kind == STONE and not self.wood_only))
            ):
                result.append(s)
        return result

    def _build_options(self, p: int, kinds: int, favour: bool, out: list[Act]) -> None:
        """Constructions open to ``p``: ``kinds`` is WOOD, STONE or PRESTIGE (§2.6.3, §2.9)."""
        held = self.cubes[p]
        stock = self.stock
        if kinds == PRESTIGE:
            spaces = [s for s in range(1, LAST_SPACE + 1) if self.tile[s] == RESIDENCE_ID and self.owner[s] == p]
            if not spaces:
                return
            for t in PRESTIGE_IDS:
                if stock[t] and all(held[k] >= TILES[t].cost[k] for k in range(5)):
                    table = A.BUILD_ON[t]
                    out.extend(table[s] for s in spaces)
            return
        if self.built_lots >= len(LOTS):
            return
        ids = WOOD_IDS if kinds == WOOD else STONE_IDS
        discount = (W if kinds == WOOD else S) if favour else -1
        h0, h1, h2, h3, h4 = held
        for t in ids:
            if not stock[t]:
                continue
            tile = TILES[t]
            need = list(tile.cost)
            if discount >= 0 and need[discount]:
                need[discount] -= 1
            if tile.any_cube:
                for x in range(5):
                    need[x] += 1
                    if h0 >= need[0] and h1 >= need[1] and h2 >= need[2] and h3 >= need[3] and h4 >= need[4]:
                        out.append(A.BUILD_ANY[t][x])
                    need[x] -= 1
            elif h0 >= need[0] and h1 >= need[1] and h2 >= need[2] and h3 >= need[3] and h4 >= need[4]:
                out.append(A.BUILD[t])

    def _build(self, p: int, act: Act, favour: bool) -> None:
        t = act.a
        tile = TILES[t]
        held = self.cubes[p]
        for k in range(5):
            held[k] -= tile.cost[k]
        if favour and tile.kind == WOOD:
            held[W] += 1
        elif favour and tile.kind == STONE:
            held[S] += 1
        self.stock[t] -= 1
        if tile.kind == PRESTIGE:
            self.tile[act.b] = t
        else:
            if tile.any_cube:
                held[act.b] -= 1
            space = LOTS[self.built_lots]
            self.built_lots += 1
            self.tile[space] = t
            self.owner[space] = p
        self.pp[p] += self.lawyer_pp if t == LAWYER_ID else tile.prestige
        self._grant(p, tile.favours)

    def _lawyer(self, p: int, s: int, favour: bool) -> None:
        self.cubes[p][C] -= 1
        if not favour:
            self.money[p] -= 1
        self.pp[p] += TILES[RESIDENCE_ID].prestige
        if self.worker[s] >= 0:
            self.conv[s] = p
        else:
            self._convert(s, p)

    # --- legal actions --------------------------------------------------------------------------

    def _gen_legal(self) -> tuple[Act, ...]:
        """The actions of the decision waiting (``pk``), by one method per decision kind."""
        out: list[Act] = []
        _OPTIONS_OF_DECISION[self.pk](self, self.ps, out)
        return tuple(out)

    def _no_options(self, p: int, out: list[Act]) -> None:
        """``P_NONE``: nobody is asked anything."""

    def _place_options(self, p: int, out: list[Act]) -> None:
        """Phase 2 (§2.3): a place ``p`` can pay for while a worker is left, or the bridge (also inlined
        in ``_advance``)."""
        money = self.money[p]
        if self.avail[p] > 0 and money >= 1:
            self._placements(p, money, out)
        out.append(A.PASS)

    def _castle_options(self, p: int, out: list[Act]) -> None:
        """Phase 6 (§2.7): the batches ``p`` can pay for while the castle has room, then done."""
        if self._castle_section() >= 0:
            h0, h1, h2, h3, h4 = self.cubes[p]
            for batch in A.CASTLE:
                c = batch.c
                if h0 >= c[0] and h1 >= c[1] and h2 >= c[2] and h3 >= c[3] and h4 >= c[4]:
                    out.append(batch)
        out.append(A.CASTLE_DONE)

    def _favour_row_options(self, p: int, out: list[Act]) -> None:
        out += _FAVOURS_LEFT[self.fav_used[p]]

    def _provost_options(self, p: int, out: list[Act]) -> None:
        """Phase 4 (§2.5): the provost moved up to 3 spaces, a denier a space, within the road."""
        self._provost_steps(min(3, self.money[p]), _PROVOST_STEPS, out)

    def _guild_options(self, p: int, out: list[Act]) -> None:
        """The guild (§2.4): the provost moved up to 3 spaces for free, within the road."""
        self._provost_steps(3, _GUILD_STEPS, out)

    def _provost_steps(self, limit: int, steps: tuple[Act, ...], out: list[Act]) -> None:
        provost = self.provost
        low = max(-limit, 1 - provost)
        high = min(limit, LAST_SPACE - provost)
        out += steps[low + 3:high + 4]

    def _bonus_options(self, p: int, out: list[Act]) -> None:
        out += _BONUS_OF[self.tile[self.cur]]

    def _gate_options(self, p: int, out: list[Act]) -> None:
        out.extend(A.GATE[t] for t in self._gate_targets(p))
        out.append(A.GATE_BACK)

    def _joust_options(self, p: int, out: list[Act]) -> None:
        if self.money[p] >= 1 and self.cubes[p][C] >= 1:
            out.append(A.JOUST_YES)
        out.append(A.JOUST_NO)

    def _inn_options(self, p: int, out: list[Act]) -> None:
        out.append(A.INN_STAY)
        out.append(A.INN_LEAVE)

    def _favour_resource_options(self, p: int, out: list[Act]) -> None:
        """A favour on the resource row (§2.9): the cubes of the columns reached, a trade from the 4th."""
        col = self.fsub_col
        res = A.RES
        out.append(res[0])
        if col >= 2:
            out.append(res[W])
            out.append(res[S])
        if col >= 3:
            out.append(res[C])
        if col >= 4:
            held = self.cubes[p]
            for give in range(5):
                if held[give]:
                    out.extend(A.TRADE[give].values())
        if col >= 5:
            out.append(res[G])

    def _favour_building_options(self, p: int, out: list[Act]) -> None:
        """A favour on the building row (§2.9): the constructions of the columns reached, or skip."""
        col = self.fsub_col
        self._build_options(p, WOOD, True, out)
        if col >= 3:
            self._build_options(p, STONE, True, out)
        if col >= 4 and self.cubes[p][C] >= 1:
            out.extend(A.LAWYER[s] for s in self._lawyer_targets(p))
        if col >= 5:
            self._build_options(p, PRESTIGE, True, out)
        out.append(A.SKIP)

    def _activation_options(self, p: int, out: list[Act]) -> None:
        """Phase 5 (§2.6): what the building at space ``cur``, where ``p``'s worker stands, offers."""
        t = self.tile[self.cur]
        tile = TILES[t]
        effect = tile.effect
        held = self.cubes[p]
        money = self.money[p]
        if effect in (E_PRODUCE, E_PRODUCE_BONUS):
            out += _PRODUCE_OF[t]
            return
        if effect == E_MARKET:
            out += compress(_SELLS, held)
        elif effect == E_PEDDLER:
            if tile.kind == FIXED:
                if money >= 2:
                    out.extend(A.BUY1.values())
            else:
                if money >= 1:
                    out.extend(A.BUY1.values())
                if money >= 2:
                    out.extend(A.BUY2.values())
        elif effect == E_CARPENTER:
            self._build_options(p, WOOD, False, out)
        elif effect == E_MASON:
            self._build_options(p, STONE, False, out)
        elif effect == E_ARCHITECT:
            self._build_options(p, PRESTIGE, False, out)
        elif effect == E_LAWYER:
            if money >= 1 and held[C] >= 1:
                out.extend(A.LAWYER[x] for x in self._lawyer_targets(p))
        elif effect == E_CHURCH:
            if money >= 2:
                out.append(A.CHURCH[2])
                if money >= 4:
                    out.append(A.CHURCH[4])
        elif effect == E_TAILOR:
            if held[C] >= 2:
                out.append(A.TAILOR[2])
                if held[C] >= 3:
                    out.append(A.TAILOR[3])
        elif effect == E_BANK:
            if money >= 2:
                out.append(A.BANK[2])
                if money >= 5:
                    out.append(A.BANK[5])
        elif effect == E_ALCHEMIST:
            for act in A.ALCH:
                c = act.c
                if held[0] >= c[0] and held[1] >= c[1] and held[2] >= c[2] and held[3] >= c[3]:
                    out.append(act)
        elif effect == E_JEWELLER and held[G] >= 1:
            out.append(A.JEWEL[1])
            if held[G] >= 2:
                out.append(A.JEWEL[2])
        out.append(A.SKIP)

    # --- carrying out a decision ------------------------------------------------------------

    def _do(self, act: Act) -> None:
        """Carry out ``act`` at the decision waiting (``pk``), by one method per decision kind."""
        _DO_OF_DECISION[self.pk](self, self.ps, act)

    def _do_none(self, p: int, act: Act) -> None:
        raise InvalidState(f"no decision is waiting for {act}")

    def _do_place(self, p: int, act: Act) -> None:
        """Phase 2 (§2.3): a worker placed at its price, or a pass to the bridge; then the next seat on."""
        bridge = self.bridge
        if act.kind == A.K_PASS:
            bridge.append(p)
            if len(bridge) == 1:
                self.money[p] += FIRST_PASS_BONUS
        else:
            target = act.a  # price(p, target) inlined
            if self.inn_right == p or (target <= LAST_SPACE and self.owner[target] == p):
                self.money[p] -= 1
            elif self.players == 2 and bridge:
                self.money[p] -= TWO_PLAYER_PRICE
            else:
                self.money[p] -= len(bridge) + 1
            self.avail[p] -= 1
            self._place_worker(p, target)
        players = self.players
        if len(bridge) < players:
            order = self.turn_order
            i = self.p2i
            while True:
                i = (i + 1) % players
                if order[i] not in bridge:
                    break
            self.p2i = i

    def _do_castle(self, p: int, act: Act) -> None:
        """Phase 6 (§2.7): a batch for the castle, or done (with the penalty of a seat that built none)."""
        if act.kind == A.K_DONE:
            if not self.batches[p] and (
                self._castle_section() >= 0 or (self.penalty_if_no_batch and not self._can_batch(p))
            ):
                self._lose(p, CASTLE_PENALTY)
                self.log.append((EV_CASTLE_PENALTY, p, CASTLE_PENALTY, 0))
            self.cur += 1
            return
        held = self.cubes[p]
        c = act.c
        for k in range(5):
            held[k] -= c[k]
        x = self._castle_section()
        self.castle_count[x] += 1
        self.houses[x][p] += 1
        self.pp[p] += SECTION_PP[x]
        self.batches[p] += 1

    def _do_favour_row(self, p: int, act: Act) -> None:
        self._favour_row(p, act.a)

    def _do_provost(self, p: int, act: Act) -> None:
        self.money[p] -= abs(act.a)
        self.provost += act.a
        self.cur += 1

    def _do_bonus(self, p: int, act: Act) -> None:
        self.cubes[p][act.a] += 1
        self._finish_space()

    def _do_gate(self, p: int, act: Act) -> None:
        self.gate = -1
        if act.a:
            self._place_worker(p, act.a)
        else:
            self.avail[p] += 1
        self.cur = 1

    def _do_guild(self, p: int, act: Act) -> None:
        self.provost += act.a
        self.guild = -1
        self.avail[p] += 1
        self.cur = 3

    def _do_joust(self, p: int, act: Act) -> None:
        self.joust = -1
        self.avail[p] += 1
        self.cur = 4
        if act.a:
            self.money[p] -= 1
            self.cubes[p][C] -= 1
            self._grant(p, 1)

    def _do_inn(self, p: int, act: Act) -> None:
        if not act.a:
            self.inn_right = -1
            self.avail[p] += 1
        self.cur = 6

    def _do_favour_resource(self, p: int, act: Act) -> None:
        self.fsub = 0
        held = self.cubes[p]
        if act.kind == A.K_RES:
            held[act.a] += 1
        else:
            held[act.a] -= 1
            c = act.c
            for k in PLAIN:
                held[k] += c[k]

    def _do_favour_building(self, p: int, act: Act) -> None:
        self.fsub = 0
        if act.kind == A.K_BUILD:
            self._build(p, act, True)
        elif act.kind == A.K_LAWYER:
            self._lawyer(p, act.a, True)

    def _favour_row(self, p: int, row: int) -> None:
        self._pop_favour()
        self.fav_used[p] |= 1 << row
        markers = self.fav[p]
        col = markers[row]
        if col < self.cap:
            col += 1
            markers[row] = col
        if row == ROW_PP:
            self.pp[p] += col
        elif row == ROW_MONEY:
            self.money[p] += col + 2
        elif row == ROW_RES or col >= 2:
            self.fsub = P_FAV_RES if row == ROW_RES else P_FAV_BLD
            self.fsub_seat = p
            self.fsub_col = col

    def _do_activation(self, p: int, act: Act) -> None:
        kind = act.kind
        held = self.cubes[p]
        s = self.cur
        if kind == A.K_PRODUCE:
            held[:] = map(add, held, act.c)
            owner = self.owner[s]
            if TILES[self.tile[s]].effect == E_PRODUCE_BONUS and owner >= 0 and owner != p:
                self.sub = 1
                return
        elif kind == A.K_SELL:
            held[act.a] -= 1
            self.money[p] += 4 if TILES[self.tile[s]].kind == NEUTRAL else 6
        elif kind == A.K_BUY:
            fixed = TILES[self.tile[s]].kind == FIXED
            self.money[p] -= 2 if fixed else act.a
            c = act.c
            for k in PLAIN:
                held[k] += c[k]
        elif kind == A.K_BUILD:
            self._build(p, act, False)
        elif kind == A.K_LAWYER:
            self._lawyer(p, act.a, False)
        elif kind == A.K_CHURCH:
            self.money[p] -= act.a
            self.pp[p] += 3 if act.a == 2 else 5
        elif kind == A.K_TAILOR:
            held[C] -= act.a
            self.pp[p] += 4 if act.a == 2 else 6
        elif kind == A.K_BANK:
            self.money[p] -= act.a
            held[G] += 1 if act.a == 2 else 2
        elif kind == A.K_ALCH:
            c = act.c
            for k in PLAIN:
                held[k] -= c[k]
            held[G] += act.a
        elif kind == A.K_JEWEL:
            held[G] -= act.a
            self.pp[p] += 5 if act.a == 1 else 9
        self._finish_space()

    def _finish_space(self) -> None:
        s = self.cur
        self._release(s)
        self.cur = s + 1
        self.sub = 0

    # --- copies -------------------------------------------------------------------------------

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        self._copy_common_to(other)
        for name in _SHARED_FIELDS:
            setattr(other, name, getattr(self, name))
        other.turn_order = self.turn_order[:]
        other.bridge = self.bridge[:]
        other.money = self.money[:]
        other.cubes = [c[:] for c in self.cubes]
        other.pp = self.pp[:]
        other.fav = [f[:] for f in self.fav]
        other.fav_used = self.fav_used[:]
        other.avail = self.avail[:]
        other.batches = self.batches[:]
        other.tile = self.tile[:]
        other.owner = self.owner[:]
        other.worker = self.worker[:]
        other.conv = self.conv[:]
        other.stables = self.stables[:]
        other.castle = self.castle[:]
        other.houses = [h[:] for h in self.houses]
        other.castle_count = self.castle_count[:]
        other.stock = self.stock[:]
        other.removed = self.removed[:]
        other.fstack = self.fstack[:]
        other.log = self.log[:]
        return other

    # --- saved form -----------------------------------------------------------------------------

    def dump_body(self) -> JSON:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "cursor": self.cur,
            "sub": self.sub,
            "placing": self.p2i,
            "turn_order": self.turn_order[:],
            "bridge": self.bridge[:],
            "deniers": self.money[:],
            "cubes": [c[:] for c in self.cubes],
            "prestige": self.pp[:],
            "favours": [f[:] for f in self.fav],
            "favour_rows_used": self.fav_used[:],
            "workers": self.avail[:],
            "batches": self.batches[:],
            "road": [None if t < 0 else TILES[t].slug for t in self.tile[1:]],
            "owners": self.owner[1:],
            "road_workers": self.worker[1:],
            "conversions": self.conv[1:],
            "gate": self.gate,
            "trading_post": self.tpost,
            "guild": self.guild,
            "joust": self.joust,
            "stables": self.stables[:],
            "inn": [self.inn_left, self.inn_right],
            "castle_workers": self.castle[:],
            "houses": [h[:] for h in self.houses],
            "scored": self.scored,
            "favour_cap": self.cap,
            "bailiff": self.bailiff,
            "provost": self.provost,
            "stock": {TILES[t].slug: self.stock[t] for t in (*WOOD_IDS, *STONE_IDS, *PRESTIGE_IDS)},
            "removed": [TILES[t].slug for t in self.removed],
            "favour_stack": [[seat, count] for seat, count in self.fstack],
            "favour_choice": [self.fsub, self.fsub_seat, self.fsub_col],
            "log": [list(entry) for entry in self.log],
        }

    def load_body(self, body: JSON) -> None:
        self._read_options()
        load_into(self, body)
        self.pk = P_NONE
        self.ps = -1
        self._legal = ()
        self._open_places = None
        if self.phase != OVER:
            if not self._find_decision():
                raise InvalidState("the saved state is not at a decision")
            legal = self._gen_legal()
            if len(legal) < 2:
                raise InvalidState("the saved state is not at a real decision")
            self._legal = legal
        if self.dump_body() != body:  # finding the decision moved the game on, or unknown keys
            raise InvalidState("the saved state is not one the rules stop at")

    # --- view -----------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> JSON:
        return build_view(self, seat)

    def pending(self) -> dict[str, Any] | None:
        """The decision waiting now, as JSON-safe data (§7.3), or None once over."""
        if self.phase == OVER:
            return None
        kind = self.pk
        data: dict[str, Any] = {"kind": PENDING_NAMES[kind], "seat": self.ps}
        if kind in (P_ACTIVATE, P_BONUS):
            data["space"] = self.cur
            data["building"] = TILES[self.tile[self.cur]].slug
            data["worker"] = self.worker[self.cur]
        elif kind == P_FAV_ROW:
            data["favours"] = sum(count for seat, count in self.fstack if seat == self.ps)
        elif kind in (P_FAV_RES, P_FAV_BLD):
            data["column"] = self.fsub_col
        elif kind == P_PLACE:
            data["price"] = self.price(self.ps, T_GATE)
        elif kind == P_CASTLE:
            data["batches"] = self.batches[self.ps]
            section = self._castle_section()
            data["section"] = SECTIONS[section] if section >= 0 else None
        return data


#: what ``clone`` copies: the lists (the nested ones one level deeper) and, in ``_copy_common_to``,
#: the base class's fields; every other field holds an int, a flag or a tuple, which the copy shares
_COPIED_FIELDS: Final = ("turn_order", "bridge", "money", "cubes", "pp", "fav", "fav_used", "avail", "batches", "tile",
                         "owner", "worker", "conv", "stables", "castle", "houses", "castle_count", "stock", "removed",
                         "fstack", "log", "game", "players", "seed", "options", "rng", "_history_notations",
                         "_undo_floor", "_log_views")
_SHARED_FIELDS: Final = tuple(name for name in _FIELDS if name not in _COPIED_FIELDS)

#: ``_do`` by decision kind.
_DO_BY_DECISION: Final[dict[int, Callable[[CaylusState, int, Act], None]]] = {
    P_NONE: CaylusState._do_none,
    P_PLACE: CaylusState._do_place,
    P_GATE: CaylusState._do_gate,
    P_GUILD: CaylusState._do_guild,
    P_JOUST: CaylusState._do_joust,
    P_INN: CaylusState._do_inn,
    P_PROVOST: CaylusState._do_provost,
    P_ACTIVATE: CaylusState._do_activation,
    P_BONUS: CaylusState._do_bonus,
    P_CASTLE: CaylusState._do_castle,
    P_FAV_ROW: CaylusState._do_favour_row,
    P_FAV_RES: CaylusState._do_favour_resource,
    P_FAV_BLD: CaylusState._do_favour_building,
}
_DO_OF_DECISION: Final = tuple(_DO_BY_DECISION[kind] for kind in range(len(_DO_BY_DECISION)))  # indexed by kind

#: ``_gen_legal`` by decision kind.
_OPTIONS_BY_DECISION: Final[dict[int, Callable[[CaylusState, int, list[Act]], None]]] = {
    P_NONE: CaylusState._no_options,
    P_PLACE: CaylusState._place_options,
    P_GATE: CaylusState._gate_options,
    P_GUILD: CaylusState._guild_options,
    P_JOUST: CaylusState._joust_options,
    P_INN: CaylusState._inn_options,
    P_PROVOST: CaylusState._provost_options,
    P_ACTIVATE: CaylusState._activation_options,
    P_BONUS: CaylusState._bonus_options,
    P_CASTLE: CaylusState._castle_options,
    P_FAV_ROW: CaylusState._favour_row_options,
    P_FAV_RES: CaylusState._favour_resource_options,
    P_FAV_BLD: CaylusState._favour_building_options,
}
_OPTIONS_OF_DECISION: Final = tuple(_OPTIONS_BY_DECISION[kind] for kind in range(len(_OPTIONS_BY_DECISION)))  # by kind
