"""Rich renderings of a seat's view for the terminal; one module per game, a generic fallback."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

Renderer = Callable[[dict[str, Any], int | None], RenderableType]


def generic_render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """Fallback for a game without its own renderer: the view as a tree."""
    return Pretty(view, expand_all=False)


def renderer_for(game_name: str) -> Renderer:
    try:
        module = importlib.import_module(f"meeple.terminal.{game_name}")
    except ModuleNotFoundError:
        return generic_render
    render: Renderer = module.render_view
    return render
