"""The HTML pages, rendered once from Jinja2 templates (``meeple/web/pages``) that share one frame.

The pages hold no per-request data (the scripts fetch everything), so each is rendered on first use
and kept; the templates only spare every page from repeating the head and the top bar.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

PAGES = Path(__file__).resolve().parent.parent / "web" / "pages"

#: Each page: its template and what it is rendered with.
PAGE_CONTEXT: dict[str, tuple[str, dict[str, str]]] = {
    "lobby": ("index.html", {}),
    "table": ("table.html", {}),
    "replay": ("replay.html", {}),
    "my_games": ("mygames.html", {}),
    "leaderboard": ("ratings.html", {"title_key": "ratings.leaderboard", "script": "leaderboard"}),
    "player": ("ratings.html", {"title_key": "ratings.player", "script": "player"}),
}


@cache
def _environment() -> Environment:
    return Environment(loader=FileSystemLoader(PAGES), autoescape=select_autoescape(["html"]),
                       undefined=StrictUndefined, keep_trailing_newline=True)


@cache
def page_html(page: str) -> str:
    """The HTML of ``page`` (a key of ``PAGE_CONTEXT``); ``KeyError`` for any other name."""
    template, context = PAGE_CONTEXT[page]
    return _environment().get_template(template).render(**context)
