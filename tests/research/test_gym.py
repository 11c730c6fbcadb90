"""The Gymnasium environment passes gymnasium's env_checker at every player count and plays by the rules."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from meeple.bots import hard_bot
from meeple.research import gym_env, outcome
from tests.research.helpers import CASES


@pytest.mark.parametrize(("name", "players"), CASES)
def test_env_checker_passes(name: str, players: int) -> None:
    for seat, opponents in ((0, "random"), (players - 1, "medium")):
        env = gymnasium.make(f"meeple/{name}-v1", players=players, seat=seat, opponents=opponents)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped, skip_render_check=False)
        assert not [str(w.message) for w in caught]


@pytest.mark.parametrize(("name", "players"), [("citadels", 5), ("burgundy", 2)])
def test_a_masked_episode_ends_with_the_seats_outcome(name: str, players: int) -> None:
    env = gym_env(name, players=players, seat=1, opponents="easy")
    observation, info = env.reset(seed=4)
    chooser = np.random.default_rng(4)
    done = False
    while not done:
        assert env.driver.state.current_player == 1
        assert (info["action_mask"] == env.action_masks()).all()
        action = int(chooser.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated and env.observation_space.contains(observation)
    assert reward == outcome(env.driver.state)[1]


def test_seeded_resets_replay_the_same_episode_and_illegal_actions_change_nothing() -> None:
    env = gym_env("palais_royal", players=3, seat=2, opponents=["easy", "medium"])
    first, info = env.reset(seed=9)
    again, _ = env.reset(seed=9)
    assert (first == again).all()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.driver.state.to_json()
    _, reward, done, _, info = env.step(illegal)
    assert reward == -1.0 and not done and info["illegal_action"] and env.driver.state.to_json() == before


def test_opponent_levels_are_checked_and_random_is_easy() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        gym_env("caylus", players=2, opponents="grandmaster")
    with pytest.raises(ValueError, match="opponents"):
        gym_env("caylus", players=3, opponents=["easy"])
    assert gym_env("caylus", players=2, opponents="random").levels == {1: "random"}


def test_a_hard_opponent_plays() -> None:
    env = gym_env("citadels", players=2, seat=0, opponents=hard_bot(1, time_limit=0.05))
    _, info = env.reset(seed=1)
    _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not done and env.driver.state.current_player == 0
