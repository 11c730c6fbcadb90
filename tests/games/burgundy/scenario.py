"""Build Burgundy positions for scenario tests by setting state fields (chance fixed by explicit setup)."""

from __future__ import annotations

from typing import Any

from meeple import load_game
from meeple.games.burgundy.data import CENTRE, TILE_BY_NAME, TILE_NAMES
from meeple.games.burgundy.state import EMPTY, BurgundyState

GAME = load_game("burgundy")


def new(players: int = 2, seed: int = 1, **options: Any) -> BurgundyState:
    state: BurgundyState = GAME.new_game(players=players, seed=seed, options={"first_seat": 0, **options})
    return state


def position(
    state: BurgundyState,
    seat: int = 0,
    *,
    dice: tuple[int, int] = (3, 5),
    storage: tuple[str, ...] = (),
    goods: dict[int, int] | None = None,
    workers: int = 0,
    silver: int = 1,
    estate: dict[int, str] | None = None,
    knowledge: tuple[int, ...] = (),
    phase: int | None = None,
) -> BurgundyState:
    """Make it ``seat``'s turn with exactly these possessions; knowledge numbers count as owned."""
    n = state.players
    state.order = [seat] + [s for s in range(n) if s != seat]
    state.turn_index = 0
    state.pending = []
    state.dice[seat] = list(dice)
    state.dice_left = list(dice)
    state.bought = False
    state.storage[seat] = [TILE_BY_NAME[t] for t in storage]
    state.goods[seat] = [0] * 7
    for g, count in (goods or {}).items():
        state.goods[seat][g] = count
    state.workers[seat] = workers
    state.silver[seat] = silver
    if phase is not None:
        state.phase = phase
    if estate is not None:
        row = [EMPTY] * 38
        row[state.start_space[seat] or CENTRE] = TILE_BY_NAME["C"]
        for space, tile in estate.items():
            row[space] = TILE_BY_NAME[tile]
        state.estate[seat] = row
    state.rebuild_derived()
    for k in knowledge:
        state.kmask[seat] |= 1 << k
    return state


def set_depot(state: BurgundyState, depot: int, tiles: list[str], goods: list[int] | None = None) -> None:
    size = 8 if depot == 0 else 4
    state.depots[depot] = [TILE_BY_NAME[t] for t in tiles] + [EMPTY] * (size - len(tiles))
    if goods is not None and depot:
        state.depot_goods[depot] = [0] * 7
        for g in goods:
            state.depot_goods[depot][g] += 1
    state.rebuild_derived()


def legal(state: BurgundyState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: BurgundyState, *notations: str) -> None:
    for notation in notations:
        state.apply(notation)


def storage(state: BurgundyState, seat: int = 0) -> list[str]:
    return sorted(TILE_NAMES[t] for t in state.storage[seat])


def goods(state: BurgundyState, seat: int = 0) -> dict[int, int]:
    return {g: c for g, c in enumerate(state.goods[seat]) if c}


def pending_kind(state: BurgundyState) -> str | None:
    pending = state.view(None)["pending"]
    return None if pending is None else str(pending["kind"])


def occupy(state: BurgundyState, seat: int, tiles: dict[int, str]) -> None:
    """Add tiles to an estate as if placed earlier (no scoring, no effects)."""
    for space, tile in tiles.items():
        state.estate[seat][space] = TILE_BY_NAME[tile]
    kmask = state.kmask[seat]
    state.rebuild_derived()
    state.kmask[seat] |= kmask


def clear_depots(state: BurgundyState) -> None:
    """Empty every depot's tiles and goods (the tiles leave the game, so conservation still holds)."""
    for d in range(7):
        state.removed += [t for t in state.depots[d] if t != EMPTY]
        state.depots[d] = [EMPTY] * len(state.depots[d])
        state.box += [g for g in range(1, 7) for _ in range(state.depot_goods[d][g])]
        state.depot_goods[d] = [0] * 7
    state.rebuild_derived()


def pass_turn(state: BurgundyState) -> None:
    """The current player takes workers with both dice and ends the turn."""
    for value in list(state.dice_left):
        play(state, f"die:{value}", "workers")
    play(state, "pass")
