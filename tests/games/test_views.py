"""``state.views(seats)`` (what the server calls after every move) equals ``view(seat)`` of each seat,
to the JSON text (key order included), at every step of seeded random games of all four games;
Citadels builds what every seat sees once and shares it between the views."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from meeple.core.contract import GameState
from meeple.core.errors import InvalidSeat
from meeple.core.registry import load_game

GAMES = ["burgundy", "caylus", "citadels", "palais_royal"]


def check(state: GameState[Any], rng: random.Random) -> None:
    seats: list[int | None] = [None, *range(state.players)]
    rng.shuffle(seats)
    chosen = seats[:rng.randint(1, len(seats))]
    together = state.views(chosen)
    alone = [state.view(seat) for seat in chosen]
    assert [json.dumps(view) for view in together] == [json.dumps(view) for view in alone], \
        (state.game.name, chosen, len(state.history))


@pytest.mark.parametrize("game_name", GAMES)
def test_views_of_several_seats_equal_each_seats_view(game_name: str) -> None:
    game = load_game(game_name)
    moves = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_game(players=rng.randint(game.min_players, min(game.max_players, 5)), seed=seed)
        for _step in range(150):
            if state.is_over:
                break
            check(state, rng)
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
        check(state, rng)
    assert moves > 150


@pytest.mark.parametrize("game_name", GAMES)
def test_views_refuse_a_seat_that_does_not_exist(game_name: str) -> None:
    state = load_game(game_name).new_game(players=2, seed=1)
    bad: Any
    for bad in (2, -1, "0"):
        with pytest.raises(InvalidSeat):
            state.views([0, bad])
