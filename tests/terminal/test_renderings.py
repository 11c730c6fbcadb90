"""The four terminal renderings name things (buildings, tiles, rooms, seats) instead of showing codes,
and no table has two columns with the same heading."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table

from meeple.bots import make_bot
from meeple.core.registry import load_game
from meeple.games.caylus.data import TILES
from meeple.terminal import SeatNames, screen_for

GAMES = ("citadels", "caylus", "burgundy", "palais_royal")
#: Codes a reader must never meet, per game.
CODES: dict[str, list[str]] = {
    "citadels": [r"\bP\d\b", r"\bseat \d\b"],
    "caylus": [rf"\b{re.escape(t.slug)}\b" for t in TILES if "_" in t.slug]
    + [r"\bP\d\*?", r"\b\d[fwscg]\b", r"\bfavour_row\b"],
    "burgundy": [r"\bK\d\d\b", r"\b[AB]\.[a-z]", r"\bbought (True|False)", r"\bFalse\b", r"\bTrue\b", r"\b[ABCKMS]\d\b",
                 r"\b\d:\d+\b"],
    "palais_royal": [r"\b(PAR|STA|MIN|KIN|POM|OFF|BAC|CAR|GAT)\b", r"\b[RBGY]\d\b",
                     r"\b(SUPPLY|GATE|MOVE|GOLD|KSEAL|VSEAL|CARDINAL|DISCOUNT|BACKDOOR|RECRUIT)\b",
                     r"\b(REINF|PASSAGE|PURSE|KLETTER|VLETTER|RECOMMEND|PATRON|TIE|FAVOUR)\b"],
}


def _views(game: str) -> Iterator[dict[str, Any]]:
    """Seat 0's view at the start, every 25 decisions, and at the end of a medium-bot game."""
    state = load_game(game).new_game(players=3, seed=11)
    bots = [make_bot("medium", seed=seat) for seat in range(3)]
    step = 0
    yield state.view(0)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state))
        step += 1
        if step % 25 == 0:
            yield state.view(0)
    yield state.view(0)


def _tables(renderable: Any) -> Iterator[Table]:
    """Every table inside a renderable (groups, panels, columns, nested tables)."""
    if isinstance(renderable, Table):
        yield renderable
        for column in renderable.columns:
            for cell in column.cells:
                yield from _tables(cell)
    elif isinstance(renderable, Group):
        for part in renderable.renderables:
            yield from _tables(part)
    elif isinstance(renderable, Panel):
        yield from _tables(renderable.renderable)
    elif isinstance(renderable, Columns):
        for part in renderable.renderables:
            yield from _tables(part)


@pytest.mark.parametrize("game", GAMES)
def test_renderings_show_names_not_codes(game: str) -> None:
    names = SeatNames(["Player 1", "Bot 2", "Bot 3"], me=0)
    render = screen_for(game).render_view
    views = 0
    for view in _views(game):
        console = Console(width=180, record=True, color_system=None)
        console.print(render(view, 0, names))
        text = console.export_text()
        for pattern in CODES[game]:
            assert not re.search(pattern, text), (pattern, re.search(pattern, text))
        assert "Bot 2" in text and "Player 1" in text
        views += 1
    assert views >= 3


@pytest.mark.parametrize("game", GAMES)
def test_no_two_columns_share_a_heading(game: str) -> None:
    render = screen_for(game).render_view
    checked = 0
    for view in _views(game):
        for table in _tables(render(view, 0, SeatNames.numbered(3, 0))):
            headings = [str(column.header).lower() for column in table.columns if table.show_header]
            assert len(headings) == len(set(headings)), headings
            checked += 1
    assert checked > 0


def test_named_things_appear() -> None:
    """Spot checks against the web's English names."""
    console = Console(width=180, record=True, color_system=None)
    for game in GAMES:
        for view in _views(game):
            console.print(screen_for(game).render_view(view, 0, SeatNames.numbered(3, 0)))
            break
    text = console.export_text()
    for name in ("Forest", "Gold mine", "Trading post", "Parade ground", "King's chamber", "Black depot"):
        assert name in text, name
