"""The budget clock: a search under ``budget_clock="cpu"`` keeps its time budget in the CPU time of its
own thread, so a loaded machine does not weaken it; an iteration budget plays the same on either clock;
tournaments hand the clock to every game, in worker processes and on Ray alike."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from meeple.bots import HardBot, ISMCTSBot, make_bot
from meeple.bots.expert import ExpertBot
from meeple.core.registry import GAME_CLASSES
from tests.bots.walks import mid_game
from tests.core.toy_game import Toy

pinning = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")

BUDGET = 0.3


@contextmanager
def sharing_one_core(spinners: int = 1) -> Iterator[None]:
    """This process pinned to one core together with ``spinners`` processes that spin on it: the search
    gets at most 1 / (spinners + 1) of that core, whatever else the machine runs."""
    original = os.sched_getaffinity(0)
    core = min(original)
    os.sched_setaffinity(0, {core})
    spinning = [subprocess.Popen([sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{core}}})\n"
                                  "while True: pass"]) for _ in range(spinners)]
    try:
        time.sleep(0.2)  # the spinners are up and pinned
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()
        os.sched_setaffinity(0, original)


def timed_choice(bot: Any, state: Any) -> tuple[float, float]:
    """(elapsed seconds, this thread's CPU seconds) of one decision, with the cyclic garbage collector
    paused as the search pauses it when its thread is the process's only one: under pytest-timeout's
    timer thread the search leaves it on, and a collection after the last clock reading once took a
    0.02 s decision 7 µs past its budget."""
    paused = gc.isenabled()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.thread_time()
        bot.choose(state)
        return time.perf_counter() - wall, time.thread_time() - cpu
    finally:
        if paused:
            gc.enable()


@pinning
def test_a_cpu_clock_search_keeps_its_budget_in_cpu_time_while_another_process_spins() -> None:
    state = Toy().new_game(players=4, seed=2)
    with sharing_one_core():
        on_wall = timed_choice(ISMCTSBot(seed=1, iterations=None, time_limit=BUDGET), state)
        on_cpu = timed_choice(ISMCTSBot(seed=1, iterations=None, time_limit=BUDGET, budget_clock="cpu",
                                        stop_when_settled=False), state)  # the whole budget, settled or not
    # elapsed time: the budget is kept in elapsed time, of which the spinner took about half
    assert on_wall[0] <= BUDGET * 1.1 and on_wall[1] <= BUDGET * 0.75
    # CPU time: the search had all of its budget of CPU time (it stops at 97% of it, less its slowest
    # step), and waited for it in elapsed time
    assert BUDGET * 0.9 <= on_cpu[1] <= BUDGET
    assert on_cpu[0] >= BUDGET * 1.4


def test_short_cpu_clock_searches_stop_within_their_budget() -> None:
    """Once a reading of the CPU clock finds the budget spent, the checks in between readings say so
    too: a search does not start another iteration after its rollout was cut."""
    state = Toy().new_game(players=4, seed=2)
    budget = 0.02
    for seed in range(10):
        bot = ISMCTSBot(seed=seed, iterations=None, time_limit=budget, budget_clock="cpu")
        cpu = timed_choice(bot, state)[1]
        assert cpu <= budget, (seed, cpu)


@pinning
def test_hard_on_the_cpu_clock_gets_its_cpu_time_in_a_long_caylus_rollout_while_loaded() -> None:
    """Rollouts of hundreds of actions, the clock read only every half millisecond: still within budget."""
    state = mid_game("caylus", 4, seed=5, steps=30)
    bot = make_bot("hard", 1, budget_clock="cpu")
    assert isinstance(bot, HardBot)
    search = bot.search_for("caylus")
    search.time_limit = BUDGET
    search.rollout_cutoff = None  # rollouts to the very end (hard cuts Caylus' at a late turn's start)
    search.stop_when_settled = False  # the whole budget, settled or not
    bot.choose(state.clone())  # the first decision imports the game's heuristic module
    with sharing_one_core():
        elapsed, cpu = timed_choice(bot, state)
    assert BUDGET * 0.9 <= cpu <= BUDGET
    assert elapsed >= BUDGET * 1.4


@pinning
def test_the_expert_on_the_cpu_clock_waits_for_its_cpu_time_and_its_worker() -> None:
    state = mid_game("citadels", 4, seed=4, steps=12)
    bot = ExpertBot(1, processes=1, time_limit=BUDGET, budget_clock="cpu")
    assert bot.search_for("citadels").budget_clock == "cpu"
    bot.choose(state.clone())  # starts the worker pool (before this process is pinned)
    alone = ExpertBot(1, processes=0, time_limit=BUDGET, budget_clock="cpu")
    with sharing_one_core():
        elapsed, cpu = timed_choice(bot, state)
        timed_choice(alone, state)
    assert BUDGET * 0.9 <= cpu <= BUDGET and elapsed >= BUDGET * 1.4
    assert bot.last_iterations > alone.last_iterations  # the worker's search was added


@pytest.mark.parametrize("name", ["citadels", "caylus"])
def test_an_iteration_budget_plays_the_same_on_either_clock(name: str) -> None:
    state = mid_game(name, 4, seed=3, steps=20)
    searches = [make_bot("hard", 11) if clock is None else make_bot("hard", 11, budget_clock=clock)
                for clock in (None, "wall", "cpu")]
    results = []
    for bot in searches:
        assert isinstance(bot, HardBot)
        search = bot.search_for(name)
        search.iterations, search.time_limit = 24, None
        statistics = search.search(state.clone())
        results.append((search.decide(statistics), statistics.visits, statistics.rewards))
    assert results[0] == results[1] == results[2]


def test_an_unknown_budget_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown budget clock 'gpu'; available: wall, cpu"):
        ISMCTSBot(iterations=10, budget_clock="gpu")
    with pytest.raises(ValueError, match="unknown budget clock"):
        make_bot("medium", 1, budget_clock="gpu")
    from meeple.tournament import run_tournament

    with pytest.raises(ValueError, match="unknown budget clock"):
        run_tournament("citadels", ["easy", "easy"], 1, budget_clock="gpu")


def test_levels_without_a_time_budget_are_the_same_bots_on_either_clock() -> None:
    for level in ("easy", "medium"):
        assert type(make_bot(level, 1, budget_clock="cpu")) is type(make_bot(level, 1))
    for clock in ("wall", "cpu"):
        hard = make_bot("hard", 1, budget_clock=clock)
        assert isinstance(hard, HardBot) and hard.search_for("citadels").budget_clock == clock


@pytest.fixture
def toy_registered() -> Iterator[None]:
    added = "toy" not in GAME_CLASSES
    GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")
    yield
    if added:
        del GAME_CLASSES["toy"]


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("runner", ["here", "workers", "ray"])
def test_a_tournament_hands_its_clock_to_every_game(runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every job carries the clock, whichever runner plays it (the runners call
    ``play_tournament_game(*job)``), and the summary says which clock the budgets were on."""
    from meeple import tournament

    seen: list[str] = []

    def runner_spy(jobs: Any, *args: Any, **kwargs: Any) -> None:
        for job in jobs:
            seen.append(job[5])

    def ray_spy(address: str, jobs: Any, *args: Any, **kwargs: Any) -> None:
        runner_spy(jobs)

    monkeypatch.setattr(tournament, "_play_here", runner_spy)
    monkeypatch.setattr(tournament, "_play_in_workers", runner_spy)
    monkeypatch.setattr(tournament, "_play_on_ray", ray_spy)
    result = tournament.run_tournament("toy", ["hard", "easy"], 3, workers=1 if runner == "here" else 2,
                                       ray_address=tournament.LOCAL_RAY if runner == "ray" else None,
                                       budget_clock="cpu")
    assert seen == ["cpu"] * 3
    assert result.to_json()["budget_clock"] == "cpu"


@pytest.mark.usefixtures("toy_registered")
def test_a_tournament_game_seats_its_searches_on_the_clock_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple import tournament

    made: list[Any] = []

    def make_and_keep(kind: str, seed: int | str = 0, budget_clock: str = "wall") -> Any:
        bot = make_bot(kind, seed, budget_clock)
        made.append(bot)
        return bot

    monkeypatch.setattr(tournament, "make_bot", make_and_keep)
    for clock in ("wall", "cpu"):
        made.clear()
        job: tournament.Job = ("toy", ["hard", "easy"], 0, 5, {}, clock)
        tournament.play_tournament_game(*job)
        hard = next(bot for bot in made if isinstance(bot, HardBot))
        assert hard.search_for("toy").budget_clock == clock


def test_medium_and_easy_play_the_same_tournament_on_either_clock() -> None:
    from meeple.tournament import run_tournament

    on_wall = run_tournament("citadels", ["medium", "easy", "easy"], 3, seed=3, workers=1)
    on_cpu = run_tournament("citadels", ["medium", "easy", "easy"], 3, seed=3, workers=1, budget_clock="cpu")
    assert [(r.scores, r.ranks) for r in on_wall.records] == [(r.scores, r.ranks) for r in on_cpu.records]
