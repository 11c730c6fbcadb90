"""A client that gives up its WebSocket handshake before the server accepts it (a busy server: seen in
``bench/load_server.py`` at 700 tables) leaves nothing behind: no traceback, no subscriber, nobody told
it is online. uvicorn then drops the app's accept and refuses its first message with a
``RuntimeError``; the app is driven here through ASGI exactly so."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.types import Message

from meeple.server.hub import Hub
from tests.server.conftest import create_table

UVICORN_REFUSAL = ("Expected ASGI message 'websocket.accept', 'websocket.close' or "
                   "'websocket.http.response.start' but got 'websocket.send'.")


def socket_scope(table_id: str, token: str) -> dict[str, Any]:
    path = f"/ws/tables/{table_id}"
    return {
        "type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.4"}, "http_version": "1.1",
        "scheme": "ws", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": f"token={token}".encode(), "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80), "subprotocols": [],
    }


def test_a_client_gone_during_the_handshake_leaves_no_subscriber_and_no_error(client: TestClient) -> None:
    created = create_table(client)
    table_id, token = created["table"]["id"], created["token"]
    sent: list[Message] = []
    incoming: list[Message] = [{"type": "websocket.connect"}]

    async def receive() -> Message:
        return incoming.pop(0) if incoming else {"type": "websocket.disconnect", "code": 1006}

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] != "websocket.accept":  # what uvicorn does once its client has gone
            raise RuntimeError(UVICORN_REFUSAL)

    async def connect_and_vanish() -> None:
        await client.app(socket_scope(table_id, token), receive, send)

    assert client.portal is not None
    client.portal.call(connect_and_vanish)  # raises if the app lets the failure out

    assert [message["type"] for message in sent] == ["websocket.accept", "websocket.send"]
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.local.get(table_id) is None
    seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
    assert seats[0]["online"] is False

    # the seat's next socket is served as usual
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        state = socket.receive_json()
        assert state["type"] == "state" and state["seat"] == 0
        assert state["table"]["seats"][0]["online"] is True
