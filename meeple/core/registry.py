"""Which games meeple has, found by name without importing all of them."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
from functools import cache
from typing import Any

from meeple.core.contract import Game
from meeple.core.errors import UnknownGame

#: Game name -> "module:class" of its ``Game`` subclass.
GAME_CLASSES: dict[str, str] = {
    "citadels": "meeple.games.citadels.game:Citadels",
    "burgundy": "meeple.games.burgundy.game:Burgundy",
    "caylus": "meeple.games.caylus.game:Caylus",
    "palais_royal": "meeple.games.palais_royal.game:PalaisRoyal",
}


def _is_installed(module_name: str) -> bool:
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def game_names() -> list[str]:
    """The games whose engines are installed (a registered name whose package is missing is left out)."""
    return [name for name, target in GAME_CLASSES.items() if _is_installed(target.split(":")[0])]


@cache
def load_game(name: str) -> Game[Any]:
    """The game called ``name`` (``"citadels"``, …); unknown names raise ``UnknownGame``."""
    try:
        target = GAME_CLASSES[name]
    except (KeyError, TypeError):
        known = ", ".join(game_names())
        raise UnknownGame(f"unknown game {name!r}; available: {known}") from None
    module_name, class_name = target.split(":")
    if not _is_installed(module_name):
        raise UnknownGame(f"the {name!r} engine is not part of this installation yet")
    game_class = getattr(importlib.import_module(module_name), class_name)
    game: Game[Any] = game_class()
    return game


def engine_is_compiled(name: str) -> bool:
    """Whether game ``name``'s rules run compiled (``MEEPLE_COMPILE=1``, docs/compiled.md): its state and
    data modules were imported from C extensions rather than their Python source. Benchmarks print it
    beside their figures."""
    load_game(name)  # the same errors for an unknown name
    package = GAME_CLASSES[name].split(":")[0].rsplit(".", 1)[0]
    origins = (getattr(importlib.import_module(f"{package}.{module}"), "__file__", None) or ""
               for module in ("state", "data"))
    return all(origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for origin in origins)
