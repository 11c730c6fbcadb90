"""One game driven by action indexes, shared by the adapters: what each of them needs and nothing else.

A ``Driver`` holds the engine state, the game's action table and encoder. The legal indexes of a
position are computed once (the engine caches its legal actions the same way); observations are
encoded only when an adapter asks for them (through the encoder's fast path where the game has one),
once per position and seat. The state moves on only through the driver, which clears both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from meeple.core.contract import GameState
from meeple.core.registry import load_game
from meeple.research import encoder as encoder_for
from meeple.research.encoding import Vector
from meeple.research.tables import Mask, action_table


class Driver:
    """A game of ``game_name`` at ``players`` seats with ``options``, played by table indexes."""

    def __init__(self, game_name: str, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.game = load_game(game_name)
        self.game.check_players(players)
        self.players = players
        self.options = dict(options or {})
        self.table = action_table(game_name, players)
        self.encoder = encoder_for(game_name, players)
        self.state: GameState[Any] = self.game.new_game(players=players, seed=0, options=self.options)
        self._legal: list[int] | None = None
        self._observed: dict[int, Vector] = {}

    def new_game(self, seed: int) -> None:
        self.set_state(self.game.new_game(players=self.players, seed=seed, options=self.options))

    def set_state(self, state: GameState[Any]) -> None:
        self.state = state
        self._moved()

    def _moved(self) -> None:
        self._legal = None
        if self._observed:
            self._observed = {}

    def legal(self) -> list[int]:
        """The indexes of the legal actions, in ``legal_actions()`` order (empty once over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.table.indices(self.state.legal_actions())
        return legal

    def play(self, index: int) -> bool:
        """Apply the action at ``index`` if it is legal now; ``False`` (and nothing changes) if not."""
        legal = self.legal()
        try:
            position = legal.index(index)
        except ValueError:
            return False
        self.state.apply(self.state.legal_actions()[position])
        self._moved()
        return True

    def play_action(self, action: Any) -> None:
        """Apply an engine action (a bot's choice)."""
        self.state.apply(action)
        self._moved()

    def mask(self, size: int | None = None) -> Mask:
        """1 at each legal index (``size`` pads the vector for adapters with extra actions)."""
        mask = np.zeros(size or self.table.size, np.int8)
        mask[self.legal()] = 1
        return mask

    def observe(self, seat: int) -> Vector:
        """The encoded observation of ``seat`` (a fresh copy: the caller may keep or change it)."""
        vector = self._observed.get(seat)
        if vector is None:
            vector = self._observed[seat] = self.encoder.encode_state(self.state, seat)
        return vector.copy()


def render_text(state: GameState[Any], seat: int | None) -> str:
    """The position as the terminal draws it for ``seat`` (``None``: a spectator), as plain text."""
    import io

    from rich.console import Console

    from meeple.terminal import renderer_for
    from meeple.terminal.common import SeatNames

    drawing = renderer_for(state.game.name)(state.view(seat), seat, SeatNames.numbered(state.players, seat))
    console = Console(file=io.StringIO(), record=True, width=120, color_system=None)
    console.print(drawing)
    return console.export_text()
