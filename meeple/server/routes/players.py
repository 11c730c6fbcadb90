"""Profiles and leaderboards: an account's games, ratings and their history; the best per game."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from meeple.core.contract import JSON
from meeple.core.registry import game_names, load_game
from meeple.server.names import name_key
from meeple.server.pages import page_html
from meeple.server.ratings import MIN_GAMES_LISTED, MIN_MOVES_RATED
from meeple.server.routes.common import store_of
from meeple.server.runtime import Refused

router = APIRouter()


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> HTMLResponse:
    return HTMLResponse(page_html("player"))


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> HTMLResponse:
    return HTMLResponse(page_html("leaderboard"))


@router.get("/api/players/{name}")
async def profile(name: str, request: Request) -> JSON:
    found = await asyncio.to_thread(store_of(request).profile, name, name_key(name))
    if found is None:
        raise Refused("unknown_player", f"no player is called {name!r}", 404)
    return found


@router.get("/api/ratings/rules")
async def rating_rules() -> JSON:
    """The numbers the pages' explanations of what counts quote (``meeple.server.ratings`` holds them)."""
    return {"min_moves": MIN_MOVES_RATED, "min_games_listed": MIN_GAMES_LISTED}


@router.get("/api/leaderboard")
async def leaderboard(request: Request, game: str, players: int = 0) -> JSON:
    """``players`` 0: ratings over every player count; else the ratings at that count only."""
    if game not in game_names():
        raise Refused("unknown_game", f"game is one of {', '.join(game_names())}")
    described = load_game(game)
    allowed = list(range(described.min_players, described.max_players + 1))
    if players != 0 and players not in allowed:
        raise Refused("bad_players", f"players is 0 (every count) or one of {', '.join(map(str, allowed))}")
    rows = await asyncio.to_thread(store_of(request).leaderboard, game, players, MIN_GAMES_LISTED)
    return {"game": game, "players": players, "min_games": MIN_GAMES_LISTED, "players_allowed": allowed,
            "leaders": rows}
