"""PettingZoo environments for meeple's games (docs/research.md, "PettingZoo").

``MeepleAECEnv`` is the agent-environment-cycle form: agents ``player_0`` … ``player_{n-1}`` are the
seats; each observation is ``{"observation": the encoder's vector, "action_mask": int8 legal mask}``;
an action is an index into the game's action table. Two ways to hand out turns:

- ``turns="engine"`` (default): ``agent_selection`` is always the seat that decides in the game, so a
  seat with several decisions in a row (a Palais Royal turn, a Citadels draw and build) steps several
  times in a row. Nothing is wasted: every step is a decision.
- ``turns="cycle"``: the agents step in seat order, one step each per cycle, as PettingZoo's parallel
  API and ``max_cycles`` assume. The seat deciding in the game plays one decision; every other seat's
  only legal action is ``WAIT`` (the extra last index). ``parallel_env`` wraps this form.

An illegal action (possible only when the mask is ignored) changes nothing: the acting agent receives
``illegal_action_reward`` and, in engine mode, is asked again. At the end every agent gets its payoff
from ``meeple.research.outcome`` (zero-sum, +1 for a sole winner). ``max_cycles`` truncates the game
after ``max_cycles × players`` steps.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import aec_to_parallel

from meeple.core.rng import Rng
from meeple.research.driver import Driver, render_text
from meeple.research.outcome import outcome

TURNS = ("engine", "cycle")


class MeepleAECEnv(AECEnv):  # type: ignore[misc]
    """A meeple game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        game_name: str,
        players: int = 2,
        *,
        game_options: Mapping[str, Any] | None = None,
        turns: str = "engine",
        max_cycles: int | None = None,
        illegal_action_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if turns not in TURNS:
            raise ValueError(f"turns must be one of {TURNS}, not {turns!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi' or 'human', not {render_mode!r}")
        self.driver = Driver(game_name, players, game_options)
        self.game_name = game_name
        self.cycle = turns == "cycle"
        self.max_cycles = max_cycles
        self.illegal_action_reward = float(illegal_action_reward)
        self.render_mode = render_mode
        self.metadata = {"name": f"meeple_{game_name}_v1", "render_modes": ["ansi", "human"], "render_fps": 4,
                         "is_parallelizable": self.cycle}
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        table_size = self.driver.table.size
        #: In cycle mode, the index of "wait" (a seat that does not decide now); -1 in engine mode.
        self.wait = table_size if self.cycle else -1
        self.num_actions = table_size + (1 if self.cycle else 0)
        coder = self.driver.encoder
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (coder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self._seeder: Rng | None = None
        self._steps = 0
        self._rewarded = False  # some reward is non-zero since the last clearing
        self.reset()

    # --- the PettingZoo API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed``, the same game every time (and the same sequence of games on the
        following resets without a seed); without, the next game of the sequence."""
        if seed is not None:
            self._seeder = Rng(seed)
        elif self._seeder is None:
            self._seeder = Rng(secrets.randbits(63))
        self.driver.new_game(self._seeder.next64() >> 1)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._steps = 0
        self._rewarded = False
        seat = self.driver.state.current_player
        self.agent_selection = self.possible_agents[0 if self.cycle or seat is None else seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.agent_seat[agent]
        return {"observation": self.driver.observe(seat), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> Any:
        """The agent's legal indexes now: the game's legal actions for the deciding seat (in cycle mode,
        only ``WAIT`` for the others; in engine mode, nothing for them)."""
        seat = self.agent_seat[agent]
        state = self.driver.state
        if state.is_over or seat != state.current_player:
            mask = np.zeros(self.num_actions, np.int8)
            if self.cycle and not state.is_over:
                mask[self.wait] = 1
            return mask
        return self.driver.mask(self.num_actions)

    def legal_actions(self, agent: str) -> list[int]:
        """The indexes ``action_mask(agent)`` marks, as a list (cheaper than the mask when an agent only
        picks among them)."""
        state = self.driver.state
        if state.is_over:
            return []
        if self.agent_seat[agent] != state.current_player:
            return [self.wait] if self.cycle else []
        return list(self.driver.legal())

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        driver = self.driver
        state = driver.state
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards are rare (illegal actions, the end): clear them only after one
            self._clear_rewards()
            self._rewarded = False
        index = int(action)
        deciding = seat == state.current_player
        # the deciding seat plays a legal index; another (cycle mode) may only wait
        legal = driver.play(index) if deciding and index != self.wait else not deciding and index == self.wait
        if not legal:
            self.rewards[agent] = self.illegal_action_reward
            self._rewarded = True
        self._steps += 1
        if state.is_over:
            for other, payoff in zip(self.possible_agents, outcome(state), strict=True):
                self.rewards[other] += payoff
                self.terminations[other] = True
            self._rewarded = True
        elif self.max_cycles is not None and self._steps >= self.max_cycles * driver.players:
            for other in self.agents:
                self.truncations[other] = True
        if self.cycle:
            self.agent_selection = self.possible_agents[(seat + 1) % driver.players]
        elif not state.is_over:
            self.agent_selection = self.possible_agents[state.current_player]  # type: ignore[index]
        if self._rewarded:
            self._accumulate_rewards()
        if self.terminations[agent] or self.truncations[agent]:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as the terminal draws it for a spectator (``ansi``: returned; ``human``: printed)."""
        text = render_text(self.driver.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(game_name: str, players: int = 2, **options: Any) -> MeepleAECEnv:
    """The AEC environment (the name PettingZoo's test helpers look for)."""
    return MeepleAECEnv(game_name, players, **options)


def parallel_env(game_name: str, players: int = 2, **options: Any) -> Any:
    """The parallel form: each ``step`` is one cycle in which every seat submits an action; only the
    deciding seat's counts, the others must send ``WAIT`` (built on ``turns="cycle"``)."""
    options["turns"] = "cycle"
    return aec_to_parallel(MeepleAECEnv(game_name, players, **options))
