"""Palais Royal's printed components as public facts for drawing a table (``Game.components``): what is
printed on its cards, tiles and boards, never a game's state; the words stay in ``i18n/palais_royal/``."""

from __future__ import annotations

import re

from meeple.core.contract import JSON
from meeple.games.palais_royal import data
from meeple.games.palais_royal.data import components as printed_components


def step_number(text: str) -> int | None:
    """The step a room or card acts in ("3a" -> 3, "3c/4" -> 4, "step2" -> 2); ``None`` if passive or any."""
    digits = re.findall(r"\d", text)
    return int(digits[-1]) if digits else None


def components() -> JSON:
    parts = printed_components()
    return {
        "garden_files": data.FILES,  # the garden's squares: a file letter, then a rank 1–garden_ranks
        "garden_ranks": data.RANKS,
        "rooms": {room.code: {"step": step_number(room.step)} for room in parts.rooms},
        "cards": {card.code: {"step": step_number(card.window), "copies": card.copies} for card in parts.cards},
    }
