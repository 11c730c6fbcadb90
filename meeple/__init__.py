"""meeple: exact rules engines and a self-hostable platform for classic Euro board games."""

from meeple.core import (
    ActionInfo,
    Game,
    GameState,
    IllegalAction,
    InvalidOptions,
    InvalidSeat,
    InvalidState,
    Observation,
    Rng,
    UnknownGame,
    game_names,
    load_game,
)

__all__ = [
    "ActionInfo",
    "Game",
    "GameState",
    "IllegalAction",
    "InvalidOptions",
    "InvalidSeat",
    "InvalidState",
    "Observation",
    "Rng",
    "UnknownGame",
    "game_names",
    "load_game",
]
__version__ = "0.1.0"
