"""The faster search (cut-off rollouts scored by a fitted evaluation, worlds serving several iterations,
rollouts handed down the tree): legal, reproducible, and the root figures of searches add up (what
the expert level's processes rely on)."""

from __future__ import annotations

import math

import pytest

from meeple.bots import hard_bot
from meeple.bots.evaluation import FEATURES, score_evaluation
from meeple.bots.ismcts import ISMCTSBot, RootStatistics
from meeple.games.caylus.state import CaylusState
from tests.bots.walks import GAMES, mid_game
from tests.core.toy_game import Toy


@pytest.mark.parametrize("name", GAMES)
def test_the_fitted_evaluation_gives_every_seat_a_reward_in_the_unit_interval(name: str) -> None:
    evaluation = score_evaluation(name)
    assert evaluation is not None
    features, progress = FEATURES[name]
    for players, steps in ((2, 10), (3, 60), (4, 150)):
        state = mid_game(name, players, seed=players, steps=steps)
        assert 0.0 <= progress(state) <= 1.0
        rows = features(state)
        assert len(rows) == players and all(len(row) == len(evaluation.buckets[0]) for row in rows)
        predicted, temperature = evaluation.predicted(state)
        assert all(math.isfinite(p) for p in predicted) and temperature > 0
        rewards = evaluation(state)
        assert len(rewards) == players and all(0.0 <= r <= 1.0 for r in rewards)
        assert state.to_json() == mid_game(name, players, seed=players, steps=steps).to_json()  # read only


def test_the_evaluation_ranks_a_seat_that_leads_by_far_first() -> None:
    state = mid_game("caylus", 4, seed=2, steps=120)
    evaluation = score_evaluation("caylus")
    assert evaluation is not None and isinstance(state, CaylusState)
    state.pp[1] += 60  # sixty prestige points more than it had
    rewards = evaluation(state)
    assert max(range(4), key=rewards.__getitem__) == 1


def test_a_world_serves_several_iterations_and_hands_rollouts_down() -> None:
    """Caylus has nothing hidden: one world for every iteration, where the policy's own line costs no
    rollout. Same seed, same decision; fewer rollouts than iterations."""
    state = mid_game("caylus", 4, seed=3, steps=40)
    before = state.to_json()
    decisions = []
    for _ in range(2):
        bot = hard_bot(4, iterations=40, time_limit=None, world_reuse=1000, rollout_cutoff=20)
        decisions.append(str(bot.choose(state)))
        assert bot.last_iterations == 40
        assert 0 < bot.last_rollouts < 40
    assert decisions[0] == decisions[1]
    assert state.to_json() == before


def test_rollouts_are_handed_down_only_within_their_world() -> None:
    """A world used once hands nothing down: every iteration plays its own rollout."""
    state = mid_game("caylus", 4, seed=3, steps=40)
    bot = hard_bot(4, iterations=30, time_limit=None, world_reuse=1, rollout_cutoff=20)
    bot.choose(state)
    assert bot.last_rollouts == bot.last_iterations == 30


def test_world_reuse_on_the_toy_game_is_legal_and_reproducible() -> None:
    state = Toy().new_game(players=3, seed=5)
    first = ISMCTSBot(seed=2, iterations=200, world_reuse=7).choose(state)
    second = ISMCTSBot(seed=2, iterations=200, world_reuse=7).choose(state)
    assert first == second and first in state.legal_actions()
    with pytest.raises(ValueError, match="at least one"):
        ISMCTSBot(world_reuse=0)


def test_root_statistics_of_two_searches_add_up() -> None:
    state = Toy().new_game(players=3, seed=5)
    first = ISMCTSBot(seed=1, iterations=60).search(state)
    second = ISMCTSBot(seed=2, iterations=60).search(state)
    visits = {a: first.visits.get(a, 0) + second.visits.get(a, 0) for a in state.legal_actions()}
    first.merge(second)
    assert first.iterations == 120
    assert {a: first.visits.get(a, 0) for a in visits} == visits
    paired = RootStatistics(["a", "b"], candidates=["a", "b"], per_world=[[0.5, 0.6]])
    paired.merge(RootStatistics(["a", "b"], candidates=["a", "b"], per_world=[[0.4, 0.7]]))
    assert paired.per_world == [[0.5, 0.6], [0.4, 0.7]]
    paired.merge(RootStatistics(["a", "b"], candidates=["b", "a"], per_world=[[0.1, 0.1]]))  # other candidates
    assert len(paired.per_world) == 2

