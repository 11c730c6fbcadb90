"""What a client may send is bounded (issue 16): request bodies, JSON nesting, WebSocket frames,
password lengths, and account and seat names that only look different.

Every refusal is checked twice: the answer (status, code, a message a person can read) and that
nothing moved: the table (version, views, log, seats), the accounts and their sessions, and for a
WebSocket the connection itself, which still answers a ping and still plays.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from meeple.cli import WS_IMPLEMENTATION
from meeple.server.app import create_app
from meeple.server.auth import MAX_PASSWORD_CHARS
from meeple.server.config import DEFAULT_MAX_BODY_BYTES, Settings
from meeple.server.limits import MAX_JSON_DEPTH, MAX_MESSAGE_CHARS, BodyLimit, load_json
from meeple.server.names import name_key
from meeple.server.routes import accounts as accounts_module
from tests import aio
from tests.server.conftest import create_table

LENIENT: dict[str, Any] = {"raise_server_exceptions": False}


def browser(client: TestClient) -> TestClient:
    """Another browser on the same app that, like a real server, answers a crash with a 500."""
    other = TestClient(client.app, raise_server_exceptions=False)
    other.portal = client.portal  # type: ignore[attr-defined]
    return other


def table_snapshot(client: TestClient, table_id: str) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return {"version": state["version"], "view": state["view"], "log": state["log"],
            "seats": state["table"]["seats"], "status": state["table"]["status"]}


def database_snapshot(database_url: str) -> dict[str, Any]:
    """Accounts (with their hashes), login sessions, tables, seats and actions, straight from the database."""
    engine = create_engine(database_url)
    with engine.connect() as connection:
        snapshot = {
            "accounts": connection.execute(text("select id, name, password_hash from accounts order by id")).all(),
            "sessions": connection.execute(text("select count(*) from sessions")).scalar_one(),
            "tables": connection.execute(text("select id, status from game_tables order by id")).all(),
            "seats": connection.execute(text("select table_id, seat, kind, name, token_hash from seats "
                                             "order by table_id, seat")).all(),
            "actions": connection.execute(text("select count(*) from actions")).scalar_one(),
        }
    engine.dispose()
    return snapshot


def two_player_table(client: TestClient) -> tuple[str, TestClient]:
    table_id = create_table(client)["table"]["id"]
    bob = browser(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    return table_id, bob


def post_endpoints(table_id: str) -> list[str]:
    return ["/api/accounts", "/api/login", "/api/logout", "/api/tables", f"/api/tables/{table_id}/join",
            f"/api/tables/{table_id}/actions", f"/api/tables/{table_id}/leave",
            f"/api/tables/{table_id}/seats/1/bot"]


# --- 1. deeply nested JSON bodies ----------------------------------------------------------------

def assert_every_post_refuses(client: TestClient, database_url: str, body: bytes, status: int, code: str) -> None:
    """Ada (seated, host) sends ``body`` to every POST: each is refused and nothing changes."""
    client.post("/api/accounts", json={"name": "Carol", "password": "correct horse"})
    table_id, _bob = two_player_table(client)
    before_table, before_database = table_snapshot(client, table_id), database_snapshot(database_url)
    for path in post_endpoints(table_id):
        response = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == status, (path, response.status_code, response.text[:200])
        refusal = response.json()
        assert refusal["type"] == "error" and refusal["code"] == code, (path, refusal)
        assert refusal["message"], path
        assert "set-cookie" not in response.headers, path
    assert table_snapshot(client, table_id) == before_table
    assert database_snapshot(database_url) == before_database
    assert client.get("/api/me").json()["account"]["name"] == "Carol"  # logout did not run either


def test_a_body_of_action_and_100000_open_brackets_is_a_400_on_every_post(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    """The audit's input, on a server whose body limit lets it through: the nesting bound refuses it."""
    client = make_client(max_body_bytes=1024 * 1024, **LENIENT)
    body = b'{"action":' + b"[" * 100_000
    assert_every_post_refuses(client, database_url, body, 400, "too_deep")


def test_a_body_of_action_and_100000_open_brackets_is_refused_by_the_default_server(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    """With the default 64 KiB body limit the same 100,006 bytes are too large before they are too deep."""
    client = make_client(**LENIENT)
    assert_every_post_refuses(client, database_url, b'{"action":' + b"[" * 100_000, 413, "too_large")


def test_a_body_of_60000_open_brackets_within_the_size_limit_is_a_400_on_every_post(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    client = make_client(**LENIENT)
    assert_every_post_refuses(client, database_url, b'{"action":' + b"[" * 60_000, 400, "too_deep")


def test_a_body_nested_33_deep_is_refused_and_32_deep_is_read(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    client = make_client(**LENIENT)
    too_deep = b'{"options":' + b'{"a":' * MAX_JSON_DEPTH + b"1" + b"}" * (MAX_JSON_DEPTH + 1)
    assert_every_post_refuses(client, database_url, too_deep, 400, "too_deep")
    deepest = (b'{"game": "toy", "players": 2, "seat": 0, "name": "Ada", "options":'
               + b'{"a":' * (MAX_JSON_DEPTH - 1) + b"1" + b"}" * MAX_JSON_DEPTH)
    assert load_json(deepest) is not None
    read = client.post("/api/tables", content=deepest)
    assert read.status_code == 400 and read.json()["code"] == "bad_options"  # parsed, then judged by the game


def test_brackets_inside_strings_do_not_count_as_nesting(client: TestClient) -> None:
    response = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "[[[[" * 10})
    assert response.status_code == 201, response.text
    assert load_json('{"a": "\\"[[[[' + "[" * 100 + '"}') == {"a": '"[[[[' + "[" * 100}


@pytest.mark.parametrize("body", [
    pytest.param(b'{"name": ' + b"1" * 5000 + b"}", id="a-5000-digit-number"),
    pytest.param(b'{"game": "toy", "players": 2, "seat": 0, "name": "\\ud800"}', id="a-lone-surrogate"),
    pytest.param(b'{"game": "toy", "players": 2, "seat": 0, "name": "Ada", "options": {"hand_size": NaN}}',
                 id="NaN"),
    pytest.param(b'{"game": "toy", "players": 1e999, "seat": 0, "name": "Ada"}', id="1e999"),
    pytest.param(b'{"name": "\xff"}', id="not-utf-8"),
])
def test_json_that_python_reads_but_is_not_plain_json_is_a_400(
        make_client: Callable[..., TestClient], database_url: str, body: bytes) -> None:
    client = make_client(**LENIENT)
    before = database_snapshot(database_url)
    response = client.post("/api/tables", content=body)
    assert response.status_code == 400 and response.json()["code"] == "malformed", response.text
    assert database_snapshot(database_url) == before


# --- 2. WebSocket messages -----------------------------------------------------------------------

@contextmanager
def seated_socket(client: TestClient, table_id: str) -> Iterator[Any]:
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 0
        yield ws


@pytest.mark.parametrize(("frame", "code"), [
    pytest.param("[" * 2000 + "]" * 2000, "too_deep", id="2000-nested-brackets"),
    pytest.param('{"type": "act", "action": ' + "[" * 1000 + "]" * 1000 + "}", "too_deep",
                 id="an-act-with-1000-nested-brackets"),
    pytest.param(b'{"type": "ping"}', "malformed", id="a-binary-frame"),
    pytest.param(b"\x00\xff" * 10, "malformed", id="a-binary-frame-of-junk"),
    pytest.param("not json at all", "malformed", id="not-json"),
    pytest.param("[1, 2]", "malformed", id="a-json-array"),
    pytest.param('"act"', "malformed", id="a-json-string"),
    pytest.param('{"type": "shout"}', "malformed", id="an-unknown-type"),
    pytest.param("{}", "malformed", id="no-type"),
    pytest.param('{"type": "act", "action": "x", "version": NaN}', "malformed", id="NaN"),
    pytest.param('{"type": "act", "action": "\\udc00", "version": 0}', "malformed", id="a-lone-surrogate"),
    pytest.param("x" * (MAX_MESSAGE_CHARS + 1), "too_large", id="4097-characters"),
])
def test_a_bad_websocket_frame_gets_an_error_and_the_connection_stays_open(
        client: TestClient, database_url: str, frame: str | bytes, code: str) -> None:
    table_id, _bob = two_player_table(client)
    with seated_socket(client, table_id) as ws:
        before_table, before_database = table_snapshot(client, table_id), database_snapshot(database_url)
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == code and error["message"], error
        refreshed = ws.receive_json()
        assert refreshed["type"] == "state" and refreshed["version"] == 0
        assert table_snapshot(client, table_id) == before_table
        assert database_snapshot(database_url) == before_database
        ws.send_json({"type": "ping"})  # the same connection still answers...
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "act", "action": refreshed["legal"][0], "version": 0})  # ...and still plays
        while (state := ws.receive_json())["version"] == 0:
            assert state["type"] in ("state", "update"), state
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 1


# --- 3. passwords and body sizes -----------------------------------------------------------------

def test_a_password_of_1025_characters_is_refused_before_hashing_on_register_and_login(
        make_client: Callable[..., TestClient], database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client(**LENIENT)
    assert client.post("/api/accounts", json={"name": "Ada", "password": "a" * MAX_PASSWORD_CHARS}).status_code == 200
    assert client.post("/api/login", json={"name": "Ada", "password": "a" * MAX_PASSWORD_CHARS}).status_code == 200
    client.post("/api/logout")
    before = database_snapshot(database_url)
    hashed: list[str] = []
    monkeypatch.setattr(accounts_module, "hash_password", lambda password: hashed.append(password) or "")
    monkeypatch.setattr(accounts_module, "verify_password", lambda stored, password: hashed.append(password) or False)
    for length in (MAX_PASSWORD_CHARS + 1, 50_000):
        too_long = "a" * length
        for path, name in (("/api/accounts", "Bob"), ("/api/login", "Ada")):
            response = client.post(path, json={"name": name, "password": too_long})
            assert response.status_code == 400, (path, length, response.text)
            refusal = response.json()
            assert refusal["code"] == "bad_password" and str(MAX_PASSWORD_CHARS) in refusal["message"], refusal
    assert hashed == []
    assert database_snapshot(database_url) == before
    assert client.get("/api/me").json()["account"] is None


def test_a_password_of_1_mb_is_refused_by_the_body_limit(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    client = make_client(**LENIENT)
    before = database_snapshot(database_url)
    response = client.post("/api/accounts", json={"name": "Ada", "password": "a" * 1_000_000})
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert database_snapshot(database_url) == before


def test_a_declared_content_length_over_the_limit_is_413_without_reading_the_body(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    client = make_client(**LENIENT)
    table_id, _bob = two_player_table(client)
    before_table, before_database = table_snapshot(client, table_id), database_snapshot(database_url)
    body = json.dumps({"game": "toy", "players": 2, "seat": 0, "name": "Ada", "pad": "x" * DEFAULT_MAX_BODY_BYTES})
    response = client.post("/api/tables", content=body)
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "too_large" and str(DEFAULT_MAX_BODY_BYTES) in response.json()["message"]
    assert table_snapshot(client, table_id) == before_table
    assert database_snapshot(database_url) == before_database


class Recorder:
    """An ASGI receive channel that yields chunks and counts how many were taken."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.taken = 0

    async def receive(self) -> dict[str, Any]:
        chunk = self.chunks[self.taken]
        self.taken += 1
        return {"type": "http.request", "body": chunk, "more_body": self.taken < len(self.chunks)}


def run_body_limit(headers: list[tuple[bytes, bytes]], chunks: list[bytes], limit: int = 1000) -> tuple[
        int, bool, Recorder]:
    """Send one request through ``BodyLimit`` alone: its status, whether the app ran, how much was read."""
    reached: list[bool] = []

    async def inner_app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    recorder = Recorder(chunks)
    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    aio.run(BodyLimit(inner_app, limit)(scope, recorder.receive, send))  # type: ignore[arg-type]
    return sent[0]["status"], bool(reached), recorder


def test_a_declared_content_length_over_the_limit_is_refused_before_any_chunk_is_read() -> None:
    status, reached, recorder = run_body_limit([(b"content-length", b"1001")], [b"x" * 1001])
    assert (status, reached, recorder.taken) == (413, False, 0)
    status, reached, recorder = run_body_limit([(b"content-length", b"-1")], [b""])
    assert (status, reached, recorder.taken) == (400, False, 0)
    status, reached, _recorder = run_body_limit([(b"content-length", b"1000")], [b"{" + b" " * 998 + b"}"])
    assert (status, reached) == (200, True)


def test_a_chunked_body_without_content_length_stops_being_read_once_past_the_limit() -> None:
    chunks = [b" " * 100] * 1000  # 100 kB in 100-byte chunks, no Content-Length
    status, reached, recorder = run_body_limit([(b"transfer-encoding", b"chunked")], chunks)
    assert (status, reached) == (413, False)
    assert recorder.taken == 11  # 1,100 bytes: the first chunk past the 1,000-byte limit, and no more


@contextmanager
def running_server(settings: Settings) -> Iterator[int]:
    """The real app under uvicorn on a free loopback port, in a thread, stopped afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    application: FastAPI = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning",
                                            ws=WS_IMPLEMENTATION))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def raw_post(port: int, headers: str, chunks: Iterator[bytes]) -> tuple[bytes, int]:
    """POST over a plain socket, sending ``chunks`` until the server answers; its answer and bytes sent."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}\r\n".encode())
        for chunk in chunks:
            if select.select([connection], [], [], 0)[0]:
                break  # answered already
            try:
                connection.sendall(chunk)
            except OSError:  # the server closed the connection after answering
                break
            sent += len(chunk)
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = connection.recv(65536)
            if not data:
                break
            answer += data
    return answer, sent


def test_a_chunked_body_without_content_length_is_413_from_the_running_server(database_url: str) -> None:
    settings = Settings(database_url=database_url, bot_delay=0.0)
    total = 8 * 1024 * 1024
    chunk = b" " * 4096

    def chunked() -> Iterator[bytes]:
        for _ in range(total // len(chunk)):
            yield b"%x\r\n" % len(chunk) + chunk + b"\r\n"
        yield b"0\r\n\r\n"

    with running_server(settings) as port:
        answer, sent = raw_post(port, "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n", chunked())
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert sent < total  # refused while the body was still streaming in
        declared, _ = raw_post(port, f"Content-Length: {total}\r\n", iter([]))
        assert declared.startswith(b"HTTP/1.1 413"), declared[:200]
    assert database_snapshot(database_url)["tables"] == []


# --- 4. names that only look different -----------------------------------------------------------

@pytest.mark.parametrize("lookalike", [
    pytest.param("AUDITOR", id="AUDITOR"),
    pytest.param("Auditor", id="Auditor"),
    pytest.param("ａｕｄｉｔｏｒ", id="fullwidth-auditor"),
    pytest.param("auditor\u200b", id="auditor-zero-width-space"),
    pytest.param("audi\u00adtor", id="audi-soft-hyphen-tor"),
    pytest.param("\u2000auditor\u00a0", id="auditor-in-unicode-spaces"),
])
def test_a_lookalike_of_auditor_cannot_register_beside_auditor(
        make_client: Callable[..., TestClient], database_url: str, lookalike: str) -> None:
    client = make_client(**LENIENT)
    assert client.post("/api/accounts", json={"name": "auditor", "password": "correct horse"}).status_code == 200
    client.post("/api/logout")
    before = database_snapshot(database_url)
    response = client.post("/api/accounts", json={"name": lookalike, "password": "another one"})
    assert response.status_code == 409 and response.json()["code"] == "name_taken", response.text
    assert database_snapshot(database_url) == before
    assert client.get("/api/me").json()["account"] is None
    logged_in = client.post("/api/login", json={"name": lookalike, "password": "correct horse"})
    assert logged_in.status_code == 200 and logged_in.json()["account"]["name"] == "auditor"


def test_ss_and_sharp_s_and_ligatures_share_a_key() -> None:
    assert name_key("STRASSE") == name_key("straße") == "strasse"
    assert name_key("ﬁsh") == name_key("FISH") == "fish"
    assert name_key("  Ada   Lovelace ") == "ada lovelace"
    assert name_key("José") != name_key("Jose")  # accents make another name
    for name in ("AUDITOR", "ﬁsh", "ǅemal", "ΣΊΣΥΦΟΣ", "ℌello"):
        assert name_key(name_key(name)) == name_key(name)


@pytest.mark.parametrize("name", [
    pytest.param("Ada\x00", id="a-NUL"),
    pytest.param("Ada\x07", id="a-bell"),
    pytest.param("\u202eadA", id="a-right-to-left-override"),
    pytest.param("Ada\u2066", id="a-bidi-isolate"),
    pytest.param("\u200b\u200d", id="only-zero-width-characters"),
    pytest.param("A" * 41, id="41-characters"),
])
def test_a_name_with_invisible_or_control_characters_is_refused(
        make_client: Callable[..., TestClient], database_url: str, name: str) -> None:
    client = make_client(**LENIENT)
    table_id = create_table(client)["table"]["id"]
    before_table, before_database = table_snapshot(client, table_id), database_snapshot(database_url)
    stranger = browser(client)
    for path, body in (("/api/accounts", {"name": name, "password": "correct horse"}),
                       ("/api/tables", {"game": "toy", "players": 2, "seat": 0, "name": name}),
                       (f"/api/tables/{table_id}/join", {"seat": 1, "name": name})):
        response = stranger.post(path, json=body)
        assert response.status_code == 400 and response.json()["code"] == "bad_name", (path, response.text)
    assert table_snapshot(client, table_id) == before_table
    assert database_snapshot(database_url) == before_database


@pytest.mark.parametrize("lookalike", ["Auditor", "ＡＵＤＩＴＯＲ", "auditor\u200b"])
def test_a_guest_named_like_a_registered_player_cannot_sit_down(
        make_client: Callable[..., TestClient], database_url: str, lookalike: str) -> None:
    client = make_client(**LENIENT)
    table_id = create_table(client)["table"]["id"]
    auditor = browser(client)
    assert auditor.post("/api/accounts", json={"name": "auditor", "password": "correct horse"}).status_code == 200
    before_table, before_database = table_snapshot(client, table_id), database_snapshot(database_url)
    mallory = browser(client)
    joined = mallory.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": lookalike})
    assert joined.status_code == 409 and joined.json()["code"] == "name_reserved", joined.text
    assert "set-cookie" not in joined.headers
    created = mallory.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": lookalike})
    assert created.status_code == 409 and created.json()["code"] == "name_reserved", created.text
    assert table_snapshot(client, table_id) == before_table
    assert database_snapshot(database_url) == before_database
    assert mallory.post("/api/tables", json={"game": "toy", "players": 2, "seat": None, "name": lookalike}
                        ).status_code == 201  # watching needs no name
    # The account itself, signed in, may sit under its name in any spelling.
    sat = auditor.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": lookalike})
    assert sat.status_code == 200, sat.text


def test_two_seats_at_one_table_cannot_share_a_name_up_to_case(
        make_client: Callable[..., TestClient], database_url: str) -> None:
    client = make_client(**LENIENT)
    table_id = create_table(client, players=3)["table"]["id"]  # Ada in seat 0
    before_table, before_database = table_snapshot(client, table_id), database_snapshot(database_url)
    for name in ("ADA", "ａｄａ", "Ada\u200b", " ada "):
        joined = browser(client).post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": name})
        assert joined.status_code == 409 and joined.json()["code"] == "name_in_use", (name, joined.text)
    assert table_snapshot(client, table_id) == before_table
    assert database_snapshot(database_url) == before_database
    assert browser(client).post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Adam"}).status_code == 200
