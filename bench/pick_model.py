"""How well the Citadels heuristic's pick scores predict a level's character picks: the model
``world_likelihood`` weighs a search's worlds by (``PICK_SOFTNESS``, ``PICK_NOISE``), fitted by likelihood.

    python bench/pick_model.py --players 4 --games 8 --level hard --level medium

Positions: every draft pick with a choice in seeded games of the heuristic on every seat (seeds from 500);
at each, each level named picks for the seat on turn (searching levels on the CPU clock, so a loaded
machine does not change their picks). For each level it prints its share of picks that are the heuristic's
favourite, the mean log-likelihood per pick of a uniform guess, of the model with the module's constants,
and of the best model on a grid, with its softness and noise: one figure per line.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

from meeple import load_game
from meeple.bots import RolloutPolicy, make_bot
from meeple.bots.heuristics import citadels as heuristic
from meeple.games.citadels.observation import CitadelsLens

SOFTNESS_GRID = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0)
NOISE_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7)


def mean_log_likelihood(picks: Sequence[tuple[list[float], int]], softness: float, noise: float) -> float:
    """Per pick, of ``(scores of the characters offered, index of the one taken)``."""
    return sum(math.log(heuristic.pick_chance(scores, taken, softness, noise)) for scores, taken in picks) / len(picks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--level", action="append", help="a bot level whose picks to fit (repeatable)")
    args = parser.parse_args()
    levels = args.level or ["hard", "medium"]
    game = load_game("citadels")
    scorer = heuristic.HeuristicBot(0)
    picks: dict[str, list[tuple[list[float], int]]] = {level: [] for level in levels}
    for seed in range(500, 500 + args.games):
        state = game.new_game(players=args.players, seed=seed)
        walker = RolloutPolicy(seed)
        bots = {level: make_bot(level, seed=f"pick-model/{seed}", budget_clock="cpu") for level in levels}
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            lens = CitadelsLens(state, seat)
            if lens.phase == "pick" and len(legal) > 1:
                chars = [action.a for action in legal]
                scores = scorer.pick_scores(lens, chars)
                for level, bot in bots.items():
                    picks[level].append((scores, chars.index(bot.choose(state.clone()).a)))
            state.apply(walker.choose(state))
    for level, taken in picks.items():
        favourite = sum(index == max(range(len(s)), key=s.__getitem__) for s, index in taken) / len(taken)
        uniform = -sum(math.log(len(s)) for s, _ in taken) / len(taken)
        current = mean_log_likelihood(taken, heuristic.PICK_SOFTNESS, heuristic.PICK_NOISE)
        best, softness, noise = max((mean_log_likelihood(taken, b, e), b, e) for b in SOFTNESS_GRID for e in NOISE_GRID)
        print(f"{level}: picks {len(taken)}")
        print(f"{level}: the heuristic's favourite {favourite:.2f}")
        print(f"{level}: log-likelihood a pick, uniform {uniform:.3f}")
        constants = f"softness {heuristic.PICK_SOFTNESS} noise {heuristic.PICK_NOISE}"
        print(f"{level}: log-likelihood a pick, {constants}: {current:.3f}")
        print(f"{level}: log-likelihood a pick, best softness {softness} noise {noise}: {best:.3f}")


if __name__ == "__main__":
    main()
