"""Palais Royal as typed data: what a seat sees (``PalaisObservation``) and each action's ``{kind, args}``.

The observation holds the facts of ``view(seat)`` (docs/games/palais_royal.md, "Hidden information")
without the logs and without the static component tables: rooms, cards, privileges and nobles are
indexes into ``ROOM_CODES``, ``CARD_CODES``, ``PRIVILEGE_CODES`` and the noble list of
``components()`` (``noble_ids``), garden squares 0–35 are a1, b1, …, f6; ``-1`` means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.core.observation import ActionInfo, ArgValue, Lens, Observation, action_info, reads, reads_own
from meeple.games.palais_royal import actions as A
from meeple.games.palais_royal.actions import PalaisAction, all_actions, parse_action
from meeple.games.palais_royal.data import CAR, CARD_CODES, CARDINAL, GARDEN_SIZE, ROOM_CODES, SQUARE_NAMES
from meeple.games.palais_royal.state import OVER, PLAY, SETUP

if TYPE_CHECKING:
    from meeple.games.palais_royal.state import PalaisRoyalState

PHASES = ("setup", "play", "over")


@dataclass(frozen=True, slots=True)
class PalaisTurn:
    """The turn in progress (phase ``play``): the step and its counters, as ``view["turn"]``."""

    seat: int
    step: int  # 1–5
    gate_allowance: int  # -1 outside step 1
    gate_locked: bool
    movement_points: int  # -1 outside step 2
    movement_locked: bool
    mint_done: bool
    king_done: bool
    pomp_done: bool
    tie_card: bool
    virtual_slots: int
    virtual_turquoise: int
    virtual_violet: int
    patron_discount: int
    drew: bool
    backdoor_virtual_left: int


@dataclass(frozen=True, slots=True)
class PalaisObservation(Observation):
    """One seat's knowledge of a Palais Royal game; per-seat tuples are indexed by seat."""

    phase: str  # "setup", "play" or "over"
    start_seat: int
    round: int
    final_round: bool
    end_trigger_nobles: int
    layout: tuple[int, ...]  # 9 rooms, row-major, row 0 next to the garden
    rooms: tuple[tuple[int, ...], ...]  # [seat][room] servants
    majority: tuple[int, ...]  # [room] holder, -1 for none
    cardinal_strength: tuple[int, ...]
    pool: tuple[int, ...]
    general_supply: tuple[int, ...]
    gold: tuple[int, ...]
    gold_supply: int  # -1 when the gold is unlimited
    garden: tuple[int, ...]  # [square] noble, -1 once recruited
    garden_servants: tuple[int, ...]  # [square] seat, -1 for none
    garden_costs: tuple[int, ...]  # [square] cost for the player on turn (play phase), else -1
    garden_nobles_left: int
    nobles: tuple[tuple[int, ...], ...]  # [seat] recruited nobles, in order
    active_privileges: tuple[tuple[int, ...], ...]  # [seat][privilege] tallies in effect
    waiting_privileges: tuple[tuple[int, ...], ...]  # [seat][privilege] from the owner's next turn
    hand_counts: tuple[int, ...]
    hand: tuple[int, ...] | None  # [card kind] counts of the observer's hand; None for a spectator
    played_cards: tuple[tuple[int, ...], ...]  # [seat][card kind] cards that stay in front
    deck_size: int
    discard_size: int
    discard: tuple[int, ...] | None  # [card kind] counts when the discard pile is public
    turn: PalaisTurn | None
    pending: str  # "place", "step", "edge", "keep" or "" once over
    setup_left: int  # servants still to place (pending "place"), else 0
    edge_square: int  # pending "edge": the square whose garden servant is placed, else -1
    drawn_count: int  # pending "keep": cards drawn at the Back door
    drawn: tuple[int, ...] | None  # [card kind] counts of those cards, for the drawer only
    scores: tuple[int, ...]  # running totals
    winners: tuple[int, ...]  # empty until the game is over


def _counts(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * 9
    for k in cards:
        counts[k] += 1
    return tuple(counts)


def _majority_holders(state: PalaisRoyalState) -> tuple[int, ...]:
    """[room] the seat holding its majority (the engine's rule), -1 for none."""
    rooms = state.rooms
    seats = range(state.players)
    holders = []
    for r in range(9):  # only a seat with the most servants there can hold the majority
        most = max([rooms[p][r] for p in seats])
        holder = -1
        if most:
            for p in seats:
                if rooms[p][r] == most and state.holds_majority(p, r):
                    holder = p
                    break
        holders.append(holder)
    return tuple(holders)


def _garden_costs(state: PalaisRoyalState) -> tuple[int, ...]:
    """[square] what its noble costs the seat on turn (the engine's rule) in the play phase, else -1."""
    in_play = state.phase == PLAY
    garden = state.garden
    return tuple(state.recruit_cost(q, state.seat) if in_play and garden[q] >= 0 else -1 for q in range(GARDEN_SIZE))


def observe(state: PalaisRoyalState, seat: int | None) -> PalaisObservation:
    """The observation of ``seat``, from the facts ``_view`` shows (phase and seat already checked)."""
    rules = state.rules
    n = state.players
    phase = state.phase
    in_play = phase == PLAY
    rooms = state.rooms
    garden = state.garden
    turn = None
    if in_play:
        step = state.step
        turn = PalaisTurn(
            seat=state.seat, step=step,
            gate_allowance=state.gate_allowance() if step == 1 else -1, gate_locked=state.gate_left >= 0,
            movement_points=state.movement_points() if step == 2 else -1, movement_locked=state.move_left >= 0,
            mint_done=state.mint_done, king_done=state.king_done, pomp_done=state.pomp_done, tie_card=state.tie,
            virtual_slots=state.v_slots, virtual_turquoise=state.v_turquoise, virtual_violet=state.v_violet,
            patron_discount=state.patron, drew=state.drew, backdoor_virtual_left=state.backdoor_left,
        )
    pending = ""
    setup_left = drawn_count = 0
    edge_square = -1
    drawn: tuple[int, ...] | None = None
    if phase == SETUP:
        pending, setup_left = "place", state.setup_left
    elif phase != OVER:
        if state.edge_square >= 0:
            pending, edge_square = "edge", state.edge_square
        elif state.drew:
            pending, drawn_count = "keep", len(state.drawn)
            if seat == state.seat:
                drawn = _counts(state.drawn)
        else:
            pending = "step"
    over = phase == OVER
    return PalaisObservation(
        game="palais_royal", players=n, seat=seat, current_player=state.current_player, is_over=over,
        phase=PHASES[phase], start_seat=state.start_seat, round=state.round, final_round=state.final_round,
        end_trigger_nobles=rules.trigger, layout=tuple(rules.layout),
        rooms=tuple(tuple(r) for r in rooms), majority=_majority_holders(state),
        cardinal_strength=tuple(rooms[p][CAR] + state.active[p][CARDINAL] for p in range(n)),
        pool=tuple(state.pool), general_supply=tuple(state.supply), gold=tuple(state.gold),
        gold_supply=state.bank if rules.gold_limited else -1,
        garden=tuple(garden), garden_servants=tuple(state.garden_servants), garden_costs=_garden_costs(state),
        garden_nobles_left=state.garden_left, nobles=tuple(tuple(o) for o in state.owned),
        active_privileges=tuple(tuple(a) for a in state.active),
        waiting_privileges=tuple(tuple(w) for w in state.waiting),
        hand_counts=tuple(sum(h) for h in state.hands),
        hand=tuple(state.hands[seat]) if seat is not None else None,
        played_cards=tuple(tuple(f) for f in state.front),
        deck_size=len(state.deck), discard_size=len(state.discard),
        discard=_counts(state.discard) if rules.discard_public else None,
        turn=turn, pending=pending, setup_left=setup_left, edge_square=edge_square,
        drawn_count=drawn_count, drawn=drawn, scores=tuple(state.scores()),
        winners=tuple(state.winners()) if over else (),
    )


class PalaisLens(Lens):
    """One seat's live window on a Palais Royal state (see ``Lens``): the ``PalaisObservation`` fields
    read when asked, the turn's counters one by one (named as ``PalaisTurn``'s fields), the public
    tables under the table's options (the nobles' numbers, the palace's adjacency, the garden's edges,
    the limits) and the engine's rules for a recruit's cost and the edges' points.

    Lists and tuples returned are the engine's own where marked *read-only*: never change them.
    """

    __slots__ = ()
    _state: PalaisRoyalState

    # --- the observation's fields ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        """"setup", "play" or "over"."""
        return PHASES[self._state.phase]

    start_seat: int = reads("start_seat")
    round: int = reads("round")
    final_round: bool = reads("final_round")
    end_trigger_nobles: int = reads("rules.trigger")
    layout: tuple[int, ...] = reads("rules.layout", "The 9 rooms, row-major, row 0 next to the garden (read-only).")
    rooms: list[list[int]] = reads("rooms", "[seat][room] servants (read-only).")

    @property
    def majority(self) -> tuple[int, ...]:
        """[room] the seat holding its majority (the engine's rule), -1 for none."""
        return _majority_holders(self._state)

    @property
    def cardinal_strength(self) -> tuple[int, ...]:
        state = self._state
        return tuple(state.rooms[p][CAR] + state.active[p][CARDINAL] for p in range(state.players))

    pool: list[int] = reads("pool", "[seat] servants in its pool (read-only).")
    general_supply: list[int] = reads("supply", "[seat] servants of its colour in the general supply (read-only).")
    gold: list[int] = reads("gold", "[seat] gold (read-only).")

    @property
    def gold_supply(self) -> int:
        """The gold in the supply, -1 when the gold is unlimited."""
        state = self._state
        return state.bank if state.rules.gold_limited else -1

    garden: list[int] = reads("garden", "[square] noble, -1 once recruited (read-only).")
    garden_servants: list[int] = reads("garden_servants", "[square] seat, -1 for none (read-only).")

    @property
    def garden_costs(self) -> tuple[int, ...]:
        """[square] cost for the player on turn (play phase), else -1."""
        return _garden_costs(self._state)

    garden_nobles_left: int = reads("garden_left")
    nobles: list[list[int]] = reads("owned", "[seat] recruited nobles, in order (read-only).")
    active_privileges: list[list[int]] = reads("active", "[seat][privilege] tallies in effect (read-only).")
    waiting_privileges: list[list[int]] = reads(
        "waiting", "[seat][privilege] tallies from the owner's next turn (read-only).")

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(map(sum, self._state.hands))

    hand: list[int] = reads_own("hands", "[card kind] counts of the seat's own hand (read-only).")
    played_cards: list[list[int]] = reads("front", "[seat][card kind] cards that stay in front (read-only).")

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def discard_size(self) -> int:
        return len(self._state.discard)

    @property
    def discard(self) -> tuple[int, ...] | None:
        """[card kind] counts when the discard pile is public, else None."""
        state = self._state
        return _counts(state.discard) if state.rules.discard_public else None

    @property
    def turn(self) -> PalaisTurn | None:
        """The turn in progress as one value (play phase), else None; the properties below read its
        counters one at a time."""
        if self._state.phase != PLAY:
            return None
        return PalaisTurn(
            seat=self._state.seat, step=self.step, gate_allowance=self.gate_allowance,
            gate_locked=self.gate_locked, movement_points=self.movement_points,
            movement_locked=self.movement_locked, mint_done=self.mint_done, king_done=self.king_done,
            pomp_done=self.pomp_done, tie_card=self.tie_card, virtual_slots=self.virtual_slots,
            virtual_turquoise=self.virtual_turquoise, virtual_violet=self.virtual_violet,
            patron_discount=self.patron_discount, drew=self._state.drew,
            backdoor_virtual_left=self.backdoor_virtual_left,
        )

    @property
    def pending(self) -> str:
        """"place", "step", "edge", "keep" or "" once over."""
        state = self._state
        phase = state.phase
        if phase == SETUP:
            return "place"
        if phase == OVER:
            return ""
        if state.edge_square >= 0:
            return "edge"
        return "keep" if state.drew else "step"

    @property
    def setup_left(self) -> int:
        state = self._state
        return state.setup_left if state.phase == SETUP else 0

    @property
    def edge_square(self) -> int:
        """The square whose garden servant is being placed (pending "edge"), else -1."""
        state = self._state
        return state.edge_square if state.phase == PLAY else -1

    @property
    def drawn_count(self) -> int:
        return len(self._state.drawn) if self.pending == "keep" else 0

    @property
    def drawn(self) -> tuple[int, ...] | None:
        """[card kind] counts of the cards drawn at the Back door, for the drawer only."""
        state = self._state
        return _counts(state.drawn) if self.pending == "keep" and self.seat == state.seat else None

    @property
    def scores(self) -> list[int]:
        """Running totals (a new list)."""
        return self._state.scores()

    @property
    def winners(self) -> tuple[int, ...]:
        state = self._state
        return tuple(state.winners()) if state.phase == OVER else ()

    # --- the turn's counters (play phase), as PalaisTurn names them ------------------------------------

    step: int = reads("step", "1–5.")

    @property
    def gate_allowance(self) -> int:
        """Step 1: the servants the Gate may still bring in (the engine's rule), else -1."""
        state = self._state
        return state.gate_allowance() if state.step == 1 else -1

    @property
    def gate_locked(self) -> bool:
        return self._state.gate_left >= 0

    @property
    def movement_points(self) -> int:
        """Step 2: the movement points left (the engine's rule), else -1."""
        state = self._state
        return state.movement_points() if state.step == 2 else -1

    @property
    def movement_locked(self) -> bool:
        return self._state.move_left >= 0

    mint_done: bool = reads("mint_done")
    king_done: bool = reads("king_done")
    pomp_done: bool = reads("pomp_done")
    tie_card: bool = reads("tie")
    virtual_slots: int = reads("v_slots")
    virtual_turquoise: int = reads("v_turquoise")
    virtual_violet: int = reads("v_violet")
    patron_discount: int = reads("patron")
    backdoor_virtual_left: int = reads("backdoor_left")

    # --- public tables under the options, and the engine's rules on public facts -------------------

    round_limit: int = reads("rules.round_limit", "The last round under the options, 0 for none.")
    hand_cap: int = reads("rules.hand_cap", "The most cards in hand that score.")
    noble_vp: tuple[int, ...] = reads("rules.noble_vp", "[noble] its printed VP (read-only).")
    noble_turquoise: tuple[int, ...] = reads(
        "rules.noble_turquoise", "[noble] the turquoise seals it needs (read-only).")

    noble_violet: tuple[int, ...] = reads("rules.noble_violet", "[noble] the violet seals it needs (read-only).")
    noble_privilege: tuple[int, ...] = reads(
        "rules.noble_privilege", "[noble] its privilege (an index of ``PRIVILEGE_CODES``), -1 for none (read-only).")

    noble_param: tuple[int, ...] = reads("rules.noble_param", "[noble] its privilege's number (read-only).")
    is_edge: tuple[bool, ...] = reads(
        "rules.is_edge", "[square] whether it lies on a scoring edge of the garden under the options (read-only).")

    adjacent: tuple[tuple[int, ...], ...] = reads(
        "rules.adjacent", "[room] the rooms next to it in this game's palace (read-only; the same object all game).")

    def recruit_cost(self, square: int) -> int:
        """What the noble on ``square`` costs the seat now (the engine's rule); only for a square
        that holds a noble."""
        return self._state.recruit_cost(square, self.seat)

    def edge_points(self, garden_servants: list[int]) -> list[int]:
        """[seat] the garden edges' points if the garden's servants stood as given (the engine's rule,
        under the ``edge_tie`` option)."""
        state = self._state
        return state.rules.edge_points(garden_servants, state.players)


def lens(state: PalaisRoyalState, seat: int) -> PalaisLens:
    return PalaisLens(state, seat)


# --- structured actions ------------------------------------------------------------------------
# kind = the notation's verb; args: room / from / to (room codes, or "pool" for ``edge:pool``),
# card (card code), square (a1…f6). ``gate``, ``king`` and ``pomp`` without ``from`` take the
# servant from the pool.

_ROOM_ARG = {A.PLACE: "room", A.GATE_FROM: "from", A.KING_FROM: "from", A.POMP_FROM: "from", A.EDGE_FROM: "from"}
_VERB = {A.PLACE: "place", A.PLAY: "play", A.GATE: "gate", A.GATE_FROM: "gate", A.MOVE: "move", A.MINT: "mint",
         A.KING: "king", A.KING_FROM: "king", A.POMP: "pomp", A.POMP_FROM: "pomp", A.RECRUIT_KIND: "recruit",
         A.EDGE_POOL: "edge", A.EDGE_FROM: "edge", A.DRAW: "draw", A.KEEP: "keep", A.END: "end"}


def _info(action: PalaisAction) -> ActionInfo:
    kind = action.kind
    verb = _VERB[kind]
    if kind in _ROOM_ARG:
        return action_info(action.notation, verb, **{_ROOM_ARG[kind]: ROOM_CODES[action.a]})
    if kind in (A.PLAY, A.KEEP):
        return action_info(action.notation, verb, card=CARD_CODES[action.a])
    if kind == A.MOVE:
        return action_info(action.notation, verb, **{"from": ROOM_CODES[action.a], "to": ROOM_CODES[action.b]})
    if kind == A.RECRUIT_KIND:
        return action_info(action.notation, verb, square=SQUARE_NAMES[action.a])
    if kind == A.EDGE_POOL:
        return action_info(action.notation, verb, **{"from": "pool"})
    return action_info(action.notation, verb)


_INFOS: dict[PalaisAction, ActionInfo] = {action: _info(action) for action in all_actions()}


def describe_action(action: PalaisAction | str) -> ActionInfo:
    return _INFOS[parse_action(action) if isinstance(action, str) else action]


def notation_from_info(kind: str, args: Mapping[str, ArgValue]) -> str:
    """The notation with this verb and arguments, written from them (``ValueError`` if none is)."""
    parts = [kind]
    if kind == "move":
        parts.append(f"{args['from']}-{args['to']}")
    else:
        parts.extend(str(args[key]) for key in ("room", "from", "card", "square") if key in args)
    notation = ":".join(parts)
    parse_action(notation)
    return notation


def action_notations(players: int) -> tuple[str, ...]:
    """Every Palais Royal notation (the same at every player count), in the order of ``actions.py``."""
    return tuple(action.notation for action in all_actions())
