"""Does a refitted evaluation stop Palais Royal's searches from idling? (issue 21, docs/bots.md "The expert level")

Two hard searches at a fixed iteration count (deterministic, so a game replays exactly) play two-player games;
for each evaluation this prints, per game seed, how many turns each seat ended without one action of its own
(gate, move, mint, king, pomp, recruit or card), the turn of the first recruitment and the scores. The
evaluations compared:

- ``current``: the weights in ``meeple/bots/evaluation_weights.py``, fitted on heuristic self-play;
- ``varied``: the same figures fitted on positions of *varied* play (a share of the decisions is one of the
  heuristic's three best, or any legal action, at random), each labelled by a pure heuristic continuation
  to the end from that position: what a cut-off rollout's evaluation is meant to predict;
- ``phase``: ``varied`` plus three figures of the turn's phase per seat (whether it is acting, the share of
  its turn's steps already done, how long until it acts), so that a cut in the middle of a turn is
  not compared with one after it as if they were alike;
- ``phase-assets``: ``phase`` with every asset's weight at least 0 and the running score's at least 1 (a seat
  is never worse off for holding more), by an active-set ridge fit.

    python bench/palais_royal_idle.py --games 1000 --seeds 2,3 --iterations 400 --cache /tmp/pr_varied.json

Prints one line per (evaluation, seed) and, for each fitted evaluation, how often its predicted leader
wins on the held-out fifth of the games (by sixth of the game) against the current weights there, and its
weights in the first sixth of the game.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from meeple import load_game
from meeple.bots import RolloutPolicy, hard_bot
from meeple.bots.evaluation import FEATURES, ScoreEvaluation, score_evaluation
from meeple.bots.evaluation_fit import (
    BUCKETS,
    TEMPERATURE_GRID,
    Sample,
    bucket_of,
    fit,
    report,
    ridge,
    winner_likelihood,
)
from meeple.bots.evaluation_weights import WEIGHTS
from meeple.core.rng import Rng
from meeple.games.palais_royal import actions as A
from meeple.games.palais_royal.data import ROOM_CODES

GAME = "palais_royal"
BASE_FEATURES, PROGRESS = FEATURES[GAME]
#: The seat's own moves: a turn with none of them was spent doing nothing (``end`` at every step).
OWN_MOVES = {A.PLAY, A.GATE, A.GATE_FROM, A.MOVE, A.MINT, A.KING, A.KING_FROM, A.POMP, A.POMP_FROM, A.RECRUIT_KIND}
PHASE_FIGURES = 3
#: The figures' names, in the order of ``phase_features``' rows (``meeple/bots/evaluation.py``).
FIGURE_NAMES = ("constant", "score", "gold", "nobles", "cards", "pool",
                *(f"servants_{room}" for room in ROOM_CODES),
                *(f"majority_{room}" for room in ROOM_CODES[:5]),  # the five majority rooms come first
                *(f"privilege_{k}" for k in range(10)), "acting", "steps_done", "wait")


def phase_features(state: Any) -> list[list[float]]:
    """The evaluation's figures plus the turn's phase per seat: acting, share of its steps done, wait."""
    rows = BASE_FEATURES(state)
    seats, seat, step = state.players, state.seat, state.step
    for p, row in enumerate(rows):
        acting = p == seat
        row += [1.0 if acting else 0.0, (step - 1) / 4.0 if acting and step >= 1 else 0.0, ((p - seat) % seats) / seats]
    return rows


def collect(games: int, top_share: float, random_share: float, rate: float) -> list[Sample]:
    """Positions of varied play with both sets of figures (phase last), each labelled by a heuristic
    continuation to the end."""
    game = load_game(GAME)
    chance = Rng("idle/varied")
    samples: list[Sample] = []
    for index in range(games):
        state = game.new_game(players=(2, 3, 4, 4)[index % 4], seed=30_000 + index)
        policy = RolloutPolicy(f"varied/{index}")
        decision = 0
        while not state.is_over:
            if chance.random() < rate:
                branch = state.clone()
                continuation = RolloutPolicy(f"continuation/{index}/{decision}")
                while not branch.is_over:
                    branch.apply(continuation.choose(branch))
                samples.append(Sample(index, PROGRESS(state), phase_features(state), [float(s) for s in state.scores()],
                                      [float(s) for s in branch.scores()], branch.winners()))
            decision += 1
            legal = state.legal_actions()
            roll = chance.random()
            if len(legal) > 1 and roll < random_share:
                action = legal[int(chance.random() * len(legal))]
            elif len(legal) > 1 and roll < random_share + top_share:
                best = policy.ranked(state)[:3]
                action = best[int(chance.random() * len(best))]
            else:
                action = policy.choose(state)
            state.apply(action)
    return samples


def without_phase(samples: Sequence[Sample]) -> list[Sample]:
    return [Sample(s.game_index, s.progress, [row[:-PHASE_FIGURES] for row in s.rows], s.running, s.final, s.winners)
            for s in samples]


def fit_assets_nonnegative(samples: Sequence[Sample], free_last: int) -> tuple[list[list[float]], list[float]]:
    """Per bucket: ridge on the seats' differences of the points still to come, dropping the most negative
    asset weight until none is left (the constant and the last ``free_last`` figures are free), then the
    running score's weight raised by 1."""
    width = len(samples[0].rows[0])
    free = {0, *range(width - free_last, width)}
    buckets: list[list[float]] = []
    temperatures: list[float] = []
    for bucket in range(BUCKETS):
        chosen = [s for s in samples if bucket_of(s.progress) == bucket]
        if len(chosen) < 30:
            raise ValueError(f"bucket {bucket} has {len(chosen)} positions: play more games")
        rows, targets = [], []
        for s in chosen:
            n = len(s.rows)
            means = [sum(row[k] for row in s.rows) / n for k in range(width)]
            to_come = [final - row[1] for row, final in zip(s.rows, s.final, strict=True)]
            mean_to_come = sum(to_come) / n
            for row, points in zip(s.rows, to_come, strict=True):
                rows.append([1.0, *(row[k] - means[k] for k in range(1, width))])
                targets.append(points - mean_to_come)
        kept = list(range(width))
        while True:
            fitted = ridge([[row[k] for k in kept] for row in rows], targets)
            weights = [0.0] * width
            for k, value in zip(kept, fitted, strict=True):
                weights[k] = value
            negative = [k for k in kept if k not in free and weights[k] < 0]
            if not negative:
                break
            kept.remove(min(negative, key=weights.__getitem__))
        weights[1] += 1.0
        gaps = [final - sum(w * f for w, f in zip(weights[1:], row[1:], strict=True))
                for s in chosen for row, final in zip(s.rows, s.final, strict=True)]
        weights[0] = sum(gaps) / len(gaps)
        buckets.append(weights)
        temperatures.append(max(TEMPERATURE_GRID, key=lambda t: winner_likelihood(chosen, weights, t)))
    return buckets, temperatures


class TempoEvaluation(ScoreEvaluation):
    """The predicted final scores plus ``tempo`` times the points already scored: points taken now count
    extra, against a search that puts off what its evaluation values as much later."""

    def __init__(self, evaluation: ScoreEvaluation, tempo: float) -> None:
        super().__init__(GAME, evaluation.buckets, evaluation.temperatures, evaluation.win_weight)
        self.features = evaluation.features
        self.tempo = tempo

    def predicted(self, state: Any) -> tuple[list[float], float]:
        predicted, temperature = super().predicted(state)
        return [p + self.tempo * s for p, s in zip(predicted, state.scores(), strict=True)], temperature


def play(evaluation: ScoreEvaluation | None, seed: int, iterations: int, boundary: str | None = None,
         tempo: float = 0.0) -> dict[str, Any]:
    settings: dict[str, Any] = {"iterations": iterations, "time_limit": None, "stop_when_settled": False}
    if boundary:  # rollouts played to the next change of this state attribute ("seat": the turn's end)
        settings.update(rollout_cutoff=0, rollout_boundary=boundary)
    if tempo:
        current = score_evaluation(GAME)  # hard's own
        assert current is not None
        evaluation = TempoEvaluation(evaluation or current, tempo)
    if evaluation is not None:
        settings["evaluator"] = evaluation
    bots = [hard_bot(f"{seed}/{seat}", **settings) for seat in range(2)]
    state = load_game(GAME).new_game(players=2, seed=seed)
    turns: list[list[int]] = [[], []]
    own = [0, 0]
    first_recruit = None
    started = time.process_time()
    while not state.is_over:
        seat = state.current_player
        action = bots[seat].choose(state)
        own[seat] += action.kind in OWN_MOVES
        if action.kind == A.RECRUIT_KIND and first_recruit is None:
            first_recruit = len(turns[seat]) + 1
        state.apply(action)
        if state.current_player != seat:
            turns[seat].append(own[seat])
            own[seat] = 0
    return {"turns": len(turns[0]), "idle": [sum(1 for t in ts if t == 0) for ts in turns],
            "first_recruit": first_recruit, "scores": state.scores(), "cpu": time.process_time() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games of varied play to fit on")
    parser.add_argument("--top-share", type=float, default=0.2, help="decisions taken among the heuristic's best three")
    parser.add_argument("--random-share", type=float, default=0.05, help="decisions taken among all legal actions")
    parser.add_argument("--rate", type=float, default=0.08, help="chance that a position is sampled")
    parser.add_argument("--seeds", default="2,3", help="game seeds of the two-player games")
    parser.add_argument("--iterations", type=int, default=400, help="search iterations a decision")
    parser.add_argument("--cache", type=Path, help="keep the sampled positions here and reuse them")
    parser.add_argument("--only", default="", help="comma-separated evaluations to play (default: all four)")
    parser.add_argument("--boundary", default=None,
                        help='cut every rollout at the next change of this state attribute instead ("seat": turn end)')
    parser.add_argument("--tempo", type=float, default=0.0, help="add this times the points already scored")
    args = parser.parse_args()

    if args.cache and args.cache.exists():
        samples = [Sample(**record) for record in json.loads(args.cache.read_text())]
    else:
        started = time.process_time()
        samples = collect(args.games, args.top_share, args.random_share, args.rate)
        seconds = time.process_time() - started
        print(f"positions={len(samples)} games={args.games} cpu_seconds={seconds:.0f}", flush=True)
        if args.cache:
            args.cache.write_text(json.dumps([vars(s) for s in samples]))
    plain = without_phase(samples)
    fits: dict[str, tuple[Callable[[Sequence[Sample]], tuple[list[list[float]], list[float]]], list[Sample]]] = {
        "varied": (fit, plain),
        "phase": (fit, samples),
        "phase-assets": (lambda s: fit_assets_nonnegative(s, PHASE_FIGURES), samples),
    }
    current = WEIGHTS[GAME]
    evaluations: dict[str, ScoreEvaluation | None] = {"current": None}
    held_plain = [s for s in plain if s.game_index % 5 == 4]
    for line in report(GAME, held_plain, current["buckets"]):
        print(f"held-out current: {line}")
    for name, (fitter, chosen) in fits.items():
        held_out = [s for s in chosen if s.game_index % 5 == 4]
        weights, _ = fitter([s for s in chosen if s.game_index % 5 != 4])
        for line in report(GAME, held_out, weights):
            print(f"held-out {name}: {line}")
        buckets, temperatures = fitter(chosen)
        first = dict(zip(FIGURE_NAMES, buckets[0], strict=False))
        print(f"weights {name}, first sixth: " + " ".join(f"{key}={value:.2f}" for key, value in first.items()))
        evaluation = ScoreEvaluation(GAME, buckets, temperatures)
        if name.startswith("phase"):
            evaluation.features = phase_features
        evaluations[name] = evaluation
    only = set(filter(None, args.only.split(",")))
    for name, played in evaluations.items():
        if only and name not in only:
            continue
        for seed in map(int, args.seeds.split(",")):
            result = play(played, seed, args.iterations, args.boundary, args.tempo)
            print(f"evaluation={name} boundary={args.boundary} tempo={args.tempo} seed={seed} turns={result['turns']} "
                  f"idle_turns={','.join(map(str, result['idle']))} first_recruit_turn={result['first_recruit']} "
                  f"scores={','.join(map(str, result['scores']))} cpu_seconds={result['cpu']:.0f}", flush=True)


if __name__ == "__main__":
    main()
