"""Applied actions per second of random playouts for several games, measured side by side.

    python bench/per_action.py citadels burgundy --players 2 --chunks 15

Prints two lines per game: ``<game> <n>p with setup: best <a> median <b> actions/s (<chunks> chunks)``
counts the whole playout, ``new_game`` included; ``<game> <n>p per decision: ...`` only the time spent
in ``legal_actions`` and ``apply`` (and the random choice), which is what an action costs once a game
exists. Separate runs of ``random_playouts.py`` drift by ±10% on a shared machine, which hides differences of
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


def chunk_rates(name: str, players: int, first_seed: int, games: int) -> tuple[float, float]:
    """Actions per CPU second over ``games`` random playouts from consecutive seeds: counting the
    whole playout, and counting only the time after ``new_game``."""
    game = load_game(name)
    chooser = random.Random(first_seed)
    actions = 0
    setting_up = 0.0
    clock = time.process_time
    started = clock()
    for seed in range(first_seed, first_seed + games):
        before = clock()
        state = game.new_game(players=players, seed=seed)
        setting_up += clock() - before
        legal_actions, apply = state.legal_actions, state.apply
        while not state.is_over:
            apply(chooser.choice(legal_actions()))
            actions += 1
    total = clock() - started
    return actions / total, actions / (total - setting_up)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="+", help="game names, e.g. citadels burgundy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--chunks", type=int, default=15, help="chunks per game, taken in turns")
    args = parser.parse_args()
    rates: dict[tuple[str, str], list[float]] = {}
    for chunk in range(args.chunks):
        for name in args.games:
            games = GAMES_PER_CHUNK.get(name, 30)
            whole, deciding = chunk_rates(name, args.players, 1000 * chunk, games)
            rates.setdefault((name, "with setup"), []).append(whole)
            rates.setdefault((name, "per decision"), []).append(deciding)
    for (name, measure), seen in sorted(rates.items(), key=lambda item: item[0][1] != "with setup"):
        print(f"{name} {args.players}p {measure}: best {max(seen):,.0f} median {statistics.median(seen):,.0f} "
              f"actions/s ({len(seen)} chunks)", flush=True)


if __name__ == "__main__":
    main()
