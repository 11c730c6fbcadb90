"""Caylus as typed data: what a seat sees (``CaylusObservation``, and its live form ``CaylusLens``) and
each action's ``{kind, args}``.

Caylus hides nothing (rules §6), so every seat's observation holds the same facts as ``view``: the
road, the special buildings, the castle, the players' holdings and the decision waiting. Tiles are
indexes into ``TILES``, cubes are 5-tuples in ``f w s c g`` order, favour rows are in ``ROWS`` order,
seats are ints, ``-1`` means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from meeple.core.observation import ActionInfo, ArgValue, Lens, Observation, action_info, reads, reads_own
from meeple.games.caylus.actions import ACTIONS, Act, action
from meeple.games.caylus.data import (
    P_ACTIVATE,
    P_BONUS,
    P_CASTLE,
    P_FAV_BLD,
    P_FAV_RES,
    P_FAV_ROW,
    P_PLACE,
    PENDING_NAMES,
    T_GATE,
    WORKERS,
)

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


class CaylusLens(Lens):
    """A Caylus game read live from the state when asked (see ``Lens``); every seat may know it all.

    The properties named as ``CaylusObservation``'s fields hold exactly its values (``observe`` is
    these properties read at once, so each fact is stated here only). For the heuristic bot, which
    reads them thousands of times a second, the road is also offered as the engine keeps it
    (``space_tiles`` & co., indexed by road space, the engine's lists themselves: **read-only**), with
    the seat's own cubes and favours and the options a valuation needs; ``price``,
    ``castle_section`` and ``lawyer_targets`` ask the engine's rules.
    """

    __slots__ = ()

    players: int = reads("players")

    # --- the decision waiting ---------------------------------------------------------------------

    turn: int = reads("turn")

    @property
    def phase(self) -> int:
        """1–7, 0 once over."""
        state = self._state
        return 0 if state.is_over else int(state.phase)

    @property
    def pending(self) -> str:
        """The decision kind (place, gate, …, favour_bld); "" once over."""
        state = self._state
        return "" if state.is_over else PENDING_NAMES[state.pk]

    @property
    def pending_space(self) -> int:
        """activate / bonus: the road space whose building works, else -1."""
        state = self._state
        return int(state.cur) if not state.is_over and state.pk in _WORKING else -1

    @property
    def pending_worker(self) -> int:
        state = self._state
        return int(state.worker[state.cur]) if not state.is_over and state.pk in _WORKING else -1

    @property
    def pending_favours(self) -> int:
        """favour_row: the favours the seat still takes, else 0."""
        state = self._state
        if state.is_over or state.pk != P_FAV_ROW:
            return 0
        return sum(count for seat, count in state.fstack if seat == state.ps)

    @property
    def pending_column(self) -> int:
        state = self._state
        return int(state.fsub_col) if not state.is_over and state.pk in (P_FAV_RES, P_FAV_BLD) else 0

    @property
    def pending_batches(self) -> int:
        state = self._state
        return int(state.batches[state.ps]) if not state.is_over and state.pk == P_CASTLE else 0

    @property
    def pending_section(self) -> int:
        """castle: the section the next house goes to (-1: no room), else -1."""
        state = self._state
        return self.castle_section() if not state.is_over and state.pk == P_CASTLE else -1

    @property
    def place_price(self) -> int:
        """place: what a special building costs the seat on turn now, else 0."""
        state = self._state
        return int(state.price(state.ps, T_GATE)) if not state.is_over and state.pk == P_PLACE else 0

    # --- the board ----------------------------------------------------------------------------------

    @property
    def turn_order(self) -> tuple[int, ...]:
        return tuple(self._state.turn_order)

    @property
    def passing_order(self) -> tuple[int, ...]:
        """The seats that passed this turn, first first (the bridge)."""
        return tuple(self._state.bridge)

    bailiff: int = reads("bailiff")
    provost: int = reads("provost")

    @property
    def road_tiles(self) -> tuple[int, ...]:
        """[space 1–28 as 0–27] the tile, -1 for an empty lot."""
        return tuple(self._state.tile[1:])

    @property
    def road_owners(self) -> tuple[int, ...]:
        return tuple(self._state.owner[1:])

    @property
    def road_workers(self) -> tuple[int, ...]:
        return tuple(self._state.worker[1:])

    @property
    def road_residence_of(self) -> tuple[int, ...]:
        """A lawyer's pending conversion: the future owner, else -1."""
        return tuple(self._state.conv[1:])

    @property
    def gate(self) -> int:
        return int(self._state.gate)

    @property
    def trading_post(self) -> int:
        return int(self._state.tpost)

    @property
    def guild(self) -> int:
        return int(self._state.guild)

    @property
    def joust(self) -> int:
        return int(self._state.joust)

    @property
    def stables(self) -> tuple[int, ...]:
        return tuple(self._state.stables)

    @property
    def inn_left(self) -> int:
        return int(self._state.inn_left)

    @property
    def inn_right(self) -> int:
        return int(self._state.inn_right)

    @property
    def castle_workers(self) -> tuple[int, ...]:
        return tuple(self._state.castle)

    @property
    def houses(self) -> tuple[tuple[int, ...], ...]:
        """[section][seat] houses built."""
        return tuple(tuple(h) for h in self._state.houses)

    @property
    def castle_filled(self) -> tuple[int, ...]:
        """[section] houses built."""
        return tuple(self._state.castle_count)

    sections_scored: int = reads("scored")

    @property
    def favour_cap(self) -> int:
        return int(self._state.cap)

    # --- the players --------------------------------------------------------------------------------

    @property
    def deniers(self) -> tuple[int, ...]:
        return tuple(self._state.money)

    @property
    def cubes(self) -> tuple[tuple[int, ...], ...]:
        """[seat][f w s c g]."""
        return tuple(tuple(c) for c in self._state.cubes)

    @property
    def prestige(self) -> tuple[int, ...]:
        return tuple(self._state.pp)

    @property
    def favours(self) -> tuple[tuple[int, ...], ...]:
        """[seat][row] the column reached."""
        return tuple(tuple(f) for f in self._state.fav)

    @property
    def favour_rows_used(self) -> tuple[tuple[bool, ...], ...]:
        return tuple(tuple(bool(used >> r & 1) for r in range(4)) for used in self._state.fav_used)

    @property
    def workers_available(self) -> tuple[int, ...]:
        return tuple(self._state.avail)

    @property
    def workers_placed(self) -> tuple[int, ...]:
        return tuple(WORKERS - a for a in self._state.avail)

    @property
    def batches(self) -> tuple[int, ...]:
        """Castle batches given this turn (phase 6; zeros otherwise)."""
        state = self._state
        return tuple(state.batches) if state.phase == 6 else (0,) * state.players

    @property
    def stock(self) -> tuple[int, ...]:
        """[tile] copies left in the stock."""
        return tuple(self._state.stock)

    @property
    def removed_neutral(self) -> tuple[int, ...]:
        return tuple(self._state.removed)

    @property
    def favour_queue(self) -> tuple[tuple[int, int], ...]:
        """(seat, favours) still to resolve, last first."""
        return tuple((s, c) for s, c in self._state.fstack)

    @property
    def scores(self) -> tuple[int, ...]:
        """PP during the game, final scores once over."""
        return tuple(self._state.scores())

    @property
    def final_scores(self) -> tuple[int, ...]:
        """PP plus the end bonuses, were the game to end now."""
        return tuple(self._state.final_scores())

    @property
    def winners(self) -> tuple[int, ...]:
        state = self._state
        return tuple(state.winners()) if state.is_over else ()

    # --- for the heuristic: the engine's lists (read-only), this seat's holdings, the options -------

    space_tiles: list[int] = reads(
        "tile", "[road space 1–28] the tile, -1 for an empty lot; index 0 unused (read-only).")

    space_owners: list[int] = reads(
        "owner", "[road space 1–28] the owning seat, -1 for none; index 0 unused (read-only).")

    space_workers: list[int] = reads(
        "worker", "[road space 1–28] the seat whose worker is on it, -1 for none; index 0 unused (read-only).")

    built_lots: int = reads("built_lots", "Lots of the road built on so far.")
    my_cubes: list[int] = reads_own("cubes", "The seat's cubes, [f w s c g] (read-only).")
    my_deniers: int = reads_own("money")
    my_favours: list[int] = reads_own("fav", "[row] the column the seat reached (read-only).")
    lawyer_pp: int = reads("lawyer_pp", "The ``lawyer_pp`` option: the prestige a lawyer is worth.")

    def price(self, target: int) -> int:
        """What placing a worker on ``target`` (a road space or a special building) costs the seat now."""
        price: int = self._state.price(self.seat, target)
        return price

    def castle_section(self) -> int:
        """The section the next house goes into (one filled early overflows into the next), -1 if none."""
        section: int = self._state._castle_section()
        return section

    def lawyer_targets(self) -> list[int]:
        """The road spaces a lawyer may turn into the seat's residence now (the ``lawyer_targets`` option)."""
        targets: list[int] = self._state._lawyer_targets(self.seat)
        return targets


_WORKING = (P_ACTIVATE, P_BONUS)
#: the observation's own fields, read from a lens by ``observe``
_FIELDS = tuple(f.name for f in fields(CaylusObservation) if f.name not in {f.name for f in fields(Observation)})


def lens(state: CaylusState, seat: int) -> CaylusLens:
    return CaylusLens(state, seat)


def observe(state: CaylusState, seat: int | None) -> CaylusObservation:
    """The observation of any seat (all the same in Caylus): the lens's properties, read at once."""
    window = CaylusLens(state, -1 if seat is None else seat)  # -1: a spectator, who sees the same
    return CaylusObservation(
        game="caylus", players=state.players, seat=seat, current_player=state.current_player,
        is_over=state.is_over, **{name: getattr(window, name) for name in _FIELDS},
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
