"""The Castles of Burgundy's printed components as public facts for drawing a table (``Game.components``): what is
printed on its cards, tiles and boards, never a game's state; the words stay in ``i18n/burgundy/``."""

from __future__ import annotations

from meeple.core.contract import JSON
from meeple.games.burgundy import data


def components() -> JSON:
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
