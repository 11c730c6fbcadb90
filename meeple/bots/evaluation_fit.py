"""Fits the weights of ``meeple.bots.evaluation`` on games the heuristic bots play against each other.

    python -m meeple.bots.evaluation_fit                  # every game, writes evaluation_weights.py
    python -m meeple.bots.evaluation_fit caylus --games 200 --dry-run

Every game is played by the rollout policy of the "hard" level for every seat (the game's heuristic),
at 2, 3 and 4 players (4 twice as often). Positions are sampled along the way; each sample is the
game's figures per seat, its progress, and in the end the seats' final scores and winners. Per
progress bucket a ridge least-squares fit maps the figures to the final score, and a softmax
temperature is chosen by the likelihood of the real winners. A fifth of the games is held out to
report how often the predicted leader wins, against the running score's leader.
"""

from __future__ import annotations

import argparse
import math
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple import load_game
from meeple.bots import RolloutPolicy
from meeple.bots.evaluation import FEATURES, softmax
from meeple.core.rng import Rng

BUCKETS = 6
TEMPERATURE_GRID = tuple(0.25 * 1.25**k for k in range(30))


@dataclass
class Sample:
    """One sampled position: progress, figures per seat, running scores; the end of its game."""

    game_index: int
    progress: float
    rows: list[list[float]]
    running: list[float]
    final: list[float]
    winners: list[int]


def collect(game_name: str, games: int, sample_rate: float = 0.08, boundary: str | None = None) -> list[Sample]:
    """Positions of heuristic self-play: each with chance ``sample_rate``, or with a ``boundary`` (a state
    attribute such as ``"turn"``, ``ISMCTSBot``'s ``rollout_boundary``) every position where it has just
    changed, the only positions a rollout cut at that boundary is scored on."""
    features, progress = FEATURES[game_name]
    game = load_game(game_name)
    picker = Rng(f"fit/{game_name}")
    samples: list[Sample] = []
    for index in range(games):
        players = (2, 3, 4, 4)[index % 4]
        players = min(max(players, game.min_players), game.max_players)
        state = game.new_game(players=players, seed=10_000 + index)
        policy = RolloutPolicy(f"fit/{index}")
        taken: list[Sample] = []
        epoch = None if boundary is None else getattr(state, boundary)
        while not state.is_over:
            if boundary is not None:
                sampled = getattr(state, boundary) != epoch
                epoch = getattr(state, boundary)
            else:
                sampled = picker.random() < sample_rate
            if sampled:
                taken.append(Sample(index, progress(state), features(state), [float(s) for s in state.scores()],
                                    [], []))
            state.apply(policy.choose(state))
        final = [float(s) for s in state.scores()]
        winners = state.winners()
        for sample in taken:
            sample.final = final
            sample.winners = winners
        samples += taken
    return samples


def bucket_of(progress: float) -> int:
    return min(BUCKETS - 1, int(progress * BUCKETS))


def ridge(rows: Sequence[Sequence[float]], targets: Sequence[float], strength: float = 1.0) -> list[float]:
    """Least squares with a small ridge penalty (none on the first, constant figure)."""
    size = len(rows[0])
    gram = [[0.0] * size for _ in range(size)]
    moment = [0.0] * size
    for row, target in zip(rows, targets, strict=True):
        for i in range(size):
            value = row[i]
            if value:
                moment[i] += value * target
                gram_row = gram[i]
                for j in range(size):
                    gram_row[j] += value * row[j]
    for i in range(1, size):
        gram[i][i] += strength
    # Gaussian elimination with partial pivoting.
    matrix = [[*gram[i][:], moment[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(matrix[r][column]))
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        lead = matrix[column][column]
        if abs(lead) < 1e-12:
            continue
        for r in range(size):
            if r != column:
                factor = matrix[r][column] / lead
                if factor:
                    for c in range(column, size + 1):
                        matrix[r][c] -= factor * matrix[column][c]
    return [matrix[i][size] / matrix[i][i] if abs(matrix[i][i]) > 1e-12 else 0.0 for i in range(size)]


def fit_centred(samples: Sequence[Sample]) -> list[float]:
    """Weights for the differences between seats (each seat's figures and final score minus the table's
    mean), which decide who wins, plus a constant so that the table's mean final score is right too.

    The figures' constant 1 has no difference, so the constant is fitted afterwards as the mean gap
    between the final scores and the prediction (the fit would otherwise spend itself on how high a
    whole table scores, which no move changes)."""
    rows: list[list[float]] = []
    targets: list[float] = []
    for sample in samples:
        n = len(sample.rows)
        means = [sum(row[k] for row in sample.rows) / n for k in range(len(sample.rows[0]))]
        final_mean = sum(sample.final) / n
        for row, final in zip(sample.rows, sample.final, strict=True):
            rows.append([1.0, *(row[k] - means[k] for k in range(1, len(row)))])
            targets.append(final - final_mean)
    weights = ridge(rows, targets)
    gaps = [final - sum(w * f for w, f in zip(weights[1:], row[1:], strict=True))
            for sample in samples for row, final in zip(sample.rows, sample.final, strict=True)]
    weights[0] = sum(gaps) / len(gaps)
    return weights


def predict(weights: Sequence[float], rows: Sequence[Sequence[float]]) -> list[float]:
    return [sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]


def winner_likelihood(samples: Sequence[Sample], weights: Sequence[float], temperature: float) -> float:
    total = 0.0
    for sample in samples:
        chances = softmax(predict(weights, sample.rows), temperature)
        total += math.log(max(1e-12, sum(chances[w] for w in sample.winners)))
    return total


def fit(samples: Sequence[Sample]) -> tuple[list[list[float]], list[float]]:
    """Weights and a temperature per progress bucket (an empty bucket borrows its neighbour's)."""
    buckets: list[list[float] | None] = []
    temperatures: list[float | None] = []
    for bucket in range(BUCKETS):
        chosen = [s for s in samples if bucket_of(s.progress) == bucket]
        if len(chosen) < 30:
            buckets.append(None)
            temperatures.append(None)
            continue
        weights = fit_centred(chosen)
        buckets.append(weights)
        temperatures.append(max(TEMPERATURE_GRID, key=lambda t: winner_likelihood(chosen, weights, t)))
    filled_weights = _fill(buckets)
    filled_temperatures = _fill(temperatures)
    return filled_weights, filled_temperatures


def _fill(values: Sequence[Any]) -> list[Any]:
    known = [i for i, v in enumerate(values) if v is not None]
    if not known:
        raise ValueError("no bucket has enough samples")
    return [values[min(known, key=lambda k: abs(k - i))] for i in range(len(values))]


def report(game_name: str, samples: Sequence[Sample], weights: Sequence[Sequence[float]]) -> list[str]:
    """Per bucket: how often the predicted leader and the running leader win, and the score error."""
    lines = []
    for bucket in range(BUCKETS):
        chosen = [s for s in samples if bucket_of(s.progress) == bucket]
        if not chosen:
            continue
        predicted_right = running_right = 0
        squared = 0.0
        for sample in chosen:
            predicted = predict(weights[bucket], sample.rows)
            predicted_right += max(range(len(predicted)), key=predicted.__getitem__) in sample.winners
            running_right += max(range(len(sample.running)), key=sample.running.__getitem__) in sample.winners
            squared += sum((p - f) ** 2 for p, f in zip(predicted, sample.final, strict=True)) / len(predicted)
        n = len(chosen)
        lines.append(f"{game_name} progress {bucket / BUCKETS:.2f}-{(bucket + 1) / BUCKETS:.2f}: {n} positions, "
                     f"predicted leader wins {100 * predicted_right / n:.0f}%, running leader "
                     f"{100 * running_right / n:.0f}%, score error {math.sqrt(squared / n):.1f}")
    return lines


def write_weights(path: Path, fitted: dict[str, tuple[list[list[float]], list[float], int]], note: str) -> None:
    lines = [
        '"""Weights of ``meeple.bots.evaluation``, written by ``python -m meeple.bots.evaluation_fit``.',
        "",
        *textwrap.wrap(note, 100),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any",
        "",
        "WEIGHTS: dict[str, dict[str, Any]] = {",
    ]
    for game_name, (buckets, temperatures, games) in sorted(fitted.items()):
        lines.append(f'    "{game_name}": {{')
        lines.append(f'        "games": {games},')
        lines.append('        "buckets": [')
        for weights in buckets:
            numbers = ", ".join(f"{w:.4g}" for w in weights)
            wrapped = textwrap.wrap(numbers, 100)
            lines.append("            [" + wrapped[0] + ("]," if len(wrapped) == 1 else ""))
            lines += ["             " + part for part in wrapped[1:]]
            if len(wrapped) > 1:
                lines[-1] += "],"
        lines.append("        ],")
        lines.append('        "temperatures": [' + ", ".join(f"{t:.4g}" for t in temperatures) + "],")
        lines.append("    },")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games to fit (default: every game with figures)")
    parser.add_argument("--games", dest="count", type=int, default=300, help="self-play games per game")
    parser.add_argument("--dry-run", action="store_true", help="report only, write nothing")
    parser.add_argument("--boundary", default=None,
                        help="sample only where this state attribute has just changed (e.g. turn: turn starts)")
    args = parser.parse_args()
    from meeple.bots.evaluation_weights import WEIGHTS

    fitted = {name: (list(weights["buckets"]), list(weights["temperatures"]), int(weights.get("games", 0)))
              for name, weights in WEIGHTS.items()}
    for game_name in args.games or sorted(FEATURES):
        started = time.perf_counter()
        samples = collect(game_name, args.count, boundary=args.boundary)
        held_out = [s for s in samples if s.game_index % 5 == 4]
        training = [s for s in samples if s.game_index % 5 != 4]
        weights, _ = fit(training)
        for line in report(game_name, held_out, weights):
            print(line, flush=True)
        fitted[game_name] = (*fit(samples), args.count)
        print(f"{game_name}: {len(samples)} positions from {args.count} games in "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    if not args.dry_run:
        note = (f"Heuristic self-play at 2, 3 and 4 players (4 twice as often), ``games`` games per game, {BUCKETS} "
                "progress buckets of ridge least squares on the differences between seats; temperatures by the "
                "winners' likelihood.")
        write_weights(Path(__file__).with_name("evaluation_weights.py"), fitted, note)


if __name__ == "__main__":
    main()
