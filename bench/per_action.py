"""Applied actions per second of random playouts for several games, measured side by side.

    python bench/per_action.py citadels burgundy --players 2 --chunks 15

Prints one line per game: ``<game> <n>p: best <a> median <b> actions/s (<chunks> chunks)``.
Separate runs of ``random_playouts.py`` drift by ±10% on a shared machine, which hides differences of
a few percent between games. Here the games take turns in short chunks of the same seeds in one
process, so both see the same load; the best chunk is the least disturbed one. CPU time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meeple import load_game

#: roughly equal time per chunk: a Burgundy game takes about twice as long as a Citadels one
GAMES_PER_CHUNK = {"citadels": 120, "burgundy": 60}


def chunk_rate(name: str, players: int, first_seed: int, games: int) -> float:
    """Actions per CPU second over ``games`` random playouts from consecutive seeds."""
    game = load_game(name)
    chooser = random.Random(first_seed)
    actions = 0
    started = time.process_time()
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(players=players, seed=seed)
        legal_actions, apply = state.legal_actions, state.apply
        while not state.is_over:
            apply(chooser.choice(legal_actions()))
            actions += 1
    return actions / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="+", help="game names, e.g. citadels burgundy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--chunks", type=int, default=15, help="chunks per game, taken in turns")
    args = parser.parse_args()
    rates: dict[str, list[float]] = {name: [] for name in args.games}
    for chunk in range(args.chunks):
        for name in args.games:
            games = GAMES_PER_CHUNK.get(name, 30)
            rates[name].append(chunk_rate(name, args.players, 1000 * chunk, games))
    for name, seen in rates.items():
        print(f"{name} {args.players}p: best {max(seen):,.0f} median {statistics.median(seen):,.0f} actions/s "
              f"({len(seen)} chunks)", flush=True)


if __name__ == "__main__":
    main()
