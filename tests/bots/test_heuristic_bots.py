"""What every game's heuristic bot owes, checked the same way for all four: same seed, same play; and
choosing a move never touches the game (its state or its RNG). Game-specific strength, speed and
legality tests live beside this file, one per game."""

from __future__ import annotations

import importlib

import pytest

from meeple import load_game
from meeple.bots import RandomBot
from meeple.simulate import play_bot_game
from tests.bots.walks import GAMES


def heuristic(game: str, seed: int):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"meeple.bots.heuristics.{game}").HeuristicBot(seed)


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_decisions(game: str) -> None:
    def history(bot_seed: int) -> list[str]:
        state = load_game(game).new_game(players=4, seed=21)
        bots = [heuristic(game, bot_seed), RandomBot(1), heuristic(game, bot_seed + 1), RandomBot(2)]
        return play_bot_game(state, bots).history

    assert history(5) == history(5)


@pytest.mark.parametrize("game", GAMES)
def test_choosing_leaves_the_game_alone(game: str) -> None:
    state = load_game(game).new_game(players=3, seed=4)
    walker = RandomBot(3)
    bot = heuristic(game, 0)
    for _ in range(200):
        if state.is_over:
            break
        before = state.to_json()
        rng_before = state.rng.state
        bot.choose(state)
        assert state.to_json() == before and state.rng.state == rng_before
        state.apply(walker.choose(state))
