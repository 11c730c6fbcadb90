"""Caylus as typed data: what a seat sees (``CaylusObservation``) and each action's ``{kind, args}``.

Caylus hides nothing (rules §6), so every seat's observation holds the same facts as ``view``: the
road, the special buildings, the castle, the players' holdings and the decision waiting. Tiles are
indexes into ``TILES``, cubes are 5-tuples in ``f w s c g`` order, favour rows are in ``ROWS`` order,
seats are ints, ``-1`` means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.core.observation import ActionInfo, ArgValue, Observation, action_info
from meeple.games.caylus.actions import ACTIONS, Act, action
from meeple.games.caylus.data import LAST_SPACE, WORKERS

if TYPE_CHECKING:
    from meeple.games.caylus.state import CaylusState


@dataclass(frozen=True, slots=True)
class CaylusObservation(Observation):
    """A Caylus game as every seat sees it; per-seat tuples are indexed by seat."""

    turn: int
    phase: int  # 1–7, 0 once over
    pending: str  # the decision kind of view["pending"] (place, gate, …, favour_bld), "" once over
    pending_space: int  # activate / bonus: the road space, else -1
    pending_worker: int  # activate / bonus: the worker's seat on it, else -1
    pending_favours: int  # favour_row: favours the seat still takes, else 0
    pending_column: int  # favour_res / favour_bld: the column reached, else 0
    pending_batches: int  # castle: batches given this turn, else 0
    pending_section: int  # castle: the section the next house goes to (-1: no room), else -1
    place_price: int  # place: what a special building costs the seat now, else 0
    turn_order: tuple[int, ...]
    passing_order: tuple[int, ...]
    bailiff: int
    provost: int
    road_tiles: tuple[int, ...]  # spaces 1–28: the tile, -1 for an empty lot
    road_owners: tuple[int, ...]
    road_workers: tuple[int, ...]
    road_residence_of: tuple[int, ...]  # a lawyer's pending conversion: the future owner
    gate: int
    trading_post: int
    guild: int
    joust: int
    stables: tuple[int, ...]
    inn_left: int
    inn_right: int
    castle_workers: tuple[int, ...]
    houses: tuple[tuple[int, ...], ...]  # [section][seat]
    castle_filled: tuple[int, ...]  # [section] houses built
    sections_scored: int
    favour_cap: int
    deniers: tuple[int, ...]
    cubes: tuple[tuple[int, ...], ...]  # [seat][f w s c g]
    prestige: tuple[int, ...]
    favours: tuple[tuple[int, ...], ...]  # [seat][row] column reached
    favour_rows_used: tuple[tuple[bool, ...], ...]  # [seat][row] used in this scoring
    workers_available: tuple[int, ...]
    workers_placed: tuple[int, ...]
    batches: tuple[int, ...]  # castle batches given this turn (phase 6)
    stock: tuple[int, ...]  # [tile] left in the stock
    removed_neutral: tuple[int, ...]
    favour_queue: tuple[tuple[int, int], ...]  # (seat, favours) still to resolve, last first
    scores: tuple[int, ...]  # PP during the game, final scores once over
    final_scores: tuple[int, ...]  # PP plus the end bonuses, were the game to end now
    winners: tuple[int, ...]  # empty until the game is over


def observe(state: CaylusState, seat: int | None) -> CaylusObservation:
    """The observation of any seat (all the same in Caylus), from the facts ``view`` shows."""
    from meeple.games.caylus.state import P_ACTIVATE, P_BONUS, P_CASTLE, P_FAV_BLD, P_FAV_RES, P_FAV_ROW, P_PLACE

    pending = state.pending()
    kind = state.pk if pending is not None else -1
    n = state.players
    road = range(1, LAST_SPACE + 1)
    over = state.is_over
    working = kind in (P_ACTIVATE, P_BONUS)
    return CaylusObservation(
        game="caylus", players=n, seat=seat, current_player=state.current_player, is_over=over,
        turn=state.turn, phase=0 if over else state.phase, pending="" if pending is None else pending["kind"],
        pending_space=state.cur if working else -1, pending_worker=state.worker[state.cur] if working else -1,
        pending_favours=pending["favours"] if kind == P_FAV_ROW and pending else 0,
        pending_column=state.fsub_col if kind in (P_FAV_RES, P_FAV_BLD) else 0,
        pending_batches=state.batches[state.ps] if kind == P_CASTLE else 0,
        pending_section=state._castle_section() if kind == P_CASTLE else -1,
        place_price=pending["price"] if kind == P_PLACE and pending else 0,
        turn_order=tuple(state.turn_order), passing_order=tuple(state.bridge),
        bailiff=state.bailiff, provost=state.provost,
        road_tiles=tuple(state.tile[s] for s in road), road_owners=tuple(state.owner[s] for s in road),
        road_workers=tuple(state.worker[s] for s in road), road_residence_of=tuple(state.conv[s] for s in road),
        gate=state.gate, trading_post=state.tpost, guild=state.guild, joust=state.joust,
        stables=tuple(state.stables), inn_left=state.inn_left, inn_right=state.inn_right,
        castle_workers=tuple(state.castle), houses=tuple(tuple(h) for h in state.houses),
        castle_filled=tuple(state.castle_count), sections_scored=state.scored, favour_cap=state.cap,
        deniers=tuple(state.money), cubes=tuple(tuple(c) for c in state.cubes), prestige=tuple(state.pp),
        favours=tuple(tuple(f) for f in state.fav),
        favour_rows_used=tuple(tuple(bool(used >> r & 1) for r in range(4)) for used in state.fav_used),
        workers_available=tuple(state.avail), workers_placed=tuple(WORKERS - a for a in state.avail),
        batches=tuple(state.batches) if state.phase == 6 else (0,) * n,
        stock=tuple(state.stock), removed_neutral=tuple(state.removed),
        favour_queue=tuple((s, c) for s, c in state.fstack),
        scores=tuple(state.scores()), final_scores=tuple(state.final_scores()),
        winners=tuple(state.winners()) if over else (),
    )


# --- structured actions ------------------------------------------------------------------------
# kind = the notation's verb, except ``castle:done`` (kind ``castle_done``) and ``res:trade:…`` (kind
# ``trade``). args: target (a road space as an int, or a special building's slug, or "back"), steps
# (signed int), choice (yes/no, stay/leave), cube / cubes / batch (cube letters), building (slug),
# space (int), deniers / cloth / gold (the amount paid), row (favour row), give / get (cube letters).

_AMOUNT = {"church": "deniers", "tailor": "cloth", "bank": "deniers", "jewel": "gold"}
_CUBES_ARG = {"produce": "cubes", "buy": "cubes", "alch": "cubes", "bonus": "cube", "sell": "cube", "res": "cube",
              "castle": "batch", "favour": "row", "joust": "choice", "inn": "choice"}


def _token(text: str) -> int | str:
    """A road space or a signed count as an int, anything else as written."""
    return int(text) if text.lstrip("+-").isdigit() else text


def _info(act: Act) -> ActionInfo:
    notation = act.notation
    verb, *rest = notation.split(":")
    if not rest:
        return action_info(notation, verb)
    if verb in ("place", "gate"):
        return action_info(notation, verb, target=_token(rest[0]))
    if verb in ("guild", "provost"):
        return action_info(notation, verb, steps=int(rest[0]))
    if verb in _AMOUNT:
        return action_info(notation, verb, **{_AMOUNT[verb]: int(rest[0])})
    if verb == "lawyer":
        return action_info(notation, verb, space=int(rest[0]))
    if verb == "castle" and rest[0] == "done":
        return action_info(notation, "castle_done")
    if verb == "res" and rest[0] == "trade":
        return action_info(notation, "trade", give=rest[1], get=rest[2])
    if verb == "build":
        if len(rest) == 1:
            return action_info(notation, verb, building=rest[0])
        extra = _token(rest[1])
        return action_info(notation, verb, building=rest[0], **{"space" if isinstance(extra, int) else "cube": extra})
    return action_info(notation, verb, **{_CUBES_ARG[verb]: rest[0]})


_INFOS: dict[Act, ActionInfo] = {act: _info(act) for act in ACTIONS.values()}
_ARG_ORDER = ("target", "steps", "deniers", "cloth", "gold", "space", "building", "cube", "cubes", "batch", "row",
              "choice")


def _signed(value: ArgValue) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)


def describe_action(act: Act | str) -> ActionInfo:
    return _INFOS[action(act) if isinstance(act, str) else act]


def notation_from_info(kind: str, args: Mapping[str, ArgValue]) -> str:
    """The notation with this verb and arguments, written from them (``ValueError`` if none is)."""
    if kind == "castle_done":
        notation = "castle:done"
    elif kind == "trade":
        notation = f"res:trade:{args['give']}:{args['get']}"
    elif kind in ("guild", "provost"):
        notation = f"{kind}:{_signed(args['steps'])}"
    elif kind == "build":  # the building first, then its cube or space
        notation = ":".join([kind, str(args["building"]), *(str(args[k]) for k in ("cube", "space") if k in args)])
    else:
        notation = ":".join([kind, *(str(args[key]) for key in _ARG_ORDER if key in args)])
    if notation not in ACTIONS:
        raise ValueError(f"no Caylus action has kind {kind!r} and arguments {dict(args)!r}")
    return notation


def action_notations(players: int) -> tuple[str, ...]:
    """Every Caylus notation (the same at every player count), in the order of ``actions.py``."""
    return tuple(ACTIONS)
