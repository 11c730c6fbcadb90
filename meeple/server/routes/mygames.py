"""The "My games" page and its API, and an account's turn e-mail settings.

A browser's tables are those where its signed-in account holds a seat, and those whose seat cookies
(``meeple_seat_<table>``) it carries, for guests. What is sent of each is what the lobby shows of
it, which seats are the caller's, whose turn it is, the last move (its notation only when it was the
caller's) and the newest entry of the game's public log as the caller's own seat sees it: nothing
another seat alone may see.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from meeple.core.contract import JSON
from meeple.server.alerts import TurnAlerts, is_turn_based
from meeple.server.auth import token_hash
from meeple.server.i18n import LANGUAGES
from meeple.server.pages import page_html
from meeple.server.routes.common import SEAT_COOKIE_PREFIX, account_of, body_of, runtime_of, store_of
from meeple.server.runtime import Refused
from meeple.server.store import FINISHED, RUNNING

router = APIRouter()

MAX_SEAT_COOKIES = 200
MAX_EMAIL_CHARS = 254
EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f.]+")


def alerts_of(request: Request) -> TurnAlerts:
    alerts: TurnAlerts = request.app.state.alerts
    return alerts


@router.get("/my", include_in_schema=False)
async def my_games_page() -> HTMLResponse:
    return HTMLResponse(page_html("my_games"))


def seat_token_hashes(request: Request) -> list[str]:
    """The hashes of this browser's seat cookies (a bounded number of them)."""
    tokens = [value for name, value in request.cookies.items() if name.startswith(SEAT_COOKIE_PREFIX) and value]
    return [token_hash(token) for token in tokens[:MAX_SEAT_COOKIES]]


def last_activity(table: JSON) -> str:
    move = table.get("last_move")
    return str(move["at"] if move else table.get("finished_at") or table["created_at"])


@router.get("/api/my/tables")
async def my_tables(request: Request) -> JSON:
    """Every table this browser sits at: the ones waiting for it first, then the others by last
    activity (newest first), finished ones last."""
    account = await account_of(request)
    if account is not None:
        alerts_of(request).remember_base(account[0], str(request.base_url))
    tables = await asyncio.to_thread(store_of(request).my_tables, account[0] if account else None,
                                     seat_token_hashes(request))
    runtime = runtime_of(request)
    for table in tables:
        mine: list[int] = table["mine"]
        table["waiting_for"] = waiting_for(table)
        table["time_left"] = time_left(table)
        table["my_turn"] = any(seat in mine for seat in table["waiting_for"])
        table["url"] = f"/tables/{table['id']}"
        table["last_event"] = None
        table["turn_based"] = False
        if table["status"] == RUNNING:
            try:
                live = await runtime.get(table["id"])
            except Refused:
                continue
            table["turn_based"] = is_turn_based(live)
            table["last_event"] = last_public_event(live.state.view(mine[0]) if live.state is not None else None)
    tables.sort(key=last_activity, reverse=True)
    tables.sort(key=lambda table: 0 if table["my_turn"] else 2 if table["status"] == FINISHED else 1)
    return {"account": {"id": account[0], "name": account[1]} if account else None, "tables": tables}


def waiting_for(table: JSON) -> list[int]:
    """The seats that must act: the current player, and every seat whose clock runs (Citadels'
    simultaneous decisions)."""
    if table["status"] != RUNNING:
        return []
    clock = table.get("clock") or {}
    seats = set(clock.get("running") or [])
    if table["current_player"] is not None:
        seats.add(table["current_player"])
    return sorted(seats)


def time_left(table: JSON) -> list[JSON]:
    """Milliseconds left on the clock of each seat that must act (none without a clock), at the
    server's ``now`` the clock was read at."""
    clock = table.get("clock") or {}
    if table["status"] != RUNNING or "remaining" not in clock:
        return []
    spent = max(0, round((datetime.fromisoformat(clock["now"]) - datetime.fromisoformat(clock["since"]))
                         .total_seconds() * 1000))
    return [{"seat": seat, "ms": max(0, clock["remaining"][seat] - (spent if seat in clock["running"] else 0))}
            for seat in table["waiting_for"]]


def last_public_event(view: Any) -> JSON | None:
    """The newest entry of the game's public log in a seat's own view, when the game keeps one."""
    if isinstance(view, dict) and isinstance(view.get("log"), list) and view["log"]:
        event = view["log"][-1]
        return event if isinstance(event, dict) else None
    return None


@router.get("/api/me/alerts")
async def alert_settings(request: Request) -> JSON:
    account = await account_of(request)
    if account is None:
        raise Refused("not_signed_in", "sign in to choose e-mail alerts", 401)
    alerts_of(request).remember_base(account[0], str(request.base_url))
    email, email_turns, language = await asyncio.to_thread(store_of(request).alert_settings, account[0])
    return {"email": email, "email_turns": email_turns, "language": language,
            "mail_configured": alerts_of(request).mailer is not None}


@router.post("/api/me/alerts")
async def set_alert_settings(request: Request) -> JSON:
    """``{email, email_turns, language}``: where to mail, whether to, and in which language."""
    account = await account_of(request)
    if account is None:
        raise Refused("not_signed_in", "sign in to choose e-mail alerts", 401)
    data = await body_of(request)
    email = data.get("email")
    if email is not None and not isinstance(email, str):
        raise Refused("bad_email", "email must be a string or null")
    email = (email or "").strip() or None
    if email is not None and (len(email) > MAX_EMAIL_CHARS or not EMAIL.fullmatch(email)):
        raise Refused("bad_email", f"{email[:60]!r} is not an e-mail address like name@example.org")
    email_turns = data.get("email_turns", False)
    if type(email_turns) is not bool:
        raise Refused("bad_alerts", "email_turns must be true or false")
    if email_turns and email is None:
        raise Refused("bad_email", "give an e-mail address to be mailed when it is your turn")
    language = data.get("language", "en")
    if language not in LANGUAGES:
        raise Refused("unknown_language", f"languages: {', '.join(LANGUAGES)}")
    alerts_of(request).remember_base(account[0], str(request.base_url))
    await asyncio.to_thread(store_of(request).set_alert_settings, account[0], email, email_turns, language)
    return {"email": email, "email_turns": email_turns, "language": language,
            "mail_configured": alerts_of(request).mailer is not None}
