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

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from meeple.core.contract import JSON
from meeple.server.alerts import TurnAlerts
from meeple.server.i18n import LANGUAGES
from meeple.server.lobby import my_rows
from meeple.server.pages import page_html
from meeple.server.routes.common import account_of, body_of, runtime_of, seat_token_hashes, store_of
from meeple.server.runtime import Refused

router = APIRouter()

MAX_EMAIL_CHARS = 254
EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f.]+")


def alerts_of(request: Request) -> TurnAlerts:
    alerts: TurnAlerts = request.app.state.alerts
    return alerts


@router.get("/my", include_in_schema=False)
async def my_games_page() -> HTMLResponse:
    return HTMLResponse(page_html("my_games"))


@router.get("/api/my/tables")
async def my_tables(request: Request) -> JSON:
    """Every table this browser sits at: the ones waiting for it first, then the others by last
    activity (newest first), finished ones last (``lobby.my_rows``; the lobby socket pushes them)."""
    account = await account_of(request)
    if account is not None:
        alerts_of(request).remember_base(account[0], str(request.base_url))
    tables = await my_rows(runtime_of(request), account[0] if account else None, seat_token_hashes(request))
    return {"account": {"id": account[0], "name": account[1]} if account else None, "tables": tables}


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
