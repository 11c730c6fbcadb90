"""A walk through a game that asks a bot for its choice at every position on the way."""

from __future__ import annotations

from typing import Any

from meeple.bots import RandomBot
from meeple.bots.base import Bot
from meeple.core.contract import GameState
from meeple.core.rng import Rng


def count_legal_choices(state: GameState[Any], bot: Bot, seed: int) -> int:
    """Play ``state`` to the end, asserting that ``bot`` names a legal action at every position.

    Half the moves are the bot's and half a random player's, so that random players walk the game into
    all sorts of positions while the bot's own kind of positions come up too. Returns the positions asked.
    """
    walker = RandomBot(seed=seed + 50)
    rng = Rng(seed)
    checked = 0
    while not state.is_over:
        legal = state.legal_actions()
        action = bot.choose(state)
        assert action in legal, f"{action} is not legal after {state.history[-4:]}"
        checked += 1
        state.apply(action if rng.random() < 0.5 else walker.choose(state))
    return checked
