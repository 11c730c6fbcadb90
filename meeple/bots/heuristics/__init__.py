"""Rule-of-thumb bots, one module per game (``meeple.bots.heuristics.<game>``), each exposing
``HeuristicBot``; the docstring of each says which rules of thumb it follows."""

from __future__ import annotations

import importlib
from typing import Any

from meeple.core.contract import GameState


def has_heuristic(game_name: str) -> bool:
    try:
        importlib.import_module(f"meeple.bots.heuristics.{game_name}")
    except ModuleNotFoundError:
        return False
    return True


def ranked_by(bot: Any, state: GameState[Any]) -> list[Any]:
    """The legal actions best first: the bot's own ``ranked(state)`` where it has one, else its
    choice first and the rest in legal order."""
    ranked = getattr(bot, "ranked", None)
    if ranked is not None:
        return list(ranked(state))
    choice = bot.choose(state)
    return [choice, *(action for action in state.legal_actions() if action != choice)]


class GameHeuristicBot:
    """Plays with the heuristic bot of whichever game it is handed (chosen on the first move)."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self._bot: Any = None
        self._game_name: str | None = None

    def choose(self, state: GameState[Any]) -> Any:
        return self._for(state).choose(state)

    def ranked(self, state: GameState[Any]) -> list[Any]:
        """The legal actions best first, where the game's bot can rank them (else its choice first)."""
        return ranked_by(self._for(state), state)

    def _for(self, state: GameState[Any]) -> Any:
        game_name = state.game.name
        if self._bot is None or self._game_name != game_name:
            try:
                module = importlib.import_module(f"meeple.bots.heuristics.{game_name}")
            except ModuleNotFoundError:
                raise ValueError(f"there is no heuristic bot for {game_name!r} yet") from None
            self._bot = module.HeuristicBot(self.seed)
            self._game_name = game_name
        return self._bot
