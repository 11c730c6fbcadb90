"""The live lobby across two server processes sharing PostgreSQL and Redis: a table created, a seat
taken, a lobby line said and a turn passed through one process reach the lobby and "My games" sockets
the other process holds, and a page that left one process resumes on the other from its sequence."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx

from tests import aio
from tests.server.test_scale_out import Process, processes, site  # noqa: F401


async def next_matching(ws: Any, kind: str, seconds: float = 20, **fields: Any) -> dict[str, Any]:
    """The next message of ``kind`` whose ``table`` (or line) has ``fields``; others are skipped."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), left))
        if message.get("type") != kind:
            continue
        subject = message["lines"][-1] if kind == "chat" and message["lines"] else message.get("table") or {}
        if all(subject.get(key) == value for key, value in fields.items()):
            return message
    raise AssertionError(f"no {kind} message with {fields}")


def test_a_table_a_line_and_a_turn_made_through_one_process_reach_lobby_sockets_of_the_other(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:  # noqa: F811
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    ws_a, ws_b = a.url.replace("http://", "ws://"), b.url.replace("http://", "ws://")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
        import websockets

        async with websockets.connect(f"{ws_a}/ws/lobby") as before:  # a page that will reconnect later
            where = await next_matching(before, "tables")
        async with websockets.connect(f"{ws_b}/ws/lobby") as lobby:
            assert (await next_matching(lobby, "tables"))["type"] == "tables"
            created = httpx.post(f"{a.url}/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"})
            assert created.status_code == 201, created.text
            table_id, ada_token = created.json()["table"]["id"], created.json()["token"]
            opened = await next_matching(lobby, "table", id=table_id)
            said = httpx.post(f"{a.url}/api/lobby/chat", json={"text": "a game of toy?", "name": "Ada"})
            assert said.status_code == 200, said.text
            heard = await next_matching(lobby, "chat", text="a game of toy?")
            joined = httpx.post(f"{a.url}/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})
            assert joined.status_code == 200, joined.text
            started = await next_matching(lobby, "table", id=table_id, status="running")
            bob_cookie = f"meeple_seat_{table_id}={joined.json()['token']}"
        async with websockets.connect(f"{ws_b}/ws/lobby?topics=my", additional_headers={"Cookie": bob_cookie}) as my:
            first = await next_matching(my, "my")
            assert [(t["id"], t["my_turn"]) for t in first["tables"]] == [(table_id, False)]
            state = httpx.get(f"{a.url}/api/tables/{table_id}", headers={"X-Meeple-Token": ada_token}).json()
            moved = httpx.post(f"{a.url}/api/tables/{table_id}/actions", headers={"X-Meeple-Token": ada_token},
                               json={"action": state["legal"][0], "version": state["version"]})
            assert moved.status_code == 200, moved.text
            turn = await next_matching(my, "my_table", id=table_id, my_turn=True)
        # The page that left A reconnects to B with the sequence it had: B heard every change since
        # (the sequence is the site's, in Redis), so it is sent just those.
        async with websockets.connect(f"{ws_b}/ws/lobby?epoch={where['epoch']}&since={where['seq']}") as back:
            resumed = await next_matching(back, "resumed")
            missed = [json.loads(await asyncio.wait_for(back.recv(), 20)) for _ in range(resumed["missed"])]
        assert [m["seq"] for m in missed] == list(range(where["seq"] + 1, resumed["seq"] + 1))
        ours = [m["table"] for m in missed if m["table"]["id"] == table_id]  # (another test's site may share Redis)
        assert ours[0] == opened["table"] and ours[-1] == started["table"]
        return opened, heard, started, turn

    opened, heard, started, turn = aio.run(scenario())
    assert opened["table"]["status"] == "open" and opened["table"]["seats"][0]["name"] == "Ada"
    assert heard["lines"][-1]["name"] == "Ada"
    assert started["seq"] > opened["seq"] and started["table"]["seats"][1]["name"] == "Bob"
    assert turn["table"]["waiting_for"] == [1] and turn["table"]["mine"] == [1]
