"""Actions as the browser gets them: each notation with its ``kind`` and ``args`` from the engine.

A client draws a button for an action from its kind and arguments (``state.action_info``, the engine
contract's structured form) and posts back the notation it was given, so no page ever splits a
notation string. The seat whose turn it is gets ``legal`` (the notations, as every client has always
had) and ``actions``, the ``[kind, args]`` of each, in the same order; a move entry of the platform's
log (``meeple.server.undo``: the table's log, a replay's last step, my-games' last move) carries
``kind`` and ``args`` beside its notation, for its mover only.
A game without structured actions (no ``observation_module``) sends notations only. A decision the
engine has figures for (``GameState.action_hints``: Burgundy's worker cost of each die action) also
gets ``hints``, one object per legal action, so no page computes a rule again.
"""

from __future__ import annotations

from typing import Any

from meeple.core.contract import JSON, Game, GameState

#: ``[kind, args]`` by game and notation; at most every notation of every game (a few thousand).
_SHAPES: dict[tuple[str, str], list[Any]] = {}


def action_shape(game: Game[Any], notation: str) -> list[Any] | None:
    """``[kind, args]`` of ``notation`` (JSON-safe: tuples become lists); ``None`` if ``game`` has no
    structured actions."""
    key = (game.name, notation)
    shape = _SHAPES.get(key)
    if shape is None:
        if game.observation_module is None:
            return None
        info = game.action_info(notation).to_json()
        shape = _SHAPES[key] = [info["kind"], info["args"]]
    return shape


def legal_moves(state: GameState[Any]) -> JSON:
    """``{"legal": notations, "actions": [[kind, args], ...]}`` for the seat to move, in engine order
    (``actions`` is ``None`` for a game without structured actions), plus ``hints``, the engine's
    ``action_hints()`` in the same order, when it has any for this decision."""
    notations = [str(action) for action in state.legal_actions()]
    if state.game.observation_module is None:
        moves: JSON = {"legal": notations, "actions": None}
    else:
        moves = {"legal": notations, "actions": [action_shape(state.game, notation) for notation in notations]}
    hints = state.action_hints()
    if hints is not None:
        moves["hints"] = hints
    return moves


def no_moves(game: Game[Any]) -> JSON:
    """What a seat that does not decide now (or any seat before the game starts) is offered."""
    return {"legal": [], "actions": None if game.observation_module is None else []}
