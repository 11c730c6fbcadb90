"""How good the hard level's decisions are, per search setting: the regret of its choice against actions
valued by many heuristic rollouts from the true state.

    python bench/decision_regret.py citadels --games 40 --per-game 4 --rollouts 48 \\
        --setting 'cut20={"rollout_cutoff": 20}' --setting 'paired={"paired_root": 3, "paired_z": 1.0}'
    python bench/decision_regret.py citadels --gold /tmp/gold.json --setting ...   # reuse the values

Positions: games of the game's heuristic on every seat, ``--games`` of them from seed ``--first-game``
(1); in each, ``--per-game`` decisions with a real choice (two or more legal actions), one drawn at
random in each equal slice of the game's length. Values ("gold"): every legal action (the heuristic's
``--max-actions`` best where there are more) is applied to a clone of the *true* state and played to the
end by the heuristic on every seat, ``--rollouts`` times; rollout r of every action uses the same future
chance (the state's generator reseeded) and the same heuristic seed, so the actions are compared on
common random numbers. The reward is the search's own: 0.7 × win share + 0.3 × the score margin in
[0, 1]; ``--value-win-weight W`` values the actions as W × win share + (1 − W) × margin instead (1: the win
share alone, what a tournament counts, to compare searches that maximise different rewards fairly).
The true hidden state is a sample from the seat's real posterior (the game dealt it so), so over
many positions the regret of a choice against these values is an unbiased measure of its quality,
although the search only sees the seat's information set. With ``--gold FILE`` the values are saved
there the first time and read back after (the positions are replayed from their seeds, so the file must
match ``--games``, ``--first-game``, ``--per-game``, ``--players``, ``--max-actions`` and
``--rollouts``; a file keeps each action's mean win share and margin, so any ``--value-win-weight``
reads the same file; one holding only the 0.7 values serves only the default). A file written before
the heuristic ranked its actions otherwise keeps its own candidates (the same heuristic choice first),
so settings are still compared on the same values.

Each setting (``NAME=JSON``: changes to the hard level's settings for the game, and ``"omniscient": true``
for a search whose every world is the true state, what perfect inference would give; a ``"time_limit"`` of
its own replaces ``--budget``, e.g. the expert's 4.5 s; ``base`` is always run first, unchanged) then
decides every position once, with ``--budget`` seconds of the searching thread's CPU time (the
``--budget-clock cpu`` of tournaments, so the machine's load cannot tilt the comparison) and seed = the
position's number. Printed per setting: the mean regret ± its standard error, how often it chose the
best-valued action, the mean iterations a decision, the mean paired difference of regret against ``base``
± its standard error (negative: better than base), and the mean regret per kind of action (the action's
name up to its first ``:``). The heuristic's own choice (``medium``) is listed too. A choice outside the
candidates is charged the worst candidate's regret, or with ``--value-others`` what it is worth on the
same common playouts (0 if it beats every candidate). ``--out FILE`` keeps every setting's regret and
chosen action per position (rewritten after each setting); ``--reuse FILE`` takes the choices of the
settings such a file holds instead of searching again (base, when only a new setting is to be compared
with it). ``--workers`` searches positions in parallel processes (the CPU clock keeps them comparable).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple import load_game
from meeple.bots import RolloutPolicy, build_search
from meeple.bots.ismcts import margin_evaluation, outcome_rewards
from meeple.core.contract import GameState
from meeple.core.rng import Rng

WIN_WEIGHT = 0.7  # the hard level's reward: by default the values are in the units the search maximises


@dataclass
class Position:
    """A decision of a heuristic game: the true state, the candidate actions and their values."""

    number: int
    state: GameState[Any]
    candidates: list[Any]
    heuristic_choice: Any
    values: list[float]
    wins: list[float] | None = None  # each candidate's mean win share, and its mean margin in [0, 1]
    margins: list[float] | None = None
    outside: dict[str, float] = field(default_factory=dict)  # values of chosen actions not among the candidates


def sample_positions(name: str, players: int, games: int, per_game: int, max_actions: int,
                     first_game: int = 1) -> list[Position]:
    """``per_game`` decisions of each heuristic game, one at random in each slice of its decisions."""
    game = load_game(name)
    found: list[Position] = []
    for seed in range(first_game, first_game + games):
        state = game.new_game(players=players, seed=seed)
        policy = RolloutPolicy(seed)
        decisions = 0
        moves: list[tuple[bool, Any]] = []
        while not state.is_over:
            real = len(state.legal_actions()) > 1
            decisions += real
            action = policy.choose(state)
            moves.append((real, action))
            state.apply(action)
        rng = Rng(f"positions/{seed}")
        wanted = {decisions * k // per_game + rng.randbelow(max(1, decisions // per_game)) for k in range(per_game)}
        state = game.new_game(players=players, seed=seed)
        policy = RolloutPolicy(seed)
        index = 0
        for real, action in moves:
            if real:
                if index in wanted:
                    ranked = [action, *(a for a in policy.ranked(state) if a != action)]
                    found.append(Position(len(found), state.clone(), ranked[:max_actions], action, []))
                index += 1
            state.apply(action)
    return found


def rollout_outcome(state: GameState[Any], action: Any, seat: int, seed: str) -> tuple[float, float]:
    """(the win share, the score margin in [0, 1]) of ``seat`` after ``action`` and the heuristic on
    every seat to the end, future chance and heuristic ties drawn from ``seed``."""
    world = state.clone()
    if hasattr(world, "rng"):
        world.rng = Rng(f"{seed}/chance")
    world.apply(action)
    policy = RolloutPolicy(f"{seed}/policy")
    while not world.is_over:
        world.apply(policy.choose(world))
    return outcome_rewards(world, 1.0)[seat], margin_evaluation(world)[seat]


def playout_means(position: Position, action: Any, rollouts: int) -> tuple[float, float]:
    """``action``'s mean win share and margin over the position's ``rollouts`` common playouts."""
    seat = position.state.current_player
    assert seat is not None
    outcomes = [rollout_outcome(position.state, action, seat, f"gold/{position.number}/{r}") for r in range(rollouts)]
    return sum(win for win, _ in outcomes) / rollouts, sum(margin for _, margin in outcomes) / rollouts


def value_positions(positions: Sequence[Position], rollouts: int) -> None:
    """Each candidate's mean win share and margin over ``rollouts`` common playouts."""
    for position in positions:
        position.wins, position.margins = [], []
        for action in position.candidates:
            win, margin = playout_means(position, action, rollouts)
            position.wins.append(win)
            position.margins.append(margin)


def weigh(positions: Sequence[Position], win_weight: float) -> None:
    """The values as ``win_weight`` × win share + the rest × margin (the default: the search's reward)."""
    for position in positions:
        if position.wins is None or position.margins is None:
            if win_weight != WIN_WEIGHT:
                raise SystemExit(f"the values hold no win shares: only --value-win-weight {WIN_WEIGHT} reads them")
            continue
        position.values = [win_weight * win + (1.0 - win_weight) * margin
                           for win, margin in zip(position.wins, position.margins, strict=True)]


def load_or_value(positions: Sequence[Position], rollouts: int, path: str | None,
                  win_weight: float = WIN_WEIGHT) -> None:
    """Values from ``path`` if it holds them for these positions, else computed (and saved there), in
    the reward ``win_weight`` × win share + the rest × margin."""
    if path and os.path.exists(path):
        with open(path) as handle:
            saved = json.load(handle)
        if saved["rollouts"] != rollouts or len(saved["values"]) != len(positions):
            raise SystemExit(f"{path} holds values for other positions or rollouts")
        components = saved.get("components")  # per position: (win shares, margins); absent in older files
        for index, (position, (names, values)) in enumerate(zip(positions, saved["values"], strict=True)):
            if names != [str(action) for action in position.candidates]:
                # The same position with candidates ranked otherwise (the heuristic's ranking changed since
                # the file was written): keep the file's, so settings are compared on the same values.
                by_name = {str(action): action for action in position.state.legal_actions()}
                if str(position.heuristic_choice) != names[0] or not all(name in by_name for name in names):
                    raise SystemExit(f"{path} holds values for other positions")
                position.candidates = [by_name[name] for name in names]
            position.values = values
            if components is not None:
                position.wins, position.margins = components[index]
        weigh(positions, win_weight)
        return
    value_positions(positions, rollouts)
    weigh(positions, WIN_WEIGHT)
    if path:
        with open(path, "w") as handle:
            json.dump({"rollouts": rollouts, "values": [
                [[str(action) for action in p.candidates], p.values] for p in positions],
                "components": [[p.wins, p.margins] for p in positions]}, handle)
    weigh(positions, win_weight)


def regret(position: Position, action: Any) -> float:
    """Best value minus the value of ``action`` (an action outside the candidates: the worst's regret,
    unless ``value_outside`` has valued it)."""
    best = max(position.values)
    if action in position.candidates:
        return best - position.values[position.candidates.index(action)]
    if str(action) in position.outside:
        return max(0.0, best - position.outside[str(action)])
    return best - min(position.values)


def value_outside(position: Position, action: Any, rollouts: int, win_weight: float) -> None:
    """Values ``action``, not among the candidates, on the candidates' common playouts (``--value-others``):
    a search that looks beyond the heuristic's best few is then charged what its choice is worth rather
    than the worst candidate's value. Better than every candidate, its regret is 0."""
    if action in position.candidates or str(action) in position.outside:
        return
    win, margin = playout_means(position, action, rollouts)
    position.outside[str(action)] = win_weight * win + (1.0 - win_weight) * margin


_JOB: dict[str, Any] = {}


def _decide(job: tuple[int, str, dict[str, Any]]) -> tuple[int, str, int]:
    """One search of position ``number`` with the setting's changes: (number, action, iterations)."""
    number, game_name, overrides = job
    state = _JOB["positions"][number].state
    changes = dict(overrides)
    if changes.pop("omniscient", False):
        state = omniscient(state)
    search = build_search(game_name, number, {"time_limit": _JOB["budget"], **changes, "budget_clock": "cpu"})
    action = search.choose(state)
    return number, str(action), search.last_iterations


def omniscient(state: GameState[Any]) -> GameState[Any]:
    """A copy of ``state`` whose every determinization is the true state (future chance redrawn): what the
    search would do if it knew the hidden cards and characters, an upper bound on what better worlds
    (inference from the other seats' picks) could give."""
    base = type(state)

    def determinize(self: Any, seat: int | None, rng: Any = None) -> Any:
        world = self.clone()
        if hasattr(world, "rng"):
            world.rng = Rng(rng.randbelow(2**62)) if isinstance(rng, Rng) else Rng(rng)
        return world

    copy = state.clone()
    copy.__class__ = type(f"Omniscient{base.__name__}", (base,), {"determinize": determinize})
    return copy


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def kind(action: Any) -> str:
    return str(action).split(":")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-game", type=int, default=1, help="seed of the first game")
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--max-actions", type=int, default=8)
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--budget", type=float, default=1.0, help="CPU seconds a decision")
    parser.add_argument("--setting", action="append", default=[], help="NAME=JSON changes to the hard settings")
    parser.add_argument("--gold", help="file to save the values to, or read them from")
    parser.add_argument("--value-win-weight", type=float, default=WIN_WEIGHT,
                        help="value actions as W × win share + (1 − W) × margin (default: the search's 0.7)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--value-others", action="store_true",
                        help="value a chosen action outside the candidates on their playouts (else: the worst's)")
    parser.add_argument("--out", help="file to write every setting's regret per position to (JSON)")
    parser.add_argument("--reuse", help="an --out file of the same positions: its settings' choices are taken "
                                        "from it instead of searched again (e.g. base, for a new setting)")
    args = parser.parse_args()
    settings: dict[str, dict[str, Any]] = {"base": {}}
    for text in args.setting:
        name, _, changes = text.partition("=")
        if not name or name in settings:
            raise SystemExit(f"--setting needs a new NAME=JSON, got {text!r}")
        settings[name] = json.loads(changes or "{}")

    started = time.perf_counter()
    positions = sample_positions(args.game, args.players, args.games, args.per_game, args.max_actions,
                                 args.first_game)
    if not 0.0 <= args.value_win_weight <= 1.0:
        raise SystemExit("--value-win-weight must be in [0, 1]")
    load_or_value(positions, args.rollouts, args.gold, args.value_win_weight)
    print(f"{len(positions)} positions valued ({time.perf_counter() - started:.0f} s); load {os.getloadavg()}",
          flush=True)

    by_number = {p.number: p for p in positions}
    heuristic = [regret(p, p.heuristic_choice) for p in positions]
    rows: dict[str, list[float]] = {"medium": heuristic}
    choices: dict[str, list[str]] = {"medium": [str(p.heuristic_choice) for p in positions]}
    iterations_of: dict[str, float] = {}
    reused: dict[str, Any] = {"choices": {}, "iterations": {}}
    if args.reuse:
        with open(args.reuse) as handle:
            reused = json.load(handle)
        if reused["positions"] != choices["medium"]:
            raise SystemExit(f"{args.reuse} holds other positions")
    _JOB.update(positions=positions, budget=args.budget)
    header = f"{'setting':<14} {'regret':>15} {'best':>7} {'iters':>6} {'vs base':>17}  per kind"
    print(header, flush=True)
    kinds = sorted({kind(p.heuristic_choice) for p in positions})
    print("positions per kind of the heuristic's choice:",
          " ".join(f"{k} {sum(kind(p.heuristic_choice) == k for p in positions)}" for k in kinds), flush=True)

    def line(name: str, regrets: list[float], best: int, iterations: float) -> str:
        mean, error = mean_and_error(regrets)
        paired = ""
        if name != "base" and "base" in rows:
            diff, diff_error = mean_and_error([a - b for a, b in zip(regrets, rows["base"], strict=True)])
            paired = f"{diff:+.4f} ± {diff_error:.4f}"
        per_kind = []
        for k in kinds:
            of_kind = [r for r, p in zip(regrets, positions, strict=True) if kind(p.heuristic_choice) == k]
            per_kind.append(f"{k} {mean_and_error(of_kind)[0]:.3f}")
        counts = f"{best:>3}/{len(regrets):<3}"
        return f"{name:<14} {mean:.4f} ± {error:.4f} {counts} {iterations:>6.0f} {paired:>17}  {' '.join(per_kind)}"

    best_heuristic = sum(1 for r in heuristic if r == 0.0)
    print(line("medium", heuristic, best_heuristic, 0), flush=True)
    pool = multiprocessing.get_context("fork").Pool(args.workers) if args.workers > 1 else None
    try:
        for name, overrides in settings.items():
            if name in reused["choices"]:  # searched before, on the same positions
                done_before = round(reused.get("iterations", {}).get(name, 0))
                results = [(p.number, action, done_before) for p, action in
                           zip(positions, reused["choices"][name], strict=True)]
            else:
                jobs = [(p.number, args.game, overrides) for p in positions]
                results = pool.map(_decide, jobs) if pool is not None else [_decide(job) for job in jobs]
            regrets = []
            best = 0
            iterations = 0
            choices[name] = [action_name for _, action_name, _ in results]
            for number, action_name, done in results:
                position = by_number[number]
                action = next((a for a in position.state.legal_actions() if str(a) == action_name), None)
                if args.value_others and action is not None:
                    value_outside(position, action, args.rollouts, args.value_win_weight)
                value = regret(position, action)
                regrets.append(value)
                best += value == 0.0
                iterations += done
            rows[name] = regrets
            iterations_of[name] = iterations / len(results)
            print(line(name, regrets, best, iterations_of[name]), flush=True)
            if args.out:  # after every setting, so that a run stopped early keeps what it measured
                with open(args.out, "w") as handle:
                    json.dump({"positions": [str(p.heuristic_choice) for p in positions], "regrets": rows,
                               "choices": choices, "iterations": iterations_of}, handle)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(f"done in {time.perf_counter() - started:.0f} s; load {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
