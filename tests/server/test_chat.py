"""Table and lobby chat: plain text kept as typed, limits refused with nothing stored, kept across a
restart, live over the table's WebSocket to its players only, and in replays only for those seated."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from meeple.server.chat import MAX_CHAT_CHARS, RATE_LINES, RATE_SECONDS, RateLimit
from meeple.server.hub import RedisHub
from meeple.server.runtime import Refused
from tests.server.conftest import guest
from tests.server.test_api import two_player_table, wait_until
from tests.services import redis_url


def stored_lines(database_url: str) -> int:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        count = int(connection.execute(text("select count(*) from chat_messages")).scalar_one())
    engine.dispose()
    return count


def next_of_type(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") == kind:
            return message


def test_a_script_message_arrives_as_the_same_text_to_the_other_player(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    attack = '<script>alert("x")</script> & <b>bold</b>'
    with bob.websocket_connect(f"/ws/tables/{table_id}") as bob_ws:
        client.post(f"/api/tables/{table_id}/chat", json={"text": attack})
        line = next_of_type(bob_ws, "chat")["lines"][0]
    assert line["text"] == attack and line["name"] == "Ada" and line["seat"] == 0
    assert line["sender"].startswith("guest:")
    assert bob.get(f"/api/tables/{table_id}/chat").json()["lines"][-1]["text"] == attack


def test_chat_over_the_websocket_reaches_both_players_but_no_spectator(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ada_ws, \
            bob.websocket_connect(f"/ws/tables/{table_id}") as bob_ws, \
            guest(client).websocket_connect(f"/ws/tables/{table_id}") as spectator_ws:
        bob_ws.send_json({"type": "chat", "text": "  good luck  "})
        assert next_of_type(ada_ws, "chat")["lines"][0]["text"] == "good luck"
        assert next_of_type(bob_ws, "chat")["lines"][0]["name"] == "Bob"
        spectator_ws.send_json({"type": "chat", "text": "hi"})
        refusal = next_of_type(spectator_ws, "error")
        assert refusal["code"] == "not_seated"
        spectator_ws.send_json({"type": "ping"})
        while (message := spectator_ws.receive_json())["type"] != "pong":
            assert message["type"] != "chat"
    spectator = guest(client)
    assert spectator.get(f"/api/tables/{table_id}/chat").status_code == 403
    assert spectator.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == 403


def test_limits_are_refused_clearly_and_store_nothing(client: TestClient, database_url: str) -> None:
    table_id, _bob = two_player_table(client)
    chat = f"/api/tables/{table_id}/chat"
    for body, code in [({"text": "x" * (MAX_CHAT_CHARS + 1)}, "chat_too_long"), ({"text": " \n\t "}, "empty_chat"),
                       ({"text": 5}, "bad_chat"), ({}, "bad_chat"), ({"text": "\u0000\u200b"}, "empty_chat")]:
        response = client.post(chat, json=body)
        assert response.status_code == 400 and response.json()["code"] == code, body
    assert "500 characters" in client.post(chat, json={"text": "y" * 501}).json()["message"]
    assert stored_lines(database_url) == 0
    assert client.post(chat, json={"text": "x" * MAX_CHAT_CHARS}).status_code == 200
    for _ in range(RATE_LINES - 1):
        assert client.post(chat, json={"text": "again"}).status_code == 200
    refused = client.post(chat, json={"text": "one too many"})
    assert refused.status_code == 429 and refused.json()["code"] == "chat_rate" and "wait" in refused.json()["message"]
    assert stored_lines(database_url) == RATE_LINES
    lobby = client.post("/api/lobby/chat", json={"text": "z" * (MAX_CHAT_CHARS + 1), "name": "Ada"})
    assert lobby.json()["code"] == "chat_too_long" and stored_lines(database_url) == RATE_LINES


@pytest.mark.xdist_group("redis")  # one Redis: see pyproject.toml
def test_the_rate_limit_is_shared_by_every_process_on_one_redis() -> None:
    """With ``--workers N`` a sender's lines may reach any process: the count lives in Redis, so five lines
    through one process leave none for the sixth through another, and other senders are not affected."""
    url = redis_url()
    if url is None:
        pytest.skip("no test Redis answers (MEEPLE_TEST_REDIS_URL)")

    async def scenario() -> None:
        first, second = RedisHub(url), RedisHub(url)
        await first.start()
        await second.start()
        try:
            here, there = RateLimit(first), RateLimit(second)
            sender = f"account:{time.monotonic_ns()}"
            for _ in range(RATE_LINES):
                await here.check(sender)
            with pytest.raises(Refused) as refused:
                await there.check(sender)
            assert refused.value.code == "chat_rate" and refused.value.status == 429
            assert refused.value.message.endswith(("wait 9 s", f"wait {RATE_SECONDS:g} s"))
            await there.check(f"{sender}-someone-else")
            with pytest.raises(Refused):
                await here.check(sender)  # the refused line was not counted, and the window still holds
        finally:
            await second.stop()
            await first.stop()

    asyncio.run(scenario())


def test_chat_is_kept_across_a_restart_and_shown_in_the_replay_only_to_the_seated(
        make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    table_id, bob = two_player_table(first)
    first.post(f"/api/tables/{table_id}/chat", json={"text": "before the restart"})
    bob.post(f"/api/tables/{table_id}/chat", json={"text": "<i>me too</i>"})
    ada_cookies, bob_cookies = dict(first.cookies), dict(bob.cookies)
    first.__exit__(None, None, None)

    second = make_client()
    second.cookies.update(ada_cookies)
    lines = second.get(f"/api/tables/{table_id}/chat").json()["lines"]
    assert [(line["name"], line["text"]) for line in lines] == [("Ada", "before the restart"), ("Bob", "<i>me too</i>")]
    bob2 = guest(second)
    bob2.cookies.update(bob_cookies)
    stranger = guest(second)
    assert "code" not in stranger.get(f"/api/tables/{table_id}").json()
    while not (state := second.get(f"/api/tables/{table_id}").json())["is_over"]:  # play it out
        player = second if state["current_player"] == 0 else bob2
        mine = player.get(f"/api/tables/{table_id}").json()
        player.post(f"/api/tables/{table_id}/actions", json={"action": mine["legal"][0], "version": mine["version"]})
    wait_until(lambda: second.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished")
    assert [line["text"] for line in second.get(f"/api/tables/{table_id}/replay?step=1").json()["chat"]] \
        == ["before the restart", "<i>me too</i>"]
    assert len(bob2.get(f"/api/tables/{table_id}/replay?step=0&seat=1").json()["chat"]) == 2
    assert "chat" not in stranger.get(f"/api/tables/{table_id}/replay?step=1").json()
    assert "chat" not in stranger.get(f"/api/tables/{table_id}/replay?step=1&seat=0").json()


def test_the_lobby_chat_names_accounts_and_guests_and_refuses_borrowed_names(client: TestClient) -> None:
    assert client.post("/api/accounts", json={"name": "Grace", "password": "long enough secret"}).status_code < 300
    said = client.post("/api/lobby/chat", json={"text": "anyone for Citadels?", "name": "ignored"}).json()["line"]
    assert said["name"] == "Grace" and said["sender"].startswith("account:")
    visitor = guest(client)
    assert visitor.post("/api/lobby/chat", json={"text": "me", "name": "grace"}).json()["code"] == "name_reserved"
    assert visitor.post("/api/lobby/chat", json={"text": "me"}).json()["code"] == "bad_name"
    answer = visitor.post("/api/lobby/chat", json={"text": "<img src=x onerror=alert(1)>", "name": "Kim"}).json()
    assert answer["line"]["sender"] == "guest:kim"
    lines = visitor.get("/api/lobby/chat").json()["lines"]
    assert [(line["name"], line["text"]) for line in lines] == [
        ("Grace", "anyone for Citadels?"), ("Kim", "<img src=x onerror=alert(1)>")]
    assert visitor.get(f"/api/lobby/chat?after={lines[0]['id']}").json()["lines"] == lines[1:]
