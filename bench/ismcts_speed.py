"""ISMCTS iterations per second per game, and whether the time budget per decision is honoured.

    python bench/ismcts_speed.py                       # the "hard" settings and budgets, 4 players
    python bench/ismcts_speed.py caylus --budget 0.5 --positions 3
    python bench/ismcts_speed.py --busy 2              # two spinning processes load the machine meanwhile
    python bench/ismcts_speed.py --budget-clock cpu    # budgets in the search thread's CPU time
    python bench/ismcts_speed.py caylus --set rollout_cutoff=30   # a change to the hard level's settings

For each game, a few mid-game positions are reached by letting the game's heuristic bot (random where
there is none) play every seat from seeds 1, 2, …, stopping after a fraction of the game's typical
length; the "hard" ISMCTS then decides once per position under a wall-clock budget. Prints one line
per game: ``<game> 4p: <iterations per CPU second> iterations/s CPU, <per wall second> wall,
<rollouts per CPU second> rollouts/s CPU (<n> decisions), max overshoot <x>%``. The CPU figure
(iterations over the process's CPU time during the decisions) is the one to compare across runs: the
wall figure falls when other programs load the machine, the CPU one much less. Rollouts are fewer
than iterations where the search hands a rollout down the tree. The overshoot is the worst decision's,
of its budget on the budget's clock: elapsed time by default, the searching thread's CPU time with
``--budget-clock cpu`` (each decision then gets its budget of CPU time however loaded the machine is,
so the iterations per decision compare across runs too).
"""

from __future__ import annotations

import argparse
import ast
import multiprocessing
import time
from typing import Any

from meeple import game_names, load_game
from meeple.bots import RolloutPolicy, hard_bot
from meeple.core.contract import GameState

GAMES = ("citadels", "burgundy", "caylus", "palais_royal")


def positions(name: str, players: int, count: int) -> list[GameState[Any]]:
    """``count`` positions at 20%, 40%, 60%, … of a policy-played game's length, one seed each."""
    game = load_game(name)
    found: list[GameState[Any]] = []
    for index in range(count):
        seed = index + 1
        policy = RolloutPolicy(seed)
        full = game.new_game(players=players, seed=seed)
        length = 0
        while not full.is_over and length < 5000:
            full.apply(policy.choose(full))
            length += 1
        stop = max(1, length * (2 + 2 * index % 7) // 10)
        state = game.new_game(players=players, seed=seed)
        policy = RolloutPolicy(seed)
        steps = 0
        while not state.is_over and (steps < stop or len(state.legal_actions()) < 2):
            state.apply(policy.choose(state))
            steps += 1
        if not state.is_over:
            found.append(state)
    return found


def measure(name: str, players: int, budget: float | None, count: int, budget_clock: str = "wall",
            changes: dict[str, Any] | None = None,
            per_position: bool = False) -> tuple[float, float, float, float, int, float]:
    """(iterations per CPU second, per wall second, rollouts really played per CPU second, the budget,
    decisions, worst overshoot of the budget in % on ``budget_clock``); ``budget`` ``None`` is the hard
    level's own budget for the game; ``changes`` override the hard level's settings; ``per_position``
    prints each decision's turn and iterations per CPU second too (the figure is their mean, so the
    positions where iterations are cheapest weigh most in it). Rollouts are fewer than iterations where
    the search hands a rollout down the tree."""
    if budget is None:
        budget = float(hard_bot(1).search_for(name).time_limit or 1.0)
    iterations = 0
    rollouts = 0
    seconds = 0.0
    cpu_seconds = 0.0
    worst = -100.0
    decisions = 0
    found = positions(name, players, count)
    hard_bot(1, time_limit=0.05).choose(found[0].clone())  # imports and warms up the game's modules
    for state in found:
        bot = hard_bot(1, time_limit=budget, **({} if budget_clock == "wall" else {"budget_clock": budget_clock}),
                       **(changes or {}))
        started, cpu_started, thread_started = time.perf_counter(), time.process_time(), time.thread_time()
        bot.choose(state)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        spent = elapsed if budget_clock == "wall" else time.thread_time() - thread_started
        iterations += bot.last_iterations
        rollouts += getattr(bot, "last_rollouts", bot.last_iterations)
        seconds += elapsed
        cpu_seconds += cpu
        worst = max(worst, 100.0 * (spent - budget) / budget)
        decisions += 1
        if per_position:
            print(f"  {name} position {decisions} (turn {getattr(state, 'turn', '?')}): "
                  f"{bot.last_iterations / cpu if cpu else 0.0:.0f} iterations/s CPU", flush=True)
    per_cpu = 1.0 / cpu_seconds if cpu_seconds else 0.0
    return iterations * per_cpu, (iterations / seconds if seconds else 0.0), rollouts * per_cpu, budget, \
        decisions, worst


def _spin() -> None:
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games to measure (default: citadels burgundy caylus palais_royal)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per decision (default: the hard level's for each game)")
    parser.add_argument("--positions", type=int, default=4, help="mid-game positions per game (default 4)")
    parser.add_argument("--busy", type=int, default=0,
                        help="processes that spin on the CPU during the run, to measure a busy machine")
    parser.add_argument("--budget-clock", choices=("wall", "cpu"), default="wall",
                        help="how the budget is measured: elapsed time (default) or the search thread's CPU time")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a change to the hard level's settings, the value a Python literal (repeatable)")
    parser.add_argument("--per-position", action="store_true", help="also each position's iterations per CPU second")
    args = parser.parse_args()
    changes = {key: ast.literal_eval(value) for key, _, value in (item.partition("=") for item in args.set)}
    available = set(game_names())
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.busy)]
    for spinner in spinners:
        spinner.start()
    try:
        for name in args.games or [g for g in GAMES if g in available]:
            cpu_rate, rate, rollout_rate, budget, decisions, worst = measure(name, args.players, args.budget,
                                                                             args.positions, args.budget_clock,
                                                                             changes, args.per_position)
            print(f"{name} {args.players}p: {cpu_rate:.0f} iterations/s CPU, {rate:.0f} wall, "
                  f"{rollout_rate:.0f} rollouts/s CPU ({decisions} decisions), "
                  f"max overshoot {max(0.0, worst):.1f}% of {budget:g} s {args.budget_clock}", flush=True)
    finally:
        for spinner in spinners:
            spinner.terminate()


if __name__ == "__main__":
    main()
