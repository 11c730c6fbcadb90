"""The terminal renderer draws any view, from setup to the end, at every player count."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from meeple import load_game
from meeple.core.rng import Rng
from meeple.terminal.caylus import render_view


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_render_view_draws_every_stage(players: int) -> None:
    state = load_game("caylus").new_game(players, 7)
    rng = Rng(7)
    console = Console(width=100, record=True, file=io.StringIO())
    step = 0
    while True:
        if step % 40 == 0 or state.is_over:
            console.print(render_view(state.view(0), 0))
            console.print(render_view(state.view(None), None))
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    text = console.export_text()
    assert "Castle" in text and "The road" in text and "Royal favours" in text and "Final scores" in text
    assert "winner: Seat" in text or "winners: Seat" in text


def test_stats_report_turns_and_buildings() -> None:
    state = load_game("caylus").new_game(4, 3)
    rng = Rng(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    stats = state.stats()
    assert stats["actions"] == len(state.history)
    assert stats["rounds"] == state.turn and 1 <= state.turn <= 18
    assert stats["castle_houses"] == sum(state.castle_count) and stats["buildings"] == state.built_lots
