"""The Castles of Burgundy as typed data: what a seat sees (``BurgundyObservation``, and its live form
``BurgundyLens``) and each action's ``{kind, args}``.

Nothing is private in play (docs/games/burgundy.md, "Views and hidden information"); during a secret
setup (``secret_setup=True``) other seats' chosen boards and start castles are hidden, exactly as in
``view``. Tiles are codes (indexes into ``TILE_NAMES``), tile types index ``TYPE_LETTERS``, goods kinds
are 1–6 (tuples of counts are indexed 0–5 for kinds 1–6), estate spaces 1–37 are tuple indexes 0–36,
``-1`` means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from meeple.core.observation import ActionInfo, ArgValue, Lens, Observation, action_info, reads, reads_own
from meeple.games.burgundy import actions as act
from meeple.games.burgundy.actions import ALL_ACTIONS, BAction, from_notation
from meeple.games.burgundy.data import BUILDINGS, FIRST_BUILDING, PHASES, ROUNDS, SPACES, TILE_NAMES
from meeple.games.burgundy.state import (
    EMPTY,
    P_BOARD,
    P_BUILD_TAKE,
    P_DIE,
    P_DISCARD,
    P_KEEP,
    PENDING_NAMES,
    BurgundyState,
)


@dataclass(frozen=True, slots=True)
class BurgundyObservation(Observation):
    """One seat's knowledge of a Burgundy game; per-seat tuples are indexed by seat."""

    phase: int  # 0–4 for phases A–E
    round: int  # 1–5
    round_order: tuple[int, ...]
    track_order: tuple[int, ...]
    turn_seat: int  # the seat whose turn it is, -1 during setup choices and once over
    dice_left: tuple[int, ...]  # that seat's unused dice
    bought: bool  # its purchase is used
    pending: str  # the top decision (die, castle_bonus, …, start_castle), "" once over
    pending_stack: tuple[str, ...]  # every open decision, bottom first
    pending_die: int  # die: the value being used, else 0
    pending_building: str  # building_take: carpenter, church or market, else ""
    pending_incoming: int  # discard: the tile arriving in a full storage, else -1
    pending_depots: tuple[int, ...]  # ship_keep: the depots the ship took
    pending_free_slots: int  # ship_keep: goods slots free
    boards: tuple[str, ...]  # [seat] estate board key, "" when none yet or hidden
    estates: tuple[tuple[int, ...], ...]  # [seat][space - 1] tile, -1 when empty (or hidden)
    start_spaces: tuple[int, ...]  # [seat] start castle space, 0 when none yet or hidden
    empty_spaces: tuple[int, ...]  # [seat], -1 when hidden
    vp: tuple[int, ...]
    silverlings: tuple[int, ...]
    workers: tuple[int, ...]
    goods: tuple[tuple[int, ...], ...]  # [seat][kind - 1] goods tiles held
    sold: tuple[tuple[int, ...], ...]  # [seat][kind - 1] goods tiles sold
    storage: tuple[tuple[int, ...], ...]  # [seat] stored tiles
    dice: tuple[tuple[int, ...], ...]  # [seat] this round's two dice
    knowledge: tuple[tuple[int, ...], ...]  # [seat] knowledge tile numbers 1–26 placed
    track_position: tuple[int, ...]
    track_arrival: tuple[int, ...]
    bonus_large: tuple[int, ...]  # [type] the seat holding its large bonus tile, -1 for none
    bonus_small: tuple[int, ...]
    depots: tuple[tuple[int, ...], ...]  # [depot 0–6] tiles on it (0 = black)
    depot_goods: tuple[tuple[int, ...], ...]  # [depot 1–6 as 0–5][kind - 1] goods on it
    round_goods: tuple[int, ...]  # goods kinds still on the round's spaces
    white_die: int
    future_goods_stacks: tuple[int, ...]  # sizes only
    box_goods: int
    white_piles: tuple[int, ...]  # [type] face-down tiles left, sizes only
    black_pile: int
    removed: tuple[int, ...]
    winners: tuple[int, ...]  # empty until the game is over


class BurgundyLens(Lens):
    """What one seat may know of a Burgundy game, read live from the state when asked (see ``Lens``).

    The properties named as ``BurgundyObservation``'s fields hold exactly its values (``observe`` is
    these properties read at once, so each fact is stated here only). The ``my_`` properties are the
    seat's own holdings as the engine keeps them — its lists themselves, not copies, so they are
    **read-only** — for the heuristic bot, which reads them thousands of times per second: a seat always
    sees its own estate, even during a secret setup. ``die_actions`` asks the engine's rules.
    """

    __slots__ = ()

    players: int = reads("players")

    # --- the pending decision -------------------------------------------------------------------

    def _top(self) -> tuple[int, ...] | None:
        state = self._state
        stack = state.pending
        return stack[-1] if stack and not state.is_over else None

    @property
    def phase(self) -> int:
        """0–4 for phases A–E (E once over)."""
        phase: int = self._state.phase
        return phase if phase < _LAST_PHASE else _LAST_PHASE

    @property
    def round(self) -> int:
        """1–5."""
        index: int = self._state.round
        return index + 1 if index < _LAST_ROUND else ROUNDS

    @property
    def round_order(self) -> tuple[int, ...]:
        return tuple(self._state.order)

    @property
    def track_order(self) -> tuple[int, ...]:
        return tuple(self._state.track_order())

    @property
    def turn_seat(self) -> int:
        """The seat whose turn it is; -1 during the setup choices and once over."""
        state = self._state
        stack = state.pending
        if state.is_over or (stack and stack[-1][0] >= P_BOARD):
            return -1
        seat: int = state.order[state.turn_index]
        return seat

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The turn's unused dice (a die being resolved is no longer among them); () without a turn."""
        state = self._state
        stack = state.pending
        if state.is_over or (stack and stack[-1][0] >= P_BOARD):
            return ()
        return tuple(state.dice_left)

    @property
    def bought(self) -> bool:
        return self.turn_seat >= 0 and bool(self._state.bought)

    @property
    def pending(self) -> str:
        """The top decision's name (die, castle_bonus, …, start_castle); "" for the turn itself and once over."""
        state = self._state
        stack = state.pending
        return PENDING_NAMES[stack[-1][0]] if stack and not state.is_over else ""

    @property
    def pending_stack(self) -> tuple[str, ...]:
        state = self._state
        return () if state.is_over else tuple(PENDING_NAMES[p[0]] for p in state.pending)

    @property
    def pending_die(self) -> int:
        """The value of the die being used, else 0."""
        state = self._state
        stack = state.pending
        if stack and not state.is_over:
            top = stack[-1]
            if top[0] == P_DIE:
                value: int = top[1]
                return value
        return 0

    @property
    def pending_building(self) -> str:
        top = self._top()
        return BUILDINGS[top[1] - FIRST_BUILDING] if top is not None and top[0] == P_BUILD_TAKE else ""

    @property
    def pending_incoming(self) -> int:
        top = self._top()
        return top[1] if top is not None and top[0] == P_DISCARD else -1

    @property
    def pending_depots(self) -> tuple[int, ...]:
        top = self._top()
        return tuple(d for d in range(1, 7) if top[1] >> d & 1) if top is not None and top[0] == P_KEEP else ()

    @property
    def pending_free_slots(self) -> int:
        top = self._top()
        return top[2] if top is not None and top[0] == P_KEEP else 0

    # --- estates: another seat's are hidden during a secret setup ---------------------------------

    @property
    def boards(self) -> tuple[str, ...]:
        state = self._state
        hidden = state.hidden_setup_seats(self.seat) if state.options["boards"] == "choose" else ()
        return tuple("" if s in hidden else state.board[s] for s in range(state.players))

    @property
    def estates(self) -> tuple[tuple[int, ...], ...]:
        state = self._state
        hidden = state.hidden_setup_seats(self.seat)
        return tuple(_EMPTY_ESTATE if s in hidden else tuple(state.estate[s][1:]) for s in range(state.players))

    @property
    def start_spaces(self) -> tuple[int, ...]:
        state = self._state
        hidden = state.hidden_setup_seats(self.seat)
        return tuple(0 if s in hidden else state.start_space[s] for s in range(state.players))

    @property
    def empty_spaces(self) -> tuple[int, ...]:
        state = self._state
        hidden = state.hidden_setup_seats(self.seat)
        return tuple(-1 if s in hidden else state.empty_spaces(s) for s in range(state.players))

    # --- holdings -----------------------------------------------------------------------------------

    @property
    def vp(self) -> tuple[int, ...]:
        return tuple(self._state.vp)

    @property
    def silverlings(self) -> tuple[int, ...]:
        return tuple(self._state.silver)

    @property
    def workers(self) -> tuple[int, ...]:
        return tuple(self._state.workers)

    @property
    def goods(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(g[1:7]) for g in self._state.goods)

    @property
    def sold(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(g[1:7]) for g in self._state.sold)

    @property
    def storage(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(stored) for stored in self._state.storage)

    @property
    def dice(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(d) for d in self._state.dice)

    @property
    def knowledge(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(k for k in range(1, 27) if mask >> k & 1) for mask in self._state.kmask)

    @property
    def track_position(self) -> tuple[int, ...]:
        return tuple(self._state.track_pos)

    @property
    def track_arrival(self) -> tuple[int, ...]:
        return tuple(self._state.track_arrival)

    @property
    def bonus_large(self) -> tuple[int, ...]:
        """[type] the seat holding its large bonus tile, -1 for none."""
        return tuple(self._state.bonus_large)

    @property
    def bonus_small(self) -> tuple[int, ...]:
        return tuple(self._state.bonus_small)

    # --- the shared board ---------------------------------------------------------------------------

    @property
    def depots(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(t for t in d if t != EMPTY) for d in self._state.depots)

    @property
    def depot_goods(self) -> tuple[tuple[int, ...], ...]:
        counts = self._state.depot_goods
        return tuple(tuple(counts[d][1:7]) for d in range(1, 7))

    @property
    def round_goods(self) -> tuple[int, ...]:
        return tuple(g for g in self._state.round_goods if g != EMPTY)

    @property
    def white_die(self) -> int:
        return int(self._state.white)

    @property
    def future_goods_stacks(self) -> tuple[int, ...]:
        """Sizes only: the stacks' goods are face down."""
        return tuple(len(stack) for stack in self._state.stacks)

    @property
    def box_goods(self) -> int:
        return len(self._state.box)

    @property
    def white_piles(self) -> tuple[int, ...]:
        """[type] face-down tiles left, sizes only."""
        return tuple(len(pile) for pile in self._state.piles)

    @property
    def black_pile(self) -> int:
        return len(self._state.black_pile)

    @property
    def removed(self) -> tuple[int, ...]:
        return tuple(self._state.removed)

    @property
    def winners(self) -> tuple[int, ...]:
        state = self._state
        return tuple(state.winners()) if state.is_over else ()

    # --- for the heuristic: the engine's own lists of this seat (read-only) and public options ------

    @property
    def sale_vp_per_tile(self) -> bool:
        """The ``sale_vp`` option: a sale scores per goods tile (else once per sale)."""
        return bool(self._state.options["sale_vp"] == "per_tile")

    my_board: str = reads_own("board", "The seat's estate board key (empty before it chose one).")
    my_estate: list[int] = reads_own(
        "estate", "[space 1–37] the tile on it, -1 when empty; index 0 unused (read-only).")

    my_frontier: int = reads_own("frontier", "Bit mask of the seat's empty spaces next to a tile (bit = space).")
    my_region_left: list[int] = reads_own("region_left", "[region of its board] empty spaces left (read-only).")
    my_colour_left: list[int] = reads_own("colour_left", "[tile type] empty spaces of that colour left (read-only).")
    my_storage: list[int] = reads_own("storage", "The seat's stored tiles (read-only).")
    my_goods: list[int] = reads_own("goods", "[goods kind 1–6] goods tiles held; index 0 unused (read-only).")
    my_sold: list[int] = reads_own("sold", "[goods kind 1–6] goods tiles sold; index 0 unused (read-only).")
    my_workers: int = reads_own("workers")
    my_knowledge_mask: int = reads_own("kmask", "Bit k set: the seat holds knowledge tile Kk.")
    depot_slots: list[list[int]] = reads("depots", "[depot 0–6][space] the tile on it, -1 when empty (read-only).")
    depot_goods_counts: list[list[int]] = reads(
        "depot_goods", "[depot 0–6][goods kind 0–6] goods on it; depot 0 and kind 0 unused (read-only).")

    def die_actions(self, value: int) -> tuple[BAction, ...]:
        """What the seat could do with a die showing ``value``: exactly its legal actions after choosing
        such a die on its turn (the engine's listing, without a clone)."""
        actions: tuple[BAction, ...] = self._state._die_actions(self.seat, value)  # die_actions, one call less
        return actions


_EMPTY_ESTATE = (EMPTY,) * SPACES
_LAST_PHASE, _LAST_ROUND = PHASES - 1, ROUNDS - 1
#: the observation's own fields, read from a lens by ``observe``
_FIELDS = tuple(f.name for f in fields(BurgundyObservation) if f.name not in {f.name for f in fields(Observation)})
#: the seat a spectator's lens reads for (inside ``observe`` only): no seat, so every secret is hidden
_SPECTATOR = -1


def lens(state: BurgundyState, seat: int) -> BurgundyLens:
    return BurgundyLens(state, seat)


def observe(state: BurgundyState, seat: int | None) -> BurgundyObservation:
    """The observation of ``seat``: its lens's properties, read at once."""
    window = BurgundyLens(state, _SPECTATOR if seat is None else seat)
    return BurgundyObservation(
        game="burgundy", players=state.players, seat=seat, current_player=state.current_player,
        is_over=state.is_over, **{name: getattr(window, name) for name in _FIELDS},
    )


# --- structured actions ------------------------------------------------------------------------
# kind = the notation's verb; args: value (die), depot (0 = black), tile (tile code name), space,
# goods (one kind, or for ``keep`` the kinds kept as a tuple), workers (workers paying a purchase, 0
# for none), depots (a ship's one or two depots, as a tuple), board (1–9), start spaces.


def _info(action: BAction) -> ActionInfo:
    kind, notation = action.kind, action.notation
    if kind == act.DIE:
        return action_info(notation, "die", value=action.a)
    if kind == act.TAKE:
        return action_info(notation, "take", depot=action.a, tile=TILE_NAMES[action.b])
    if kind == act.PLACE:
        return action_info(notation, "place", tile=TILE_NAMES[action.a], space=action.b)
    if kind == act.SELL:
        return action_info(notation, "sell", goods=action.a)
    if kind == act.BUY:
        return action_info(notation, "buy", depot=action.a, tile=TILE_NAMES[action.b], workers=action.c)
    if kind == act.DISCARD:
        return action_info(notation, "discard", tile=TILE_NAMES[action.a])
    if kind == act.SHIP:
        return action_info(notation, "ship", depots=tuple(int(d) for d in notation[5:].split("+")))
    if kind == act.KEEP:
        return action_info(notation, "keep", goods=tuple(g for g in range(1, 7) if action.a >> g & 1))
    if kind == act.BOARD:
        return action_info(notation, "board", board=action.a)
    if kind == act.START:
        return action_info(notation, "start", space=action.a)
    return action_info(notation, notation)  # workers, skip, pass


_INFOS: dict[BAction, ActionInfo] = {action: _info(action) for action in ALL_ACTIONS.values()}


def describe_action(action: BAction | str) -> ActionInfo:
    return _INFOS[from_notation(action) if isinstance(action, str) else action]


def _text(value: ArgValue, separator: str) -> str:
    return separator.join(map(str, value)) if isinstance(value, tuple) else str(value)


def notation_from_info(kind: str, args: Mapping[str, ArgValue]) -> str:
    """The notation with this verb and arguments, written from them (``ValueError`` if none is)."""
    if kind == "place":
        notation = f"place:{args['tile']}@{args['space']}"
    elif kind == "buy":
        workers = args["workers"]
        notation = f"buy:{args['depot']}:{args['tile']}" + (f"~w{workers}" if workers else "")
    elif kind == "ship":
        notation = "ship:" + _text(args["depots"], "+")
    elif kind == "keep":
        notation = "keep:" + _text(args["goods"], ",")
    else:
        values = [str(args[key]) for key in ("value", "depot", "tile", "goods", "board", "space") if key in args]
        notation = ":".join([kind, *values])
    if notation not in ALL_ACTIONS:
        raise ValueError(f"no Burgundy action has kind {kind!r} and arguments {dict(args)!r}")
    return notation


def action_notations(players: int) -> tuple[str, ...]:
    """Every Burgundy notation (the same at every player count), in the order of ``actions.py``."""
    return tuple(ALL_ACTIONS)
