"""How well Caylus searches choose, against exact values: the regret test of docs/bots.md ("Caylus: what
changed"), which this script reproduces (``bench/decision_regret.py`` is the general tool, for every game,
with values averaged over many rollouts where chance plays a part; Caylus needs one).

    python bench/caylus_regret.py --repeats 2          # hard, hard with rollouts to the end, the heuristic
    python bench/caylus_regret.py --setting hard= --setting cut30=rollout_cutoff:30,rollout_boundary:None

Caylus hides nothing and draws nothing after the setup, and its heuristic breaks ties by 1e-6 only, so
a heuristic rollout to the end from a position is *the* value of that position under heuristic play.
Positions: seeds 300, 301, … (4 players), each at 5–95% of that seed's heuristic game (spread evenly
over the positions). Every legal move of a position is valued by playing it and then the heuristic for
every seat to the end (the reward the search uses: ``outcome_rewards``, win weight 0.7). Each setting
then decides once per position, a search with ``--budget`` seconds of its thread's CPU time (so the
machine's load does not tilt the comparison), and its regret is the best move's value minus the
chosen one's. Prints per setting the mean regret ± its standard error, how often it chose a best move,
its iterations per CPU second, and its mean paired difference from the first setting.

A setting is ``name=key:value,key:value`` of ``hard_bot`` overrides (values as Python literals, e.g.
``rollout_cutoff:60``, nothing after ``=`` for the hard level as it is); ``medium`` is the heuristic alone.
The default: ``hard=``, ``end=rollout_cutoff:None,rollout_boundary:None`` and ``medium``.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import time
from pathlib import Path
from typing import Any

from meeple import load_game
from meeple.bots import RolloutPolicy, hard_bot
from meeple.bots.heuristics.caylus import HeuristicBot
from meeple.bots.ismcts import outcome_rewards
from meeple.core.contract import GameState

FIRST_SEED = 300


def positions(count: int) -> list[GameState[Any]]:
    """``count`` 4-player positions with more than one legal move, the i-th from seed 300 + i at
    5% + 90% · i / (count − 1) of its heuristic game."""
    game = load_game("caylus")
    found: list[GameState[Any]] = []
    for index in range(count):
        seed = FIRST_SEED + index
        policy = RolloutPolicy(seed)
        full = game.new_game(players=4, seed=seed)
        length = 0
        while not full.is_over:
            full.apply(policy.choose(full))
            length += 1
        share = 0.05 + 0.9 * index / max(1, count - 1)
        stop = int(length * share)
        state = game.new_game(players=4, seed=seed)
        policy = RolloutPolicy(seed)
        steps = 0
        while not state.is_over and (steps < stop or len(state.legal_actions()) < 2):
            state.apply(policy.choose(state))
            steps += 1
        found.append(state)
    return found


def exact_values(state: GameState[Any], seed: int) -> dict[str, float]:
    """Every legal move's value for the seat to move: the move, then the heuristic for every seat to the end."""
    seat = state.current_player
    assert seat is not None
    values: dict[str, float] = {}
    for action in state.legal_actions():
        world = state.clone()
        world.apply(action)
        policy = HeuristicBot(f"{seed}/exact")
        while not world.is_over:
            world.apply(policy.choose(world))
        values[str(action)] = outcome_rewards(world, 0.7)[seat]
    return values


def parse_setting(text: str) -> tuple[str, dict[str, Any] | None]:
    name, _, rest = text.partition("=")
    if name == "medium":
        return name, None
    overrides: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition(":")
        overrides[key] = ast.literal_eval(value)
    return name, overrides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--budget", type=float, default=0.5, help="CPU seconds per search (default 0.5)")
    parser.add_argument("--setting", action="append", default=[],
                        help="name=key:value,… of hard_bot overrides; 'medium' is the heuristic alone")
    parser.add_argument("--values", type=Path, default=None,
                        help="a JSON file keeping the exact values between runs (made if missing)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="searches per position and setting, with seeds 300 + i, 1300 + i, …; the regret averaged")
    parser.add_argument("--out", type=Path, default=None, help="a JSON file for each setting's regret per position")
    args = parser.parse_args()
    default = ["hard=", "end=rollout_cutoff:None,rollout_boundary:None", "medium"]
    settings = [parse_setting(s) for s in (args.setting or default)]
    found = positions(args.positions)
    if args.values is not None and args.values.exists():
        values = json.loads(args.values.read_text())
    else:
        values = [exact_values(state, FIRST_SEED + index) for index, state in enumerate(found)]
        if args.values is not None:
            args.values.write_text(json.dumps(values))
    regrets: dict[str, list[float]] = {}
    for name, overrides in settings:
        mine: list[float] = []
        best_count = 0
        iterations = 0
        cpu = 0.0
        for index, state in enumerate(found):
            total = 0.0
            for repeat in range(args.repeats):
                seed = FIRST_SEED + 1000 * repeat + index
                bot: Any = HeuristicBot(f"{seed}/medium") if overrides is None else hard_bot(
                    seed, **{"time_limit": args.budget, "budget_clock": "cpu", **overrides})
                started = time.thread_time()
                action = bot.choose(state.clone())
                cpu += time.thread_time() - started
                iterations += getattr(bot, "last_iterations", 0)
                value = values[index]
                regret = max(value.values()) - value[str(action)]
                total += regret
                best_count += regret <= 1e-9
            mine.append(total / args.repeats)
        regrets[name] = mine
        mean = sum(mine) / len(mine)
        error = math.sqrt(sum((r - mean) ** 2 for r in mine) / (len(mine) - 1) / len(mine))
        line = f"{name}: regret {mean:.3f} ± {error:.3f}, best {best_count} of {len(mine) * args.repeats}"
        if overrides is not None:
            line += f", {iterations / cpu if cpu else 0.0:.0f} iterations per CPU second"
        first = settings[0][0]
        if name != first:
            differences = [a - b for a, b in zip(mine, regrets[first], strict=True)]
            d_mean = sum(differences) / len(differences)
            d_error = math.sqrt(sum((d - d_mean) ** 2 for d in differences) / (len(differences) - 1)
                                / len(differences))
            line += f"; against {first}: {d_mean:+.3f} ± {d_error:.3f}"
        print(line, flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(regrets))


if __name__ == "__main__":
    main()
