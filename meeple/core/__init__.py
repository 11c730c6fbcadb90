"""The engine contract shared by every game (see ``contract.py``)."""

from meeple.core.contract import Action, Game, GameState
from meeple.core.errors import IllegalAction, InvalidOptions, InvalidSeat, InvalidState, MeepleError, UnknownGame
from meeple.core.observation import ActionInfo, Observation
from meeple.core.options import Option, OptionSet
from meeple.core.registry import game_names, load_game
from meeple.core.rng import Rng

__all__ = [
    "Action",
    "ActionInfo",
    "Game",
    "GameState",
    "IllegalAction",
    "InvalidOptions",
    "InvalidSeat",
    "InvalidState",
    "MeepleError",
    "Observation",
    "Option",
    "OptionSet",
    "Rng",
    "UnknownGame",
    "game_names",
    "load_game",
]
