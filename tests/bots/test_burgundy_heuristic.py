"""The Castles of Burgundy heuristic bot: always legal, reproducible from its seed, fast, far stronger than random."""

from __future__ import annotations

import time
from typing import Any

import pytest

from meeple import load_game
from meeple.bots import RandomBot, make_bot
from meeple.bots.heuristics.burgundy import HeuristicBot
from meeple.core.rng import Rng
from meeple.simulate import play_bot_game
from tests.bots.walks import count_legal_choices

GAME = load_game("burgundy")
#: default rules plus the documented presets (docs/games/burgundy.md), and a few single options.
OPTIONS: dict[str, dict[str, Any] | None] = {
    "default": None,
    "reference": {"preset": "reference"},
    "variant_boards": {"preset": "variant_boards"},
    "variant_secret": {"preset": "variant_secret"},
    "odd_rules": {"k06_pay_with_workers": True, "sale_vp": "per_sale", "forced_building_effects": True},
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS)
def test_always_a_legal_action_in_random_positions(players: int, options: str) -> None:
    """Random moves walk the game into all sorts of positions; the bot is asked at every one."""
    checked = sum(
        count_legal_choices(GAME.new_game(players=players, seed=100 * players + game, options=OPTIONS[options]),
                            HeuristicBot(seed=game), game)
        for game in range(2)
    )
    assert checked > 300


def test_only_what_its_seat_may_know() -> None:
    """Two determinizations for the bot's seat (other hidden piles, goods stacks, dice) give the same choice."""
    state = GAME.new_game(players=4, seed=9, options={"preset": "variant_secret"})
    walker = RandomBot(4)
    for step in range(120):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        one = state.determinize(seat, Rng(step))
        two = state.determinize(seat, Rng(step + 1000))
        assert str(HeuristicBot(7).choose(one)) == str(HeuristicBot(7).choose(two))
        state.apply(walker.choose(state))


def test_the_dispatcher_seats_it() -> None:
    state = GAME.new_game(players=2, seed=3)
    play_bot_game(state, [make_bot("heuristic", 1), make_bot("heuristic", 2)])
    assert state.is_over


def test_fast_enough_for_rollouts() -> None:
    state = GAME.new_game(players=4, seed=8)
    bots = [HeuristicBot(p) for p in range(4)]
    spent = 0.0
    decisions = 0
    while not state.is_over:
        bot = bots[state.current_player or 0]
        started = time.perf_counter()
        action = bot.choose(state)
        spent += time.perf_counter() - started
        decisions += 1
        state.apply(action)
    assert spent / decisions < 0.005  # measured about 1 ms on a loaded machine


def test_beats_three_random_players() -> None:
    """Measured: 100% over 200 games at 4 players; a random seat wins about a quarter."""
    games = 12
    wins = 0.0
    for game in range(games):
        seat = game % 4
        bots: list[Any] = [RandomBot(10 * game + p) for p in range(4)]
        bots[seat] = HeuristicBot(game)
        state = play_bot_game(GAME.new_game(players=4, seed=500 + game), bots)
        winners = state.winners()
        wins += 1 / len(winners) if seat in winners else 0.0
    assert wins / games >= 0.75
