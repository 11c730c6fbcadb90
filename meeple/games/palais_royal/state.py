"""Palais Royal game state: setup, the five-step turn, scoring, views and the saved form.

Sections of the rules reference are cited as §n. Counts are kept as small lists of ints indexed by
seat, room (``ROOM_CODES`` order), card kind (``CARD_CODES`` order) and garden square (a1 = 0,
b1 = 1, ..., f6 = 35); strings appear only in views, logs and the saved form.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import compress
from operator import itemgetter
from typing import Any, Final, Self

from meeple.core.contract import JSON, GameState
from meeple.core.events import PUBLIC
from meeple.core.logview import log_views
from meeple.core.rng import Rng
from meeple.games.card_knowledge import (
    Record,
    emptied,
    empty_record,
    gained_in_public,
    known_whole,
    moved_all,
    moved_unseen,
    record_to_json,
    removed_in_public,
    sample,
    update_others,
    watch,
)
from meeple.games.palais_royal import actions as A
from meeple.games.palais_royal.actions import PalaisAction
from meeple.games.palais_royal.data import (
    BAC,
    BACKDOOR,
    CAR,
    CARD_CODES,
    CARDINAL,
    DISCOUNT,
    GARDEN_SIZE,
    GAT,
    KIN,
    KLETTER,
    KSEAL,
    MIN,
    NOBLE_COUNT,
    OFF,
    P_GATE,
    P_GOLD,
    P_MOVE,
    P_RECRUIT,
    PAR,
    PASSAGE,
    PATRON,
    POM,
    PRIVILEGE_CODES,
    PURSE,
    RECOMMEND,
    REINF,
    ROOM_CODES,
    SQUARE_NAMES,
    STA,
    SUPPLY,
    TIE,
    VLETTER,
    VSEAL,
    components,
)
from meeple.games.palais_royal.rules import ROOM_INDEX, Rules, parse_layout

SETUP: Final = 0
PLAY: Final = 1
OVER: Final = 2
PHASES: Final = ("setup", "play", "over")
STEP_NAMES: Final = ("", "gate", "stairs", "mint/king/pomp", "recruit", "back door")
_END: Final = A.END_ACTION
#: What another seat sees of a card kept from the draw (§2.5: the log says a card was kept, not which).
_KEPT_UNSEEN: Final = ("unseen", A.KEEP)
_NONE_OF_9: Final = [0] * 9  # a seat's rooms or hand holding nothing
_NONE_OF_10: Final = [0] * 10  # no privilege tallies
_SQUARES: Final = range(GARDEN_SIZE)
_GATE_SOURCES: Final = A.GATE_FROM_ROOM[:GAT]  # a servant to the Gate from any room but the Gate
_END_ONLY: Final[tuple[PalaisAction, ...]] = (A.END_ACTION,)
_GATE_THEN_END: Final[tuple[PalaisAction, ...]] = (A.GATE_POOL, A.END_ACTION)
_DRAW_THEN_END: Final[tuple[PalaisAction, ...]] = (A.DRAW_ACTION, A.END_ACTION)
#: Knowledge locations (card_knowledge.py): the hands (seats 0–3), the deck (whose order nobody knows),
#: the Back-door draw in progress, and the discard pile when it is face down (``discard_public=false``).
DECK: Final = 4
DRAWN: Final = 5
DISCARD: Final = 6
LOCATIONS: Final = 7



def _visibility(entry: tuple[int, JSON]) -> int:
    """Who sees a log entry: ``PUBLIC`` everyone, else that one seat."""
    return entry[0]


def _event_json(entry: tuple[int, JSON]) -> JSON:
    """A log entry's event as a view shows it (a copy: the log's own dict stays the game's)."""
    return dict(entry[1])

class PalaisRoyalState(GameState[PalaisAction]):
    """One game of Palais Royal in progress (see docs/games/palais_royal.md)."""

    #: every attribute in a slot (the base class's too): read at a fixed offset. With ~55 attributes an
    #: instance dict is each game's own (Python 3.11 shares the keys of at most 30), so most attribute
    #: and method reads of the hot path missed their specialisations from one game to the next.
    __slots__ = (
        "_history_notations",
        "_legal",
        "_log_views",
        "_undo_floor",
        "_watched",
        "active",
        "backdoor_left",
        "bank",
        "boxed",
        "counters",
        "deck",
        "discard",
        "drawn",
        "drew",
        "edge_square",
        "final_round",
        "front",
        "game",
        "garden",
        "garden_left",
        "garden_servants",
        "gate_bonus",
        "gate_left",
        "gold",
        "hands",
        "is_over",
        "king_done",
        "knowledge",
        "log",
        "mint_done",
        "move_bonus",
        "move_left",
        "options",
        "owned",
        "patron",
        "phase",
        "players",
        "pomp_done",
        "pool",
        "rng",
        "rooms",
        "round",
        "rules",
        "seat",
        "seed",
        "setup_left",
        "start_seat",
        "step",
        "supply",
        "tie",
        "v_slots",
        "v_turquoise",
        "v_violet",
        "waiting",
    )

    rules: Rules
    phase: int
    seat: int
    start_seat: int
    setup_left: int
    round: int
    final_round: bool
    step: int
    rooms: list[list[int]]  # [seat][room] servants
    pool: list[int]
    supply: list[int]  # general supply of each colour
    gold: list[int]
    bank: int  # gold in the supply (may go below 0 when the supply is unlimited)
    garden: list[int]  # square -> noble index, -1 when no tile
    garden_servants: list[int]  # square -> seat, -1 when none
    garden_left: int
    boxed: list[int]
    owned: list[list[int]]  # nobles of each seat, in recruitment order
    active: list[list[int]]  # [seat][privilege] tallies in effect
    waiting: list[list[int]]  # [seat][privilege] tallies that start at the owner's next turn
    hands: list[list[int]]  # [seat][card kind] counts
    deck: list[int]  # card kinds, top = last
    discard: list[int]
    front: list[list[int]]  # played cards that stay in front ([seat][card kind])
    # The turn in progress.
    gate_left: int  # -1 until the allowance is locked
    gate_bonus: int
    move_left: int
    move_bonus: int
    mint_done: bool
    king_done: bool
    pomp_done: bool
    tie: bool
    v_slots: int
    v_turquoise: int
    v_violet: int
    patron: int
    edge_square: int  # -1, or the square whose garden servant must be placed now
    drew: bool
    drawn: list[int]
    backdoor_left: int
    log: list[tuple[int, JSON]]
    counters: list[int]  # turns, recruits, cards drawn, cards played
    knowledge: list[Record]  # what each seat, then a spectator, knows of where hidden cards are (§7)
    _watched: int  # the knowledge locations some record knows something of
    _legal: tuple[PalaisAction, ...] | None
    is_over: bool  # a plain attribute, not a property: asked before every decision (``_set_phase``)

    # --- setup --------------------------------------------------------------------------------

    def setup(self) -> None:
        comps = components()
        options = self.options
        rng = self.rng
        explicit = parse_layout(options["layout"])
        if explicit is not None:
            layout = explicit
        elif options["layout"] == "first_game":
            layout = tuple(ROOM_INDEX[c] for c in comps.first_game_layout)
        elif options["gate_fixed_centre"]:
            others = [r for r in range(9) if r != GAT]
            rng.shuffle(others)
            layout = (*others[:4], GAT, *others[4:])
        else:
            shuffled = list(range(9))
            rng.shuffle(shuffled)
            layout = tuple(shuffled)
        self.rules = rules = Rules(comps, options, layout)
        n = self.players
        self.log = []
        self.log.append((PUBLIC, {"event": "layout", "rooms": [ROOM_CODES[r] for r in layout],
                           "record": "#layout:" + ",".join(ROOM_CODES[r] for r in layout)}))

        tiles = list(range(NOBLE_COUNT))
        rng.shuffle(tiles)
        self.garden = tiles[:GARDEN_SIZE]
        self.boxed = sorted(tiles[GARDEN_SIZE:])
        self.garden_servants = [-1] * GARDEN_SIZE
        self.garden_left = GARDEN_SIZE
        self.log.append((PUBLIC, {"event": "garden", "record": "#garden:" + ",".join(
            f"{SQUARE_NAMES[q]}={rules.noble_ids[t]}" for q, t in enumerate(self.garden))}))

        self.deck = [k for k, card in enumerate(comps.cards) for _ in range(card.copies)]
        rng.shuffle(self.deck)
        self.discard = []
        self.knowledge = [empty_record(LOCATIONS)] * (self.players + 1)
        self._watched = 0
        self.log.append((PUBLIC, {"event": "shuffle", "record": "#shuffle", "cards": len(self.deck)}))

        start = options["start_seat"]
        self.start_seat = rng.randbelow(n) if start == "random" else int(start)  # type: ignore[arg-type]
        self.rooms = [[0] * 9 for _ in range(n)]
        self.pool = [comps.pool_servants] * n
        self.supply = [comps.general_supply_servants] * n
        if not rules.free_placement:
            for p in range(n):
                self.rooms[p][STA] = 3
                self.rooms[p][PAR] = 2
                self.pool[p] -= 5
        self.gold = [0] * n
        for i in range(n):
            self.gold[(self.start_seat + i) % n] = rules.start_gold[i]
        self.bank = rules.gold_total - sum(self.gold)
        self.owned = [[] for _ in range(n)]
        self.active = [[0] * 10 for _ in range(n)]
        self.waiting = [[0] * 10 for _ in range(n)]
        self.hands = [[0] * 9 for _ in range(n)]
        self.front = [[0] * 9 for _ in range(n)]
        self._set_phase(SETUP)
        self.seat = self.start_seat
        self.setup_left = 10 if rules.free_placement else 5
        self.round = 0
        self.final_round = False
        self.counters = [0, 0, 0, 0]
        self._reset_turn()
        self.step = 0
        self.log.append((PUBLIC, {"event": "start", "start_seat": self.start_seat, "gold": list(self.gold)}))

    def _reset_turn(self) -> None:
        self.step = 1
        self.gate_left = -1
        self.gate_bonus = 0
        self.move_left = -1
        self.move_bonus = 0
        self.mint_done = self.king_done = self.pomp_done = False
        self.tie = False
        self.v_slots = self.v_turquoise = self.v_violet = 0
        self.patron = 0
        self.edge_square = -1
        self.drew = False
        self.drawn = []
        self.backdoor_left = 0
        self._legal = None

    # --- the contract's queries ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.seat

    def _set_phase(self, phase: int) -> None:
        self.phase = phase
        self.is_over = phase == OVER

    def holds_majority(self, p: int, room: int) -> bool:
        """§2.0: most servants in ``room`` (at least 1); a tie is won by a strictly stronger Cardinal
        (servants in CAR + CARDINAL nobles) or by a ``TIE`` card played by the player on turn."""
        rooms = self.rooms
        mine = rooms[p][room]
        if mine == 0:
            return False
        level = 0  # seats with as many servants there (p's own included)
        for servants in rooms:
            theirs = servants[room]
            if theirs >= mine:  # one comparison for the seats with fewer, the commonest case
                if theirs > mine:
                    return False
                level += 1
        if level == 1:
            return True
        if self.tie and self.phase == PLAY:
            if p == self.seat:
                return True
            if rooms[self.seat][room] == mine:
                return False  # the player on turn wins this tie with his TIE card
        strength = rooms[p][CAR] + self.active[p][CARDINAL]
        for q in range(self.players):
            if q != p and rooms[q][room] == mine and rooms[q][CAR] + self.active[q][CARDINAL] >= strength:
                return False
        return True

    def gate_allowance(self) -> int:
        """§2.1: the step-1 allowance left (live until locked by the first ``gate``)."""
        if self.gate_left >= 0:
            return self.gate_left
        p = self.seat
        return (self.rooms[p][PAR] + self.holds_majority(p, PAR) + self.active[p][P_GATE]
                + self.gate_bonus)

    def movement_points(self) -> int:
        """§2.2: the movement points left (read at the first move, then fixed)."""
        if self.move_left >= 0:
            return self.move_left
        p = self.seat
        return (self.rooms[p][STA] + self.holds_majority(p, STA) + self.active[p][P_MOVE]
                + self.move_bonus)

    def mint_income(self) -> int:
        """§2.3a: gold the Mint gives now (capped by the supply when gold is limited)."""
        p = self.seat
        amount = self.rooms[p][MIN] + self.holds_majority(p, MIN) + self.active[p][P_GOLD]
        if self.rules.gold_limited:
            amount = min(amount, self.bank)
        return amount

    def backdoor_units(self) -> int:
        """§2.5: N = servants in BAC + BACKDOOR nobles."""
        p = self.seat
        return self.rooms[p][BAC] + self.active[p][BACKDOOR]

    def recruit_cost(self, square: int, p: int | None = None) -> int:
        """§2.4, [D-1]: printed gold − empty garden neighbours − discounts, at least 0."""
        p = self.seat if p is None else p
        gold = self.rules.noble_gold[self.garden[square]]
        reduction = self.active[p][DISCOUNT] + (self.patron if p == self.seat else 0)
        garden = self.garden
        for q in self.rules.neighbours[square]:
            if garden[q] < 0:
                reduction += 1
        return gold - reduction if gold > reduction else 0

    def legal_actions(self) -> Sequence[PalaisAction]:
        legal = self._legal
        if legal is None:  # asked once a decision, answered by the step's own method (a table lookup)
            legal = self._legal = _ACTIONS_OF_STEP[self.step](self)
        return legal

    def _setup_actions(self) -> tuple[PalaisAction, ...]:
        """Step 0: a room for the next servant during setup; nothing once the game is over."""
        return A.PLACE_IN if self.phase == SETUP and self.pool[self.seat] > 0 else ()

    def _gate_actions(self) -> tuple[PalaisAction, ...]:
        """Step 1 (§2.1): a servant through the gate while an allowance is left (before it is locked: any
        source of one; the Parlour majority counts only with a servant in the Parlour)."""
        p = self.seat
        mine = self.rooms[p]
        gate_left = self.gate_left
        if gate_left > 0 or (gate_left < 0 and (mine[PAR] or self.active[p][P_GATE] or self.gate_bonus)):
            if not self.pool[p]:
                return self._cards_then_end([*compress(_GATE_SOURCES, mine)], 1)
            if self.hands[p] == _NONE_OF_9:
                return _GATE_THEN_END
            return self._cards_then_end([A.GATE_POOL], 1)
        return _END_ONLY if self.hands[p] == _NONE_OF_9 else self._cards_then_end([], 1)

    def _move_actions(self) -> tuple[PalaisAction, ...]:
        """Step 2 (§2.2), the commonest question: the moves while points are left (before the first
        move, read then: any source of points), as ``Rules`` lists them for the occupied rooms."""
        p = self.seat
        mine = self.rooms[p]
        move_left = self.move_left
        if move_left > 0 or (move_left < 0 and (mine[STA] or self.active[p][P_MOVE] or self.move_bonus)):
            moves = self.rules.moves_then_end(mine)
            if self.hands[p] == _NONE_OF_9:
                return moves
            return self._cards_then_end(list(moves[:-1]), 2)
        return _END_ONLY if self.hands[p] == _NONE_OF_9 else self._cards_then_end([], 2)

    def _mint_king_pomp_actions(self) -> tuple[PalaisAction, ...]:
        """Step 3 (§2.3): the Mint, the King's servant and the Pomp's, each once (in order when
        ``step3_order`` is fixed); a majority needs a servant in the room, so that is tested first."""
        p = self.seat
        mine = self.rooms[p]
        rules = self.rules
        fixed = rules.step3_fixed
        out: list[PalaisAction] = []
        if (not self.mint_done and not (fixed and (self.king_done or self.pomp_done))
                and (mine[MIN] or self.active[p][P_GOLD])  # mint_income() > 0 without the majority test
                and (not rules.gold_limited or self.bank > 0)):
            out.append(A.MINT_ACTION)
        if not self.king_done and not (fixed and self.pomp_done) and mine[KIN] and self.holds_majority(p, KIN):
            if self.pool[p]:
                out.append(A.KING_POOL)
            elif rules.bonus_from_rooms:
                out += compress(A.KING_FROM_ROOM, mine)  # every room holding a servant but the King's
                out.remove(A.KING_FROM_ROOM[KIN])
        if not self.pomp_done and mine[POM] and self.holds_majority(p, POM):
            if self.pool[p]:
                out.append(A.POMP_POOL)
            elif rules.bonus_from_rooms:
                out += compress(A.POMP_FROM_ROOM, mine)
                out.remove(A.POMP_FROM_ROOM[POM])
        if not out and self.hands[p] == _NONE_OF_9:
            return _END_ONLY
        return self._cards_then_end(out, 3)

    def _recruit_step_actions(self) -> tuple[PalaisAction, ...]:
        """Step 4 (§2.4): the garden servant of an emptied edge square first; else the nobles within
        reach while an Office slot (a servant in the Office or a virtual one) is left."""
        p = self.seat
        mine = self.rooms[p]
        if self.edge_square >= 0:
            edge = compress(A.EDGE_FROM_ROOM, mine)
            return (A.EDGE_FROM_POOL, *edge) if self.pool[p] else tuple(edge)
        if self.v_slots + mine[OFF] > 0:
            return self._cards_then_end(self._recruitable(p, mine), 4)
        return _END_ONLY if self.hands[p] == _NONE_OF_9 else self._cards_then_end([], 4)

    def _backdoor_actions(self) -> tuple[PalaisAction, ...]:
        """Step 5 (§2.5): the draw (N > 0 and a card to draw), then a card to keep while any is owed."""
        p = self.seat
        mine = self.rooms[p]
        if not self.drew:
            if (mine[BAC] or self.active[p][BACKDOOR]) and (self.deck or self.discard):  # backdoor_units() > 0
                if self.hands[p] == _NONE_OF_9:
                    return _DRAW_THEN_END
                return self._cards_then_end([A.DRAW_ACTION], 5)
            return _END_ONLY if self.hands[p] == _NONE_OF_9 else self._cards_then_end([], 5)
        if self.backdoor_left + mine[BAC] > 0:
            drawn = self.drawn
            return self._cards_then_end([A.KEEP_CARD[k] for k in range(9) if k in drawn], 5)
        return self._cards_then_end([], 5)

    def _cards_then_end(self, out: list[PalaisAction], step: int) -> tuple[PalaisAction, ...]:
        """A step's actions ``out``, then the cards in hand playable in ``step`` (§2.7), then ``end``."""
        hand = self.hands[self.seat]
        if hand != _NONE_OF_9:
            for k in self.rules.playable[step]:
                if hand[k]:
                    out.append(A.PLAY_CARD[k])
        if not out:
            return _END_ONLY
        out.append(_END)
        return tuple(out)

    def _recruitable(self, p: int, mine: list[int]) -> list[PalaisAction]:
        """§2.4: the nobles whose seals are within reach and that ``p`` can pay for; an edge square
        needs a servant to place there."""
        gold = self.gold[p]
        has_servant = self.pool[p] > 0 or mine != _NONE_OF_9
        rules = self.rules
        printed, is_edge, garden = rules.noble_gold, rules.is_edge, self.garden
        cap = rules.most_seals
        within = rules.within_seals[min(mine[KIN] + self.v_turquoise, cap)][min(mine[POM] + self.v_violet, cap)]
        recruit = A.RECRUIT
        out = []
        # each square's noble within reach? (read in C; within[-1], a square without a noble, is False)
        for q in compress(_SQUARES, itemgetter(*garden)(within)):
            if printed[garden[q]] > gold and self.recruit_cost(q, p) > gold:
                continue
            if is_edge[q] and not has_servant:
                continue
            out.append(recruit[q])
        return out

    # --- applying actions ------------------------------------------------------------------------

    def action_seen_by(self, action: PalaisAction, seat: int) -> Hashable:
        return _KEPT_UNSEEN if action.kind == A.KEEP and seat != self.seat else action

    def apply(self, action: PalaisAction | str) -> None:
        """The base class's ``apply`` with a fast path: an interned action found by identity in the cached
        legal actions is applied at once (a notation, a shorthand or a refusal goes the general way)."""
        legal = self._legal
        if legal is None or action not in legal:
            super().apply(action)
            return
        # No RNG comparison here: after setup only ``_draw`` draws, and it seals the history itself.
        self._legal = None
        if action is _END:  # two decisions in three
            step = self.step
            if step < 3:  # _end_step's commonest case, inlined
                self.step = step + 1
            else:
                self._end_step(self.seat)
        else:
            _APPLY_OF_KIND[action.kind](self, action)  # only actions are in the cache (narrowed by `in`)
        self._history_notations.append(action.notation)

    def _apply(self, action: PalaisAction) -> None:
        self._legal = None
        _APPLY_OF_KIND[action.kind](self, action)

    def _apply_move(self, action: PalaisAction) -> None:
        """§2.2: one servant to an adjacent room, for a movement point (fixed at the first move)."""
        if self.move_left < 0:
            self.move_left = self.movement_points()
        self.move_left -= 1
        p = self.seat
        mine = self.rooms[p]
        mine[action.a] -= 1
        mine[action.b] += 1
        self.log.append((PUBLIC, {"event": "move", "seat": p, "from": ROOM_CODES[action.a],
                                  "to": ROOM_CODES[action.b]}))

    def _apply_end(self, action: PalaisAction) -> None:
        self._end_step(self.seat)

    def _apply_gate(self, action: PalaisAction) -> None:
        """§2.1: a servant to the Gate, from the allowance (fixed at the first one)."""
        if self.gate_left < 0:
            self.gate_left = self.gate_allowance()
        self.gate_left -= 1
        self._place(GAT, action.a if action.kind == A.GATE_FROM else -1, "gate")

    def _apply_mint(self, action: PalaisAction) -> None:
        p = self.seat
        amount = self.mint_income()
        self._gain_gold(p, amount)
        self.mint_done = True
        self.log.append((PUBLIC, {"event": "mint", "seat": p, "gold": amount}))

    def _apply_king(self, action: PalaisAction) -> None:
        self.king_done = True
        self._place(KIN, action.a if action.kind == A.KING_FROM else -1, "king")

    def _apply_pomp(self, action: PalaisAction) -> None:
        self.pomp_done = True
        self._place(POM, action.a if action.kind == A.POMP_FROM else -1, "pomp")

    def _apply_edge(self, action: PalaisAction) -> None:
        """§2.4: the servant on the emptied edge square, then the noble's privilege."""
        p = self.seat
        square = self.edge_square
        from_pool = action.kind == A.EDGE_POOL
        if from_pool:
            self.pool[p] -= 1
        else:
            self.rooms[p][action.a] -= 1
        self.garden_servants[square] = p
        self.edge_square = -1
        self.log.append((PUBLIC, {"event": "edge", "seat": p, "square": SQUARE_NAMES[square],
                                  "from": "pool" if from_pool else ROOM_CODES[action.a]}))
        self._take_privilege(p, self.owned[p][-1])

    def _apply_keep(self, action: PalaisAction) -> None:
        """§2.5: a drawn card to the hand, for a virtual unit first, else a Back-door servant."""
        p = self.seat
        card = action.a
        self.drawn.remove(card)
        self.hands[p][card] += 1
        if self._watched >> DRAWN & 1:
            self._update(p, moved_unseen, DRAWN, p, 1, len(self.drawn) + 1)
        if self.backdoor_left:
            self.backdoor_left -= 1
        else:
            self.rooms[p][BAC] -= 1
            self.pool[p] += 1
        self.log.append((PUBLIC, {"event": "keep", "seat": p}))
        self.log.append((p, {"event": "kept", "seat": p, "card": CARD_CODES[card]}))

    def _place(self, room: int, source: int, event: str) -> None:
        """§2.0 placing rule: from the pool, or (pool empty) moved from another room."""
        p = self.seat
        mine = self.rooms[p]
        if source < 0:
            self.pool[p] -= 1
        else:
            mine[source] -= 1
        mine[room] += 1
        self.log.append((PUBLIC, {"event": event, "seat": p, "from": "pool" if source < 0 else ROOM_CODES[source]}))

    def _apply_place(self, action: PalaisAction) -> None:
        """Setup: a servant from the pool to a room; the next seat places once this one is done."""
        p = self.seat
        self.rooms[p][action.a] += 1
        self.pool[p] -= 1
        self.setup_left -= 1
        self.log.append((PUBLIC, {"event": "place", "seat": p, "room": ROOM_CODES[action.a]}))
        if self.setup_left == 0:
            following = (p + 1) % self.players
            if following == self.start_seat:
                self._set_phase(PLAY)
                self._begin_turn(following)
            else:
                self.seat = following
                self.setup_left = 10 if self.rules.free_placement else 5

    def _gain_gold(self, p: int, amount: int) -> None:
        if self.rules.gold_limited:
            amount = min(amount, self.bank)
        self.gold[p] += amount
        self.bank -= amount

    def _apply_play(self, action: PalaisAction) -> None:
        """§2.7, §4.3: a card's effect by its code; numbers from cards.toml."""
        rules = self.rules
        p = self.seat
        card = action.a
        self.hands[p][card] -= 1
        if self._watched >> p & 1:
            self._update(p, removed_in_public, p, card, sum(self.hands[p]) + 1)
        param = rules.card_param[card]
        if card == REINF:
            if self.gate_left >= 0:
                self.gate_left += param
            else:
                self.gate_bonus += param
        elif card == PASSAGE:
            if self.move_left >= 0:
                self.move_left += param
            else:
                self.move_bonus += param
        elif card == PURSE:
            self._gain_gold(p, param)
        elif card == KLETTER:
            self.v_turquoise += param
        elif card == VLETTER:
            self.v_violet += param
        elif card == RECOMMEND:
            self.v_slots += param
        elif card == PATRON:
            self.patron += param
        elif card == TIE:
            self.tie = True
        if rules.card_kept[card]:
            self.front[p][card] += 1
        else:
            self.discard.append(card)
            if not rules.discard_public:  # played in front of everybody: they know it is in the pile
                self._update(-1, gained_in_public, DISCARD, card)
        self.counters[3] += 1
        self.log.append((PUBLIC, {"event": "play", "seat": p, "card": CARD_CODES[card]}))

    def _apply_recruit(self, action: PalaisAction) -> None:
        """§2.4 payment and taking the tile."""
        rules = self.rules
        p = self.seat
        square = action.a
        tile = self.garden[square]
        cost = self.recruit_cost(square, p)
        mine = self.rooms[p]
        returned = 0
        if self.v_slots:
            self.v_slots -= 1
        else:
            mine[OFF] -= 1
            returned += 1
        self.gold[p] -= cost
        self.bank += cost
        need = rules.noble_turquoise[tile]
        virtual = min(need, self.v_turquoise)
        self.v_turquoise -= virtual
        mine[KIN] -= need - virtual
        returned += need - virtual
        need = rules.noble_violet[tile]
        virtual = min(need, self.v_violet)
        self.v_violet -= virtual
        mine[POM] -= need - virtual
        returned += need - virtual
        self.pool[p] += returned
        self.patron = 0
        self.garden[square] = -1
        self.garden_left -= 1
        self.owned[p].append(tile)
        self.counters[1] += 1
        self.log.append((PUBLIC, {"event": "recruit", "seat": p, "square": SQUARE_NAMES[square],
                           "noble": rules.noble_ids[tile], "gold": cost, "returned": returned}))
        if rules.is_edge[square]:
            self.edge_square = square
        else:
            self._take_privilege(p, tile)

    def _take_privilege(self, p: int, tile: int) -> None:
        """§4.2, [D-14]: SUPPLY at once; the others from the next turn (or at once by option)."""
        rules = self.rules
        privilege = rules.noble_privilege[tile]
        if privilege < 0:
            return
        param = rules.noble_param[tile]
        if privilege == SUPPLY:
            moved = min(param, self.supply[p])
            self.supply[p] -= moved
            self.pool[p] += moved
            self.log.append((PUBLIC, {"event": "supply", "seat": p, "servants": moved}))
        elif rules.immediate:
            self.active[p][privilege] += param
            if privilege == P_RECRUIT:
                self.v_slots += param
            elif privilege == KSEAL:
                self.v_turquoise += param
            elif privilege == VSEAL:
                self.v_violet += param
        else:
            self.waiting[p][privilege] += param

    def _apply_draw(self, action: PalaisAction) -> None:
        """§2.5: draw N cards one by one, reshuffling the discard pile when the deck runs out; the
        drawer sees them, so undo stops here."""
        p = self.seat
        self.seal_history()
        wanted = self.backdoor_units()
        deck = self.deck
        drawn = self.drawn
        for _ in range(wanted):
            if not deck:
                if not self.discard:
                    break
                self._reshuffled()
                deck.extend(self.discard)
                self.discard = []
                self.rng.shuffle(deck)
                self.log.append((PUBLIC, {"event": "shuffle", "record": "#shuffle", "cards": len(deck)}))
            card = deck.pop()
            drawn.append(card)
            if self._watched >> DECK & 1:
                self._drew(p, card)
        self.drew = True
        self.backdoor_left = self.active[p][BACKDOOR]
        self.counters[2] += len(drawn)
        self.log.append((PUBLIC, {"event": "draw", "seat": p, "count": len(drawn)}))
        self.log.append((p, {"event": "drew", "seat": p, "cards": [CARD_CODES[k] for k in drawn],
                      "records": [f"#deal:{CARD_CODES[k]}" for k in drawn]}))

    def _end_step(self, p: int) -> None:
        step = self.step
        if step < 5:
            self.step = step + 1
            if step == 3:
                active = self.active[p]
                self.v_slots += active[P_RECRUIT]
                self.v_turquoise += active[KSEAL]
                self.v_violet += active[VSEAL]
            elif step == 4:
                self.v_slots = self.v_turquoise = self.v_violet = self.patron = 0
            return
        if self.drawn:  # the refused cards are discarded, face up under the usual rules: undo stops here
            self.seal_history()
            refused = self.drawn
            self._refused(p, refused)
            self.discard.extend(refused)
            shown: JSON = {"event": "discard", "seat": p, "count": len(refused)}
            if self.rules.discard_public:
                shown["cards"] = [CARD_CODES[k] for k in refused]
            self.log.append((PUBLIC, shown))
        if self.final_round and p == (self.start_seat - 1) % self.players:
            self._reset_turn()
            self._set_phase(OVER)
            self.step = 0
            scores = self.scores()
            self.log.append((PUBLIC, {"event": "game_over", "scores": scores, "winners": self._winners_of(scores)}))
        else:
            self._begin_turn((p + 1) % self.players)

    def _begin_turn(self, p: int) -> None:
        """§3.1: the end check runs at the start of the start player's turn."""
        self._reset_turn()
        self.seat = p
        self.counters[0] += 1
        if p == self.start_seat:
            self.round += 1
            rules = self.rules
            if not self.final_round and (
                self.garden_left <= rules.trigger or 0 < rules.round_limit <= self.round
            ):
                self.final_round = True
                self.log.append((PUBLIC, {"event": "final_round", "garden": self.garden_left, "round": self.round}))
        waiting = self.waiting[p]
        if waiting != _NONE_OF_10:
            active = self.active[p]
            for k in range(10):
                active[k] += waiting[k]
                waiting[k] = 0
        self.log.append((PUBLIC, {"event": "turn", "seat": p, "round": self.round}))

    # --- what each seat knows of the hidden cards (card_knowledge.py, §7) -------------------------

    def _update(self, seat: int, update: Any, *args: Any) -> None:
        """Apply ``update(record, *args)`` to every record but ``seat``'s (−1: to all of them)."""
        if update_others(self.knowledge, seat, update, *args):
            self._watched = watch(self.knowledge)[1]

    def _reshuffled(self) -> None:
        """The discard pile becomes the deck (§2.5): a public pile is then known to be the deck; of a face-
        down one, each seat knows what it knew of the pile."""
        self._update(-1, emptied, DECK)
        if self.rules.discard_public:
            self._update(-1, known_whole, DECK, list(self.discard))
        elif self._watched >> DISCARD & 1:
            self._update(-1, moved_all, DISCARD, DECK)

    def _drew(self, p: int, card: int) -> None:
        """Seat ``p`` drew ``card`` from the deck into its Back-door draw; the others did not see which."""
        records = self.knowledge
        records[p] = removed_in_public(records[p], DECK, card, len(self.deck) + 1)
        self._update(p, moved_unseen, DECK, DRAWN, 1, len(self.deck) + 1)

    def _refused(self, p: int, refused: list[int]) -> None:
        """The cards ``p`` did not keep go to the discard pile: face up, everybody sees them leave the draw;
        face down, only ``p`` knows which they are."""
        if self.rules.discard_public:
            if self._watched >> DRAWN & 1:
                for i, card in enumerate(refused):
                    self._update(p, removed_in_public, DRAWN, card, len(refused) - i)
        else:
            records = self.knowledge
            for card in refused:
                records[p] = gained_in_public(records[p], DISCARD, card)
            if self._watched >> DRAWN & 1:
                self._update(p, moved_all, DRAWN, DISCARD)
            self._watched = watch(records)[1]
        if self._watched >> DRAWN & 1:
            self._update(-1, emptied, DRAWN)

    def knowledge_contents(self, me: int) -> list[list[int] | None]:
        """What each knowledge location holds, None where record ``me``'s seat sees it."""
        contents: list[list[int] | None] = [[] for _ in range(LOCATIONS)]
        for p in range(self.players):
            contents[p] = None if p == me else [k for k in range(9) for _ in range(self.hands[p][k])]
        contents[DECK] = list(self.deck)
        contents[DRAWN] = None if me == self.seat and self.drew and self.phase == PLAY else list(self.drawn)
        contents[DISCARD] = None if self.rules.discard_public else list(self.discard)
        return contents

    # --- scoring -------------------------------------------------------------------------------

    def score_breakdown(self) -> list[dict[str, int]]:
        """§3.2 for each seat: nobles, played cards, cards in hand (capped) and garden edges."""
        rules = self.rules
        edges = rules.edge_points(self.garden_servants, self.players)
        out = []
        for p in range(self.players):
            nobles = sum(rules.noble_vp[t] for t in self.owned[p])
            played = sum(rules.card_vp[k] * self.front[p][k] for k in range(9))
            hand = min(sum(self.hands[p]), rules.hand_cap)
            out.append({"nobles": nobles, "played_cards": played, "hand": hand, "edges": edges[p],
                        "total": nobles + played + hand + edges[p]})
        return out

    def scores(self) -> list[int]:
        return [b["total"] for b in self.score_breakdown()]

    def winners(self) -> list[int]:
        """§3.3, [D-18]: highest total, then most nobles, then most gold; else a shared win."""
        return self._winners_of(self.scores())

    def _winners_of(self, scores: list[int]) -> list[int]:
        """``winners`` from the scores already computed (the end of the game logs both)."""
        keys: list[tuple[int, ...]]
        if self.rules.shared_win:
            keys = [(s,) for s in scores]
        else:
            keys = [(scores[p], len(self.owned[p]), self.gold[p]) for p in range(self.players)]
        best = max(keys)
        return [p for p in range(self.players) if keys[p] == best]

    def stats(self) -> dict[str, int]:
        base = super().stats()
        base.update({"rounds": self.round, "turns": self.counters[0], "nobles_recruited": self.counters[1],
                     "cards_drawn": self.counters[2], "cards_played": self.counters[3]})
        return base

    # --- views ---------------------------------------------------------------------------------

    def _view(self, seat: int | None) -> JSON:
        rules = self.rules
        logs = self._log_views = log_views(self._log_views, self.log, _visibility, _event_json)
        n = self.players
        layout = rules.layout
        current = self.current_player
        holders = {}
        for r in range(9):
            holder = [p for p in range(n) if self.holds_majority(p, r)]
            holders[ROOM_CODES[r]] = holder[0] if holder else None
        garden = []
        for q in range(GARDEN_SIZE):
            tile = self.garden[q]
            entry: JSON = {"square": SQUARE_NAMES[q], "edge": rules.is_edge[q],
                           "noble": rules.noble_ids[tile] if tile >= 0 else None,
                           "servant": self.garden_servants[q] if self.garden_servants[q] >= 0 else None}
            if tile >= 0 and self.phase == PLAY:
                entry["cost"] = self.recruit_cost(q, self.seat)
            garden.append(entry)
        visible_nobles = sorted({t for t in self.garden if t >= 0} | {t for o in self.owned for t in o})
        view: JSON = {
            "game": "palais_royal",
            "players": n,
            "seat": seat,
            "phase": PHASES[self.phase],
            "current_player": current,
            "start_seat": self.start_seat,
            "round": self.round,
            "final_round": self.final_round,
            "end_trigger_nobles": rules.trigger,
            "layout": [[ROOM_CODES[layout[row * 3 + col]] for col in range(3)] for row in range(3)],
            "adjacent": {ROOM_CODES[r]: [ROOM_CODES[t] for t in rules.adjacent[r]] for r in range(9)},
            "rooms": {ROOM_CODES[r]: [self.rooms[p][r] for p in range(n)] for r in range(9)},
            "majority": holders,
            "cardinal_strength": [self.rooms[p][CAR] + self.active[p][CARDINAL] for p in range(n)],
            "pool": list(self.pool),
            "general_supply": list(self.supply),
            "gold": list(self.gold),
            "gold_supply": self.bank if rules.gold_limited else None,
            "garden": garden,
            "garden_nobles_left": self.garden_left,
            "noble_data": {
                rules.noble_ids[t]: {
                    "gold": rules.noble_gold[t], "turquoise": rules.noble_turquoise[t],
                    "violet": rules.noble_violet[t], "vp": rules.noble_vp[t],
                    "privilege": PRIVILEGE_CODES[rules.noble_privilege[t]] if rules.noble_privilege[t] >= 0 else None,
                    "param": rules.noble_param[t],
                }
                for t in visible_nobles
            },
            "nobles": [
                [{"id": rules.noble_ids[t], "face_up": rules.noble_privilege[t] >= 0} for t in self.owned[p]]
                for p in range(n)
            ],
            "hide_face_down_nobles": rules.hide_face_down,
            "privileges": [
                {"active": {PRIVILEGE_CODES[k]: self.active[p][k] for k in range(10) if self.active[p][k]},
                 "next_turn": {PRIVILEGE_CODES[k]: self.waiting[p][k] for k in range(10) if self.waiting[p][k]}}
                for p in range(n)
            ],
            "hand_counts": [sum(h) for h in self.hands],
            "hand": self._cards_dict(self.hands[seat]) if seat is not None else None,
            "played_cards": [self._cards_dict(f) for f in self.front],
            "deck_size": len(self.deck),
            "discard_size": len(self.discard),
            "discard": [CARD_CODES[k] for k in self.discard] if rules.discard_public else None,
            "turn": self._turn_view() if self.phase == PLAY else None,
            "pending": self._pending_view(seat),
            "scores": self.score_breakdown(),
            "winners": self.winners() if self.phase == OVER else None,
            **logs.for_view(seat),
        }
        return view

    @staticmethod
    def _cards_dict(counts: list[int]) -> dict[str, int]:
        return {CARD_CODES[k]: counts[k] for k in range(9) if counts[k]}

    def _turn_view(self) -> JSON:
        return {
            "seat": self.seat,
            "step": self.step,
            "step_name": STEP_NAMES[self.step],
            "gate_allowance": self.gate_allowance() if self.step == 1 else None,
            "gate_locked": self.gate_left >= 0,
            "movement_points": self.movement_points() if self.step == 2 else None,
            "movement_locked": self.move_left >= 0,
            "mint_done": self.mint_done,
            "king_done": self.king_done,
            "pomp_done": self.pomp_done,
            "tie_card": self.tie,
            "virtual_slots": self.v_slots,
            "virtual_turquoise": self.v_turquoise,
            "virtual_violet": self.v_violet,
            "patron_discount": self.patron,
            "drew": self.drew,
            "backdoor_virtual_left": self.backdoor_left,
        }

    def _pending_view(self, seat: int | None) -> JSON | None:
        if self.phase == OVER:
            return None
        if self.phase == SETUP:
            return {"kind": "place", "seat": self.seat, "left": self.setup_left}
        if self.edge_square >= 0:
            return {"kind": "edge", "seat": self.seat, "square": SQUARE_NAMES[self.edge_square]}
        if self.drew:
            pending: JSON = {"kind": "keep", "seat": self.seat, "drawn_count": len(self.drawn)}
            if seat == self.seat:
                pending["cards"] = [CARD_CODES[k] for k in self.drawn]
            return pending
        return {"kind": "step", "seat": self.seat, "step": self.step, "step_name": STEP_NAMES[self.step]}

    # --- copies and hidden information -----------------------------------------------------------

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        self._copy_common_to(other)
        other.rules = self.rules
        other._set_phase(self.phase)
        other.seat = self.seat
        other.start_seat = self.start_seat
        other.setup_left = self.setup_left
        other.round = self.round
        other.final_round = self.final_round
        other.step = self.step
        other.rooms = [r[:] for r in self.rooms]
        other.pool = self.pool[:]
        other.supply = self.supply[:]
        other.gold = self.gold[:]
        other.bank = self.bank
        other.garden = self.garden[:]
        other.garden_servants = self.garden_servants[:]
        other.garden_left = self.garden_left
        other.boxed = self.boxed[:]
        other.owned = [o[:] for o in self.owned]
        other.active = [a[:] for a in self.active]
        other.waiting = [w[:] for w in self.waiting]
        other.hands = [h[:] for h in self.hands]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.front = [f[:] for f in self.front]
        other.gate_left = self.gate_left
        other.gate_bonus = self.gate_bonus
        other.move_left = self.move_left
        other.move_bonus = self.move_bonus
        other.mint_done = self.mint_done
        other.king_done = self.king_done
        other.pomp_done = self.pomp_done
        other.tie = self.tie
        other.v_slots = self.v_slots
        other.v_turquoise = self.v_turquoise
        other.v_violet = self.v_violet
        other.patron = self.patron
        other.edge_square = self.edge_square
        other.drew = self.drew
        other.drawn = self.drawn[:]
        other.backdoor_left = self.backdoor_left
        other.log = self.log[:]
        other.counters = self.counters[:]
        other.knowledge = list(self.knowledge)  # records are immutable values
        other._watched = self._watched
        other._legal = self._legal
        return other

    def determinize(self, seat: int | None, rng: Rng | int | None = None) -> Self:
        """§7: resample the deck, other hands, another seat's pending draw (and the discard pile when it is
        face down), keeping every count and every fact the seat's knowledge record holds: a deck reshuffled
        from a public pile is that pile, a face-down pile holds what was played into it (and what the seat
        refused there). The copy has a fresh RNG and carries no other seat's knowledge or private log."""
        sampler = self._determinization_rng(rng)
        other = self.clone()
        other.rng = sampler.fork()
        n = self.players
        me = n if seat is None else seat
        record = self.knowledge[me]
        other.knowledge = [empty_record(LOCATIONS)] * (n + 1)
        other.knowledge[me] = record
        other._watched = watch(other.knowledge)[1]
        contents = self.knowledge_contents(me)
        sizes = [0 if place is None else len(place) for place in contents]
        hidden = sorted(card for place in contents if place is not None for card in place)
        places, _ = sample(record, sizes, hidden, 9, sampler.shuffle)
        for p in range(n):
            if contents[p] is not None:
                hand = [0] * 9
                for k in places[p]:
                    hand[k] += 1
                other.hands[p] = hand
        other.deck = places[DECK]
        if contents[DRAWN] is not None:
            other.drawn = places[DRAWN]
        if contents[DISCARD] is not None:
            other.discard = places[DISCARD]
        other.log = [(v, e) for v, e in other.log if v in (PUBLIC, seat)]
        other._legal = None
        return other

    # --- saved form ----------------------------------------------------------------------------

    def dump_body(self) -> JSON:
        n = self.players
        rules = self.rules
        return {
            "layout": [ROOM_CODES[r] for r in rules.layout],
            "phase": PHASES[self.phase],
            "seat": self.seat,
            "start_seat": self.start_seat,
            "setup_left": self.setup_left,
            "round": self.round,
            "final_round": self.final_round,
            "step": self.step,
            "rooms": {ROOM_CODES[r]: [self.rooms[p][r] for p in range(n)] for r in range(9)},
            "pool": list(self.pool),
            "general_supply": list(self.supply),
            "gold": list(self.gold),
            "gold_supply": self.bank,
            "garden": [rules.noble_ids[t] if t >= 0 else None for t in self.garden],
            "garden_servants": [s if s >= 0 else None for s in self.garden_servants],
            "boxed": [rules.noble_ids[t] for t in self.boxed],
            "nobles": [[rules.noble_ids[t] for t in o] for o in self.owned],
            "active": [self._privileges_dict(a) for a in self.active],
            "waiting": [self._privileges_dict(w) for w in self.waiting],
            "hands": [self._cards_dict(h) for h in self.hands],
            "deck": [CARD_CODES[k] for k in self.deck],
            "discard": [CARD_CODES[k] for k in self.discard],
            "played_cards": [self._cards_dict(f) for f in self.front],
            "turn": {
                "gate_left": self.gate_left, "gate_bonus": self.gate_bonus,
                "move_left": self.move_left, "move_bonus": self.move_bonus,
                "mint_done": self.mint_done, "king_done": self.king_done, "pomp_done": self.pomp_done,
                "tie": self.tie, "virtual_slots": self.v_slots, "virtual_turquoise": self.v_turquoise,
                "virtual_violet": self.v_violet, "patron": self.patron,
                "edge_square": SQUARE_NAMES[self.edge_square] if self.edge_square >= 0 else None,
                "drew": self.drew, "drawn": [CARD_CODES[k] for k in self.drawn],
                "backdoor_left": self.backdoor_left,
            },
            "counters": list(self.counters),
            "log": [[visible, event] for visible, event in self.log],
            "knowledge": [record_to_json(r) for r in self.knowledge],
        }

    @staticmethod
    def _privileges_dict(counts: list[int]) -> dict[str, int]:
        return {PRIVILEGE_CODES[k]: counts[k] for k in range(10) if counts[k]}

    def load_body(self, body: JSON) -> None:
        from meeple.games.palais_royal.saved import load_into

        load_into(self, body)

    # --- shorthands ------------------------------------------------------------------------------

    def expand_notation(self, notation: str) -> list[str] | None:
        """A whitespace-separated sequence of tokens (a turn written as in §6 E21) is applied in order."""
        tokens = notation.split()
        return tokens if len(tokens) > 1 else None


#: ``legal_actions`` by step (0: setup, or the game is over).
_ACTIONS_OF_STEP: Final[tuple[Callable[[PalaisRoyalState], tuple[PalaisAction, ...]], ...]] = (
    PalaisRoyalState._setup_actions,
    PalaisRoyalState._gate_actions,
    PalaisRoyalState._move_actions,
    PalaisRoyalState._mint_king_pomp_actions,
    PalaisRoyalState._recruit_step_actions,
    PalaisRoyalState._backdoor_actions,
)

#: ``apply`` by action kind.
_APPLY_BY_KIND: Final[dict[int, Callable[[PalaisRoyalState, PalaisAction], None]]] = {
    A.PLACE: PalaisRoyalState._apply_place,
    A.PLAY: PalaisRoyalState._apply_play,
    A.GATE: PalaisRoyalState._apply_gate,
    A.GATE_FROM: PalaisRoyalState._apply_gate,
    A.MOVE: PalaisRoyalState._apply_move,
    A.MINT: PalaisRoyalState._apply_mint,
    A.KING: PalaisRoyalState._apply_king,
    A.KING_FROM: PalaisRoyalState._apply_king,
    A.POMP: PalaisRoyalState._apply_pomp,
    A.POMP_FROM: PalaisRoyalState._apply_pomp,
    A.RECRUIT_KIND: PalaisRoyalState._apply_recruit,
    A.EDGE_POOL: PalaisRoyalState._apply_edge,
    A.EDGE_FROM: PalaisRoyalState._apply_edge,
    A.DRAW: PalaisRoyalState._apply_draw,
    A.KEEP: PalaisRoyalState._apply_keep,
    A.END: PalaisRoyalState._apply_end,
}
_APPLY_OF_KIND: Final = tuple(_APPLY_BY_KIND[kind] for kind in range(len(_APPLY_BY_KIND)))  # indexed by kind
