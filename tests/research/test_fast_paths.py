"""A game encoder's fast path (``encode_state``, written straight from the state) gives exactly the
vector of ``encode(state.observation(seat))``, the definition, at every position of seeded random
games, at every player count and for every seat (so it can show nothing more than the Observation);
and the vectors the adapters cache per position and seat always show the position as it is."""

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


@pytest.mark.parametrize("name", sorted(ENCODERS))
def test_cached_observations_follow_the_game(name: str) -> None:
    # The driver and OpenSpiel keep each seat's vector per position: after every move (through the
    # adapter, a clone's move, or a state set from outside) each seat is shown the position as it is.
    import pyspiel

    import meeple.research.openspiel  # noqa: F401  (registers the games)
    from meeple.research import pettingzoo_env

    players = load_game(name).min_players
    coder = encoder(name, players)
    env = pettingzoo_env(name, players)
    env.reset(seed=3)
    spiel = pyspiel.load_game(f"python_meeple_{name}", {"players": players}).new_initial_state()
    for byte in range(8):
        spiel.apply_action(byte)
    chooser = random.Random(3)
    for _ in range(60):
        state = env.driver.state
        if state.is_over:
            break
        for seat, agent in enumerate(env.possible_agents):
            shown = env.observe(agent)["observation"]
            assert np.array_equal(shown, coder.encode(state.observation(seat)))
            shown[:] = 7.0  # the caller's copy: changing it changes nothing cached
            assert np.array_equal(env.observe(agent)["observation"], coder.encode(state.observation(seat)))
            tensor = spiel.observation_tensor(seat)
            assert np.array_equal(np.array(tensor, np.float32), coder.encode(spiel.meeple.observation(seat)))
        ahead = spiel.clone()
        ahead.apply_action(ahead.legal_actions()[0])
        assert np.array_equal(np.array(ahead.observation_tensor(0), np.float32),
                              coder.encode(ahead.meeple.observation(0)))
        assert np.array_equal(np.array(spiel.observation_tensor(0), np.float32),
                              coder.encode(spiel.meeple.observation(0)))  # the clone's move left it alone
        assert sorted(spiel.legal_actions()) == sorted(env.driver.table.indices(spiel.meeple.legal_actions()))
        env.step(chooser.choice(env.legal_actions(env.agent_selection)))
        spiel.apply_action(chooser.choice(spiel.legal_actions()))
    elsewhere = load_game(name).new_game(players=players, seed=99)
    env.driver.set_state(elsewhere)
    assert np.array_equal(env.observe(env.possible_agents[0])["observation"], coder.encode(elsewhere.observation(0)))
