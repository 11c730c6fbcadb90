"""Caylus's printed components as public facts for drawing a table (``Game.components``): what is
printed on its cards, tiles and boards, never a game's state; the words stay in ``i18n/caylus/``."""

from __future__ import annotations

from meeple.core.contract import JSON
from meeple.games.caylus import data


def components() -> JSON:
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
