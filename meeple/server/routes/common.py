"""What every router needs: the app's runtime and store, cookies and tokens, strict JSON bodies."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import Response

from meeple.server.auth import token_hash
from meeple.server.limits import BadJSON, load_json
from meeple.server.runtime import Refused, TableRuntime
from meeple.server.store import Store

SESSION_COOKIE = "meeple_session"
SEAT_COOKIE_PREFIX = "meeple_seat_"
MAX_SEAT_COOKIES = 200


def seat_cookie(table_id: str) -> str:
    return f"{SEAT_COOKIE_PREFIX}{table_id}"


def host_cookie(table_id: str) -> str:
    return f"meeple_host_{table_id}"


def runtime_of(request: Request | WebSocket) -> TableRuntime:
    runtime: TableRuntime = request.app.state.runtime
    return runtime


def store_of(request: Request | WebSocket) -> Store:
    store: Store = request.app.state.store
    return store


def json_object(data: bytes | str, what: str) -> dict[str, Any]:
    """``data`` read by the one strict JSON reader (``limits.load_json``), which must give an object."""
    try:
        value = load_json(data)
    except BadJSON as bad:
        raise Refused(bad.code, f"{what}: {bad.message}") from None
    if not isinstance(value, dict):
        raise Refused("malformed", f"{what} must be a JSON object")
    return value


async def body_of(request: Request) -> dict[str, Any]:
    return json_object(await request.body() or b"{}", "the request body")


async def account_of(request: Request | WebSocket) -> tuple[int, str] | None:
    """(id, name) of the signed-in account, if any."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    return await asyncio.to_thread(store_of(request).account_of_session, token_hash(token))


def seat_token_of(request: Request | WebSocket, table_id: str) -> str | None:
    return (request.headers.get("x-meeple-token") or request.query_params.get("token")
            or request.cookies.get(seat_cookie(table_id)))


def seat_token_hashes(request: Request | WebSocket) -> list[str]:
    """The hashes of this browser's seat cookies (a bounded number of them): its tables, for a guest."""
    tokens = [value for name, value in request.cookies.items() if name.startswith(SEAT_COOKIE_PREFIX) and value]
    return [token_hash(token) for token in tokens[:MAX_SEAT_COOKIES]]


def host_token_of(request: Request, table_id: str) -> str | None:
    return request.headers.get("x-meeple-host") or request.cookies.get(host_cookie(table_id))


def set_cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=60 * 60 * 24 * 365, httponly=True, samesite="lax", path="/")
