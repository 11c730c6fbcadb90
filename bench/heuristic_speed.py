"""Mean time of one heuristic decision per game, over a fixed set of positions.

    python bench/heuristic_speed.py                    # every game with a heuristic, 4 players
    python bench/heuristic_speed.py citadels --players 2 --games 5 --repeats 7

The heuristic bot is the rollout policy of the "hard" search, so its speed is the search's speed:
compare this figure before and after a change to a heuristic (the lens it reads, its rules of thumb).
The positions are every position of ``--games`` seeded games between heuristic bots (seeds 1, 2, …);
each repeat times a fresh ``HeuristicBot(7)`` deciding once on each position (the thread's CPU
time around ``choose``, ``time.thread_time``, so that other programs on a loaded machine count less
than in wall time), and the mean over the positions of each one's fastest decision is printed, one
line per game: ``<game> <n>p: <µs> µs per decision (<positions> positions, best of <repeats>)``.
Report the load average (``uptime``) the run had beside the figures.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

from meeple import load_game
from meeple.core.contract import GameState

GAMES = ("citadels", "burgundy", "caylus", "palais_royal")


def positions(name: str, players: int, games: int) -> list[GameState[Any]]:
    """Every position with a choice (two legal actions or more) of ``games`` seeded heuristic games."""
    bot_class = importlib.import_module(f"meeple.bots.heuristics.{name}").HeuristicBot
    found: list[GameState[Any]] = []
    for seed in range(1, games + 1):
        state: GameState[Any] = load_game(name).new_game(players=players, seed=seed)
        bots = [bot_class(10 * seed + seat) for seat in range(players)]
        while not state.is_over:
            if len(state.legal_actions()) > 1:
                found.append(state.clone())
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state))
    return found


def mean_decision_seconds(name: str, states: list[GameState[Any]], repeats: int) -> float:
    """The mean over the states of the fastest of ``repeats`` decisions on each (a fresh bot each
    repeat): the per-position minimum drops what other programs on the machine cost."""
    bot_class = importlib.import_module(f"meeple.bots.heuristics.{name}").HeuristicBot
    fastest = [float("inf")] * len(states)
    for _ in range(repeats):
        bot = bot_class(7)
        for index, state in enumerate(states):
            start = time.thread_time()
            bot.choose(state)
            spent = time.thread_time() - start
            if spent < fastest[index]:
                fastest[index] = spent
    return sum(fastest) / len(states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games_named", nargs="*", metavar="game", help=f"games (default: {', '.join(GAMES)})")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3, help="seeded games whose positions are timed")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for name in args.games_named or GAMES:
        game = load_game(name)
        players = min(max(args.players, game.min_players), game.max_players)
        states = positions(name, players, args.games)
        seconds = mean_decision_seconds(name, states, args.repeats)
        print(f"{name} {players}p: {seconds * 1e6:.1f} µs per decision "
              f"({len(states)} positions, best of {args.repeats})")


if __name__ == "__main__":
    main()
