"""The Castles of Burgundy heuristic bot: always legal, reproducible from its seed, fast, far stronger than random."""

from __future__ import annotations

from typing import Any

import pytest

from meeple import load_game
from meeple.bots import RandomBot, make_bot
from meeple.bots.heuristics.burgundy import HeuristicBot
from meeple.simulate import play_bot_game
from tests.bots.walks import count_blind_decisions, count_legal_choices, mean_seconds_per_decision, wins_against_random

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
    count_blind_decisions([(state, [walker] * 4)], lambda _ply: HeuristicBot(7), every=1, worlds=(0, 1000),
                          max_plies=120)


def test_the_dispatcher_seats_it() -> None:
    state = GAME.new_game(players=2, seed=3)
    play_bot_game(state, [make_bot("heuristic", 1), make_bot("heuristic", 2)])
    assert state.is_over


def test_fast_enough_for_rollouts() -> None:
    game = (GAME.new_game(players=4, seed=8), [HeuristicBot(p) for p in range(4)])
    assert mean_seconds_per_decision([game]) < 0.005  # measured about 1 ms on a loaded machine


def test_beats_three_random_players() -> None:
    """Measured: 100% over 200 games at 4 players; a random seat wins about a quarter."""
    games = 12
    wins = wins_against_random(lambda game: GAME.new_game(players=4, seed=500 + game), HeuristicBot,
                               games=games, players=4)
    assert wins / games >= 0.75
