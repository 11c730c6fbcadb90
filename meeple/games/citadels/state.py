"""The Citadels game state: selection drafts for 2–7 players, the called action phase, scoring.

Internally everything is small ints (district kinds, character indexes = rank − 1, seats) held in
plain lists, so a random playout costs a few microseconds per action. Multi-step decisions are the
``phase`` value plus the fields it uses: ``pool`` (characters being drafted), ``drawn``/``keeps_left``
(keep step), ``marked`` (Magician redraw), ``grave_card`` (Graveyard prompt, decided by its owner).
``knowledge`` holds what each seat (and, last, a spectator) knows of where hidden cards are
(``meeple/games/card_knowledge.py``; its locations are the seats' hands and ``DRAWN``); ``deck_top``
counts the cards ever drawn from the top, so that deck positions are stable. No rule reads those
records, only ``determinize``, ``to_json`` and ``validate``: the events that update them are queued
with what they need to know (``_pending``) and applied in order when ``knowledge`` is read, so a
playout that never reads them never pays for them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from functools import reduce
from itertools import permutations
from operator import or_
from typing import Any, Final, Self, TypeAlias

from meeple.core.contract import JSON, GameState
from meeple.core.errors import InvalidState
from meeple.core.logview import log_views
from meeple.core.rng import Rng
from meeple.games.card_knowledge import (
    Record,
    check_record,
    discarded_unseen,
    emptied,
    empty_record,
    gained_in_public,
    moved_unseen,
    put_under_seen,
    record_from_json,
    record_to_json,
    removed_in_public,
    revealed,
    sample,
    swapped,
    took_seen,
    took_unseen,
    update_others,
    watch,
)
from meeple.games.citadels.actions import (
    ALL_ACTIONS,
    BUILD,
    DESTROY,
    DISCARD,
    DRAW,
    END,
    GOLD,
    GRAVE_PASS,
    GRAVE_TAKE,
    K_DISCARD,
    K_DRAW,
    K_END,
    K_GRAVE_TAKE,
    K_KEEP,
    K_LAB,
    K_PICK,
    K_REDRAW,
    K_REDRAW_DONE,
    K_SMITHY,
    K_SWAP,
    KEEP_ACTS,
    KILL,
    LAB,
    MAX_SEATS,
    PICK,
    REDRAW,
    REDRAW_DONE,
    ROB,
    SMITHY_ACT,
    SWAP,
    TAX,
    Act,
)
from meeple.games.citadels.data import (
    ARCHITECT,
    ASSASSIN,
    BISHOP,
    CHARACTER_SLUGS,
    CHARACTER_TAX,
    DISTRICT_INDEX,
    DISTRICT_SLUGS,
    DISTRICT_TYPE,
    FACE_UP_COUNT,
    GRAVEYARD,
    GREAT_WALL,
    HAUNTED_QUARTER,
    IMPERIAL_TREASURY,
    KEEP,
    KIND_COUNT,
    KING,
    LABORATORY,
    LIBRARY,
    MAGICIAN,
    MAP_ROOM,
    MERCHANT,
    OBSERVATORY,
    SCHOOL_OF_MAGIC,
    SMITHY,
    THIEF,
    TYPE_SLUGS,
    UNIQUE,
    WARLORD,
    deck_kinds,
    district_points,
    printed_costs,
)
from meeple.games.citadels.events import (
    E_BUILD,
    E_COMPLETE,
    E_CROWN,
    E_DESTROY,
    E_DISCARD_CHAR,
    E_DISCARDED,
    E_DRAW,
    E_DREW,
    E_END_TURN,
    E_FACE_DOWN,
    E_FACE_UP,
    E_GAME_OVER,
    E_GOLD,
    E_GRAVE_PASS,
    E_GRAVE_TAKE,
    E_HEIR,
    E_KEPT,
    E_KEPT_CARDS,
    E_KILL,
    E_LAB,
    E_LAB_CARD,
    E_MERCHANT_BONUS,
    E_NO_ANSWER,
    E_PICK,
    E_PICKED,
    E_REDRAW,
    E_REDRAWN,
    E_REVEAL,
    E_ROB,
    E_ROBBED,
    E_ROUND,
    E_SAW_FACE_DOWN,
    E_SMITHY,
    E_SWAP,
    E_SWAPPED,
    E_TAX,
    SRC_ARCHITECT,
    SRC_GATHER,
    SRC_SMITHY,
    LogEntry,
    entry_from_json,
    entry_to_json,
    event_dict,
)
from meeple.games.citadels.shuffle import shuffle, shuffled_eight

# Phases: who decides what now.
P_PICK: Final = 0
P_DISCARD: Final = 1
P_TURN: Final = 2
P_KEEP: Final = 3
P_REDRAW: Final = 4
P_GRAVE: Final = 5
P_OVER: Final = 6
PHASE_NAMES: Final[tuple[str, ...]] = ("pick", "discard", "turn", "keep", "redraw", "graveyard", "over")

#: A draft step's drafter, whether it picks or discards, and its actions by sorted pool.
DraftTurn: TypeAlias = tuple[int, int, dict[tuple[int, ...], tuple[Act, ...]]]

# Kinds of draft steps (``steps`` holds (seat, kind, character) for the round so far).
S_RANDOM_FD: Final = 0
S_PICK: Final = 1
S_DISCARD: Final = 2
S_AUTO_FD: Final = 3
S_RESERVE: Final = 4

#: Draft scripts by player count: (seat offset from the crown, pick or discard) for each decision.
DRAFT_SCRIPTS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    2: ((0, S_PICK), (1, S_PICK), (1, S_DISCARD), (0, S_PICK), (0, S_DISCARD), (1, S_PICK)),
    3: ((0, S_PICK), (1, S_PICK), (2, S_PICK), (0, S_PICK), (1, S_PICK), (2, S_PICK)),
    **{n: tuple((k, S_PICK) for k in range(n)) for n in range(4, 8)},
}

#: Knowledge locations (card_knowledge.py): the hands are 0–6, then a pending keep step's drawn cards.
DRAWN: Final = 7
LOCATIONS: Final = 8

_EMPTY_RECORD: Final = empty_record(LOCATIONS)
_NOTHING_WATCHED: Final = watch([_EMPTY_RECORD])
#: Attempts at a consistent character assignment in ``determinize`` (measured: a few on average, ~1,000 at
#: worst in 100,000 samples; each attempt keeps every pool the seat saw, so one always exists).
_TRIES: Final = 20000
_GOLD_DRAW: Final[tuple[Act, ...]] = (GOLD, DRAW)
#: By action kind: what another seat sees of it where it hides something (``action_seen_by``), else ``None``.
#: A character taken or put aside face down, a card kept from a draw, marked for the Magician's redraw
#: or put under the deck by the Laboratory: the log tells the others that it happened (events.py: the
#: pick, the keep's counts, the redraw's count, the Laboratory's gold), not which.
_UNSEEN: Final[tuple[tuple[str, int] | None, ...]] = tuple(
    ("unseen", kind) if kind in (K_PICK, K_DISCARD, K_KEEP, K_REDRAW, K_LAB) else None for kind in range(K_END + 1))
#: By action kind: whether it always shows someone something hidden, so that it can never be undone, nor
#: anything before it: a draft step (the next drafter sees what is left), the end of a turn (the next
#: character is called and revealed), a draw of cards (``draw``, ``redraw:done``, ``smithy``), a swap of
#: hands. ``CitadelsState._undo_floor`` reads them from the history.
_ALWAYS_SEALS: Final[tuple[bool, ...]] = tuple(
    kind in (K_PICK, K_DISCARD, K_DRAW, K_SWAP, K_REDRAW_DONE, K_SMITHY, K_END) for kind in range(K_END + 1))


def _kills(faceup: tuple[int, ...]) -> tuple[Act, ...]:
    """The Assassin's choices (§2.4): any character but himself and the face-up ones."""
    return tuple([KILL[c] for c in range(1, 8) if c not in faceup])


def _robs(killed: int, faceup: tuple[int, ...]) -> tuple[Act, ...]:
    """The Thief's choices (§2.4): any character but the Assassin, himself, the murdered one and the face-up ones."""
    return tuple([ROB[c] for c in range(2, 8) if c != killed and c not in faceup])


#: The Assassin's and the Thief's choices by the face-up characters (and, for the Thief, the killed one
#: first), for every face-up deal (at most two characters; another list, set by hand, is added when met);
#: the Magician's swaps by player count and seat.
_FACE_UP_DEALS: Final = [(), *((c,) for c in range(8)), *permutations(range(8), 2)]
_KILLS: Final[dict[tuple[int, ...], tuple[Act, ...]]] = {faceup: _kills(faceup) for faceup in _FACE_UP_DEALS}
_ROBS: Final[dict[tuple[int, ...], tuple[Act, ...]]] = {
    (killed, *faceup): _robs(killed, faceup) for killed in range(-1, 8) for faceup in _FACE_UP_DEALS}
_SWAPS: Final[tuple[tuple[tuple[Act, ...], ...], ...]] = tuple(
    tuple(tuple(SWAP[t] for t in range(players) if t != seat) for seat in range(players))
    for players in range(MAX_SEATS + 1))
#: The log entry of each rank called that nobody answers (log entries are immutable tuples, so shared),
#: and by seat then rank (or pool size) those of a reveal, a turn's end, a pick, two gold taken.
_NO_ANSWER: Final[tuple[LogEntry, ...]] = tuple((-1, E_NO_ANSWER, rank + 1, rank) for rank in range(8))
_REVEALS: Final[tuple[tuple[LogEntry, ...], ...]] = tuple(
    tuple((-1, E_REVEAL, rank + 1, rank, seat) for rank in range(8)) for seat in range(MAX_SEATS))
_TURN_ENDS: Final[tuple[tuple[LogEntry, ...], ...]] = tuple(
    tuple((-1, E_END_TURN, seat, rank) for rank in range(8)) for seat in range(MAX_SEATS))
#: The seat whose turn ends before ranks are called (``_do_end``), or none: the draft is over.
_NO_TURN: Final = MAX_SEATS


def _turn_ended(ender: int, first: int) -> tuple[LogEntry, ...]:
    """The log entry of the end of ``ender``'s turn, that of the rank before ``first`` (none for ``_NO_TURN``)."""
    return (_TURN_ENDS[ender][first - 1],) if ender != _NO_TURN and first else ()


#: By the seat whose turn ends (or ``_NO_TURN``), the seat that answers, the first rank called and how many
#: ranks before the answer nobody answers: the log entries of the turn's end, of those calls and of the reveal.
_CALLS: Final[tuple[tuple[tuple[tuple[tuple[LogEntry, ...], ...], ...], ...], ...]] = tuple(
    tuple(tuple(tuple((*_turn_ended(ender, first), *_NO_ANSWER[first : first + silent], _REVEALS[seat][first + silent])
                             for silent in range(8 - first))
                       for first in range(8))
                 for seat in range(MAX_SEATS))
    for ender in range(MAX_SEATS + 1))
#: By the seat whose turn ends (or ``_NO_TURN``) and the first rank called, when nobody answers any more: the
#: log entries of the turn's end and of the calls.
_CALLS_UNANSWERED: Final[tuple[tuple[tuple[LogEntry, ...], ...], ...]] = tuple(
    tuple((*_turn_ended(ender, first), *_NO_ANSWER[first:]) for first in range(9)) for ender in range(MAX_SEATS + 1))
_PICKS_LOGGED: Final[tuple[tuple[LogEntry, ...], ...]] = tuple(
    tuple((-1, E_PICK, seat, size) for size in range(9)) for seat in range(MAX_SEATS))
_FACE_DOWN_LOGGED: Final[LogEntry] = (-1, E_FACE_DOWN)
#: The turn's flags of the saved form (``_open`` holds them).
_TURN_FLAGS: Final = ("tax_used", "power_used", "lab_used", "smithy_used")
_TWO_GOLD: Final[tuple[LogEntry, ...]] = tuple((-1, E_GOLD, seat, 2) for seat in range(MAX_SEATS))
_GOLD_ONLY: Final[tuple[Act, ...]] = (GOLD,)
_GOLD_DRAW_TAX: Final[tuple[Act, ...]] = (GOLD, DRAW, TAX)
_GOLD_TAX: Final[tuple[Act, ...]] = (GOLD, TAX)
#: The index of the lowest set bit of each 8-bit mask.
_LOWEST_BIT: Final[tuple[int, ...]] = tuple((mask & -mask).bit_length() - 1 for mask in range(256))
#: By seat then count: the public log entries of a gathering draw and of a keep step (kept, returned).
_DRAWS_LOGGED: Final[tuple[tuple[LogEntry, ...], ...]] = tuple(
    tuple((-1, E_DRAW, seat, SRC_GATHER, count) for count in range(4)) for seat in range(MAX_SEATS))
_KEEPS_LOGGED: Final[tuple[tuple[tuple[LogEntry, ...], ...], ...]] = tuple(
    tuple(tuple((-1, E_KEPT, seat, kept, returned) for returned in range(4)) for kept in range(4))
    for seat in range(MAX_SEATS))
#: By rank: the districts a turn may build (the Architect three), and whether the turn has a bonus (D13).
_BUILDS_A_TURN: Final[tuple[int, ...]] = tuple(3 if r == ARCHITECT else 1 for r in range(8))
_HAS_BONUS: Final[tuple[bool, ...]] = tuple(r in (MERCHANT, ARCHITECT) for r in range(8))
_HAS_POWER: Final[tuple[bool, ...]] = tuple(r in (ASSASSIN, THIEF, MAGICIAN, WARLORD) for r in range(8))
_LAB_SMITHY_BITS: Final = (1 << LABORATORY) | (1 << SMITHY)
#: For each district type, the bits of its kinds in a city mask.
_TYPE_MASKS: Final[tuple[int, ...]] = tuple(
    sum(1 << d for d in range(KIND_COUNT) if DISTRICT_TYPE[d] == t) for t in range(len(TYPE_SLUGS))
)
#: For each rank, the city-mask bits a tax counts (its type, and the School of Magic); 0 if it never taxes.
_TAX_BITS: Final[tuple[int, ...]] = tuple(
    _TYPE_MASKS[CHARACTER_TAX[r]] | (1 << SCHOOL_OF_MAGIC) if CHARACTER_TAX[r] >= 0 else 0 for r in range(8)
)
#: The pick actions and the discard actions for every sorted pool of characters.
_POOLS: Final = tuple(tuple(c for c in range(8) if subset >> c & 1) for subset in range(256))
_PICKS: Final[dict[tuple[int, ...], tuple[Act, ...]]] = {pool: tuple(PICK[c] for c in pool) for pool in _POOLS}
_DISCARDS: Final[dict[tuple[int, ...], tuple[Act, ...]]] = {pool: tuple(DISCARD[c] for c in pool) for pool in _POOLS}
#: By seat, the characters offered (a sorted pool) and the one picked: the log entries of the pick (what the
#: seat saw, then what everyone sees).
_PICKS_BY_POOL: Final[tuple[dict[tuple[int, ...], dict[int, tuple[LogEntry, LogEntry]]], ...]] = tuple(
    {pool: {c: ((seat, E_PICKED, seat, pool, c), _PICKS_LOGGED[seat][len(pool)]) for c in pool} for pool in _POOLS}
    for seat in range(MAX_SEATS))
#: The keep step's actions for two cards drawn, by the cards in their order.
_KEEP_PAIRS: Final[dict[tuple[int, ...], tuple[Act, ...]]] = {
    (first, second): (KEEP_ACTS[first],) if first == second else (KEEP_ACTS[first], KEEP_ACTS[second])
    for first in range(KIND_COUNT) for second in range(KIND_COUNT)}


# ``dict.fromkeys(hand)`` below lists the distinct kinds of a hand in first-seen order, so that action
# lists are deterministic.
_LAB_BIT: Final = 1 << LABORATORY
_SMITHY_BIT: Final = 1 << SMITHY
_OBS_BIT: Final = 1 << OBSERVATORY
_LIB_BIT: Final = 1 << LIBRARY
_GRAVE_BIT: Final = 1 << GRAVEYARD
_WALL_BIT: Final = 1 << GREAT_WALL
_HAUNTED_BIT: Final = 1 << HAUNTED_QUARTER
_MAP_ROOM_BIT: Final = 1 << MAP_ROOM
_TREASURY_BIT: Final = 1 << IMPERIAL_TREASURY
_ALL_TYPES: Final = (1 << len(_TYPE_MASKS)) - 1
#: What a character's turn may offer besides gathering, building and ending, as bits of a city mask: its
#: power, its tax (the bits a tax counts), the Laboratory and the Smithy (their own bits). A turn starts
#: with its character's offers open (``_open``) and each, used, closes (``_ANY_TAX`` closes a tax: every
#: rank's tax bits, never the Laboratory's or the Smithy's, which are no tax type's); ``_open & (city mask
#: | _POWER_BIT)`` is what the turn offers now. The power's bit is the Keep's, which no offer reads from a
#: city (a bit above the 30 kinds' would make every mask a two-digit int, and Python's arithmetic slower).
_POWER_BIT: Final = 1 << KEEP
_ANY_TAX: Final = reduce(or_, _TAX_BITS)
_NOT_TAX: Final = _POWER_BIT | _LAB_SMITHY_BITS  # the offers that are no tax
_OFFERS: Final[tuple[int, ...]] = tuple(
    (_POWER_BIT if _HAS_POWER[r] else 0) | _TAX_BITS[r] | _LAB_SMITHY_BITS for r in range(8))
assert not _POWER_BIT & (_ANY_TAX | _LAB_SMITHY_BITS) and not _ANY_TAX & _LAB_SMITHY_BITS


def _visibility(entry: LogEntry) -> int:
    """Who sees a log entry: ``PUBLIC`` (-1) everyone, else that one seat (meeple/core/events.py)."""
    return int(entry[0])

class Rules:
    """The option values decoded once into plain attributes; shared (never mutated) between clones."""

    __slots__ = (
        "affordable", "bonus_after_gather", "bonus_at_call", "bonus_start", "build_cap", "cap", "cost", "deck_preset",
        "destroy_prices", "destroyable", "draft_turns",
        "first_crown_random", "great_wall_self", "haunted_last_round", "keep_all", "lab_gold", "max_rounds",
        "overbuild", "pick_orders", "players", "points", "script", "script_len", "smithy_draw", "smithy_price",
        "tie_rank", "turn_starts",
    )

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.players = players
        self.script = DRAFT_SCRIPTS[players]
        self.script_len = len(self.script)
        #: By crown, then draft step: who decides, whether it picks or discards (the script, resolved) and
        #: the table of its actions by pool, then None: the draft is over.
        self.draft_turns: tuple[tuple[DraftTurn | None, ...], ...] = tuple(
            (*(((crown + offset) % players, *((P_PICK, _PICKS) if kind == S_PICK else (P_DISCARD, _DISCARDS)))
               for offset, kind in self.script),
             None)
            for crown in range(players))
        #: By the round's crown: the seats that pick a character, in their order.
        self.pick_orders: tuple[tuple[int, ...], ...] = tuple(
            tuple((crown + offset) % players for offset, kind in self.script if kind == S_PICK)
            for crown in range(players))
        complete_at = options["complete_at"]
        if complete_at is None:
            complete_at = 8 if players <= 3 or options["classic_variant"] else 7
        self.cap: int = complete_at
        self.overbuild: bool = options["overbuild"]
        #: A city smaller than this may still build (D11: no limit with overbuilding).
        self.build_cap: float = float("inf") if self.overbuild else complete_at
        #: Every value read from a district (build and destroy prices, points) follows its cost under the options.
        self.cost: tuple[int, ...] = printed_costs(options["observatory_cost"])
        self.points: tuple[int, ...] = district_points(options["observatory_cost"])
        #: By gold in hand (the last entry for any more): the mask of the districts that cost no more.
        self.affordable: tuple[int, ...] = tuple(
            sum(1 << d for d, price in enumerate(self.cost) if price <= gold) for gold in range(max(self.cost) + 1))
        self.lab_gold: int = options["laboratory_gold"]
        price, draw = str(options["smithy"]).split(":")
        self.smithy_price = int(price)
        self.smithy_draw = int(draw)
        self.keep_all: bool = options["library"] == "keep_all"
        self.haunted_last_round: bool = options["haunted_last_round"]
        self.great_wall_self: bool = options["great_wall_self"]
        #: What the Warlord pays to destroy each district (§2.6): one less than its cost, in a city without
        #: the Great Wall (first row) or with it (second row: one more, but for the Wall itself only under D7).
        self.destroy_prices: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(price - 1 for price in self.cost),
            tuple(price - (d == GREAT_WALL and not self.great_wall_self) for d, price in enumerate(self.cost)))
        #: By the Warlord's gold (the last entry for any more), in a city without and with the Great Wall: the
        #: mask of the districts he can pay to destroy (never the Keep).
        self.destroyable: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(1 << d for d, price in enumerate(prices) if price <= gold and d != KEEP)
                  for prices in self.destroy_prices)
            for gold in range(max(self.cost) + 1))
        self.bonus_start: bool = options["bonus_timing"] == "start"
        #: By rank: whether the turn's bonus (D13) comes when the character is called (``_do_end``) or
        #: once it has gathered (``_do_gold``, ``_do_draw``, ``_do_keep``).
        self.bonus_at_call: tuple[bool, ...] = tuple(_HAS_BONUS[r] and self.bonus_start for r in range(8))
        self.bonus_after_gather: tuple[bool, ...] = tuple(_HAS_BONUS[r] and not self.bonus_start for r in range(8))
        #: By rank, how its turn starts: not gathered yet, its offers open (``_OFFERS``), the districts it may
        #: build, the phase, and whether its bonus comes now.
        self.turn_starts: tuple[tuple[bool, int, int, int, bool], ...] = tuple(
            (False, _OFFERS[r], _BUILDS_A_TURN[r], P_TURN, self.bonus_at_call[r]) for r in range(8))
        self.tie_rank: bool = options["tie_break"] == "rank"
        self.first_crown_random: bool = options["first_crown"] == "random"
        self.max_rounds: int | None = options["max_rounds"]
        self.deck_preset: str = options["deck"]


_RULES: Final[dict[tuple[int, tuple[tuple[str, Any], ...]], Rules]] = {}
_RULES_KEPT: Final = 512  # option sets remembered (``max_rounds`` alone could make them endless)


def rules_for(players: int, options: dict[str, Any]) -> Rules:
    """The ``Rules`` of a player count and resolved options, built once (shared like a clone's): decoding
    them and building their tables at every setup was 3% of a random 4-player game."""
    key = (players, tuple(options.items()))
    rules = _RULES.get(key)
    if rules is None:
        rules = Rules(players, options)
        if len(_RULES) < _RULES_KEPT:
            _RULES[key] = rules
    return rules


def deal_characters(order: list[int], players: int, rng: Rng) -> tuple[list[int], int, list[int]]:
    """Deal a shuffled character stack (top first) for a new round (§2.2, D20).

    Returns (face-up discards, the first face-down card, the rest for the draft). The King is never
    dealt face up: it is set aside, the next card is dealt instead, and it is shuffled back afterwards.

    >>> deal_characters([KING, 4, 1, 0, 2, 5, 6, 7], 4, Rng(1))[0]
    [4, 1]
    """
    up = FACE_UP_COUNT[players]
    if KING in order[:up]:
        faceup = [c for c in order[: up + 1] if c != KING]
        stack = order[up + 1 :]
        stack.append(KING)
        shuffle(rng, stack)
    else:
        faceup = order[:up]
        stack = order[up:]
    return faceup, stack[0], stack[1:]


class CitadelsState(GameState[Act]):
    """One game of Citadels in progress (see the module docstring for the representation)."""
    __slots__ = (
        "_answering",
        "_floor",
        "_legal",
        "_open",
        "_pending",
        "_records",
        "_watch_hands",
        "_watch_pos",
        "builds_left",
        "cities",
        "crown",
        "cur",
        "deck",
        "deck_top",
        "draft_idx",
        "drawn",
        "facedown",
        "faceup",
        "first_complete",
        "gathered",
        "gold",
        "grave_card",
        "hands",
        "holder",
        "hq_round",
        "is_over",
        "keeps_left",
        "kept",
        "killed",
        "log",
        "marked",
        "masks",
        "phase",
        "pool",
        "rank",
        "reserved",
        "revealed",
        "robbed",
        "round_no",
        "rules",
        "steps",
        "turn_seat",
    )


    rules: Rules
    hands: list[list[int]]
    cities: list[list[int]]
    masks: list[int]
    gold: list[int]
    deck: list[int]
    crown: int
    round_no: int
    phase: int
    cur: int
    turn_seat: int
    rank: int
    faceup: list[int]
    facedown: list[int]
    pool: list[int]
    reserved: int
    holder: list[int]
    steps: list[tuple[int, int, int]]
    draft_idx: int
    killed: int
    robbed: int
    revealed: int
    gathered: bool
    builds_left: int
    drawn: list[int]
    keeps_left: int
    kept: list[int]
    marked: list[int]
    grave_card: int
    first_complete: int
    hq_round: int
    log: list[LogEntry]
    deck_top: int
    _records: list[Record]  # the knowledge records as of the last event applied (``knowledge``)
    _pending: list[tuple[Callable[..., None], tuple[Any, ...]]]  # events not applied to them yet
    _watch_pos: int
    _watch_hands: int
    _legal: tuple[Act, ...] | None
    _answering: int  # the ranks whose call will be answered: held (picked) and not murdered
    _open: int  # the offers of the turn's character (``_OFFERS``) it has not used: power, tax, Laboratory, Smithy

    _floor: int  # the undo floor set by a reveal the history does not show (``_undo_floor``)

    @property
    def _undo_floor(self) -> int:
        """The undo floor (``GameState.undo_floor``), read from the history instead of set by each action
        that shows someone something hidden: past the last action of a kind that always does
        (``_ALWAYS_SEALS``), or ``_floor``, set by the rest (the contract's ``new_game``, ``from_json`` and
        ``seal_history``, and the Architect's cards drawn after gold or a keep), whichever is later.
        Actions and the floor they set are the same as when each set it: a pick, a call, a draw is
        half of the actions, and the floor is read only when asked (undo, a save, a clone)."""
        floor = self._floor
        history = self._history_notations
        for index in range(len(history) - 1, floor - 1, -1):
            act = ALL_ACTIONS.get(history[index])
            if act is not None and _ALWAYS_SEALS[act.kind]:
                return index + 1
        return floor

    @_undo_floor.setter
    def _undo_floor(self, floor: int) -> None:
        self._floor = floor

    # --- setup ---------------------------------------------------------------------------------

    def setup(self) -> None:
        rules = self.rules = rules_for(self.players, self.options)
        self.is_over = False
        n = self.players
        deck = deck_kinds(rules.deck_preset)
        shuffle(self.rng, deck)
        self.hands = [deck[4 * s : 4 * s + 4] for s in range(n)]
        self.deck = deck[4 * n :]
        self.deck_top = 0
        self._records = [_EMPTY_RECORD] * (n + 1)  # the ``knowledge`` setter, inline: nobody knows anything yet
        self._pending = []
        self._watch_pos, self._watch_hands = _NOTHING_WATCHED
        self.cities = [[] for _ in range(n)]
        self.masks = [0] * n
        self.gold = [2] * n
        self.crown = self.rng.randbelow(n) if rules.first_crown_random else 0
        self.round_no = 0
        self.first_complete = -1
        self.hq_round = -1
        self.log = []
        self.rank = 0
        self._reset_turn()
        self._legal = None
        self.drawn = []
        self.keeps_left = 0
        self.kept = []
        self.marked = []
        self.grave_card = -1
        self.turn_seat = -1
        self._start_round()

    def _reset_turn(self) -> None:
        self.gathered = False
        self.builds_left = 0
        self._open = _OFFERS[self.rank]

    # The turn's saved flags, read by the views, the lens and the saved form, are views of ``_open`` (the
    # rules read only the mask): a flag is set when the turn's character has that offer and the turn has
    # closed it; setting one closes or reopens the offer, so the saved form and the scenario tests write
    # the flags while the rules keep one mask. (Properties, not a descriptor class: compiled, as
    # docs/compiled.md builds it, this module read the descriptors as plain class attributes.)

    def _offer_used(self, bits: int) -> bool:
        return bool(_OFFERS[self.rank] & bits & ~self._open)

    def _set_offer_used(self, bits: int, used: bool) -> None:
        self._open = self._open & ~bits if used else self._open | _OFFERS[self.rank] & bits

    @property
    def tax_used(self) -> bool:
        return self._offer_used(_ANY_TAX)

    @tax_used.setter
    def tax_used(self, used: bool) -> None:
        self._set_offer_used(_ANY_TAX, used)

    @property
    def power_used(self) -> bool:
        return self._offer_used(_POWER_BIT)

    @power_used.setter
    def power_used(self, used: bool) -> None:
        self._set_offer_used(_POWER_BIT, used)

    @property
    def lab_used(self) -> bool:
        return self._offer_used(_LAB_BIT)

    @lab_used.setter
    def lab_used(self, used: bool) -> None:
        self._set_offer_used(_LAB_BIT, used)

    @property
    def smithy_used(self) -> bool:
        return self._offer_used(_SMITHY_BIT)

    @smithy_used.setter
    def smithy_used(self, used: bool) -> None:
        self._set_offer_used(_SMITHY_BIT, used)

    # --- selection phase -----------------------------------------------------------------------

    def round_crown(self) -> int:
        """The seat that held the crown when this round's draft began (a revealed King may take it since):
        the draft's script runs from it, and its first step, recorded after the face-down deal, shows it."""
        if self.draft_idx < self.rules.script_len:
            return self.crown
        return (self.steps[1][0] - self.rules.script[0][0]) % self.players

    def _start_round(self) -> None:
        """Shuffle the characters, deal the face-up and face-down discards, open the draft (§2.2)."""
        self.round_no += 1
        n = self.players
        faceup, first, chars = deal_characters(shuffled_eight(self.rng), n, self.rng)
        self.faceup = faceup
        if n == 7:
            self.reserved = first
            self.facedown = []
            self.steps = [(-1, S_RESERVE, first)]
        else:
            self.reserved = -1
            self.facedown = [first]
            self.steps = [(-1, S_RANDOM_FD, first)]
        pool = self.pool = sorted(chars)
        self.holder = [-1] * 8
        self._answering = 0
        self.draft_idx = 0
        self.killed = -1
        self.robbed = -1
        self.revealed = 0
        if faceup:
            self.log += ((-1, E_ROUND, self.round_no, self.crown), (-1, E_FACE_UP, tuple(faceup)))
        else:
            self.log.append((-1, E_ROUND, self.round_no, self.crown))
        # The first draft step (``_open_draft_step``, inline; no reserve is returned before the 7th).
        self.cur, self.phase, offered = self.rules.draft_turns[self.crown][0]  # type: ignore[misc]
        self._legal = offered[tuple(pool)]

    def _open_draft_step(self) -> None:
        """Hand draft step ``draft_idx`` to its drafter, as a pick or a discard, with its legal actions (what
        ``legal_actions`` would list: the step's table read by the pool)."""
        idx = self.draft_idx
        self.cur, self.phase, offered = self.rules.draft_turns[self.crown][idx]  # type: ignore[misc]
        if idx == 6 and self.reserved >= 0:
            self._return_reserve()
        self._legal = offered[tuple(self.pool)]

    def _return_reserve(self) -> None:
        """7 players: the 7th pick also gets the face-down card."""
        pool = self.pool
        pool.append(self.reserved)
        pool.sort()
        self.reserved = -1

    def _after_draft_step(self) -> None:
        """Open the next draft step or, the draft over, the calls."""
        # The next drafter sees what is left: undo stops here (``_undo_floor`` reads it from the history).
        self.draft_idx += 1
        if self.rules.draft_turns[self.crown][self.draft_idx] is None:
            self._end_draft()
        else:
            self._open_draft_step()

    def _end_draft(self) -> None:
        """The draft over: the last card left goes face down, seen by the last drafter; the calls begin."""
        last = self.cur
        leftover = self.pool.pop()
        self.facedown.append(leftover)
        self.steps.append((last, S_AUTO_FD, leftover))
        self.log.append(_FACE_DOWN_LOGGED)
        self.log.append((last, E_SAW_FACE_DOWN, last, leftover))
        self._do_end(None)  # ``_answering`` holds the picks

    # --- action phase --------------------------------------------------------------------------

    def _call_from(self, rank: int) -> None:
        """Start the calls of the round's action phase at ``rank``, the draft over: the ranks that will
        answer are the held ones but the murdered one (kept in ``_answering``; a murder takes its bit)."""
        self._answering = self._answering_ranks()
        self._do_end(None, rank)

    def _answering_ranks(self) -> int:
        """The mask of the ranks held and not murdered."""
        holder = self.holder
        killed = self.killed
        answering = 0
        for c in range(8):
            if holder[c] >= 0 and c != killed:
                answering |= 1 << c
        return answering

    def _do_end(self, action: Act | None, rank: int = 0) -> None:
        """End the turn (``action`` is END) and call the ranks after it (§2.3), or, with no turn to end
        (``None``: the draft is over, or ``_call_from``), call ranks from ``rank`` on; the first living
        holder reveals and starts a turn. Everyone learns who holds (or nobody holds) the ranks called,
        so undo stops here. (One method for both: the end of a turn is a fifth of the actions.)"""
        if action is not None:
            ender = self.cur
            rank = self.rank + 1
        else:
            ender = _NO_TURN
        # Undo stops here (``_undo_floor`` reads it from the history).
        log = self.log
        waiting = self._answering >> rank
        if not waiting:
            log += _CALLS_UNANSWERED[ender][rank]
            self._end_round()
            return
        silent = _LOWEST_BIT[waiting]  # the ranks called before the next one to answer
        holder = self.holder
        seat = holder[rank + silent]
        log += _CALLS[ender][seat][rank][silent]  # the turn's end; nobody answers them; the seat reveals
        rank += silent
        self.rank = rank
        self.cur = self.turn_seat = seat
        self.revealed |= 1 << rank
        if rank == self.robbed:
            thief = holder[THIEF]
            if thief != seat:
                gold = self.gold
                amount = gold[seat]
                gold[thief] += amount
                gold[seat] = 0
                log.append((-1, E_ROBBED, thief, seat, amount))
        if rank == KING and self.crown != seat:
            self.crown = seat
            log.append((-1, E_CROWN, seat))
        self.gathered, self._open, self.builds_left, self.phase, bonus_now = self.rules.turn_starts[rank]
        if bonus_now:
            self._bonus()

    def _bonus(self) -> None:
        """Merchant +1 gold, Architect +2 cards (D13)."""
        rank = self.rank
        seat = self.turn_seat
        if rank == MERCHANT:
            self.gold[seat] += 1
            self.log.append((-1, E_MERCHANT_BONUS, seat, 1))
        elif rank == ARCHITECT:
            deck = self.deck
            cards = tuple(deck[:2])
            del deck[:2]
            self._took(seat, cards, seat)
            self.hands[seat].extend(cards)
            self.log.append((-1, E_DRAW, seat, SRC_ARCHITECT, len(cards)))
            self.log.append((seat, E_DREW, seat, SRC_ARCHITECT, cards))

    def _end_round(self) -> None:
        king = self.holder[KING]
        if self.killed == KING and king >= 0:
            self.revealed |= 1 << KING
            self.crown = king
            self.log.append((-1, E_HEIR, king))
        max_rounds = self.rules.max_rounds
        if self.first_complete >= 0 or (max_rounds is not None and self.round_no >= max_rounds):
            self.phase = P_OVER
            self.is_over = True
            self.cur = -1
            self.turn_seat = -1
            self.log.append((-1, E_GAME_OVER, tuple(self.scores())))
        else:
            self._start_round()

    # --- the contract --------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == P_OVER else self.cur

    #: A plain attribute (kept equal to ``phase == P_OVER``), read once per action by every playout loop.
    is_over: bool

    def action_seen_by(self, action: Act, seat: int) -> Hashable:
        unseen = _UNSEEN[action.kind]
        return action if unseen is None or seat == self.cur else unseen

    def apply(self, action: Act | str) -> None:
        """The base ``apply`` with a fast path for interned actions and exact notations; same semantics."""
        # The RNG is drawn only when a round starts, inside an `end` (after the round's last turn), a kind
        # that always seals the history (`_ALWAYS_SEALS`): the base class's check that the RNG did not move
        # is not needed on the fast paths.
        if action in (self._legal or self.legal_actions()):  # an interned action (no text equals one); nothing
            # is legal once the game is over (and then the empty tuple is asked for again)
            self._legal = None
            _DO[action.kind](self, action)
            self._history_notations.append(action.notation)
            return
        if type(action) is str:
            act = ALL_ACTIONS.get(action)
            if act is not None and act in self.legal_actions():
                self._legal = None
                _DO[act.kind](self, act)
                self._history_notations.append(act.notation)
                return
        super().apply(action)

    def legal_actions(self) -> tuple[Act, ...]:
        if self._legal is not None:
            return self._legal
        phase = self.phase
        if phase == P_TURN:
            seat = self.cur
            mask = self.masks[seat]
            offers = (mask | _POWER_BIT) & self._open
            if not self.gathered:
                if not offers:
                    legal = _GOLD_DRAW if self.deck else _GOLD_ONLY
                elif not offers & _NOT_TAX:  # the tax alone (the King, Bishop and Merchant, usually)
                    legal = _GOLD_DRAW_TAX if self.deck else _GOLD_TAX
                else:
                    acts = [GOLD, DRAW] if self.deck else [GOLD]
                    if offers & _POWER_BIT:  # what the turn still offers (``_OFFERS``), as below
                        self._power_actions(seat, self.rank, self.hands[seat], acts)
                    if offers & _ANY_TAX:
                        acts.append(TAX)
                    if offers & _LAB_SMITHY_BITS:
                        self._lab_smithy_actions(seat, offers, acts)
                    legal = tuple(acts)
            else:
                hand = self.hands[seat]
                acts = []
                if self.builds_left and hand:
                    rules = self.rules
                    if len(self.cities[seat]) < rules.build_cap:
                        # The names it can pay for and has not built; each is crossed off once listed.
                        try:
                            open_names = rules.affordable[self.gold[seat]] & ~mask
                        except IndexError:  # more gold than the dearest district costs
                            open_names = rules.affordable[-1] & ~mask
                        if open_names:
                            for d in hand:
                                if open_names >> d & 1:
                                    open_names ^= 1 << d
                                    acts.append(BUILD[d])
                if offers:
                    # What the turn still offers (``_OFFERS``): the character's power, its tax, the Laboratory
                    # and the Smithy, each once per turn (§2.4, §2.5).
                    if offers & _POWER_BIT:
                        self._power_actions(seat, self.rank, hand, acts)
                    if offers & _ANY_TAX:
                        acts.append(TAX)
                    if offers & _LAB_SMITHY_BITS:
                        self._lab_smithy_actions(seat, offers, acts)
                legal = (*acts, END)
        elif phase == P_PICK:
            legal = _PICKS[tuple(self.pool)]
        elif phase == P_KEEP:
            drawn = self.drawn
            legal = _KEEP_PAIRS.get(tuple(drawn)) or tuple(map(KEEP_ACTS.__getitem__, dict.fromkeys(drawn)))
        elif phase == P_DISCARD:
            legal = _DISCARDS[tuple(self.pool)]
        elif phase == P_REDRAW:
            rest = list(self.hands[self.cur])
            for d in self.marked:
                rest.remove(d)
            legal = (*map(REDRAW.__getitem__, dict.fromkeys(rest)), REDRAW_DONE)
        elif phase == P_GRAVE:
            legal = (GRAVE_TAKE, GRAVE_PASS)
        else:
            legal = ()
        self._legal = legal
        return legal

    def _lab_smithy_actions(self, seat: int, offers: int, acts: list[Act]) -> None:
        """The Laboratory's and the Smithy's actions, if the turn still offers them (§2.5)."""
        hand = self.hands[seat]
        if offers & _LAB_BIT and hand:
            acts.extend(map(LAB.__getitem__, dict.fromkeys(hand)))
        if offers & _SMITHY_BIT and self.deck and self.gold[seat] >= self.rules.smithy_price:
            acts.append(SMITHY_ACT)

    def _power_actions(self, seat: int, rank: int, hand: list[int], acts: list[Act]) -> None:
        """The character's once-per-turn power (§2.4), for a turn that has not used it yet."""
        if rank == ASSASSIN:
            faceup = tuple(self.faceup)
            kills = _KILLS.get(faceup)
            if kills is None:
                kills = _KILLS[faceup] = _kills(faceup)
            acts.extend(kills)
        elif rank == THIEF:
            key = (self.killed, *self.faceup)
            robs = _ROBS.get(key)
            if robs is None:
                robs = _ROBS[key] = _robs(self.killed, key[1:])
            acts.extend(robs)
        elif rank == MAGICIAN:
            acts.extend(_SWAPS[self.players][seat])
            if hand:
                acts.extend(map(REDRAW.__getitem__, dict.fromkeys(hand)))
        elif rank == WARLORD:
            self._destroy_actions(seat, self.gold[seat], acts)

    def _destroy_actions(self, seat: int, gold: int, acts: list[Act]) -> None:
        rules = self.rules
        cap = rules.cap
        bishop = self.holder[BISHOP] if self.killed != BISHOP else -1
        masks = self.masks
        destroyable = rules.destroyable
        try:
            plain, walled = destroyable[gold]
        except IndexError:  # more gold than the dearest district costs
            plain, walled = destroyable[-1]
        append = acts.append
        for target, city in enumerate(self.cities):
            if target == bishop or len(city) >= cap:
                continue
            mask = masks[target]
            targets = mask & (walled if mask & _WALL_BIT else plain)
            if targets:
                row = DESTROY[target]
                if targets == mask:  # every district of the city
                    for d in city:
                        append(row[d])
                else:
                    for d in city:
                        if targets >> d & 1:
                            append(row[d])

    def destroy_cost(self, target: int, card: int) -> int:
        """What the Warlord pays to destroy ``card`` in ``target``'s city (§2.6)."""
        return self.rules.destroy_prices[self.masks[target] >> GREAT_WALL & 1][card]

    def _income(self, seat: int, rank: int) -> int:
        """Tax for the character of ``rank``: one per district of its type, +1 with the School of Magic.

        A city never holds a name twice, so counting the type's bits in the city mask counts its districts.
        """
        mask = self.masks[seat]
        return (mask & _TYPE_MASKS[CHARACTER_TAX[rank]]).bit_count() + ((mask >> SCHOOL_OF_MAGIC) & 1)

    def _apply(self, action: Act) -> None:
        self._legal = None
        _DO[action.kind](self, action)

    def _do_pick(self, action: Act) -> None:
        seat = self.cur
        c = action.a
        pool = self.pool
        self.log += _PICKS_BY_POOL[seat][tuple(pool)][c]
        pool.remove(c)
        self.holder[c] = seat
        self._answering |= 1 << c
        self.steps.append((seat, S_PICK, c))
        # The next draft step (``_after_draft_step``, inline: a pick is a fifth of the actions).
        # The next drafter sees what is left: undo stops here (``_undo_floor`` reads it from the history).
        idx = self.draft_idx = self.draft_idx + 1
        step = self.rules.draft_turns[self.crown][idx]
        if step is None:
            self._end_draft()
            return
        self.cur, self.phase, offered = step
        if idx == 6 and self.reserved >= 0:
            self._return_reserve()
        self._legal = offered[tuple(pool)]

    def _do_build(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        rules = self.rules
        d = action.a
        price = rules.cost[d]
        hand = self.hands[seat]
        hand.remove(d)
        # The knowledge event: ``d`` has just left the hand in front of everybody.
        self._pending.append((CitadelsState._update_others_watching,
                              (seat, seat, removed_in_public, seat, d, len(hand) + 1)))
        self.gold[seat] -= price
        city = self.cities[seat]
        city.append(d)
        self.masks[seat] |= 1 << d
        self.builds_left -= 1
        log.append((-1, E_BUILD, seat, d, price))
        if d == HAUNTED_QUARTER:
            self.hq_round = self.round_no
        if len(city) == rules.cap:
            first = self.first_complete < 0
            if first:
                self.first_complete = seat
            log.append((-1, E_COMPLETE, seat, int(first)))

    def _do_gold(self, action: Act) -> None:
        seat = self.cur
        self.gold[seat] += 2
        self.log.append(_TWO_GOLD[seat])
        self.gathered = True  # gathering done
        if self.rules.bonus_after_gather[self.rank]:
            self._bonus()

    def _do_tax(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        income = self._income(seat, self.rank)
        self.gold[seat] += income
        self._open &= ~_ANY_TAX
        log.append((-1, E_TAX, seat, self.rank, income))

    def _do_discard(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        c = action.a
        self.pool.remove(c)
        self.facedown.append(c)
        self.steps.append((seat, S_DISCARD, c))
        log.append((-1, E_DISCARD_CHAR, seat))
        log.append((seat, E_DISCARDED, seat, c))
        self._after_draft_step()

    def _do_kill(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        self.killed = action.a
        self._answering &= ~(1 << action.a)
        self._open &= ~_POWER_BIT
        log.append((-1, E_KILL, seat, action.a))

    def _do_rob(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        self.robbed = action.a
        self._open &= ~_POWER_BIT
        log.append((-1, E_ROB, seat, action.a))

    def _do_destroy(self, action: Act) -> None:
        seat = self.cur
        self._destroy(seat, action.a, action.b)

    def _do_graveyard(self, action: Act) -> None:
        kind = action.kind
        seat = self.cur
        log = self.log
        card = self.grave_card
        if kind == K_GRAVE_TAKE:
            self.gold[seat] -= 1
            self._gained_in_public(seat, card)
            self.hands[seat].append(card)
            log.append((-1, E_GRAVE_TAKE, seat, card))
        else:
            self._put_under((card,), None)
            self.deck.append(card)
            log.append((-1, E_GRAVE_PASS, seat, card))
        self.grave_card = -1
        self.phase = P_TURN
        self.cur = self.turn_seat

    def _do_swap(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        other = action.a
        hands = self.hands
        gave, got = hands[seat], hands[other]
        hands[seat], hands[other] = got, gave
        self._swapped(seat, other, gave, got)
        # Each now holds the other's cards: undo stops here (``_undo_floor`` reads it from the history).
        self._open &= ~_POWER_BIT
        log.append((-1, E_SWAP, seat, other, len(gave), len(got)))
        log.append((seat, E_SWAPPED, seat, other, tuple(gave), tuple(got)))
        log.append((other, E_SWAPPED, other, seat, tuple(got), tuple(gave)))

    def _do_redraw(self, action: Act) -> None:
        self.marked.append(action.a)
        self._open &= ~_POWER_BIT
        self.phase = P_REDRAW

    def _do_redraw_done(self, action: Act) -> None:
        seat = self.cur
        self._redraw(seat)

    def _do_lab(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        d = action.a
        self.hands[seat].remove(d)
        self._put_under((d,), seat)
        self.deck.append(d)
        gain = self.rules.lab_gold
        self.gold[seat] += gain
        self._open &= ~_LAB_BIT
        log.append((-1, E_LAB, seat, gain))
        log.append((seat, E_LAB_CARD, seat, d))

    def _do_smithy(self, action: Act) -> None:
        seat = self.cur
        log = self.log
        rules = self.rules
        self.gold[seat] -= rules.smithy_price
        deck = self.deck
        cards = tuple(deck[: rules.smithy_draw])
        del deck[: rules.smithy_draw]
        self._took(seat, cards, seat)
        self.hands[seat].extend(cards)
        self._open &= ~_SMITHY_BIT
        log.append((-1, E_SMITHY, seat, rules.smithy_price, len(cards)))
        log.append((seat, E_DREW, seat, SRC_SMITHY, cards))

    def _do_draw(self, action: Act) -> None:
        seat = self.cur
        mask = self.masks[seat]
        deck = self.deck
        count = 3 if mask & _OBS_BIT else 2
        drawn = deck[:count]
        del deck[:count]
        seen = tuple(drawn)
        drew = len(seen)
        quota = (drew if self.rules.keep_all else 2) if mask & _LIB_BIT else 1
        # ``_took``, inline (a draw is a tenth of the actions): the seat saw the cards, so undo stops here
        # (``_undo_floor`` reads it from the history).
        first = self.deck_top
        self.deck_top = first + drew
        log = self.log
        if quota >= drew:  # it keeps them all
            self._pending.append((CitadelsState._took_known, (seat, seen, seat, first)))
            self.hands[seat].extend(drawn)
            log += (_DRAWS_LOGGED[seat][drew], (seat, E_DREW, seat, SRC_GATHER, seen), _KEEPS_LOGGED[seat][drew][0])
            self.gathered = True  # gathering done
            if self.rules.bonus_after_gather[self.rank]:
                self._bonus()
        else:
            self._pending.append((CitadelsState._took_known, (seat, seen, DRAWN, first)))
            log += (_DRAWS_LOGGED[seat][drew], (seat, E_DREW, seat, SRC_GATHER, seen))
            self.drawn = drawn
            self.keeps_left = quota
            self.phase = P_KEEP
            self._legal = _KEEP_PAIRS.get(seen)  # the usual keep step's actions (``legal_actions``)

    def _do_keep(self, action: Act) -> None:
        seat = self.cur
        card = action.a
        drawn = self.drawn
        drawn.remove(card)
        self.hands[seat].append(card)
        left = self.keeps_left = self.keeps_left - 1
        if left:
            self._pending.append((CitadelsState._update_others_watching,
                                  (DRAWN, seat, moved_unseen, DRAWN, seat, 1, len(drawn) + 1)))
            self.kept.append(card)
        else:
            if self.kept:  # the Library's first keep
                kept = (*self.kept, card)
                self.kept = []
            else:
                kept = (card,)
            returned = tuple(drawn)
            deck = self.deck
            self._pending.append((CitadelsState._kept_last_known, (seat, returned, self.deck_top + len(deck))))
            deck.extend(returned)
            self.log += (_KEEPS_LOGGED[seat][len(kept)][len(returned)], (seat, E_KEPT_CARDS, seat, kept, returned))
            self.drawn = []
            self.phase = P_TURN
            self.gathered = True  # gathering done
            if self.rules.bonus_after_gather[self.rank]:
                self._bonus()

    def _redraw(self, seat: int) -> None:
        hand = self.hands[seat]
        marked = self.marked
        for d in marked:
            hand.remove(d)
        deck = self.deck
        self._put_under(marked, seat)
        deck.extend(marked)
        count = len(marked)
        cards = tuple(deck[:count])
        del deck[:count]
        self._took(seat, cards, seat)
        hand.extend(cards)
        self.log.append((-1, E_REDRAW, seat, count))
        self.log.append((seat, E_REDRAWN, seat, tuple(marked), cards))
        self.marked = []
        self.phase = P_TURN

    def _destroy(self, seat: int, target: int, card: int) -> None:
        price = self.destroy_cost(target, card)
        self.gold[seat] -= price
        self.cities[target].remove(card)
        self.masks[target] &= ~(1 << card)
        self._open &= ~_POWER_BIT
        self.log.append((-1, E_DESTROY, seat, target, card, price))
        owner = -1
        for t, mask in enumerate(self.masks):
            if mask & _GRAVE_BIT:
                owner = t
                break
        if owner >= 0 and owner != seat and self.gold[owner] >= 1:
            self.grave_card = card
            self.phase = P_GRAVE
            self.cur = owner
        else:
            self._put_under((card,), None)
            self.deck.append(card)

    # --- what each seat knows of the hidden cards (card_knowledge.py) ---------------------------

    @property
    def knowledge(self) -> list[Record]:
        """Every seat's knowledge record, then the spectator's, with every event so far applied."""
        pending = self._pending
        if pending:
            self._pending = []
            for update, args in pending:
                update(self, *args)
        return self._records

    @knowledge.setter
    def knowledge(self, records: list[Record]) -> None:
        self._records = records
        self._pending = []
        self._watch_pos, self._watch_hands = watch(records)

    def _took(self, seat: int, cards: tuple[int, ...], into: int) -> None:
        """``seat`` drew ``cards`` from the top into its hand (``into == seat``) or its keep step (``DRAWN``):
        it saw them, so undo stops here (a draw of the Architect's bonus may come after gold or a keep)."""
        self._floor = len(self._history_notations) + 1  # seal_history(), inline
        first = self.deck_top
        self.deck_top = first + len(cards)
        self._pending.append((CitadelsState._took_known, (seat, cards, into, first)))

    def _took_known(self, seat: int, cards: tuple[int, ...], into: int, first: int) -> None:
        """The records after ``_took``: only a draw that reaches a card some seat knows changes one."""
        if first + len(cards) <= self._watch_pos:
            return
        records = self._records
        changed = False
        for me, record in enumerate(records):
            new = took_seen(record, first, cards) if me == seat else took_unseen(record, into, first, len(cards))
            if new is not record:
                records[me] = new
                changed = True
        if changed:
            self._watch_pos, self._watch_hands = watch(records)

    def _put_under(self, cards: Any, seen_by: int | None, returned: bool = False) -> None:
        """``cards`` go under the deck (call after taking them from their place, before appending them),
        seen by ``seen_by`` or, if None, by everybody.

        The others saw them leave ``seen_by``'s hand (or, ``returned``, its keep step) without seeing which.
        """
        first = self.deck_top + len(self.deck)
        left = 0 if returned or seen_by is None else len(self.hands[seen_by])
        self._pending.append((CitadelsState._put_under_known, (tuple(cards), seen_by, returned, first, left)))

    def _put_under_known(self, cards: tuple[int, ...], seen_by: int | None, returned: bool, first: int,
                         left: int) -> None:
        """The records after ``_put_under``: the first card at deck position ``first``, ``left`` cards
        left in ``seen_by``'s hand."""
        records = self._records
        if seen_by is None:
            for me in range(len(records)):
                records[me] = put_under_seen(records[me], first, cards)
        else:
            records[seen_by] = put_under_seen(records[seen_by], first, cards)
            source = DRAWN if returned else seen_by
            if self._watch_hands >> source & 1:
                self._update_others(seen_by, discarded_unseen, source, first, len(cards), left + len(cards))
                if returned:
                    self._update_others(seen_by, emptied, DRAWN)
        if first < self._watch_pos:
            self._watch_pos = first

    def _kept_last_known(self, seat: int, returned: tuple[int, ...], first: int) -> None:
        """The records after the last keep of a keep step (one event instead of two): the others saw a card
        go from the drawn cards to ``seat``'s hand, then ``returned`` went under the deck from position
        ``first`` (``_put_under`` of the drawn cards)."""
        self._update_others_watching(DRAWN, seat, moved_unseen, DRAWN, seat, 1, len(returned) + 1)
        self._put_under_known(returned, seat, True, first, 0)

    def _update_others(self, seat: int, update: Any, *args: Any) -> None:
        """Apply ``update(record, *args)`` to every record but ``seat``'s, then refresh what is watched."""
        if update_others(self._records, seat, update, *args):
            self._watch_pos, self._watch_hands = watch(self._records)

    def _update_others_watching(self, loc: int, seat: int, update: Any, *args: Any) -> None:
        """``_update_others`` for an event that concerns no record unless one knows something of ``loc``."""
        if self._watch_hands >> loc & 1:
            self._update_others(seat, update, *args)

    def _gained_in_public(self, seat: int, card: int) -> None:
        self._pending.append((CitadelsState._update_others, (seat, gained_in_public, seat, card)))

    def _swapped(self, magician: int, other: int, gave: list[int], got: list[int]) -> None:
        self._pending.append((CitadelsState._swapped_known, (magician, other, tuple(gave), tuple(got))))

    def _swapped_known(self, magician: int, other: int, gave: tuple[int, ...], got: tuple[int, ...]) -> None:
        records = self._records
        for me, record in enumerate(records):
            records[me] = swapped(record, me if me < self.players else -1, magician, other, gave, got)
        self._watch_pos, self._watch_hands = watch(records)

    def _contents(self, me: int) -> list[list[int] | None]:
        """What each knowledge location holds, None where record ``me``'s seat sees it (card_knowledge.py)."""
        contents: list[list[int] | None] = [[] for _ in range(LOCATIONS)]
        for t in range(self.players):
            contents[t] = None if t == me else self.hands[t]
        contents[DRAWN] = None if me == self.cur and self.phase == P_KEEP else self.drawn
        return contents

    # --- scoring -------------------------------------------------------------------------------

    def _district_points(self, seat: int) -> int:
        return sum(map(self.rules.points.__getitem__, self.cities[seat]))

    def _has_five_types(self, seat: int) -> bool:
        """The five types' bonus (§3.2): the Haunted Quarter counts as any type, except when built in the
        last round under the rule that forbids it then; it is no type of its own."""
        mask = self.masks[seat]
        if mask.bit_count() < len(_TYPE_MASKS):  # five types take five districts, the Quarter being one
            return False
        types = 0
        for t, bits in enumerate(_TYPE_MASKS):
            if mask & bits & ~_HAUNTED_BIT:
                types |= 1 << t
        if not mask & _HAUNTED_BIT:
            return types == _ALL_TYPES
        if self.rules.haunted_last_round or self.phase != P_OVER or self.hq_round != self.round_no:
            return types.bit_count() >= len(_TYPE_MASKS) - 1
        return types | 1 << UNIQUE == _ALL_TYPES

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Each scoring item of §3.2 for one seat (final once the game is over)."""
        complete = len(self.cities[seat]) >= self.rules.cap
        mask = self.masks[seat]
        return {
            "districts": self._district_points(seat),
            "five_types": 3 if self._has_five_types(seat) else 0,
            "first_complete": 4 if self.first_complete == seat else 0,
            "complete": 2 if complete and self.first_complete != seat else 0,
            "map_room": len(self.hands[seat]) if mask & (1 << MAP_ROOM) else 0,
            "imperial_treasury": self.gold[seat] if mask & (1 << IMPERIAL_TREASURY) else 0,
        }

    def scores(self) -> list[int]:
        """Each seat's sum of ``score_breakdown``, added up without its dictionaries: the search's
        evaluation reads the totals at every rollout's cut."""
        points = self.rules.points.__getitem__
        cap = self.rules.cap
        first = self.first_complete
        five_types = self._has_five_types
        totals = []
        for seat, (city, mask) in enumerate(zip(self.cities, self.masks, strict=True)):
            total = sum(map(points, city))  # _district_points
            if five_types(seat):
                total += 3
            if first == seat:
                total += 4
            elif len(city) >= cap:
                total += 2
            if mask & _MAP_ROOM_BIT:
                total += len(self.hands[seat])
            if mask & _TREASURY_BIT:
                total += self.gold[seat]
            totals.append(total)
        return totals

    def _best_rank(self, seat: int) -> int:
        ranks = [c for c in range(8) if self.holder[c] == seat]
        return max(ranks) if ranks else -1

    def winners(self) -> list[int]:
        scores = self.scores()
        best = max(scores)
        tied = [s for s in range(self.players) if scores[s] == best]
        if len(tied) == 1:
            return tied
        if self.rules.tie_rank:
            return [max(tied, key=self._best_rank)]
        top = max(self._district_points(s) for s in tied)
        tied = [s for s in tied if self._district_points(s) == top]
        richest = max(self.gold[s] for s in tied)
        return [s for s in tied if self.gold[s] == richest]

    def stats(self) -> dict[str, int]:
        return {
            "actions": len(self._history_notations),
            "rounds": self.round_no,
            "districts_built": sum(len(c) for c in self.cities),
            "deck_left": len(self.deck),
        }

    def expand_notation(self, notation: str) -> list[str] | None:
        """D28: ``redraw:a,b`` stands for ``redraw:a``, ``redraw:b``, ``redraw:done``."""
        if not notation.startswith("redraw:") or "," not in notation:
            return None
        names = notation[len("redraw:") :].split(",")
        if not all(name in DISTRICT_INDEX for name in names):
            return None
        return [f"redraw:{name}" for name in names] + ["redraw:done"]

    # --- copies --------------------------------------------------------------------------------

    def clone(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        self._copy_common_to(other)
        # Not the original's converted log (core/logview.py): its check that a log still begins with the
        # entries it converted compares the last one by identity, and the commonest entries here are
        # shared tuples, which another line of play can end with too.
        other._log_views = None
        other.rules = self.rules
        other.hands = [list(h) for h in self.hands]
        other.cities = [list(c) for c in self.cities]
        other.masks = list(self.masks)
        other.gold = list(self.gold)
        other.deck = list(self.deck)
        other.deck_top = self.deck_top
        other._records = list(self._records)  # records are immutable values
        other._pending = list(self._pending)  # the events are too
        other._watch_pos = self._watch_pos
        other._watch_hands = self._watch_hands
        other.crown = self.crown
        other.round_no = self.round_no
        other.phase = self.phase
        other.is_over = self.is_over
        other.cur = self.cur
        other.turn_seat = self.turn_seat
        other.rank = self.rank
        other.faceup = list(self.faceup)
        other.facedown = list(self.facedown)
        other.pool = list(self.pool)
        other.reserved = self.reserved
        other.holder = list(self.holder)
        other.steps = list(self.steps)
        other.draft_idx = self.draft_idx
        other.killed = self.killed
        other.robbed = self.robbed
        other.revealed = self.revealed
        other.gathered = self.gathered
        other.builds_left = self.builds_left
        other._open = self._open
        other.drawn = list(self.drawn)
        other.keeps_left = self.keeps_left
        other.kept = list(self.kept)
        other.marked = list(self.marked)
        other.grave_card = self.grave_card
        other.first_complete = self.first_complete
        other.hq_round = self.hq_round
        other.log = list(self.log)
        other._legal = self._legal
        other._answering = self._answering
        return other

    def determinize(self, seat: int | None, rng: Rng | int | None = None) -> Self:
        """Resample what ``seat`` has not seen (§6): other hands, the deck order, other seats' pending cards
        and unseen characters, keeping every fact its knowledge record holds (``knowledge.py``).

        The copy carries only this seat's record (and no other seat's private log): what the others know
        is hidden too.
        """
        sampler = self._determinization_rng(rng)
        other = self.clone()
        other._legal = None
        other.log = [e for e in self.log if e[0] < 0 or e[0] == seat]
        other.rng = sampler.fork()  # future chance is hidden too
        n = self.players
        me = n if seat is None else seat
        record = self.knowledge[me]
        records = [empty_record(LOCATIONS)] * (n + 1)
        records[me] = record
        other.knowledge = records
        over = self.phase == P_OVER
        if over:  # every hand is shown; only the deck order stays hidden
            for t in range(n):
                record = revealed(record, t, self.hands[t])
        sizes = [0] * LOCATIONS
        hidden = list(self.deck)
        for t in range(n):
            if t != seat and not over:
                sizes[t] = len(self.hands[t])
                hidden.extend(self.hands[t])
        hidden_drawn = self.phase == P_KEEP and self.cur != seat
        if hidden_drawn:
            sizes[DRAWN] = len(self.drawn)
            hidden.extend(self.drawn)
        hidden.sort()  # canonical: the sample depends only on what the seat knows
        places, other.deck = sample(
            record, sizes, hidden, KIND_COUNT, lambda items: shuffle(sampler, items), len(self.deck), self.deck_top
        )
        for t in range(n):
            if sizes[t]:
                other.hands[t] = places[t]
        if over:
            return other
        if hidden_drawn:
            other.drawn = places[DRAWN]
            keep_count = len(self.kept)
            other.kept = other.hands[self.cur][len(other.hands[self.cur]) - keep_count :]
        if self.phase == P_REDRAW and self.cur != seat:
            other.marked = sampler.sample(other.hands[self.cur], len(self.marked))
        other._resample_characters(seat, sampler)
        return other

    def _dealt_draft_pools(self) -> list[frozenset[int] | None]:
        """``_draft_pools`` of the characters as dealt in this state (a ``determinize`` copy: as it dealt them)."""
        steps = self.steps
        reserve = steps[0][2] if self.players == 7 else -1
        return self._draft_pools([c for (_, _, c) in steps], reserve, self.pool)

    def _draft_pools(self, cards: list[int], reserve: int, pool: list[int]) -> list[frozenset[int] | None]:
        """The pool each draft decision saw, for step cards ``cards``; the last entry is the open pool."""
        avail = set(range(8)).difference(self.faceup)
        out: list[frozenset[int] | None] = []
        picks = 0
        held = -1
        for (_, kind, _), card in zip(self.steps, cards, strict=True):
            if kind == S_RESERVE:
                held = reserve
                avail.discard(reserve)
                out.append(None)
                continue
            if kind == S_PICK and held >= 0 and picks == 6:
                avail.add(held)
                held = -1
            out.append(frozenset(avail) if kind in (S_PICK, S_DISCARD) else None)
            if kind == S_PICK:
                picks += 1
            avail.discard(card)
        out.append(frozenset(pool))
        return out

    def _resample_characters(self, seat: int | None, rng: Rng) -> None:
        """Reassign the characters ``seat`` has not seen, consistently with every draft pool it saw
        and with the calls so far (a called rank that did not answer, unless murdered, is held by nobody)."""
        steps = self.steps
        n_steps = len(steps)
        seven = self.players == 7
        returned = seven and self.reserved < 0
        # Slots: step cards (the 7-player reserve step is a pointer once returned), then the open pool.
        cards = [c for (_, _, c) in steps] + list(self.pool)
        if seven and not returned:
            cards[0] = self.reserved
        fixed = [False] * len(cards)
        revealed = self.revealed
        # With 4–7 players a revealed character fixes its holder's only pick; with 2–3 players which of
        # the holder's two picks it was is not public, so it is placed among them at random below.
        two_picks = self.players <= 3
        for i, (st, kind, c) in enumerate(steps):
            if (st == seat and st >= 0) or (kind == S_PICK and revealed >> c & 1 and not two_picks):
                fixed[i] = True
        if seat is not None and self.cur == seat and self.phase in (P_PICK, P_DISCARD):
            for i in range(n_steps, len(cards)):
                fixed[i] = True
        if returned:
            fixed[0] = True  # recomputed from the other slots below
        free = [i for i in range(len(cards)) if not fixed[i]]
        if not free and not returned:
            return
        called_silent = [
            r for r in range(8)
            if self.phase >= P_TURN and r < self.rank and not revealed >> r & 1 and r != self.killed
        ]
        real_pools = self._dealt_draft_pools()
        watched = [
            i for i, (st, kind, _) in enumerate(steps)
            if seat is not None and st == seat and kind in (S_PICK, S_DISCARD)
        ]
        if seat is not None and self.cur == seat and self.phase in (P_PICK, P_DISCARD):
            watched.append(n_steps)
        placed: list[tuple[int, list[int]]] = []  # 2–3 players: (revealed character, its holder's free picks)
        if two_picks:
            for c in range(8):
                owner = self.holder[c]
                if revealed >> c & 1 and owner >= 0 and owner != seat:
                    placed.append((c, [i for i in free if i < n_steps and steps[i][:2] == (owner, S_PICK)]))
        placed_cards = {c for c, _ in placed}
        free_cards = sorted(cards[i] for i in free if cards[i] not in placed_cards)
        last_two = [i for i, (_, kind, _) in enumerate(steps) if kind in (S_PICK, S_AUTO_FD)][-2:]
        for _ in range(_TRIES):
            trial = list(cards)
            rest = free
            if placed:
                taken: list[int] = []
                for c, slots in placed:
                    options = [i for i in slots if i not in taken]
                    slot = options[rng.randbelow(len(options))]
                    trial[slot] = c
                    taken.append(slot)
                rest = [i for i in free if i not in taken]
            shuffle(rng, free_cards)
            for i, c in zip(rest, free_cards, strict=True):
                trial[i] = c
            reserve = trial[0] if seven else -1
            if returned:
                # The returned card is one of the two the 7th picker saw (the open pool or his two slots).
                options = trial[n_steps:] if self.draft_idx == 6 else [trial[i] for i in last_two[-2:]]
                reserve = rng.choice(options)
                trial[0] = reserve
            pools = self._draft_pools(trial[:n_steps], reserve, trial[n_steps:])
            if any(pools[i] != real_pools[i] for i in watched):
                continue
            held = {trial[i] for i, (_, kind, _) in enumerate(steps) if kind == S_PICK}
            if any(r in held for r in called_silent):
                continue
            self._install_characters(trial)
            return
        raise RuntimeError("no consistent character assignment found")  # pragma: no cover

    def _install_characters(self, trial: list[int]) -> None:
        steps = self.steps
        n_steps = len(steps)
        self.steps = [(st, kind, trial[i]) for i, (st, kind, _) in enumerate(steps)]
        self.pool = sorted(trial[n_steps:])
        if self.reserved >= 0:
            self.reserved = trial[0]
        self.holder = [-1] * 8
        self.facedown = []
        for st, kind, c in self.steps:
            if kind == S_PICK:
                self.holder[c] = st
            elif kind in (S_RANDOM_FD, S_DISCARD, S_AUTO_FD):
                self.facedown.append(c)
        self._answering = self._answering_ranks()

    # --- views ---------------------------------------------------------------------------------

    def seen_face_down(self, seat: int) -> list[int]:
        """The face-down characters ``seat`` saw this round (its own 2-player discards, the leftover)."""
        return [c for (st, kind, c) in self.steps if st == seat and kind in (S_DISCARD, S_AUTO_FD)]

    def _view(self, seat: int | None) -> JSON:
        return self._views([seat])[0]

    def _views(self, seats: Sequence[int | None]) -> list[JSON]:
        """Every seat's view from one build of what all of them see (the seats' boards, the face-up and
        revealed characters, the public log, the final scores), shared between the views."""
        n = self.players
        over = self.phase == P_OVER
        rules = self.rules
        revealed = self.revealed if not over else 0xFF  # at game over the final round's characters are shown
        scores = self.scores()
        logs = self._log_views = log_views(self._log_views, self.log, _visibility, event_dict)
        boards = []
        for s in range(n):
            city = self.cities[s]
            boards.append({
                "seat": s,
                "gold": self.gold[s],
                "hand_count": len(self.hands[s]),
                "city": [DISTRICT_SLUGS[d] for d in city],
                "complete": len(city) >= rules.cap,
                "score": scores[s],
                "crown": s == self.crown,
                "revealed_characters": [
                    CHARACTER_SLUGS[c] for c in range(8) if self.holder[c] == s and revealed >> c & 1
                ],
            })
        face_up = [CHARACTER_SLUGS[c] for c in self.faceup]
        face_down_count = len(self.facedown) + (1 if self.reserved >= 0 else 0)
        revealed_holders = {
            CHARACTER_SLUGS[c]: self.holder[c] for c in range(8) if revealed >> c & 1 and self.holder[c] >= 0
        }
        murdered = CHARACTER_SLUGS[self.killed] if self.killed >= 0 else None
        robbed = CHARACTER_SLUGS[self.robbed] if self.robbed >= 0 else None
        options = dict(self.options)
        phase = "over" if over else ("selection" if self.phase <= P_DISCARD else "action")
        final: JSON | None = None
        if over:
            final = {
                "scores": scores,
                "breakdown": [self.score_breakdown(s) for s in range(n)],
                "winners": self.winners(),
                "hands": [[DISTRICT_SLUGS[d] for d in h] for h in self.hands],
                "characters": [[CHARACTER_SLUGS[c] for c in range(8) if self.holder[c] == s] for s in range(n)],
            }
        views: list[JSON] = []
        for seat, seat_logs in zip(seats, logs.for_views(seats), strict=True):
            mine = (
                [CHARACTER_SLUGS[c] for c in range(8) if self.holder[c] == seat] if seat is not None else []
            )
            characters: JSON = {
                "face_up": face_up,
                "face_down_count": face_down_count,
                "face_down_seen": [CHARACTER_SLUGS[c] for c in self.seen_face_down(seat)] if seat is not None else [],
                "mine": mine,
                "revealed": revealed_holders,
                "murdered": murdered,
                "robbed": robbed,
            }
            view: JSON = {
                "game": "citadels",
                "players": n,
                "seat": seat,
                "round": self.round_no,
                "phase": phase,
                "current_player": self.current_player,
                "crown": self.crown,
                "complete_at": rules.cap,
                "options": options,
                "first_complete": self.first_complete if self.first_complete >= 0 else None,
                "deck_count": len(self.deck),
                "seats": boards,
                "hand": [DISTRICT_SLUGS[d] for d in self.hands[seat]] if seat is not None else None,
                "characters": characters,
                "pending": self._pending_view(seat),
                **seat_logs,
            }
            if final is not None:
                view["final"] = final
            views.append(view)
        return views

    def _pending_view(self, seat: int | None) -> JSON | None:
        phase = self.phase
        if phase == P_OVER:
            return None
        cur = self.cur
        mine = seat == cur
        pending: JSON = {"kind": PHASE_NAMES[phase], "seat": cur}
        if phase in (P_PICK, P_DISCARD):
            pending["offered_count"] = len(self.pool)
            if mine:
                pending["offered"] = [CHARACTER_SLUGS[c] for c in self.pool]
            return pending
        pending["character"] = CHARACTER_SLUGS[self.rank]
        pending["turn_seat"] = self.turn_seat
        pending["gathered"] = self.gathered
        pending["builds_left"] = self.builds_left
        pending["tax_used"] = self.tax_used
        pending["power_used"] = self.power_used
        pending["laboratory_used"] = self.lab_used
        pending["smithy_used"] = self.smithy_used
        if phase == P_KEEP:
            pending["drawn_count"] = len(self.drawn)
            pending["keeps_left"] = self.keeps_left
            if mine:
                pending["drawn"] = [DISTRICT_SLUGS[d] for d in self.drawn]
        elif phase == P_REDRAW and mine:
            pending["marked"] = [DISTRICT_SLUGS[d] for d in self.marked]
        elif phase == P_GRAVE:
            pending["card"] = DISTRICT_SLUGS[self.grave_card]
        return pending

    # --- saved form ----------------------------------------------------------------------------

    def dump_body(self) -> JSON:
        return {
            "hands": [list(h) for h in self.hands],
            "cities": [list(c) for c in self.cities],
            "gold": list(self.gold),
            "deck": list(self.deck),
            "deck_top": self.deck_top,
            "knowledge": [record_to_json(r) for r in self.knowledge],
            "crown": self.crown,
            "round": self.round_no,
            "phase": self.phase,
            "cur": self.cur,
            "turn_seat": self.turn_seat,
            "rank": self.rank,
            "faceup": list(self.faceup),
            "facedown": list(self.facedown),
            "pool": list(self.pool),
            "reserved": self.reserved,
            "holder": list(self.holder),
            "steps": [list(s) for s in self.steps],
            "draft_idx": self.draft_idx,
            "killed": self.killed,
            "robbed": self.robbed,
            "revealed": self.revealed,
            "gathered": self.gathered,
            "builds_left": self.builds_left,
            "tax_used": self.tax_used,
            "power_used": self.power_used,
            "lab_used": self.lab_used,
            "smithy_used": self.smithy_used,
            "drawn": list(self.drawn),
            "keeps_left": self.keeps_left,
            "kept": list(self.kept),
            "marked": list(self.marked),
            "grave_card": self.grave_card,
            "first_complete": self.first_complete,
            "hq_round": self.hq_round,
            "log": [entry_to_json(e) for e in self.log],
        }

    def load_body(self, body: JSON) -> None:
        if not isinstance(body, dict):
            raise InvalidState("the body of a saved Citadels state must be an object")
        n = self.players
        rules = self.rules = rules_for(n, self.options)
        card_ids = range(KIND_COUNT)
        self.hands = [_ints(h, card_ids) for h in _list(body["hands"], n)]
        self.cities = [_ints(c, card_ids) for c in _list(body["cities"], n)]
        self.masks = []
        for city in self.cities:
            mask = 0
            for d in city:
                if mask >> d & 1:
                    raise InvalidState(f"a city holds two {DISTRICT_SLUGS[d]}")
                mask |= 1 << d
            if not rules.overbuild and len(city) > rules.cap:
                raise InvalidState("a city is larger than the completion size")
            self.masks.append(mask)
        self.gold = _ints(body["gold"], range(1 << 31))
        if len(self.gold) != n:
            raise InvalidState("one gold count per seat is needed")
        self.deck = _ints(body["deck"], card_ids)
        self.deck_top = _int(body["deck_top"], range(1 << 31))
        self.knowledge = [record_from_json(r, LOCATIONS, KIND_COUNT) for r in _list(body["knowledge"], n + 1)]
        seats = range(n)
        self.crown = _int(body["crown"], seats)
        self.round_no = _int(body["round"], range(1, 1 << 31))
        self.phase = _int(body["phase"], range(7))
        self.is_over = self.phase == P_OVER
        self.cur = _int(body["cur"], range(-1, n))
        self.turn_seat = _int(body["turn_seat"], range(-1, n))
        self.rank = _int(body["rank"], range(8))
        chars = range(8)
        self.faceup = _ints(body["faceup"], chars)
        self.facedown = _ints(body["facedown"], chars)
        self.pool = _ints(body["pool"], chars)
        self.reserved = _int(body["reserved"], range(-1, 8))
        self.holder = _ints(body["holder"], range(-1, n))
        if len(self.holder) != 8:
            raise InvalidState("holder must list the 8 characters")
        self.steps = []
        for step in _list(body["steps"], None):
            st, kind, c = _ints(step, range(-1, 8))
            if st >= n or kind > S_RESERVE or c < 0:
                raise InvalidState(f"bad draft step {step!r}")
            self.steps.append((st, kind, c))
        self.draft_idx = _int(body["draft_idx"], range(len(DRAFT_SCRIPTS[n]) + 1))
        self.killed = _int(body["killed"], range(-1, 8))
        self.robbed = _int(body["robbed"], range(-1, 8))
        self.revealed = _int(body["revealed"], range(256))
        self.gathered = _bool(body["gathered"])
        self.builds_left = _int(body["builds_left"], range(4))
        self._open = _OFFERS[self.rank]
        for flag in _TURN_FLAGS:
            used = _bool(body[flag])
            setattr(self, flag, used)
            if getattr(self, flag) != used:
                raise InvalidState(f"{flag} is set for a {CHARACTER_SLUGS[self.rank]}, who has no such offer")
        self.drawn = _ints(body["drawn"], card_ids)
        self.keeps_left = _int(body["keeps_left"], range(4))
        self.kept = _ints(body["kept"], card_ids)
        self.marked = _ints(body["marked"], card_ids)
        self.grave_card = _int(body["grave_card"], range(-1, KIND_COUNT))
        self.first_complete = _int(body["first_complete"], range(-1, n))
        self.hq_round = _int(body["hq_round"], range(-1, 1 << 31))
        self.log = [entry_from_json(e) for e in _list(body["log"], None)]
        self._legal = None
        self._answering = self._answering_ranks()
        self._check_consistency()

    def _check_consistency(self) -> None:
        """Conservation of the district cards and characters; phase fields that make sense."""
        cards = Counter(self.deck)
        for cards_of in (*self.hands, *self.cities, self.drawn):
            cards.update(cards_of)
        if self.grave_card >= 0:
            cards[self.grave_card] += 1
        if cards != Counter(deck_kinds(self.rules.deck_preset)):
            raise InvalidState("the district cards do not add up to the deck preset")
        held = [c for c in range(8) if self.holder[c] >= 0]
        placed = [*self.faceup, *self.facedown, *self.pool, *held]
        if self.reserved >= 0:
            placed.append(self.reserved)
        if sorted(placed) != list(range(8)):
            raise InvalidState("the 8 characters are not each in exactly one place")
        if self.phase != P_OVER and self.cur < 0:
            raise InvalidState("no current player while the game is not over")
        if (self.phase == P_GRAVE) != (self.grave_card >= 0):
            raise InvalidState("a graveyard card without a graveyard prompt (or the reverse)")
        if (self.phase == P_KEEP) != bool(self.drawn):
            raise InvalidState("drawn cards without a keep step (or the reverse)")
        if self.phase in (P_PICK, P_DISCARD) and not self.pool:
            raise InvalidState("a draft step with nothing to choose from")
        for me, record in enumerate(self.knowledge):
            try:
                check_record(record, self._contents(me), self.deck, self.deck_top)
            except ValueError as error:
                raise InvalidState(f"knowledge record {me} is not true of the state: {error}") from error


#: How each action kind is carried out, indexed by its ``K_*`` code (one lookup instead of a chain of tests).
_DO: Final[tuple[Callable[[CitadelsState, Act], None], ...]] = (
    CitadelsState._do_pick,  # K_PICK
    CitadelsState._do_discard,  # K_DISCARD
    CitadelsState._do_gold,  # K_GOLD
    CitadelsState._do_draw,  # K_DRAW
    CitadelsState._do_keep,  # K_KEEP
    CitadelsState._do_build,  # K_BUILD
    CitadelsState._do_tax,  # K_TAX
    CitadelsState._do_kill,  # K_KILL
    CitadelsState._do_rob,  # K_ROB
    CitadelsState._do_swap,  # K_SWAP
    CitadelsState._do_redraw,  # K_REDRAW
    CitadelsState._do_redraw_done,  # K_REDRAW_DONE
    CitadelsState._do_destroy,  # K_DESTROY
    CitadelsState._do_graveyard,  # K_GRAVE_TAKE
    CitadelsState._do_graveyard,  # K_GRAVE_PASS
    CitadelsState._do_lab,  # K_LAB
    CitadelsState._do_smithy,  # K_SMITHY
    CitadelsState._do_end,  # K_END
)
assert len(_DO) == K_END + 1


def _list(value: Any, size: int | None) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise InvalidState(f"expected a list{'' if size is None else f' of {size}'}, got {value!r:.60}")
    return value


def _int(value: Any, allowed: range) -> int:
    if type(value) is not int or value not in allowed:
        raise InvalidState(f"expected an integer in {allowed}, got {value!r:.60}")
    return value


def _ints(value: Any, allowed: range) -> list[int]:
    return [_int(v, allowed) for v in _list(value, None)]


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise InvalidState(f"expected true or false, got {value!r:.60}")
    return value


__all__ = ["PHASE_NAMES", "CitadelsState", "deal_characters"]
