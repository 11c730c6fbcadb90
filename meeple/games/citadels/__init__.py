"""Citadels (Classic edition): the rules engine. See docs/games/citadels.md."""

from meeple.games.citadels.game import Citadels
from meeple.games.citadels.state import CitadelsState

__all__ = ["Citadels", "CitadelsState"]
