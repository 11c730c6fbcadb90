"""Building Caylus positions for scenario tests: a seeded game, then fields set by hand.

Positions are built through the state's own fields (no monkey-patching) and resumed with
``state.settle()``, which runs the automatic steps up to the next real decision.
"""

from __future__ import annotations

from typing import Any

from meeple import load_game
from meeple.games.caylus.data import LOTS, TILE_ID, TILES, cubes
from meeple.games.caylus.state import CaylusState

#: The neutral order of example E1 (spaces 1–6).
E1_NEUTRALS = "n_sawmill,n_quarry,n_carpenter,n_farm,n_market,n_forest"


def new_game(players: int = 4, order: str | None = None, **options: Any) -> CaylusState:
    """A game at turn 1, phase 2 (income paid), with a fixed turn order and the E1 road."""
    chosen = {"turn_order": order or ",".join(str(p) for p in range(players)),
              "neutral_order": E1_NEUTRALS, **options}
    state = load_game("caylus").new_game(players=players, seed=1, options=chosen)
    assert isinstance(state, CaylusState)
    return state


def set_tile(state: CaylusState, space: int, slug: str, owner: int = -1) -> None:
    """Put a tile on a road space, taking it from the stock (wood, stone, prestige)."""
    t = TILE_ID[slug]
    old = state.tile[space]
    if old >= 0 and TILES[old].kind in (2, 3, 5):
        state.stock[old] += 1
    if TILES[t].kind in (2, 3, 5):
        state.stock[t] -= 1
        assert state.stock[t] >= 0, f"no {slug} left in the stock"
    if old >= 0 and TILES[old].kind == 0 and TILES[t].kind != 0:
        state.removed.append(old)
    state.tile[space] = t
    state.owner[space] = owner
    state.built_lots = sum(1 for s in LOTS if state.tile[s] >= 0)
    state.settle()  # the decision's legal actions (and the engine's memo of open road spaces) see the tile


def put_worker(state: CaylusState, seat: int, space: int) -> None:
    state.worker[space] = seat
    state.avail[seat] -= 1


def give(state: CaylusState, seat: int, held: str = "", deniers: int | None = None, pp: int | None = None) -> None:
    """Set a seat's cubes (a cube string), deniers and prestige."""
    state.cubes[seat] = list(cubes(held))
    if deniers is not None:
        state.money[seat] = deniers
    if pp is not None:
        state.pp[seat] = pp


def to_phase5(state: CaylusState, provost: int) -> None:
    """Phase 4 with nobody left to bid: the road activates up to ``provost`` (cut-off included)."""
    state.phase = 4
    state.bridge = list(range(state.players))
    state.cur = state.players
    state.provost = provost
    state.settle()


def to_phase6(state: CaylusState, arrivals: list[int]) -> None:
    """Phase 6 with these castle arrivals (their workers taken from their supply)."""
    for p in arrivals:
        state.avail[p] -= 1
    state.castle = list(arrivals)
    state.phase = 5
    state.cur = 29
    state.sub = 0
    state.settle()


def to_phase7(state: CaylusState, bailiff: int, provost: int) -> None:
    """Phase 7 begins: the bailiff moves, then sections are scored."""
    state.bailiff = bailiff
    state.provost = provost
    state.phase = 6
    state.castle = []
    state.cur = 0
    state.sub = 1
    state.settle()


def hold_in_castle(state: CaylusState, seat: int) -> None:
    """Give ``seat`` a castle worker and one batch, so phase 6 waits for him (keeps the turn from ending)."""
    state.castle.append(seat)
    state.avail[seat] -= 1
    held = state.cubes[seat]
    held[0] += 1
    held[1] += 1
    held[2] += 1


def legal(state: CaylusState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def play(state: CaylusState, *notations: str) -> None:
    for notation in notations:
        state.apply(notation)


def pass_all(state: CaylusState) -> None:
    """Everyone still placing passes."""
    while state.phase == 2 and not state.is_over:
        state.apply("pass")


def pending_field(state: CaylusState, key: str) -> Any:
    """One field of the pending decision (None once the game is over)."""
    pending = state.pending()
    return None if pending is None else pending.get(key)
