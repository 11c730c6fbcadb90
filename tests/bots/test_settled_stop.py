"""A search under a time budget stops once no iterations the rest of its budget could run would change
its choice: it fires where one action dominates, never under an iteration budget, chooses what the
full budget chooses with the same seed, keeps its budget, and can be turned off."""

from __future__ import annotations

import time
from typing import Any

import pytest

from meeple.bots import HARD_SETTINGS, ISMCTSBot, RandomBot, hard_bot
from meeple.bots.expert import ExpertBot
from meeple.core.rng import Rng
from tests.bots.walks import mid_game
from tests.core.toy_game import Toy

#: A toy position where playing the 9 beats everything else by far (3 players, the bot holds 5 and 9).
DOMINATED = (3, 5)
#: Toy positions with closer choices, where the search may or may not settle.
TOY_POSITIONS = [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (3, 0), (3, 1), (3, 4), DOMINATED]


def toy(players: int, seed: int) -> Any:
    return Toy().new_game(players=players, seed=seed)


def timed_search(seed: int = 1, budget: float = 0.25, **settings: Any) -> ISMCTSBot:
    return ISMCTSBot(seed=seed, iterations=None, time_limit=budget, budget_clock="cpu", **settings)


def test_a_time_budget_stops_once_the_runner_up_cannot_catch_up() -> None:
    """Here it stops at about 70% of the budget, where the lead passes the bound. The bound takes the
    faster of two rates (the whole search's, the last stretch's), and on a busy machine the CPU time an
    iteration takes can swing, so the crossing can come late enough for the deadline's own stop to come
    first (a CI run, 2026-11-28): up to three decisions, each choosing the 9, until one stops early."""
    state = toy(*DOMINATED)
    for _ in range(3):
        bot = timed_search()
        action = bot.choose(state.clone())
        assert action == "play:9"
        if bot.last_stopped_early:
            break
    settled = bot.last_settled
    assert bot.last_stopped_early and settled is not None
    assert action == settled.leader == "play:9"
    assert settled.iterations == bot.last_iterations  # it stopped where it found the choice settled
    assert settled.lead > settled.bound > 1.0
    assert settled.spent < 0.97 * 0.25



def test_trees_of_a_bounded_size_stop_between_trees_once_their_sum_is_settled() -> None:
    """No tree stops on its own lead (it says nothing of the sum's), but between trees the sum is looked
    at against the whole budget's remaining iterations: up to three decisions, as above."""
    state = toy(*DOMINATED)
    for _ in range(3):
        bot = timed_search(budget=1.0, tree_budget=0.1)
        started = bot.clock()
        statistics = bot.search(state.clone())
        spent = bot.clock() - started
        assert bot.decide(statistics) == "play:9"
        if statistics.stopped_early:
            break
    settled = statistics.settled
    assert statistics.stopped_early and settled is not None and settled.leader == "play:9"
    assert settled.iterations == statistics.iterations == sum(statistics.visits.values())
    assert settled.lead > settled.bound and 2 <= bot.last_trees < 10 and spent < 0.97

class StopTally:
    """Settled points of pairs of searches with one seed and budget, the stop off (``full``) and on
    (``early``), and whether each was a promise kept.

    The same seed grows the same tree up to a settled point, so where the full run went on past it by no
    more iterations than the point's bound allowed, the full run's choice must be the point's leader. A
    budget of CPU time holds more or fewer iterations from run to run, and the bound is the rate so far
    times the time left: on a machine whose load changes mid-search the full run may outrun it (a CI run
    beside two tournaments once saw it, and the leader change), so only a covered point is a promise, and
    most points must be covered."""

    def __init__(self) -> None:
        self.points = self.covered = self.stops = 0

    def add(self, full: Any, full_choice: Any, early: Any, early_choice: Any) -> None:  # ISMCTSBot or HardBot
        if early.last_stopped_early:
            self.stops += 1
            assert early.last_settled is not None and early.last_settled.iterations == early.last_iterations
            assert str(early.last_settled.leader) == str(early_choice)
        for run in (full, early):
            settled = run.last_settled
            if settled is None or settled.iterations > full.last_iterations:  # the full run never got there
                continue
            self.points += 1
            if full.last_iterations - settled.iterations <= settled.bound:
                self.covered += 1
                assert str(settled.leader) == str(full_choice)

    def check(self, stops: int) -> None:
        assert self.stops >= stops and self.points >= 1 and self.covered >= self.points / 2


def test_the_stopped_choice_is_the_full_budget_choice_with_the_same_seed() -> None:
    tally = StopTally()
    for players, seed in TOY_POSITIONS:
        full = timed_search(seed=seed, stop_when_settled=False)
        full_choice = full.choose(toy(players, seed))
        early = timed_search(seed=seed)
        tally.add(full, full_choice, early, early.choose(toy(players, seed)))
    tally.check(stops=3)


def test_hard_stops_with_the_choice_of_its_full_budget() -> None:
    """Citadels, where most choices settle before the budget's end (docs/bots.md)."""
    tally = StopTally()
    for seed in (1, 2, 3, 4):
        state = mid_game("citadels", 4, seed=seed, steps=20 + 15 * seed)
        full = hard_bot(seed, time_limit=0.4, budget_clock="cpu", stop_when_settled=False)
        full_choice = full.choose(state.clone())
        early = hard_bot(seed, time_limit=0.4, budget_clock="cpu")
        tally.add(full, full_choice, early, early.choose(state.clone()))
    tally.check(stops=1)


def test_an_iteration_budget_runs_every_iteration_even_when_settled() -> None:
    state = toy(*DOMINATED)
    for time_limit in (None, 5.0):
        bot = ISMCTSBot(seed=1, iterations=1500, time_limit=time_limit)
        bot.choose(state)
        assert bot.last_iterations == 1500
        assert bot.last_settled is None and not bot.last_stopped_early
    on = ISMCTSBot(seed=1, iterations=600).search(state)
    off = ISMCTSBot(seed=1, iterations=600, stop_when_settled=False).search(state)
    assert on.visits == off.visits and on.rewards == off.rewards


def test_hard_with_an_iteration_budget_plays_as_without_the_stop() -> None:
    state = mid_game("citadels", 4, seed=2, steps=50)
    on = hard_bot(3, iterations=60, time_limit=None).search_for("citadels").search(state)
    off = hard_bot(3, iterations=60, time_limit=None, stop_when_settled=False).search_for("citadels").search(state)
    assert on.iterations == off.iterations == 60
    assert on.visits == off.visits and on.settled is None


@pytest.mark.parametrize("players, seed", TOY_POSITIONS)
def test_a_search_that_may_stop_early_still_keeps_its_wall_clock_budget(players: int, seed: int) -> None:
    """The best of three decisions, so that a moment the scheduler takes the process away on a busy machine
    (a CI run beside other work overshot once by 86 ms) does not count against the search's own stop."""
    taken = []
    for _ in range(3):
        bot = ISMCTSBot(seed=seed, iterations=None, time_limit=0.1)
        started = time.perf_counter()
        bot.choose(toy(players, seed))
        taken.append(time.perf_counter() - started)
    assert min(taken) <= 0.1 * 1.1


def test_the_option_turns_the_stop_off_and_still_records_where_it_would_have_stopped() -> None:
    bot = timed_search(stop_when_settled=False)
    bot.choose(toy(*DOMINATED))
    settled = bot.last_settled
    assert not bot.last_stopped_early and settled is not None
    assert bot.last_iterations > settled.iterations
    assert HARD_SETTINGS["stop_when_settled"] is True
    assert hard_bot(1).search_for("caylus").stop_when_settled
    assert not hard_bot(1, stop_when_settled=False).search_for("caylus").stop_when_settled


def test_the_hard_level_reports_whether_its_last_search_stopped_early() -> None:
    bot = hard_bot(1, time_limit=0.3, budget_clock="cpu")
    assert bot.last_settled is None and not bot.last_stopped_early
    state = mid_game("citadels", 4, seed=2, steps=50)
    bot.choose(state)
    search = bot.search_for("citadels")
    assert bot.last_stopped_early == search.last_stopped_early
    assert bot.last_settled == search.last_settled


class PassesFirst:
    """Passes, and ranks its highest card next: a policy whose own choice loses where a pass ends the game."""

    def choose(self, state: Any) -> Any:
        return state.legal_actions()[-1]

    def ranked(self, state: Any) -> list[Any]:
        legal = list(state.legal_actions())
        return [legal[-1], *reversed(legal[:-1])]


def test_a_paired_root_stops_once_its_winner_cannot_change() -> None:
    """Seat 0 has passed, so a pass of seat 1 (holding 6 and 9) ends the game, which seat 0 wins on the
    tie: the paired root overrules the policy's pass for the 9 in nearly every world, and is sure of it
    well before its budget's end (at about 70% of it), clear of the deadline's own stop at 97% of it. (A
    close choice is sure only in the budget's last few hundredths, where that stop can come first.) Up to
    three decisions, each choosing the 9, until one stops early: on a busy machine (a CI run, 2026-11-28)
    the CPU time a world takes can grow in the budget's second half, and the deadline's stop came first."""
    state = toy(2, 4)
    state.apply("pass")
    for _ in range(3):
        bot = timed_search(rollout_policy=PassesFirst(), paired_root=2, budget=0.3)
        assert bot.choose(state.clone()) == "play:9"
        if bot.last_stopped_early:
            break
    settled = bot.last_settled
    assert bot.last_stopped_early and settled is not None
    assert settled.leader == "play:9"
    assert settled.spent < 0.9 * 0.3


def test_a_paired_root_names_a_sure_winner_only_when_no_remaining_worlds_can_change_it() -> None:
    """Worlds of three candidates, then ``left`` more worlds of extreme rewards (the worst for the sure
    winner among them): wherever a sure winner is named, the paired winner after them is still it."""
    rng = Rng(7)
    bot = ISMCTSBot(seed=1, iterations=None, time_limit=1.0, rollout_policy=RandomBot(1), paired_root=3,
                    paired_z=1.0, paired_margin=0.01)
    named = [0, 0]  # the policy's choice, another candidate
    for case in range(300):
        edge = [0.0, 0.3 * rng.random(), 0.3 * rng.random()] if case % 2 else [0.3 * rng.random(), 0.0, 0.0]
        per_world = [[min(1.0, max(0.0, 0.4 * rng.random() + edge[index])) for index in range(3)]
                     for _ in range(rng.randint(2, 60))]
        totals = [sum(rewards[index] for rewards in per_world) for index in range(3)]
        left = rng.randint(0, 8)
        winner = bot.paired_sure_winner(per_world, totals, left)
        if winner is None:
            continue
        named[winner != 0] += 1
        assert bot._paired_winner(per_world, 3) == winner
        for extra in range(1, left + 1):
            for _ in range(4):
                worlds = [[float(rng.randint(0, 1)) for _ in range(3)] for _ in range(extra)]
                for rewards in worlds[: rng.randint(0, extra)]:  # some of them the worst for the winner
                    rewards[:] = [1.0, 1.0, 1.0]
                    rewards[winner] = 0.0
                assert bot._paired_winner(per_world + worlds, 3) == winner
    assert named[0] >= 20 and named[1] >= 10


def test_an_expert_with_workers_runs_its_whole_budget_and_alone_stops_as_hard_does() -> None:
    """A share of a root-parallel search cannot see the others' visits, so it never stops early."""
    alone_stopped = 0
    for seed in (1, 2, 3):
        state = mid_game("citadels", 4, seed=seed, steps=20 + 15 * seed)
        alone = ExpertBot(1, processes=0, time_limit=0.4, budget_clock="cpu")
        alone.choose(state.clone())
        assert alone.last_stopped_early == alone.search_for("citadels").last_stopped_early
        alone_stopped += alone.last_stopped_early
        shared = ExpertBot(1, processes=1, time_limit=0.4, budget_clock="cpu")
        shared.choose(state.clone())
        assert not shared.last_stopped_early and not shared.search_for("citadels").last_stopped_early
    assert alone_stopped >= 1
