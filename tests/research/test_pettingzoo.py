"""The PettingZoo environments pass PettingZoo's own tests at every player count, and play by the rules."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, seed_test

from meeple.research import outcome, parallel_env, pettingzoo_env
from tests.research.helpers import CASES

#: The warnings PettingZoo's api_test prints for these environments, each explained in docs/research.md.
EXPLAINED = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_test_suites_pass(name: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pettingzoo_env(name, players), num_cycles=500)
        api_test(pettingzoo_env(name, players, turns="cycle"), num_cycles=200)
        seed_test(lambda: pettingzoo_env(name, players), num_cycles=200)
        seed_test(lambda: pettingzoo_env(name, players, turns="cycle"), num_cycles=100)
        max_cycles_test(types.SimpleNamespace(
            env=lambda max_cycles: pettingzoo_env(name, players, turns="cycle", max_cycles=max_cycles),
            parallel_env=lambda max_cycles: parallel_env(name, players, max_cycles=max_cycles),
        ))
    assert {str(w.message) for w in caught} <= EXPLAINED


@pytest.mark.parametrize("turns", ["engine", "cycle"])
def test_a_masked_random_game_ends_with_the_outcome_as_rewards(turns: str) -> None:
    env = pettingzoo_env("citadels", 3, turns=turns)
    env.reset(seed=5)
    chooser = np.random.default_rng(5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        state = env.driver.state
        if turns == "engine":
            assert env.agent_seat[agent] == state.current_player
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(chooser.choice(legal)))
    assert env.driver.state.is_over
    assert list(totals.values()) == pytest.approx(outcome(env.driver.state))
    assert sum(totals.values()) == pytest.approx(0.0)


def test_an_illegal_action_changes_nothing_and_costs_the_penalty() -> None:
    env = pettingzoo_env("palais_royal", 2, illegal_action_reward=-0.25)
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.driver.state.to_json()
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.driver.state.to_json() == before
    assert env.agent_selection == agent and env.rewards[agent] == -0.25


def test_in_cycle_mode_the_others_wait() -> None:
    env = pettingzoo_env("caylus", 3, turns="cycle")
    env.reset(seed=2)
    deciding = env.possible_agents[env.driver.state.current_player]
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == deciding:
            assert not mask[env.wait] and mask[:env.wait].any()
        else:
            assert mask[env.wait] == 1 and mask.sum() == 1


def test_render_draws_the_table() -> None:
    env = pettingzoo_env("caylus", 2, render_mode="ansi")
    env.reset(seed=3)
    assert "castle" in env.render().lower()
