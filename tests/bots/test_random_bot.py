"""The random bot: legal, reproducible from its own seed, independent of the game's RNG."""

from __future__ import annotations

from meeple.bots import RandomBot, make_bot
from meeple.simulate import play_bot_game
from tests.core.toy_game import Toy


def test_random_bot_only_plays_legal_actions_and_finishes() -> None:
    state = Toy().new_game(players=3, seed=9)
    bots = [RandomBot(seed) for seed in range(3)]
    play_bot_game(state, bots)
    assert state.is_over and len(state.history) > 0


def test_same_bot_seed_same_choices() -> None:
    first = play_bot_game(Toy().new_game(players=2, seed=4), [RandomBot(1), RandomBot(2)])
    second = play_bot_game(Toy().new_game(players=2, seed=4), [RandomBot(1), RandomBot(2)])
    assert first.history == second.history


def test_bot_choice_leaves_the_game_rng_alone() -> None:
    state = Toy().new_game(players=2, seed=4)
    before = state.rng.state
    RandomBot(5).choose(state)
    assert state.rng.state == before


def test_unknown_bot_kind_is_refused() -> None:
    try:
        make_bot("grandmaster")
    except ValueError as error:
        assert "unknown bot 'grandmaster'" in str(error)
    else:
        raise AssertionError("an unknown bot kind was accepted")
