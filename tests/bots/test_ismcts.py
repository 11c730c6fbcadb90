"""ISMCTS on the toy game: legal, budget-bound, blind to what its seat cannot see, stronger than random."""

from __future__ import annotations

import time

import pytest

from meeple.bots import ISMCTSBot, RandomBot
from meeple.simulate import play_bot_game
from tests.core.toy_game import Toy


def test_ismcts_picks_a_legal_action_within_its_iteration_budget() -> None:
    state = Toy().new_game(players=3, seed=2)
    bot = ISMCTSBot(seed=1, iterations=50)
    action = bot.choose(state)
    assert action in state.legal_actions()
    assert bot.last_iterations == 50


def test_ismcts_honours_a_time_budget() -> None:
    state = Toy().new_game(players=4, seed=2)
    bot = ISMCTSBot(seed=1, iterations=None, time_limit=0.2)
    started = time.perf_counter()
    bot.choose(state)
    assert time.perf_counter() - started < 0.2 * 1.1 + 0.02
    assert bot.last_iterations > 10


def test_same_decision_whatever_the_bot_cannot_see() -> None:
    """Two states that differ only in other seats' hands give the same decision for the same bot seed."""
    state = Toy().new_game(players=3, seed=8)
    other = state.clone()
    other.hands[1], other.hands[2] = other.hands[2], other.hands[1]
    assert other.view(0) == state.view(0) and other.hands != state.hands
    first = ISMCTSBot(seed=3, iterations=300).choose(state)
    second = ISMCTSBot(seed=3, iterations=300).choose(other)
    assert first == second


def test_ismcts_beats_random_players() -> None:
    wins = 0.0
    games = 60
    for seed in range(games):
        bots = [ISMCTSBot(seed, iterations=150), RandomBot(seed), RandomBot(seed + 999)]
        state = play_bot_game(Toy().new_game(players=3, seed=seed), bots)
        winners = state.winners()
        wins += 1 / len(winners) if 0 in winners else 0
    assert wins / games > 0.45  # a random seat wins about a third


def test_a_budget_is_required() -> None:
    with pytest.raises(ValueError, match="budget"):
        ISMCTSBot(iterations=None, time_limit=None)
