"""The OpenSpiel games pass pyspiel.random_sim_test at every player count and play whole games."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel

import meeple.research.openspiel as meeple_spiel
from meeple import load_game
from meeple.research import action_table, outcome
from tests.research.helpers import CASES

#: random_sim_test checks every observation and information state of every player at every step, which
#: costs about as much as playing a whole game per step; its games are cut at this many actions (a cut
#: game ends as a draw, which the test covers too). Whole games are played below.
SIM_LENGTH = 120


def started(game: object, seed: int) -> object:
    """A new state of ``game`` past its seed's chance nodes, the bytes drawn from ``seed``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    chooser = np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        assert len(outcomes) == 256 and sum(probabilities) == pytest.approx(1.0)
        state.apply_action(int(chooser.choice(outcomes)))
    return state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim_test_passes(name: str, players: int) -> None:
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": players, "max_game_length": SIM_LENGTH})
    assert game.num_players() == players
    assert game.num_distinct_actions() == action_table(name, players).size
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted({name for name, _ in CASES}))
def test_a_whole_game_ends_with_the_outcome(name: str) -> None:
    players = load_game(name).min_players
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": players})
    state = started(game, 3)
    chooser = np.random.default_rng(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and state.current_player() == state.meeple.current_player
        state.apply_action(int(chooser.choice(legal)))
    assert state.meeple.is_over
    assert state.returns() == pytest.approx(outcome(state.meeple))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_chance_nodes_spell_the_seed_and_a_cut_game_is_a_draw() -> None:
    game = pyspiel.load_game("python_meeple_citadels", {"players": 3})
    state = game.new_initial_state()
    for byte in (0, 0, 0, 0, 0, 0, 1, 2):
        assert state.is_chance_node() and state.observation_string(0) == ""
        state.apply_action(byte)
    assert state.meeple.seed == 258 and state.meeple.to_json() == load_game("citadels").new_game(3, 258).to_json()
    game = pyspiel.load_game("python_meeple_caylus", {"players": 2, "max_game_length": 10})
    state = started(game, 1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 8 + 10 and state.returns() == [0.0, 0.0]


def test_clones_are_independent_and_states_serialize() -> None:
    game = pyspiel.load_game("python_meeple_palais_royal", {"players": 3})
    state = started(game, 1)
    for _ in range(30):
        state.apply_action(state.legal_actions()[-1])
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.meeple.history) == 30
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(restored) == str(state) and restored.information_state_string(1) == state.information_state_string(1)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_observers_and_a_public_observer() -> None:
    game = pyspiel.load_game("python_meeple_citadels", {"players": 4})
    state = started(game, 2)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    assert "hand=None" in public.string_from(state, 0) and "hand=None" not in state.observation_string(0)
    with pytest.raises(ValueError):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_ismcts_samples_worlds_through_resample() -> None:
    game = pyspiel.load_game("python_meeple_citadels", {"players": 2})
    state = started(game, 4)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    world = meeple_spiel.resample(state, state.current_player())
    assert world.observation_string(state.current_player()) == state.observation_string(state.current_player())
    assert meeple_spiel.ismcts_bot(game, 8, seed=1).step(state) in state.legal_actions()
