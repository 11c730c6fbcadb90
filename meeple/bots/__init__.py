"""Bots that take seats in the CLI, simulations and the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.bots.base import Bot
from meeple.bots.heuristics import GameHeuristicBot, has_heuristic
from meeple.bots.ismcts import ISMCTSBot
from meeple.bots.random_bot import RandomBot
from meeple.core.contract import GameState


class RolloutPolicy:
    """The game's heuristic bot where one exists (``meeple/bots/heuristics/<game>.py``), else random."""

    name = "rollout-policy"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self._bots: dict[str, Bot] = {}

    def choose(self, state: GameState[Any]) -> Any:
        game_name = state.game.name
        bot = self._bots.get(game_name)
        if bot is None:
            bot = GameHeuristicBot(self.seed) if has_heuristic(game_name) else RandomBot(self.seed)
            self._bots[game_name] = bot
        return bot.choose(state)


#: The settings of the "hard" level: heuristic rollouts (10% random moves) cut after 40 actions and
#: scored by the running score margin, the heuristic's choice as a prior, about 1 s per decision.
HARD_SETTINGS: dict[str, Any] = {
    "iterations": None,
    "time_limit": 1.0,
    "epsilon": 0.1,
    "rollout_cutoff": 40,
    "prior_weight": 1.0,
    "widening": 1.5,
}


def hard_bot(seed: int | str = 0, **overrides: Any) -> ISMCTSBot:
    """The strong ISMCTS of the "hard" level; keyword arguments override ``HARD_SETTINGS``."""
    settings = {**HARD_SETTINGS, **overrides}
    return ISMCTSBot(seed, rollout_policy=RolloutPolicy(f"{seed}/rollout"), **settings)


#: Bot kinds by name, each a factory taking the bot's seed. Levels: "easy" is the random bot;
#: "medium" (also "heuristic") plays the game's own rules of thumb (meeple/bots/heuristics/<game>.py);
#: "hard" is ISMCTS with heuristic rollouts, a rollout cutoff and priors at ~1 s per decision.
#: "ismcts" is the plain search (random rollouts, 1,000 determinized iterations per decision, but never
#: more than 2 s, so a seat at a table never stalls on a game whose random rollouts are long).
BOT_KINDS: dict[str, Callable[[int | str], Bot]] = {
    "random": RandomBot,
    "easy": RandomBot,
    "heuristic": GameHeuristicBot,
    "medium": GameHeuristicBot,
    "hard": hard_bot,
    "ismcts": lambda seed: ISMCTSBot(seed, iterations=1000, time_limit=2.0),
}


def make_bot(kind: str, seed: int | str = 0) -> Bot:
    """A bot of the named kind with its own seed; unknown kinds raise ``ValueError``."""
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; available: {', '.join(BOT_KINDS)}") from None
    return factory(seed)


__all__ = ["BOT_KINDS", "HARD_SETTINGS", "Bot", "ISMCTSBot", "RandomBot", "RolloutPolicy", "hard_bot", "make_bot"]
