"""The Castles of Burgundy as typed data: what a seat sees (``BurgundyObservation``) and each action's
``{kind, args}``.

Nothing is private in play (docs/games/burgundy.md, "Views and hidden information"); during a secret
setup (``secret_setup=True``) other seats' chosen boards and start castles are hidden, exactly as in
``view``. Tiles are codes (indexes into ``TILE_NAMES``), tile types index ``TYPE_LETTERS``, goods kinds
are 1–6 (tuples of counts are indexed 0–5 for kinds 1–6), estate spaces 1–37 are tuple indexes 0–36,
``-1`` means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.core.observation import ActionInfo, ArgValue, Observation, action_info
from meeple.games.burgundy import actions as act
from meeple.games.burgundy.actions import ALL_ACTIONS, BAction, from_notation
from meeple.games.burgundy.data import BUILDINGS, FIRST_BUILDING, PHASES, ROUNDS, SPACES, TILE_NAMES

if TYPE_CHECKING:
    from meeple.games.burgundy.state import BurgundyState


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


def _goods(counts: list[int]) -> tuple[int, ...]:
    return tuple(counts[1:7])


def observe(state: BurgundyState, seat: int | None) -> BurgundyObservation:
    """The observation of ``seat``, from the facts ``_view`` shows."""
    from meeple.games.burgundy.state import EMPTY, P_BOARD, P_BUILD_TAKE, P_DIE, P_DISCARD, P_KEEP, PENDING_NAMES

    n = state.players
    hidden = state.hidden_setup_seats(seat)
    hide_board = state.options["boards"] == "choose"
    over = state.is_over
    stack = state.pending if not over else []
    top = stack[-1] if stack else None
    kind = top[0] if top is not None else -1
    has_turn = not over and kind < P_BOARD
    empty_estate = (EMPTY,) * SPACES
    return BurgundyObservation(
        game="burgundy", players=n, seat=seat, current_player=state.current_player, is_over=over,
        phase=min(state.phase, PHASES - 1), round=min(state.round, ROUNDS - 1) + 1,
        round_order=tuple(state.order), track_order=tuple(state.track_order()),
        turn_seat=state.order[state.turn_index] if has_turn else -1,
        dice_left=tuple(state.dice_left) if has_turn else (), bought=has_turn and state.bought,
        pending=PENDING_NAMES[kind] if top is not None else "",
        pending_stack=tuple(PENDING_NAMES[p[0]] for p in stack),
        pending_die=top[1] if kind == P_DIE and top is not None else 0,
        pending_building=BUILDINGS[top[1] - FIRST_BUILDING] if kind == P_BUILD_TAKE and top is not None else "",
        pending_incoming=top[1] if kind == P_DISCARD and top is not None else -1,
        pending_depots=tuple(d for d in range(1, 7) if top[1] >> d & 1) if kind == P_KEEP and top is not None else (),
        pending_free_slots=top[2] if kind == P_KEEP and top is not None else 0,
        boards=tuple("" if s in hidden and hide_board else state.board[s] for s in range(n)),
        estates=tuple(empty_estate if s in hidden else tuple(state.estate[s][1:]) for s in range(n)),
        start_spaces=tuple(0 if s in hidden else state.start_space[s] for s in range(n)),
        empty_spaces=tuple(-1 if s in hidden else state.empty_spaces(s) for s in range(n)),
        vp=tuple(state.vp), silverlings=tuple(state.silver), workers=tuple(state.workers),
        goods=tuple(_goods(g) for g in state.goods), sold=tuple(_goods(g) for g in state.sold),
        storage=tuple(tuple(st) for st in state.storage), dice=tuple(tuple(d) for d in state.dice),
        knowledge=tuple(tuple(k for k in range(1, 27) if mask >> k & 1) for mask in state.kmask),
        track_position=tuple(state.track_pos), track_arrival=tuple(state.track_arrival),
        bonus_large=tuple(state.bonus_large), bonus_small=tuple(state.bonus_small),
        depots=tuple(tuple(t for t in d if t != EMPTY) for d in state.depots),
        depot_goods=tuple(_goods(state.depot_goods[d]) for d in range(1, 7)),
        round_goods=tuple(g for g in state.round_goods if g != EMPTY), white_die=state.white,
        future_goods_stacks=tuple(len(st) for st in state.stacks), box_goods=len(state.box),
        white_piles=tuple(len(p) for p in state.piles), black_pile=len(state.black_pile),
        removed=tuple(state.removed), winners=tuple(state.winners()) if over else (),
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
