"""A game encoder's fast path (``encode_state``, written straight from the state) gives exactly the
vector of ``encode(state.observation(seat))``, the definition, at every position of seeded random
games, at every player count and for every seat (so it can show nothing more than the Observation)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple import load_game
from meeple.research import ENCODERS, encoder
from meeple.research.encoding import Encoder
from tests.research.helpers import CASES

GAMES_PER_CASE = 2


def has_fast_path(name: str) -> bool:
    return type(encoder(name, load_game(name).min_players)).encode_state is not Encoder.encode_state


FAST = [(name, players) for name, players in CASES if has_fast_path(name)]


def test_some_games_have_a_fast_path() -> None:
    assert "citadels" in {name for name, _ in FAST}, "no fast path is tested: the equality test proves nothing"


@pytest.mark.parametrize(("name", "players"), FAST)
def test_the_fast_path_equals_encoding_the_observation(name: str, players: int) -> None:
    coder = encoder(name, players)
    game = load_game(name)
    for seed in range(GAMES_PER_CASE):
        chooser = random.Random(seed)
        state = game.new_game(players=players, seed=1000 * players + seed)
        positions = 0
        while True:
            for seat in range(players):
                fast = coder.encode_state(state, seat)
                slow = coder.encode(state.observation(seat))
                assert fast.dtype == slow.dtype and fast.shape == slow.shape
                if not np.array_equal(fast, slow):
                    differs = [f"{field}: {coder.split(fast)[field].tolist()} != {coder.split(slow)[field].tolist()}"
                               for field in coder.offset
                               if not np.array_equal(coder.split(fast)[field], coder.split(slow)[field])]
                    raise AssertionError(f"{name} {players}p seed {seed} action {positions} seat {seat}: "
                                         + "; ".join(differs))
            if state.is_over:
                break
            state.apply(chooser.choice(state.legal_actions()))
            positions += 1


@pytest.mark.parametrize("name", sorted(ENCODERS))
def test_the_fast_path_refuses_what_the_definition_refuses(name: str) -> None:
    players = load_game(name).min_players
    state = load_game(name).new_game(players=players, seed=1)
    coder = encoder(name, players)
    for seat in (-1, players, "0"):
        with pytest.raises(Exception) as slow:
            coder.encode(state.observation(seat))
        with pytest.raises(slow.type):
            coder.encode_state(state, seat)  # type: ignore[arg-type]
    other = encoder(name, players + 1)
    with pytest.raises(ValueError):
        other.encode_state(state, 0)
