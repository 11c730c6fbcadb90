"""The faster search (cut-off rollouts scored by a fitted evaluation, worlds serving several iterations,
rollouts handed down the tree): legal, reproducible, and the root figures of searches add up (what
the expert level's processes rely on)."""

from __future__ import annotations

import gc
import math
import threading
from operator import mul
from typing import Any

import pytest

from meeple import load_game
from meeple.bots import RolloutPolicy, hard_bot
from meeple.bots.evaluation import FEATURES, _citadels_predicted, score_evaluation
from meeple.bots.ismcts import ISMCTSBot, RootStatistics
from meeple.core.contract import GameState
from meeple.games.caylus.state import CaylusState
from tests.bots.walks import GAMES, mid_game, same_decision_on_a_redeal
from tests.core.toy_game import Toy, ToyAction, ToyState


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


@pytest.mark.parametrize(("players", "options"), [(2, None), (4, None), (7, {"preset": "original"}),
                                                  (5, {"complete_at": 8, "observatory_cost": 5})])
def test_citadels_predicted_scores_are_its_features_times_the_weights(players: int, options: Any) -> None:
    """The evaluation reads Citadels' figures straight from the state: at every position of a game (the
    crown, characters murdered, revealed or still to play), exactly what the rows times the weights give."""
    features, _ = FEATURES["citadels"]
    evaluation = score_evaluation("citadels")
    assert evaluation is not None
    state = load_game("citadels").new_game(players=players, seed=players, options=options)
    policy = RolloutPolicy(players)
    positions = 0
    while not state.is_over:
        for weights in evaluation.buckets:
            assert _citadels_predicted(state, weights) == [sum(map(mul, weights, row)) for row in features(state)]
        state.apply(policy.choose(state))
        positions += 1
    assert positions > 100
    with pytest.raises(ValueError, match="15 features for 14 weights"):
        _citadels_predicted(state, evaluation.buckets[0][:14])


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




def _tree_parts(bot: ISMCTSBot, method: str) -> list[RootStatistics]:
    """Spies on ``bot``'s ``method`` (``_search_tree`` or ``_search_paired``): the statistics each call grew."""
    parts: list[RootStatistics] = []
    grow = getattr(bot, method)

    def spy(*args: Any) -> None:
        part = args[-1]
        assert part.iterations == 0 and not part.visits and not part.per_world  # a fresh tree every time
        grow(*args)
        parts.append(part)

    setattr(bot, method, spy)
    return parts


def test_a_tree_budget_grows_fresh_trees_one_after_another_and_adds_up_their_roots() -> None:
    state = Toy().new_game(players=3, seed=5)
    bot = ISMCTSBot(seed=3, iterations=None, time_limit=0.4, tree_budget=0.1, budget_clock="cpu",
                    stop_when_settled=False)
    parts = _tree_parts(bot, "_search_tree")
    started = bot.clock()
    statistics = bot.search(state)
    spent = bot.clock() - started
    assert 4 <= bot.last_trees == len(parts) <= 5 and spent <= 0.4 * 1.1
    assert statistics.iterations == sum(part.iterations for part in parts) == sum(statistics.visits.values())
    for action in state.legal_actions():
        assert statistics.visits.get(action, 0) == sum(part.visits.get(action, 0) for part in parts)
    assert all(part.iterations > 0 for part in parts) and bot.decide(statistics) in state.legal_actions()
    assert not statistics.stopped_early


def test_a_paired_root_with_a_tree_budget_compares_its_candidates_on_every_tree_s_worlds() -> None:
    state = mid_game("burgundy", 2, 3, 30)
    bot = hard_bot(4, time_limit=0.6, tree_budget=0.2, budget_clock="cpu", stop_when_settled=False)
    search = bot.search_for("burgundy")
    parts = _tree_parts(search, "_search_paired")
    statistics = search.search(state)
    assert search.last_trees == len(parts) >= 3
    assert statistics.candidates is not None and all(part.candidates == statistics.candidates for part in parts)
    assert statistics.per_world == [rewards for part in parts for rewards in part.per_world]
    assert statistics.iterations == len(statistics.per_world) * len(statistics.candidates)


def test_a_tree_budget_leaves_iteration_budgets_and_short_budgets_to_one_tree() -> None:
    state = Toy().new_game(players=3, seed=5)
    counted = ISMCTSBot(seed=3, iterations=150, time_limit=5.0, tree_budget=0.01)
    assert counted.search(state).iterations == 150 and counted.last_trees == 1
    short = ISMCTSBot(seed=3, iterations=None, time_limit=0.05, tree_budget=0.1)
    short.search(state)
    assert short.last_trees == 1
    with pytest.raises(ValueError, match="positive"):
        ISMCTSBot(tree_budget=0.0)

class _LowestCard:
    """A policy that always plays the first legal action (the lowest card)."""

    name = "lowest-card"

    def choose(self, state: GameState[Any]) -> Any:
        return state.legal_actions()[0]


def _other_seats_moves(follow: bool, seed: int) -> tuple[str, list[bool]]:
    """A toy search for seat 0 with the lowest-card policy; whether each move another seat made anywhere
    in it (tree or rollout) was the policy's choice."""
    followed: list[bool] = []

    class Watched(ToyState):
        def _apply(self, action: ToyAction) -> None:
            if self.turn != 0:
                followed.append(action == self.legal_actions()[0])
            super()._apply(action)

    state = Toy().new_game(players=3, seed=seed)
    state.__class__ = Watched
    bot = ISMCTSBot(seed, iterations=200, rollout_policy=_LowestCard(), epsilon=0.0, prior_weight=1.0,
                    world_reuse=4, opponents_follow_policy=follow)
    action = bot.choose(state)
    assert action in state.legal_actions()
    return str(action), followed


def test_other_seats_can_follow_the_policy_inside_the_tree() -> None:
    """With ``opponents_follow_policy`` every move of another seat, in the tree as in the rollouts, is
    the policy's; searched by UCB, some are not. Same seed, same decision."""
    for seed in (1, 2, 3):
        action, followed = _other_seats_moves(True, seed)
        assert followed and all(followed)
        assert _other_seats_moves(True, seed)[0] == action
    assert not all(_other_seats_moves(False, 1)[1])


def test_hard_with_the_other_seats_following_the_heuristic_is_blind_to_what_its_seat_cannot_see() -> None:
    redealt = [same_decision_on_a_redeal(
        lambda: hard_bot(5, iterations=48, time_limit=None, opponents_follow_policy=True),
        mid_game("citadels", 4, seed=seed, steps=15 + 10 * seed), 1000 + seed) for seed in (1, 2, 3)]
    assert any(redealt)


def _scored_positions(**settings: object) -> list[tuple[int, int, bool]]:
    """(turn, phase, over) of every position a Caylus search's rollouts were scored on, from turn 2."""
    state = mid_game("caylus", 4, seed=3, steps=40)
    assert state.turn == 2  # type: ignore[attr-defined]
    scored: list[tuple[int, int, bool]] = []

    def evaluator(position: object) -> list[float]:
        assert isinstance(position, CaylusState)
        scored.append((position.turn, position.phase, position.is_over))
        return [0.5] * 4

    bot = hard_bot(4, iterations=12, time_limit=None, world_reuse=1, evaluator=evaluator, **settings)
    bot.choose(state)
    return scored


def test_a_rollout_past_its_cutoff_is_scored_at_the_next_boundary() -> None:
    """Cut at a turn's start, at the earliest turn asked for, and never earlier; without a boundary,
    wherever the cutoff falls."""
    at_turn_starts = _scored_positions(rollout_cutoff=3, rollout_boundary="turn", rollout_boundary_from=None)
    assert len(at_turn_starts) == 12 and set(at_turn_starts) == {(3, 2, False)}
    late = _scored_positions(rollout_cutoff=3, rollout_boundary="turn", rollout_boundary_from=5)
    assert len(late) == 12 and set(late) == {(5, 2, False)}
    anywhere = _scored_positions(rollout_cutoff=3, rollout_boundary=None)
    assert len(anywhere) == 12 and {turn for turn, _, _ in anywhere} == {2}


class _RecordingEvaluation:
    """Citadels' progress, and a flat reward that notes the progress of every position it scores."""

    def __init__(self) -> None:
        self.progress = FEATURES["citadels"][1]
        self.scored: list[float] = []

    def __call__(self, state: GameState[Any]) -> list[float]:
        self.scored.append(self.progress(state))
        return [0.5] * len(state.scores())


def _citadels_scored(state: GameState[Any], to_end_from: float | None) -> list[float]:
    evaluation = _RecordingEvaluation()
    bot = hard_bot(2, iterations=40, time_limit=None, rollout_cutoff=4, world_reuse=1, evaluator=evaluation,
                   rollout_to_end_from=to_end_from)
    bot.choose(state)
    return evaluation.scored


def test_a_rollout_cut_late_in_the_game_is_played_to_the_end() -> None:
    """A rollout reaching its cutoff at or past the progress asked for goes on to the end, scored by the
    outcome; earlier ones are still scored by the evaluation where they are cut."""
    early = mid_game("citadels", 4, seed=3, steps=60)
    assert FEATURES["citadels"][1](early) < 0.5
    cut_anywhere = _citadels_scored(early, None)
    assert len(cut_anywhere) == 40 and max(cut_anywhere) >= 0.5  # plain cuts do score late positions
    cut_early_only = _citadels_scored(early, 0.5)
    assert cut_early_only and max(cut_early_only) < 0.5
    late = mid_game("citadels", 4, seed=3, steps=120)
    assert FEATURES["citadels"][1](late) >= 0.5
    assert _citadels_scored(late, 0.5) == []  # every rollout from here played out


def test_playing_late_rollouts_to_the_end_needs_an_evaluation_that_knows_the_progress() -> None:
    with pytest.raises(ValueError, match="progress"):
        ISMCTSBot(1, rollout_cutoff=4, rollout_to_end_from=0.5)


class _CollectorWatch:
    """A rollout policy (the toy game's first legal action) that notes whether the garbage collector ran."""

    name = "collector-watch"

    def __init__(self) -> None:
        self.seen: set[bool] = set()

    def choose(self, state: GameState[Any]) -> Any:
        self.seen.add(gc.isenabled())
        return state.legal_actions()[0]


def test_a_search_alone_in_its_process_pauses_the_garbage_collector_and_switches_it_back_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # alone as in the CLI: earlier tests may have left threads behind in this process (an expert's pool)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    watch = _CollectorWatch()
    ISMCTSBot(seed=1, iterations=50, rollout_policy=watch).choose(Toy().new_game(players=3, seed=5))
    assert watch.seen == {False}
    assert gc.isenabled()


def test_a_search_beside_other_threads_leaves_the_garbage_collector_alone(bystander: threading.Thread) -> None:
    """A server's bots think in threads beside the server's own: the collector is the whole process's, and
    two searches pausing and restoring it at once could leave it off for good."""
    watches = [_CollectorWatch() for _ in range(4)]
    state = Toy().new_game(players=3, seed=5)
    bots = [ISMCTSBot(seed=i, iterations=300, rollout_policy=watch) for i, watch in enumerate(watches)]
    searches = [threading.Thread(target=bot.choose, args=(state.clone(),)) for bot in bots]
    for search in searches:
        search.start()
    for search in searches:
        search.join()
    assert all(watch.seen == {True} for watch in watches)
    assert gc.isenabled()
