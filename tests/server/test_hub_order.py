"""What a lagging client is sent when updates of one table come from two processes: the hub keeps
them in version order whatever order they arrived in, and a resync from a client that is up to date
already sends nothing (not a whole state)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from meeple.server.hub import Hub, Update
from tests.server.test_api import two_player_table


def move(table_id: str, start: int) -> Update:
    return Update(table_id, start, start + 1, {"0": {"type": "update", "from": start, "version": start + 1}})


def test_an_update_heard_after_a_later_one_is_kept_in_its_place() -> None:
    """Process B read move 6 from the database and made move 7 before A's update for move 6 reached it
    over Redis: a client at 5 is still sent 5→6 and 6→7, not a whole state."""
    hub = Hub()
    hub._remember(move("t", 4))  # 4→5
    hub._remember(move("t", 6))  # 6→7, made here
    assert hub.missed("t", 0, 5, 7) is None  # 5→6 is still crossing
    hub.received(move("t", 5))  # 5→6, heard late
    assert [json.loads(text)["from"] for text in hub.missed("t", 0, 5, 7) or []] == [5, 6]
    assert [json.loads(text)["from"] for text in hub.missed("t", 0, 4, 7) or []] == [4, 5, 6]
    hub.received(move("t", 5))  # the same update again, or one overlapping what is kept: ignored
    assert [update.start for update in hub.recent["t"]] == [4, 5, 6]


def test_the_hub_keeps_only_its_last_updates_when_one_comes_late() -> None:
    hub = Hub()
    for start in range(1, 20):
        if start != 12:
            hub._remember(move("t", start))
    hub.received(move("t", 12))
    starts = [update.start for update in hub.recent["t"]]
    assert starts == sorted(starts) and 12 in starts and starts[-1] == 19 and len(starts) == 8


def test_a_resync_at_the_current_version_sends_nothing(client: TestClient) -> None:
    table_id, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = ws.receive_json()
        assert state["type"] == "state"
        ws.send_json({"type": "resync", "version": state["version"]})
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"  # no whole state came before it
        ws.send_json({"type": "resync", "version": -1})
        assert ws.receive_json()["type"] == "state"  # a client with nothing gets everything
