"""A Gymnasium environment: one seat learns, the other seats are meeple bots (docs/research.md).

The observation is the learner's encoded observation (``encoder(game, players).flat_space()``); an
action is an index into the game's action table; ``info["action_mask"]`` (and ``action_masks()``, which
sb3-contrib's MaskablePPO reads) marks the legal ones. Between two decisions of the learner the bots
play; the episode ends with the game, the reward being the learner's payoff from
``meeple.research.outcome`` (+1 for a sole win). An illegal action changes nothing and is rewarded
``illegal_action_reward``.

Bots are ``meeple.bots.make_bot(level, seed)`` with a seed derived from the episode's, so a reset with a
seed replays the same episode for the same actions (the "hard" level searches against the clock and
is the exception).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from meeple.bots import Bot, make_bot
from meeple.research.driver import Driver, render_text
from meeple.research.encoding import Vector
from meeple.research.outcome import outcome
from meeple.research.tables import Mask


class MeepleGymEnv(gymnasium.Env[Vector, np.int64]):
    """Seat ``seat`` of a ``players``-player game against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium's own declaration)

    def __init__(
        self,
        game_name: str,
        players: int = 2,
        *,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "easy",
        game_options: Mapping[str, Any] | None = None,
        illegal_action_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.driver = Driver(game_name, players, game_options)
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat must be 0–{players - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        others = [s for s in range(players) if s != seat]
        levels = list(opponents) if isinstance(opponents, Sequence) and not isinstance(opponents, str) else \
            [opponents] * len(others)
        if len(levels) != len(others):
            raise ValueError(f"{len(levels)} opponents given for the {len(others)} other seats")
        for level in levels:
            if isinstance(level, str):
                make_bot(level)  # an unknown level raises here, not at the first reset
        self.levels = dict(zip(others, levels, strict=True))
        self.game_name = game_name
        self.seat = seat
        self.illegal_action_reward = float(illegal_action_reward)
        self.render_mode = render_mode
        self.observation_space = self.driver.encoder.flat_space()
        self.action_space = spaces.Discrete(self.driver.table.size)
        self.bots: dict[int, Bot] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))  # seeded by ``seed``, else from the OS once
        self.driver.new_game(game_seed)
        self.bots = {s: make_bot(level, f"{game_seed}/{s}") if isinstance(level, str) else level
                     for s, level in self.levels.items()}
        self._let_bots_play()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        state = self.driver.state
        if state.is_over:
            raise RuntimeError("the episode is over: call reset()")
        if not self.driver.play(int(action)):
            return self._observation(), self.illegal_action_reward, False, False, self._info(illegal=True)
        self._let_bots_play()
        over = self.driver.state.is_over
        reward = outcome(self.driver.state)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> Mask:
        """The learner's legal actions as a 0/1 vector (what MaskablePPO asks the environment for); all 0
        when it is not the learner's decision (the game is over), since another seat's choices could
        show what the learner may not see."""
        if self.driver.state.current_player != self.seat:
            return np.zeros(self.driver.table.size, np.int8)
        return self.driver.mask()

    def render(self) -> str | None:
        """The game as the terminal draws it for the learner's seat."""
        return render_text(self.driver.state, self.seat)

    # --- helpers ---------------------------------------------------------------------------------

    def _let_bots_play(self) -> None:
        driver = self.driver
        state = driver.state
        while not state.is_over and state.current_player != self.seat:
            driver.play_action(self.bots[state.current_player].choose(state))  # type: ignore[index]

    def _observation(self) -> Vector:
        return self.driver.observe(self.seat)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if illegal:
            info["illegal_action"] = True
        return info

