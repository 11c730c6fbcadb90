"""meeple: exact rules engines and a self-hostable platform for classic Euro board games."""

from meeple.core import (
    Game,
    GameState,
    IllegalAction,
    InvalidOptions,
    InvalidSeat,
    InvalidState,
    Rng,
    UnknownGame,
    game_names,
    load_game,
)

__all__ = [
    "Game",
    "GameState",
    "IllegalAction",
    "InvalidOptions",
    "InvalidSeat",
    "InvalidState",
    "Rng",
    "UnknownGame",
    "game_names",
    "load_game",
]
__version__ = "0.1.0"
