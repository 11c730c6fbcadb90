"""What a bot is: something that picks an action for the seat whose turn it is.

A bot may look only at what its seat may know: the legal actions offered to it, ``state.view(seat)``,
and ``state.determinize(seat, rng)`` copies for search. It never reads the state's hidden fields.
"""

from __future__ import annotations

from typing import Any, Protocol

from meeple.core.contract import GameState


class Bot(Protocol):
    """Chooses one of ``state.legal_actions()`` for ``state.current_player``."""

    name: str

    def choose(self, state: GameState[Any]) -> Any: ...
