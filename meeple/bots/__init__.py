"""Bots that take seats in the CLI, simulations and the server."""

from __future__ import annotations

from collections.abc import Callable

from meeple.bots.base import Bot
from meeple.bots.heuristics import GameHeuristicBot
from meeple.bots.ismcts import ISMCTSBot
from meeple.bots.random_bot import RandomBot

#: Bot kinds by name, each a factory taking the bot's seed. "easy" is the random bot; "heuristic"
#: plays the game's own rules of thumb (meeple/bots/heuristics/<game>.py); "ismcts" searches 1,000
#: determinized iterations per decision.
BOT_KINDS: dict[str, Callable[[int | str], Bot]] = {
    "random": RandomBot,
    "easy": RandomBot,
    "heuristic": GameHeuristicBot,
    "ismcts": lambda seed: ISMCTSBot(seed, iterations=1000),
}


def make_bot(kind: str, seed: int | str = 0) -> Bot:
    """A bot of the named kind with its own seed; unknown kinds raise ``ValueError``."""
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; available: {', '.join(BOT_KINDS)}") from None
    return factory(seed)


__all__ = ["BOT_KINDS", "Bot", "ISMCTSBot", "RandomBot", "make_bot"]
