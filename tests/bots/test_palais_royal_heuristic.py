"""The Palais Royal heuristic bot: always legal, blind to hidden cards, reproducible from its seed,
fast, far stronger than random, and ending games through the real 12-nobles trigger."""

from __future__ import annotations

from typing import Any

import pytest

from meeple import load_game
from meeple.bots.heuristics import GameHeuristicBot
from meeple.bots.heuristics.palais_royal import HeuristicBot
from meeple.simulate import play_bot_game
from tests.bots.walks import count_blind_decisions, count_legal_choices, mean_seconds_per_decision, wins_against_random

GAME = load_game("palais_royal")
#: Option sets that change what is legal or how much things cost.
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "first_game": {"layout": "first_game"},
    "odd_rules": {"initial_placement": "free_10", "privilege_activation": "immediate",
                  "bonus_servant_from_rooms": False, "step3_order": "fixed", "gold_limited": True},
    "other_costs": {"cost_reduction": "orthogonal_diagonal", "edge_tie": "demote", "corner_edges": "none",
                    "hand_score_cap": 2, "round_limit": 12},
}


def _new(players: int, seed: int, variant: str = "default") -> Any:
    return GAME.new_game(players=players, seed=seed, options=VARIANTS[variant] or None)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_always_a_legal_action_in_random_positions(players: int, variant: str) -> None:
    """Random players walk the game into all sorts of positions; the bot is asked at every one."""
    checked = sum(count_legal_choices(_new(players, 100 * players + game, variant), HeuristicBot(seed=game), game)
                  for game in range(2))
    assert checked > 200


def test_hidden_cards_do_not_change_the_decision() -> None:
    """Two states that differ only in what the seat on turn cannot see (the deck and the other hands,
    resampled by ``determinize``) give the same decision for the same bot seed."""
    games = ((_new(4, 300 + game), [HeuristicBot(game * 4 + p) for p in range(4)]) for game in range(3))
    assert count_blind_decisions(games, HeuristicBot, every=7, worlds=(0,), max_plies=1500) > 100


def test_the_dispatcher_finds_it() -> None:
    state = _new(2, 5)
    assert GameHeuristicBot(1).choose(state) in state.legal_actions()


def test_fast_enough_to_drive_rollouts() -> None:
    games = ((_new(4, 40 + game), [HeuristicBot(game * 4 + p) for p in range(4)]) for game in range(3))
    assert mean_seconds_per_decision(games) < 0.005  # about 0.3 ms on a laptop


def test_heuristic_games_end_through_the_nobles_trigger() -> None:
    """Four heuristic bots empty the garden down to 12 nobles long before the round_limit safeguard."""
    for game in range(4):
        state: Any = play_bot_game(_new(4, 60 + game), [HeuristicBot(game * 4 + p) for p in range(4)])
        assert state.round < 20
        assert state.garden_left <= 12
        assert sum(len(o) for o in state.owned) >= 24


def test_beats_three_random_bots() -> None:
    """A random bot in seat 0 wins about a quarter of these games; the heuristic wins nearly all."""
    wins = wins_against_random(lambda game: _new(4, 500 + game), HeuristicBot, games=8, players=4)
    assert wins >= 6


@pytest.mark.parametrize("variant", ["default", "odd_rules"])
def test_the_ranking_orders_every_legal_action_and_puts_the_bots_choice_first(variant: str) -> None:
    """The search compares the ranking's first few actions, so it must hold every legal action once, leave
    the bot's generator untouched, and agree with ``choose`` (which breaks near-ties with noise)."""
    first = decisions = 0
    for seed in (1, 2, 3):
        state = _new(4, seed, variant)
        players = [HeuristicBot(seed=10 * seed + seat) for seat in range(4)]
        while not state.is_over:
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) > 1:
                ranker = HeuristicBot(seed=seat)
                drawn_before = ranker.rng.to_json()
                order = ranker.ranked(state)
                assert ranker.rng.to_json() == drawn_before
                assert sorted(map(str, order)) == sorted(map(str, legal))
                pick = players[seat].choose(state)
                decisions += 1
                first += order[0] == pick
            else:
                pick = legal[0]
            state.apply(pick)
    assert decisions > 500
    assert first / decisions > 0.95, f"the choice ranked first in {first} of {decisions} decisions"
