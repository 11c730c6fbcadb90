"""The engine's shortcuts for speed give what the plain rule gives (issue 21, docs/games/burgundy.md
"Performance"): the memoised placements of a tile on a mask of spaces, and the workers ``apply``
charges for a die's action without asking ``worker_cost`` when no knowledge tile changes the price.
"""

from __future__ import annotations

import random

from meeple.core.registry import load_game
from meeple.games.burgundy import state as engine
from meeple.games.burgundy.actions import PLACE_ACTIONS
from meeple.games.burgundy.data import BOARDING, BOARDING_WORKERS, SPACES, TILE_KINDS


def placements_by_definition(tile: int, spaces: int) -> tuple[object, ...]:
    """The placements of ``tile`` on the spaces of the bit mask, in increasing space order."""
    return tuple(PLACE_ACTIONS[tile][space] for space in range(1, SPACES + 1) if spaces >> space & 1)


def test_memoised_placements_are_the_placements_on_each_space_of_the_mask() -> None:
    chooser = random.Random(21)
    masks = [0, 1 << 1, 1 << SPACES, (1 << (SPACES + 1)) - 2]
    masks += [chooser.getrandbits(SPACES) << 1 for _ in range(40)]
    for tile in range(TILE_KINDS):
        for mask in masks:
            expected = placements_by_definition(tile, mask)
            assert engine._placements(tile, mask) == expected  # asked first: computed (or made at import)
            assert engine._placements(tile, mask) == expected  # asked again: from the memo
        for space in range(1, SPACES + 1):  # the one-space masks, made at import
            assert engine._PLACEMENT_MEMO[tile][1 << space] == (PLACE_ACTIONS[tile][space],)


def charges_checked(players: int, seed: int) -> tuple[int, int]:
    """At every die decision of a seeded random game, every take, placement and sale costs the seat
    exactly ``worker_cost`` (the rule, with knowledge tiles) when applied to a copy. Returns how many
    were checked, and how many of them with a knowledge tile that changes reach or price."""
    state = load_game("burgundy").new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    checked = knowing = 0
    while not state.is_over:
        legal = state.legal_actions()
        if state.pending and state.pending[-1][0] == engine.P_DIE:
            seat = state.current_player
            assert seat is not None
            for action in legal:
                if action.kind not in (engine.KIND_TAKE, engine.KIND_PLACE, engine.KIND_SELL):
                    continue
                after = state.clone()
                after.apply(action)
                gained = 1 if action.kind == engine.KIND_SELL and state.kmask[seat] & engine.K04 else 0
                if action.kind == engine.KIND_PLACE and action.a == BOARDING:
                    gained = BOARDING_WORKERS  # the Boarding House's effect came on top of the price
                assert state.workers[seat] - after.workers[seat] + gained == state.worker_cost(action), action
                checked += 1
                knowing += bool(state.kmask[seat] & engine._CHANGES_REACH)
        state.apply(chooser.choice(legal))
    return checked, knowing


def test_workers_apply_charges_are_worker_cost() -> None:
    totals = [charges_checked(players, seed) for players, seed in [(2, 5), (3, 6), (4, 7), (4, 8), (4, 9)]]
    assert sum(checked for checked, _ in totals) > 2000
    assert sum(knowing for _, knowing in totals) > 20, totals  # the knowledge tiles' prices were met too
