"""The chat routes: a table's chat for its seated players (also sent over the table's WebSocket) and
the lobby's chat for everyone (``meeple.server.chat``)."""

from __future__ import annotations

from fastapi import APIRouter, Request, WebSocket

from meeple.core.contract import JSON
from meeple.server.chat import Chat
from meeple.server.routes.common import account_of, body_of, runtime_of, seat_token_of

router = APIRouter()


def chat_of(request: Request | WebSocket) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


@router.get("/api/tables/{table_id}/chat")
async def table_chat(table_id: str, request: Request) -> JSON:
    """The table's chat, oldest first: for its players only (spectators get a 403)."""
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    return {"lines": await chat_of(request).table_lines(table, seat)}


@router.post("/api/tables/{table_id}/chat")
async def say_at_table(table_id: str, request: Request) -> JSON:
    """``{"text": ...}`` from a seated player; the same as a ``chat`` message on the WebSocket."""
    data = await body_of(request)
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    return {"line": await chat_of(request).say_at_table(table_id, seat, data.get("text"))}


@router.get("/api/lobby/chat")
async def lobby_chat(request: Request, after: int = 0) -> JSON:
    """The lobby's chat lines after line ``after`` (an id; 0: the last ones), oldest first."""
    return {"lines": await chat_of(request).lobby_lines(after)}


@router.post("/api/lobby/chat")
async def say_in_lobby(request: Request) -> JSON:
    """``{"text": ..., "name": ...}``: signed in, the account's name is used; a guest gives a name."""
    data = await body_of(request)
    address = request.client.host if request.client else "unknown"
    line = await chat_of(request).say_in_lobby(data.get("text"), data.get("name"), await account_of(request), address)
    return {"line": line}
