"""The Rich renderer draws any view: setup, mid-game decisions and the end."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from meeple.core.rng import Rng
from meeple.terminal.burgundy import render_view
from tests.games.burgundy.scenario import new


def _text(view: dict[str, Any], seat: int | None) -> str:
    console = Console(width=180, record=True, color_system=None, file=io.StringIO())
    console.print(render_view(view, seat))
    return console.export_text()


def test_renderer_shows_estates_depots_and_the_decision() -> None:
    state = new(players=3, preset="variant_secret")
    text = _text(state.view(1), 1)
    assert "Seat 2 · board ?" in text and "Now" in text and "chooses an estate board" in text
    rng = Rng(4)
    for steps in (10, 200):
        for _ in range(steps):
            state.apply(rng.choice(state.legal_actions()))
        text = _text(state.view(0), 0)
        assert "Main board" in text and "Seat 2" in text and "Black depot" in text
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    final = _text(state.view(None), None)
    assert "The game is over." in final and "Winner" in final
