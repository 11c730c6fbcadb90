"""The WebSocket table channel: a full state on connect (or just what a reconnecting client missed),
then one bounded update per change; moves, undos, resyncs and pings from the client."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meeple.core.contract import JSON
from meeple.server.limits import MAX_MESSAGE_CHARS
from meeple.server.routes.common import json_object, runtime_of, seat_token_of
from meeple.server.runtime import LiveTable, Refused, TableRuntime

log = logging.getLogger("meeple.server")

UNKNOWN_TABLE_CLOSE = 4404
FORBIDDEN_CLOSE = 4403  # a spectator at a table that allows none
INTERNAL_ERROR_CLOSE = 1011  # RFC 6455: the server met a condition it did not expect

router = APIRouter()


def since_of(websocket: WebSocket) -> int | None:
    """``?version=N``: the version a reconnecting client has."""
    text = websocket.query_params.get("version", "")
    return int(text) if text.isdigit() and len(text) < 10 else None


class ClientGone(Exception):
    """A message could not be sent: the socket's client has gone."""


def sender_of(websocket: WebSocket) -> Callable[[str], Awaitable[None]]:
    """The socket's ``send_text``, whose failures all say the client has gone. A client that gives up
    its handshake before the server accepts it (a busy server) makes uvicorn drop the accept and then
    refuse the first message with a ``RuntimeError``; Starlette raises ``WebSocketDisconnect`` or
    ``RuntimeError`` for a socket closed meanwhile."""

    async def send(text: str) -> None:
        try:
            await websocket.send_text(text)
        except (OSError, RuntimeError, WebSocketDisconnect) as error:
            raise ClientGone(str(error)) from error

    return send


async def texts_of(websocket: WebSocket) -> AsyncIterator[str | None]:
    """Each frame a page sends, as its text (None: a binary frame), until the page leaves."""
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        yield frame.get("text")


def message_of(text: str | None) -> JSON:
    """A page's message as a JSON object; refused, changing nothing, when it is binary, too large or not one."""
    if text is None:
        raise Refused("malformed", "binary frames are not accepted; send JSON text")
    if len(text) > MAX_MESSAGE_CHARS:
        raise Refused("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} characters")
    return json_object(text, "a message")


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    runtime = runtime_of(websocket)
    await websocket.accept()
    try:
        table, subscriber = await runtime.open_socket(table_id, seat_token_of(websocket, table_id),
                                                      since_of(websocket), sender_of(websocket))
    except Refused as refusal:
        await websocket.send_json(refusal.to_json())
        await websocket.close(code=FORBIDDEN_CLOSE if refusal.status == 403 else UNKNOWN_TABLE_CLOSE)
        return
    except ClientGone:
        log.info("a client of table %s left before its first message", table_id)
        return
    seat = subscriber.seat
    websocket.app.state.alerts.visited(table, seat)
    try:
        async for text in texts_of(websocket):
            try:
                await handle_message(runtime, table, seat, message_of(text), websocket)
            except Refused as refusal:
                await websocket.send_json(refusal.to_json())
                await websocket.send_text(runtime.full_text(await runtime.get(table_id), seat))
    except WebSocketDisconnect:
        pass
    except Exception:  # a bug: say so and close properly rather than drop the connection
        log.exception("the WebSocket of table %s failed", table_id)
        with contextlib.suppress(Exception):
            await websocket.send_json(Refused("internal", "the server failed; reconnect", 500).to_json())
            await websocket.close(code=INTERNAL_ERROR_CLOSE)
    finally:
        await runtime.close_socket(table, subscriber)


async def handle_message(runtime: TableRuntime, table: LiveTable, seat: int | None, message: JSON,
                         websocket: WebSocket) -> None:
    kind = message.get("type")
    if kind == "ping":
        await websocket.send_json({"type": "pong"})
    elif kind == "act":
        if "seat" in message and message["seat"] != seat:
            raise Refused("forbidden", "you can only act for your own seat", 403)
        await runtime.act(table.id, seat, message.get("action"), message.get("version"))
    elif kind == "undo":
        await runtime.undo(table.id, seat, message.get("moves"), message.get("version"))
    elif kind == "resync":
        await runtime.resync(await runtime.get(table.id), seat, message.get("version"), websocket.send_text)
    elif kind == "chat":
        await websocket.app.state.chat.say_at_table(table.id, seat, message.get("text"))
    elif kind == "refresh":
        await websocket.send_text(runtime.full_text(await runtime.get(table.id, fresh=True), seat))
    else:
        raise Refused("malformed", f"unknown message type {kind!r}; expected act, undo, chat, resync, refresh or ping")
