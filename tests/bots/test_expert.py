"""The expert level: the hard search for longer on every core. Legal, within its budget with a worker
process, blind to what its seat cannot see, and longer than hard in every game."""

from __future__ import annotations

import time

import pytest

from meeple.bots import BOT_KINDS, RolloutPolicy, build_search, hard_bot, make_bot
from meeple.bots.expert import ExpertBot, expert_settings
from tests.bots.walks import GAMES, mid_game, same_decision_on_a_redeal


@pytest.mark.parametrize("name", ["citadels", "palais_royal", "burgundy"])
def test_expert_decides_the_same_on_a_redeal_of_what_its_seat_cannot_see(name: str) -> None:
    """The expert's own search (no worker processes, an iteration budget) sees only its seat's world."""
    state = mid_game(name, 4, seed=2, steps=35)
    same_decision_on_a_redeal(lambda: ExpertBot(6, processes=0, iterations=12, time_limit=None), state, 77)


def test_expert_is_a_level_and_searches_longer_than_hard() -> None:
    assert "expert" in BOT_KINDS
    expert = make_bot("expert", 3)
    assert isinstance(expert, ExpertBot)
    for name in GAMES:
        expert_limit = expert.search_for(name).time_limit
        hard_limit = hard_bot(3).search_for(name).time_limit
        assert expert_limit is not None and hard_limit is not None
        assert hard_limit < expert_limit <= 5.0
        # its time as trees of hard's size, added up; in Burgundy, whose rollouts are cut soon, one tree
        assert expert.search_for(name).tree_budget == (None if name == "burgundy" else hard_limit)
    assert expert_settings("burgundy")["paired_root"] > hard_bot(3).search_for("burgundy").paired_root
    # Caylus' rollouts are hard's, cut at a late turn's start (to the end they chose no better for 4-5x the time)
    expert_caylus, hard_caylus = expert.search_for("caylus"), hard_bot(3).search_for("caylus")
    assert (expert_caylus.rollout_cutoff, expert_caylus.rollout_boundary) == (0, "turn")
    assert (hard_caylus.rollout_cutoff, hard_caylus.rollout_boundary) == (0, "turn")


def test_the_search_can_compare_palais_royals_candidates_in_the_heuristics_order_or_the_legal_one() -> None:
    """Hard (and the expert, which keeps hard's root there) compares the heuristic's choice and the next
    legal actions, as its tournaments were played; ``paired_ranked`` compares the heuristic's best instead."""
    hard = hard_bot(3).search_for("palais_royal")
    expert = make_bot("expert", 3).search_for("palais_royal")
    assert (hard.paired_root, hard.paired_flat, hard.paired_ranked) == (8, False, False)
    assert (expert.paired_root, expert.paired_flat, expert.paired_ranked) == (8, False, False)
    ranked_search = build_search("palais_royal", 3, {"paired_ranked": True})
    state = mid_game("palais_royal", 4, seed=5, steps=240)
    policy = RolloutPolicy(1)
    while len(state.legal_actions()) <= 8:  # on to a Stairway move, where the order decides the candidates
        state.apply(policy.choose(state))
    legal = state.legal_actions()
    ranked = ranked_search.rollout_policy.ranked(state)
    favourite = hard.root_candidates(state, legal, 8)[0]
    assert ranked_search.root_candidates(state, legal, 8) == [favourite, *[a for a in ranked if a != favourite][:7]]
    assert hard.root_candidates(state, legal, 8) == [favourite, *[a for a in legal if a != favourite][:7]]
    assert ranked_search.root_candidates(state, legal, 8) != hard.root_candidates(state, legal, 8)


def test_expert_with_a_worker_process_keeps_its_budget() -> None:
    """One worker process beside this one (its pool is made once and kept): a legal action within the
    budget plus the grace for the worker's reply, with both searches' iterations."""
    state = mid_game("citadels", 4, seed=4, steps=12)
    bot = ExpertBot(1, processes=1, time_limit=0.4)
    bot.choose(state.clone())  # starts the pool
    started = time.perf_counter()
    action = bot.choose(state)
    assert time.perf_counter() - started < 0.4 + 0.3 + 0.1
    assert action in state.legal_actions()
    alone = ExpertBot(1, processes=0, time_limit=0.4)
    alone.choose(state)
    assert bot.last_iterations > 0 and alone.last_iterations > 0
