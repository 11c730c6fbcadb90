"""The lobby's WebSocket, ``/ws/lobby``: the table list, the lobby's chat and "My games", pushed as they
change (``meeple.server.lobby``).

The address says what the page wants and where it stands: ``topics`` (``tables``, ``chat``, ``my``;
by default the first two), the table list's filters (``game``, ``mode``, ``open_seats``, as
``GET /api/tables`` takes them), ``epoch`` and ``since`` (the lobby sequence it has) and
``chat_after`` (the newest chat line it has). The client may send ``{"type": "filters", "game",
"mode", "open_seats"}`` (it is sent the list again, filtered so) and ``{"type": "ping"}``. Lines are
said with ``POST /api/lobby/chat``, which keeps its limits in one place.
"""

from __future__ import annotations

import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meeple.core.contract import JSON
from meeple.server.jsontext import dumps
from meeple.server.lobby import DEFAULT_TOPICS, TOPICS, Filters, LobbyFeed, LobbySocket, Send
from meeple.server.routes.common import account_of, seat_token_hashes
from meeple.server.routes.sockets import INTERNAL_ERROR_CLOSE, ClientGone, message_of, sender_of, texts_of
from meeple.server.runtime import Refused

log = logging.getLogger("meeple.server")

BAD_REQUEST_CLOSE = 4400
"""The address named an unknown topic or filter (after an error saying which)."""

router = APIRouter()


def feed_of(websocket: WebSocket) -> LobbyFeed:
    feed: LobbyFeed = websocket.app.state.lobby
    return feed


def number_of(websocket: WebSocket, name: str) -> int | None:
    text = websocket.query_params.get(name, "")
    return int(text) if text.isdigit() and len(text) < 16 else None


def socket_of(websocket: WebSocket, send: Send) -> LobbySocket:
    """The socket as its address asks; a bad topic or filter is refused as ``GET /api/tables`` refuses it."""
    query = websocket.query_params
    topics = frozenset(filter(None, query.get("topics", ",".join(DEFAULT_TOPICS)).split(",")))
    unknown = topics - set(TOPICS)
    if unknown or not topics:
        raise Refused("bad_topics", f"topics are a comma-separated choice of {', '.join(TOPICS)}")
    open_seats = query.get("open_seats", "false")
    if open_seats not in ("true", "false"):
        raise Refused("malformed", "open_seats is true or false")
    filters = Filters.parse(query.get("game") or None, query.get("mode") or None, open_seats == "true")
    return LobbySocket(send=send, topics=topics, filters=filters)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    feed = feed_of(websocket)
    await websocket.accept()
    try:
        socket = socket_of(websocket, sender_of(websocket))
    except Refused as refusal:
        await websocket.send_json(refusal.to_json())
        await websocket.close(code=BAD_REQUEST_CLOSE)
        return
    if "my" in socket.topics:
        account = await account_of(websocket)
        socket.account_id, socket.account_name = account if account else (None, None)
        socket.token_hashes = seat_token_hashes(websocket)
    try:
        await feed.join(socket, websocket.query_params.get("epoch"), number_of(websocket, "since"),
                        number_of(websocket, "chat_after"))
    except ClientGone:
        log.info("a lobby client left before its first message")
        return
    try:
        async for text in texts_of(websocket):
            try:
                await handle_message(feed, socket, message_of(text))
            except Refused as refusal:
                await socket.send(dumps(refusal.to_json()))
    except (WebSocketDisconnect, ClientGone):
        pass
    except Exception:  # a bug: say so and close properly rather than drop the connection
        log.exception("a lobby WebSocket failed")
        with contextlib.suppress(Exception):
            await websocket.send_json(Refused("internal", "the server failed; reconnect", 500).to_json())
            await websocket.close(code=INTERNAL_ERROR_CLOSE)
    finally:
        feed.leave(socket)


async def handle_message(feed: LobbyFeed, socket: LobbySocket, message: JSON) -> None:
    """A message from the page; anything wrong is refused and changes nothing (the socket stays open)."""
    kind = message.get("type")
    if kind == "ping":
        await socket.send(dumps({"type": "pong"}))
    elif kind == "filters":
        if "tables" not in socket.topics:
            raise Refused("malformed", "this socket did not ask for the table list (topics)")
        socket.filters = Filters.parse(message.get("game"), message.get("mode"), message.get("open_seats", False))
        await feed.send_list(socket)
    else:
        raise Refused("malformed", f"unknown message type {kind!r}; expected filters or ping")
