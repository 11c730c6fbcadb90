"""Bots that take seats in the CLI, simulations and the server."""

from __future__ import annotations

from meeple.bots.base import Bot
from meeple.bots.random_bot import RandomBot

#: Bot kinds by name; "easy" is the random bot until stronger levels land.
BOT_KINDS: dict[str, type[RandomBot]] = {"random": RandomBot, "easy": RandomBot}


def make_bot(kind: str, seed: int | str = 0) -> Bot:
    """A bot of the named kind with its own seed; unknown kinds raise ``ValueError``."""
    try:
        bot_class = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; available: {', '.join(BOT_KINDS)}") from None
    return bot_class(seed)


__all__ = ["BOT_KINDS", "Bot", "RandomBot", "make_bot"]
