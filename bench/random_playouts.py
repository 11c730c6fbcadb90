"""Random games per second for each game and player count, through the public engine contract.

    python bench/random_playouts.py                   # every installed game, ~2 s per player count
    python bench/random_playouts.py citadels --seconds 5 --players 4
    PYTHONHASHSEED=0 python bench/random_playouts.py caylus --players 4 --bytecodes 10

Prints one figure per line: ``<game> <n>p: <games/s> games/s, <actions/s> actions/s (<games> games, …)``, with
", compiled engine" in the brackets when the game's rules run compiled (docs/compiled.md).
Each game is ``new_game(players, seed)`` then ``apply(random choice of legal_actions())`` until over,
on one core, exactly as a bot-free simulation would drive it. Time is this process's CPU time, which
is one core's work and stays meaningful when other programs load the machine.

``--bytecodes N`` counts instead of timing: the Python bytecodes executed per game (a ``sys.settrace``
opcode counter, the random choice included) over the games of seeds 1…N, played after 4 warm-up games
(seeds 1001–1004) so memos are filled as in a long run. The count repeats exactly from run to run
(with ``PYTHONHASHSEED=0``), so it compares two engines on a loaded machine where timings do not.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterable
from types import FrameType
from typing import Any

from meeple import game_names, load_game

try:
    from meeple.core.registry import engine_is_compiled
except ImportError:  # an older tree, run for comparison with this script copied into it: no compiled engines

    def engine_is_compiled(name: str) -> bool:
        return False


def random_game(game: Any, players: int, seed: int, choice: Any) -> int:
    """One game from ``seed`` with every action drawn by ``choice``; the number of actions."""
    state = game.new_game(players=players, seed=seed)
    legal_actions = state.legal_actions
    apply = state.apply
    actions = 0
    while not state.is_over:
        apply(choice(legal_actions()))
        actions += 1
    return actions


def measure(name: str, players: int, seconds: float, first_seed: int = 1) -> tuple[int, int, float]:
    game = load_game(name)
    choice = random.Random(first_seed).choice
    games = actions = 0
    seed = first_seed
    started = time.process_time()
    deadline = started + seconds
    while True:
        actions += random_game(game, players, seed, choice)
        games += 1
        seed += 1
        now = time.process_time()
        if now >= deadline:
            return games, actions, now - started


def play(name: str, players: int, seeds: Iterable[int]) -> None:
    """Random games from these seeds, one chooser for all (as ``measure`` plays them)."""
    game = load_game(name)
    choice = random.Random(1).choice
    for seed in seeds:
        random_game(game, players, seed, choice)


def bytecodes_per_game(name: str, players: int, games: int) -> float:
    """Python bytecodes executed per game over seeds 1…games, after 4 warm-up games."""
    play(name, players, range(1001, 1005))
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        play(name, players, range(1, games + 1))
    finally:
        sys.settrace(None)
    return count / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="*", help="game names (default: every installed game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    parser.add_argument("--players", type=int, action="append", help="player count(s) (default: all)")
    parser.add_argument("--bytecodes", type=int, metavar="N",
                        help="count bytecodes per game over seeds 1..N instead of timing")
    args = parser.parse_args()
    for name in args.games or game_names():
        game = load_game(name)
        compiled = engine_is_compiled(name)  # docs/compiled.md
        counts = args.players or range(game.min_players, game.max_players + 1)
        for players in counts:
            if args.bytecodes:
                per_game = bytecodes_per_game(name, players, args.bytecodes)
                print(f"{name} {players}p: {per_game / 1000:.1f}k bytecodes/game ({args.bytecodes} games)", flush=True)
                continue
            games, actions, elapsed = measure(name, players, args.seconds)
            print(
                f"{name} {players}p: {games / elapsed:.1f} games/s, {actions / elapsed:,.0f} actions/s "
                f"({games} games, {actions / games:.0f} actions/game{', compiled engine' if compiled else ''})",
                flush=True,
            )


if __name__ == "__main__":
    main()
