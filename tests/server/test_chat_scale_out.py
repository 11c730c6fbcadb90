"""Chat and spectators across two server processes sharing PostgreSQL and Redis: a line said through
one reaches a player whose socket is held by the other, never its spectator; each counts the other's
spectators."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx

from tests import aio
from tests.server.test_scale_out import Process, citadels_table, processes, site  # noqa: F401


async def first_state(ws: Any) -> dict[str, Any]:
    """The first full state (a presence update may come first, as a page ignores it before a state)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if message.get("type") == "state":
            return message


async def next_chat(ws: Any, seconds: float) -> dict[str, Any] | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(TimeoutError):
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            if message.get("type") == "chat":
                return message
    return None


def test_a_line_said_through_one_process_reaches_a_player_on_the_other_and_spectators_are_counted(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:  # noqa: F811
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    table_id, tokens = citadels_table(a.url, [a.url, a.url, a.url])

    async def talk() -> tuple[dict[str, Any] | None, dict[str, Any] | None, int]:
        import websockets

        ws_b = b.url.replace("http://", "ws://")
        async with websockets.connect(f"{ws_b}/ws/tables/{table_id}?token={tokens[2]}") as seat2, \
                websockets.connect(f"{ws_b}/ws/tables/{table_id}") as spectator:
            assert (await first_state(seat2))["seat"] == 2
            assert (await first_state(spectator))["seat"] is None
            said = httpx.post(f"{a.url}/api/tables/{table_id}/chat", json={"text": "<b>hi</b> from A"},
                              headers={"X-Meeple-Token": tokens[0]})
            assert said.status_code == 200, said.text
            heard = await next_chat(seat2, 20)
            overheard = await next_chat(spectator, 2)
            counted = 0
            deadline = time.monotonic() + 20
            while counted != 1 and time.monotonic() < deadline:  # A learns B's spectator from Redis
                httpx.get(f"{a.url}/api/tables/{table_id}", headers={"X-Meeple-Token": tokens[1]})
                async with websockets.connect(
                        f"{a.url.replace('http://', 'ws://')}/ws/tables/{table_id}?token={tokens[1]}") as seat1:
                    counted = (await first_state(seat1))["table"]["spectators"]
            return heard, overheard, counted

    heard, overheard, counted = aio.run(talk())
    assert heard is not None and heard["lines"][0]["text"] == "<b>hi</b> from A" and heard["lines"][0]["name"] == "P0"
    assert overheard is None
    assert counted == 1
