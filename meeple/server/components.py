"""The printed components each game's table drawing needs, from the engine contract (``Game.components``).

The browser fetches them once per game (``GET /api/games/<game>/components``, cacheable) instead of
holding copies of rules tables, so a cost or a step changed in the engine shows on the table as is.
Everything here is public: what is printed on the cards, tiles and boards, never a game's state. The
words (names, effects) stay in ``i18n/<game>/`` and ``explain.py``; these are the facts and figures.
"""

from __future__ import annotations

from functools import cache

from meeple.core.contract import JSON
from meeple.core.registry import game_names, load_game


@cache
def components(game: str) -> JSON:
    """The component data of ``game``; ``KeyError`` for a game that is not installed or offers none."""
    if game not in game_names():
        raise KeyError(game)
    parts = load_game(game).components()
    if not parts:
        raise KeyError(game)
    return parts


def games_with_components() -> list[str]:
    return [name for name in game_names() if load_game(name).components()]
