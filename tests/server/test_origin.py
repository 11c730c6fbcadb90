"""Pages of other origins cannot drive a victim's browser here: a foreign ``Origin`` is refused on
every state-changing request and every table WebSocket, before any cookie is read; the server's own
pages, allow-listed origins and clients that send no ``Origin`` at all play on as before.

TestClient talks to ``http://testserver`` (``Host: testserver``), so that is the server's own origin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeple.server.config import Settings, normalize_origin, parse_origins
from tests.server.conftest import create_table, guest

OWN = "http://testserver"
EVIL = "http://testserver:8666"  # same site, another port: SameSite=Lax cookies still go along


def origin(value: str) -> dict[str, str]:
    return {"Origin": value}


def two_player_table(client: TestClient) -> tuple[str, TestClient]:
    table_id = create_table(client)["table"]["id"]
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    return table_id, bob


def snapshot(client: TestClient, table_id: str) -> dict[str, Any]:
    """What a table is: its version, history-dependent view, seats; compared before and after."""
    state: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return {"version": state["version"], "view": state["view"], "log": state["log"],
            "seats": state["table"]["seats"], "status": state["table"]["status"]}


def refused_socket(client: TestClient, table_id: str, sent_origin: str) -> None:
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin(sent_origin)) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "forbidden_origin", message
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403


def test_normalize_origin_spells_each_origin_one_way() -> None:
    assert normalize_origin("http://Games.Example.ORG:80/") == "http://games.example.org"
    assert normalize_origin("HTTPS://games.example.org:443") == "https://games.example.org"
    assert normalize_origin("https://games.example.org:80") == "https://games.example.org:80"
    assert normalize_origin("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert normalize_origin("http://[::1]:80") == "http://[::1]"
    assert normalize_origin(" http://[::1]:8080 ") == "http://[::1]:8080"
    for foreign in ("null", "", "games.example.org", "ftp://games.example.org", "http://x/path", "http://x?q",
                    "http://user@x", "http://x:port", "http://x:", "file:///etc/passwd", "http://[::1"):
        assert normalize_origin(foreign) is None, foreign


def test_allowed_origins_are_normalised_and_typos_are_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_origins(["https://A.example:443/", "", "https://a.example"]) == ("https://a.example",)
    with pytest.raises(ValueError, match="not an origin"):
        parse_origins(["a.example"])
    monkeypatch.setenv("MEEPLE_ALLOWED_ORIGINS", "https://Proxy.example/, http://localhost:8080")
    settings = Settings.from_env(database_url="sqlite://")
    assert settings.allowed_origins == ("https://proxy.example", "http://localhost:8080")
    assert Settings.from_env(database_url="sqlite://", allowed_origins=["http://x:80"]).allowed_origins == (
        "http://x",)
    monkeypatch.setenv("MEEPLE_ALLOWED_ORIGINS", "null")
    with pytest.raises(ValueError, match="MEEPLE_ALLOWED_ORIGINS"):
        Settings.from_env(database_url="sqlite://")
    assert Settings(database_url="sqlite://", allowed_origins=("HTTP://X:80",)).allowed_origins == ("http://x",)


def test_a_foreign_websocket_is_closed_before_it_can_see_or_move(client: TestClient) -> None:
    table_id, _bob = two_player_table(client)
    before = snapshot(client, table_id)
    legal = client.get(f"/api/tables/{table_id}").json()["legal"]
    assert legal
    # Ada's browser, her seat cookie in its jar, opened by a page on another port of the same host.
    refused_socket(client, table_id, EVIL)
    refused_socket(client, table_id, "null")
    refused_socket(client, table_id, "https://testserver")  # another scheme is another origin
    refused_socket(client, "no-such-table", EVIL)  # refused before the table is even looked up
    assert snapshot(client, table_id) == before
    assert all(not seat["online"] for seat in client.get(f"/api/tables/{table_id}").json()["table"]["seats"])


def test_a_same_origin_websocket_plays(client: TestClient) -> None:
    table_id, _bob = two_player_table(client)
    for own in (OWN, "http://TestServer:80", "http://testserver/"):
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin(own)) as ws:
            assert ws.receive_json()["seat"] == 0
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin(OWN)) as ws:
        state = ws.receive_json()
        assert state["seat"] == 0 and state["current_player"] == 0
        ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
        while state["version"] == 0:
            state = ws.receive_json()
            assert state["type"] in ("state", "update"), state
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 1


def test_foreign_posts_are_refused_and_change_nothing(client: TestClient) -> None:
    table_id = create_table(client)["table"]["id"]
    tables_before = client.get("/api/tables").json()
    stranger = guest(client)

    for sent in (EVIL, "null", "http://evil.example"):
        created = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Mallory"},
                              headers=origin(sent))
        assert created.status_code == 403
        assert created.json() == {"type": "error", "code": "forbidden_origin", "message": created.json()["message"]}
        joined = stranger.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Mallory"},
                               headers=origin(sent))
        assert joined.status_code == 403 and joined.json()["code"] == "forbidden_origin"
        assert "set-cookie" not in joined.headers
        left = client.post(f"/api/tables/{table_id}/leave", json={}, headers=origin(sent))
        assert left.status_code == 403 and left.json()["code"] == "forbidden_origin"
        for method in ("PUT", "PATCH", "DELETE"):
            other = client.request(method, f"/api/tables/{table_id}", headers=origin(sent))
            assert other.status_code == 403 and other.json()["code"] == "forbidden_origin"
        registered = client.post("/api/accounts", json={"name": "Mallory", "password": "secret!"},
                                 headers=origin(sent))
        assert registered.status_code == 403

    assert client.get("/api/tables").json() == tables_before
    assert client.get(f"/api/tables/{table_id}").json()["seat"] == 0  # Ada still holds her seat
    assert client.post("/api/login", json={"name": "Mallory", "password": "secret!"}).status_code == 401
    # Reading stays open to any page: the lobby, the API's GETs, static files.
    assert client.get("/api/tables", headers=origin(EVIL)).status_code == 200
    assert client.get("/", headers=origin(EVIL)).status_code == 200


def test_a_foreign_move_is_refused_and_the_table_does_not_move(client: TestClient) -> None:
    table_id, _bob = two_player_table(client)
    before = snapshot(client, table_id)
    move = client.get(f"/api/tables/{table_id}").json()["legal"][0]
    refused = client.post(f"/api/tables/{table_id}/actions", json={"action": move, "version": 0},
                          headers=origin(EVIL))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden_origin"
    assert snapshot(client, table_id) == before
    played = client.post(f"/api/tables/{table_id}/actions", json={"action": move, "version": 0},
                         headers=origin(OWN))
    assert played.status_code == 200 and played.json()["version"] == 1


def test_same_origin_and_origin_less_posts_work(client: TestClient) -> None:
    own = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"},
                      headers=origin("http://testserver:80"))
    assert own.status_code == 201, own.text
    table_id = own.json()["table"]["id"]
    bob = guest(client)
    joined = bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})  # no Origin: a script
    assert joined.status_code == 200, joined.text
    assert len(client.get("/api/tables").json()["tables"]) == 1


def test_an_allow_listed_origin_plays_and_others_still_do_not(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(allowed_origins=("HTTPS://Games.Example.org:443/",))
    proxy = "https://games.example.org"
    created = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"},
                          headers=origin(proxy))
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin(proxy)) as ws:
        assert ws.receive_json()["seat"] == 0
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin(OWN)) as ws:
        assert ws.receive_json()["seat"] == 0  # the server's own origin still counts
    refused = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Eve"},
                          headers=origin("https://evil.example.org"))
    assert refused.status_code == 403
    refused_socket(client, table_id, "http://games.example.org")  # the scheme is part of the origin
    assert len(client.get("/api/tables").json()["tables"]) == 1
