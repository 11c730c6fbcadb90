"""The Caylus heuristic bot: always legal, reproducible from its seed, fast, and far stronger than random."""

from __future__ import annotations

from typing import Any

import pytest

from meeple import load_game
from meeple.bots import make_bot
from meeple.bots.heuristics.caylus import HeuristicBot
from meeple.simulate import play_bot_game
from tests.bots.walks import count_legal_choices, mean_seconds_per_decision, wins_against_random

GAME = load_game("caylus")
#: The presets of docs/games/caylus.md, spelled out as options.
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "later_printing": {"jeweller": True, "lawyer_pp": 3},
    "beginner": {"simplified_favours": True},
}


def _new(players: int, seed: int, preset: str = "standard") -> Any:
    return GAME.new_game(players=players, seed=seed, options=PRESETS[preset] or None)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("preset", PRESETS)
def test_always_a_legal_action_in_random_positions(players: int, preset: str) -> None:
    """Random players walk the game into all sorts of positions; the bot is asked at every one."""
    checked = sum(count_legal_choices(_new(players, 100 * players + game, preset), HeuristicBot(seed=game), game)
                  for game in range(3))
    assert checked > 200


def test_the_lawyer_option_with_stone_targets_and_no_pp_floor() -> None:
    for seed in range(4):
        state = GAME.new_game(players=4, seed=seed,
                              options={"lawyer_targets": "wood_stone", "pp_floor": False,
                                       "tower_full_penalty": "none"})
        bots = [HeuristicBot(seed + p) for p in range(4)]
        while not state.is_over:
            action = bots[state.current_player].choose(state)
            assert action in state.legal_actions()
            state.apply(action)


def test_the_dispatcher_seats_it() -> None:
    state = _new(2, 3)
    play_bot_game(state, [make_bot("heuristic", 1), make_bot("heuristic", 2)])
    assert state.is_over


def test_fast_enough_for_rollouts() -> None:
    game = (_new(4, 8), [HeuristicBot(p) for p in range(4)])
    assert mean_seconds_per_decision([game]) < 0.005  # measured about 0.15 ms


def test_beats_two_random_players() -> None:
    """Measured: 100% over 300 games at 3 players; a random seat wins about a third."""
    games = 30
    wins = wins_against_random(lambda game: _new(3, 500 + game), HeuristicBot, games=games, players=3)
    assert wins / games >= 0.8
