"""The baseline every other bot is measured against: a uniformly random legal action."""

from __future__ import annotations

from typing import Any

from meeple.core.contract import GameState
from meeple.core.rng import Rng


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator (never the game's)."""

    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState[Any]) -> Any:
        return self.rng.choice(state.legal_actions())
