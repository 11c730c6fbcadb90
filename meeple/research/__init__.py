"""The research API: meeple's games for reinforcement learning and game theory (docs/research.md).

Needs the optional extra: ``pip install 'meeple[research]'`` (numpy, gymnasium, pettingzoo, open-spiel).

- ``action_table(game, players)``: the fixed, versioned index of every action, and legal-action masks;
- ``encoder(game, players)``: a seat's ``Observation`` as a flat vector or a dict of arrays;
- ``pettingzoo_env(game, players=N, **options)`` / ``parallel_env(...)``: PettingZoo environments;
- ``gym_env(game, players=N, seat=0, opponents="easy")``: a Gymnasium environment against meeple bots;
- ``import meeple.research.openspiel``: registers ``python_meeple_<game>`` with OpenSpiel.

Every adapter observes through ``state.observation(seat)`` and the encoders only, so none can show a
seat what it may not know.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from meeple.core.registry import load_game
from meeple.research.encoding import Encoder, Field
from meeple.research.outcome import outcome
from meeple.research.tables import ActionTable, TableMismatch, action_table

#: Game name -> "module:class" of its encoder.
ENCODERS: dict[str, str] = {
    "citadels": "meeple.research.encoders.citadels:CitadelsEncoder",
    "burgundy": "meeple.research.encoders.burgundy:BurgundyEncoder",
    "caylus": "meeple.research.encoders.caylus:CaylusEncoder",
    "palais_royal": "meeple.research.encoders.palais_royal:PalaisRoyalEncoder",
}


@cache
def encoder(game_name: str, players: int) -> Encoder:
    """The observation encoder of a game at a player count (one shared instance)."""
    load_game(game_name).check_players(players)
    try:
        module_name, class_name = ENCODERS[game_name].split(":")
    except KeyError:
        raise ValueError(f"no encoder for {game_name!r}; available: {', '.join(ENCODERS)}") from None
    encoder_class: type[Encoder] = getattr(import_module(module_name), class_name)
    return encoder_class(players)


def pettingzoo_env(game_name: str, players: int = 2, **options: Any) -> Any:
    """A PettingZoo AEC environment (``meeple.research.pettingzoo.MeepleAECEnv``)."""
    from meeple.research.pettingzoo import MeepleAECEnv

    return MeepleAECEnv(game_name, players, **options)


def parallel_env(game_name: str, players: int = 2, **options: Any) -> Any:
    """The PettingZoo parallel form: every cycle each seat acts once (see docs/research.md)."""
    from meeple.research.pettingzoo import parallel_env as make

    return make(game_name, players, **options)


def gym_env(game_name: str, players: int = 2, seat: int = 0, opponents: str = "easy", **options: Any) -> Any:
    """A Gymnasium environment: ``seat`` learns, the other seats are meeple bots of level ``opponents``."""
    from meeple.research.gym import MeepleGymEnv

    return MeepleGymEnv(game_name, players, seat=seat, opponents=opponents, **options)


def _register_gymnasium_ids() -> None:
    """``gymnasium.make("meeple/<game>-v1", players=N, seat=0, opponents="easy")`` for every game."""
    import gymnasium

    for name in ENCODERS:
        env_id = f"meeple/{name}-v1"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="meeple.research.gym:MeepleGymEnv", kwargs={"game_name": name})


_register_gymnasium_ids()

__all__ = [
    "ENCODERS", "ActionTable", "Encoder", "Field", "TableMismatch", "action_table", "encoder", "gym_env", "outcome",
    "parallel_env", "pettingzoo_env",
]
