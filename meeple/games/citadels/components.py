"""Citadels's printed components as public facts for drawing a table (``Game.components``): what is
printed on its cards, tiles and boards, never a game's state; the words stay in ``i18n/citadels/``."""

from __future__ import annotations

from meeple.core.contract import JSON
from meeple.games.citadels import data


def components() -> JSON:
    return {
        "characters": list(data.CHARACTER_SLUGS),  # in rank order: rank = index + 1
        "districts": {slug: {"type": data.TYPE_SLUGS[type_], "cost": cost, "points": points, "copies": copies}
                      for slug, _name, type_, cost, points, copies in data.DISTRICTS},
    }
