"""The pages (lobby, table, replay), the static files, the games, the UI strings and what components do."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from meeple.bots import BOT_KINDS
from meeple.core.contract import JSON
from meeple.core.registry import game_names, load_game
from meeple.server.clocks import catalogue as clock_catalogue
from meeple.server.components import components, games_with_components
from meeple.server.explain import EXPLAINERS, explain
from meeple.server.hosting import is_loopback, share_base
from meeple.server.i18n import LANGUAGES, load_messages
from meeple.server.pages import page_html
from meeple.server.routes.common import runtime_of
from meeple.server.runtime import DEFAULT_BOT_LEVEL, Refused

WEB = Path(__file__).resolve().parent.parent.parent / "web"

router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby_page() -> HTMLResponse:
    return HTMLResponse(page_html("lobby"))


@router.get("/tables/{table_id}", include_in_schema=False)
async def table_page(table_id: str, request: Request) -> HTMLResponse:
    await runtime_of(request).get(table_id)
    return HTMLResponse(page_html("table"))


@router.get("/tables/{table_id}/replay", include_in_schema=False)
async def replay_page(table_id: str, request: Request) -> HTMLResponse:
    await runtime_of(request).get(table_id)
    return HTMLResponse(page_html("replay"))


@router.get("/api/games")
async def games() -> JSON:
    return {"games": [load_game(name).describe() for name in game_names()], "bot_levels": list(BOT_KINDS),
            "default_bot_level": DEFAULT_BOT_LEVEL, "clocks": clock_catalogue()}


@router.get("/api/games/{game}/components")
async def game_components(game: str, response: Response) -> JSON:
    """The printed components the game's table drawing needs (costs, types, steps, board layout), from the
    engine (``Game.components``); public and fixed per release, so cached an hour."""
    try:
        parts = components(game)
    except KeyError:
        raise Refused("unknown_game", f"games with component data: {', '.join(games_with_components())}",
                      404) from None
    response.headers["Cache-Control"] = "public, max-age=3600"
    return {"game": game, "components": parts}


@router.get("/api/i18n/{language}")
async def messages(language: str) -> JSON:
    if language not in LANGUAGES:
        raise Refused("unknown_language", f"languages: {', '.join(LANGUAGES)}", 404)
    return {"language": language, "languages": LANGUAGES, "messages": load_messages(language)}


@router.get("/api/site")
async def site(request: Request) -> JSON:
    """The address to share with friends (``hosting.share_base``); whether it is the configured public
    URL (else the one this browser used, or a LAN address instead of loopback); whether, with no
    public URL, it is a loopback address only this machine can open (a server on 127.0.0.1)."""
    base = share_base(request)
    public = request.app.state.settings.public_url is not None
    return {"share_url": base + "/", "public": public,
            "local_only": not public and is_loopback(urlsplit(base).hostname or "")}


@router.get("/api/explain/{game}/{language}")
async def explanations(game: str, language: str) -> JSON:
    """Every card, tile, building and noble of ``game`` by id: name, full effect, code (the tables' tooltips)."""
    if game not in EXPLAINERS:
        raise Refused("unknown_game", f"games with component texts: {', '.join(EXPLAINERS)}", 404)
    if language not in LANGUAGES:
        raise Refused("unknown_language", f"languages: {', '.join(LANGUAGES)}", 404)
    return {"game": game, "language": language, "components": _explanations_json(game, language)}


@cache
def _explanations_json(game: str, language: str) -> dict[str, dict[str, str]]:
    return {component: text.to_json() for component, text in explain(game, language).items()}
