"""No adapter leaks: two states that differ only in what seat s cannot see (``state.determinize(s, k)``)
give seat s identical observations in every form — the Observation, its encoding and the encoder's fast
path from the state (which the adapters use), the PettingZoo and Gymnasium observations and masks, and
OpenSpiel's observation tensor and string and information state."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import pyspiel

import meeple.research.openspiel as meeple_spiel
from meeple.core.contract import GameState
from meeple.research import encoder, gym_env, pettingzoo_env
from tests.research.helpers import CASES, positions

WORLDS = 2  # determinizations per position and seat


def seen_by(seat: int, state: GameState[Any], adapters: dict[str, Any]) -> dict[str, Any]:
    """Everything each adapter shows ``seat`` of ``state``."""
    seen: dict[str, Any] = {"observation": state.observation(seat)}
    coder = encoder(state.game.name, state.players)
    seen["encoding"] = coder.encode(seen["observation"]).tolist()
    seen["fast path"] = coder.encode_state(state, seat).tolist()  # the adapters' way (a game's own or the above)
    aec = adapters["pettingzoo"]
    aec.driver.set_state(state)
    shown = aec.observe(aec.possible_agents[seat])
    seen["pettingzoo"] = (shown["observation"].tolist(), shown["action_mask"].tolist())
    gym = adapters["gym"][seat]
    gym.driver.set_state(state)
    seen["gym"] = (gym._observation().tolist(), gym._info()["action_mask"].tolist())
    spiel = adapters["openspiel"].state_from_meeple(state)
    seen["openspiel"] = (spiel.observation_tensor(seat), spiel.observation_string(seat),
                         spiel.information_state_string(seat))
    return seen


@pytest.mark.parametrize(("name", "players"), CASES)
def test_what_a_seat_cannot_see_changes_nothing_it_is_shown(name: str, players: int) -> None:
    adapters = {
        "pettingzoo": pettingzoo_env(name, players),
        "gym": [gym_env(name, players=players, seat=seat) for seat in range(players)],
        "openspiel": pyspiel.load_game(f"python_meeple_{name}", {"players": players}),
    }
    assert isinstance(adapters["openspiel"], meeple_spiel.MeepleSpielGame)
    worlds_differ = False
    for index, state in enumerate(positions(name, players, 500 + players, 97)):
        for seat in range(players):
            expected = seen_by(seat, state, adapters)
            for k in range(WORLDS):
                world = state.determinize(seat, 1000 * index + k)
                worlds_differ |= json.dumps(world.to_json()) != json.dumps(state.to_json())
                got = seen_by(seat, world, adapters)
                for adapter, shown in expected.items():
                    assert got[adapter] == shown, f"{name} {players}p: {adapter} shows seat {seat} hidden facts"
    assert worlds_differ, "the determinizations never changed anything: the test would prove nothing"


def test_the_information_state_differs_when_the_seat_saw_something_different() -> None:
    # The converse, on one case: the string is not blind (another seat's hand is hidden from seat 0, but
    # seat 0's own hand is not).
    game = pyspiel.load_game("python_meeple_palais_royal", {"players": 2})
    a = load_started(game, 1)
    b = game.state_from_meeple(a.meeple.determinize(1, 5))
    assert np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    if a.meeple.observation(0).hand != b.meeple.observation(0).hand:
        assert a.information_state_string(0) != b.information_state_string(0)


def load_started(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    for byte in seed.to_bytes(8, "big"):
        state.apply_action(byte)
    chooser = np.random.default_rng(seed)
    for _ in range(200):
        state.apply_action(int(chooser.choice(state.legal_actions())))
    return state
