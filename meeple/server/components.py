"""The printed components each game's table drawing needs, read from the engine's own data modules.

The browser fetches them once per game (``GET /api/games/<game>/components``, cacheable) instead of
holding copies of rules tables, so a cost or a step changed in the engine shows on the table as is.
Everything here is public: what is printed on the cards, tiles and boards, never a game's state. The
words (names, effects) stay in ``i18n/<game>/`` and ``explain.py``; these are the facts and figures.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from meeple.core.contract import JSON


def _citadels() -> JSON:
    from meeple.games.citadels import data

    return {
        "characters": list(data.CHARACTER_SLUGS),  # in rank order: rank = index + 1
        "districts": {slug: {"type": data.TYPE_SLUGS[type_], "cost": cost, "points": points, "copies": copies}
                      for slug, _name, type_, cost, points, copies in data.DISTRICTS},
    }


def _caylus() -> JSON:
    from meeple.games.caylus import data

    return {
        "cubes": data.CUBES,
        "tiles": {tile.slug: {"kind": data.KIND_NAMES[tile.kind],
                              "cost": data.cube_text(tile.cost) + ("+" if tile.any_cube else ""),
                              "prestige": tile.prestige, "favours": tile.favours, "copies": tile.copies}
                  for tile in data.TILES},
        "specials": [data.SPECIAL_NAMES[target] for target in sorted(data.SPECIAL_NAMES)],
        "favour_rows": list(data.ROWS),  # the royal favour table: its rows, and columns 1–favour_columns
        "favour_columns": data.FAVOUR_COLUMNS,
    }


def _step_number(text: str) -> int | None:
    """The step a room or card acts in ("3a" -> 3, "3c/4" -> 4, "step2" -> 2); ``None`` if passive or any."""
    digits = re.findall(r"\d", text)
    return int(digits[-1]) if digits else None


def _palais_royal() -> JSON:
    from meeple.games.palais_royal import data
    from meeple.games.palais_royal.data import components

    parts = components()
    return {
        "garden_files": data.FILES,  # the garden's squares: a file letter, then a rank 1–garden_ranks
        "garden_ranks": data.RANKS,
        "rooms": {room.code: {"step": _step_number(room.step)} for room in parts.rooms},
        "cards": {card.code: {"step": _step_number(card.window), "copies": card.copies} for card in parts.cards},
    }


def _burgundy() -> JSON:
    from meeple.games.burgundy import data

    return {
        "type_letters": data.TYPE_LETTERS,
        "row_lengths": list(data.ROW_LENGTHS),  # the estate's hexagon rows, top to bottom
        "space_dice": list(data.SPACE_DIE[1:]),  # the die value printed on estate spaces 1–37
        # each tile by code: its type letter; an animal tile's animal and count; a knowledge tile's number
        "tiles": {code: {"type": data.TYPE_LETTERS[data.TILE_TYPE[index]],
                         "animal": data.ANIMALS[data.ANIMAL_KIND[index]] if data.ANIMAL_KIND[index] >= 0 else None,
                         "count": data.ANIMAL_COUNT[index] or None,
                         "number": data.KNOWLEDGE_NUMBER[index] or None}
                  for index, code in enumerate(data.TILE_NAMES)},
    }


COMPONENTS: dict[str, Callable[[], JSON]] = {
    "citadels": _citadels,
    "caylus": _caylus,
    "palais_royal": _palais_royal,
    "burgundy": _burgundy,
}


@cache
def components(game: str) -> JSON:
    """The component data of ``game`` (``KeyError`` for a game without a table drawing)."""
    return COMPONENTS[game]()
