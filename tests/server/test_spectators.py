"""Spectators see public information only (``view(None)``), on every channel and in every game: the
REST state, the WebSocket's state and updates (and after a reconnect), the replay of a running game
(refused for everyone), the lobby's listing; a table can refuse watchers; the table counts them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import game_names, load_game
from tests.server.conftest import create_table, guest
from tests.server.follow import Follower
from tests.server.test_api import live_table, wait_until

REAL_GAMES = [name for name in game_names() if name != "toy"]
MOVES = 8


def public_views(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    """``view(None)`` after each move so far, rebuilt from the stored seed, options and log."""
    table = live_table(client, table_id)
    assert table.state is not None
    state = load_game(table.game.name).new_game(table.players, seed=table.seed, options=table.options)
    views = [state.view(None)]
    for notation in table.state.history:
        state.apply(notation)
        views.append(state.view(None))
    return views


def assert_public(message: dict[str, Any], views: list[dict[str, Any]]) -> None:
    assert message["seat"] is None and message["legal"] == []
    assert message["view"] == views[message["version"]]
    assert all("action" not in entry for entry in message["log"])


def play_a_few_moves(client: TestClient, table_id: str, moves: int) -> None:
    """The creator (seat 0) plays its first legal action whenever it is its turn; easy bots the others."""
    for _ in range(moves):
        wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["legal"] != [] or
                   client.get(f"/api/tables/{table_id}").json()["is_over"], timeout=60)
        mine = client.get(f"/api/tables/{table_id}").json()
        if mine["is_over"]:
            return
        response = client.post(f"/api/tables/{table_id}/actions",
                               json={"action": mine["legal"][0], "version": mine["version"]})
        assert response.status_code == 200, response.text


@pytest.mark.parametrize("game", REAL_GAMES)
def test_a_spectator_sees_only_public_information_on_every_channel(client: TestClient, game: str) -> None:
    table_id = create_table(client, game=game, players=3, name="Ada",
                            seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                   {"kind": "bot", "level": "easy"}])["table"]["id"]
    watcher = guest(client)
    with watcher.websocket_connect(f"/ws/tables/{table_id}") as ws:
        follower = Follower(ws)
        first = follower.receive()
        play_a_few_moves(client, table_id, MOVES // 2)
        ws.send_json({"type": "refresh"})
        while (latest := follower.receive())["type"] != "state" or latest is first:
            pass
        assert latest["table"]["spectators"] == 1
    version = latest["version"]
    play_a_few_moves(client, table_id, MOVES // 2)
    with watcher.websocket_connect(f"/ws/tables/{table_id}?version={version}") as ws:  # a reconnect
        again = Follower(ws)
        again.state = latest
        ws.send_json({"type": "refresh"})
        while again.receive()["type"] != "state" or again.raw[-1].get("type") != "state":
            pass
    rest = watcher.get(f"/api/tables/{table_id}").json()
    views = public_views(client, table_id)  # after every message above (bots may move on meanwhile)
    for raw in follower.raw + again.raw:  # everything that went over the wire
        if raw["type"] == "state":
            assert_public(raw, views)
        assert raw["seat"] is None and raw["legal"] == []
        assert all("action" not in entry for entry in raw["log"])
        assert raw.get("view") is None or raw["view"] == views[raw["version"]]
    for state in (first, latest, again.state):
        assert state is not None
        assert_public(state, views)
    assert_public(rest, views)
    seated_view = live_table(client, table_id).state.view(0)  # type: ignore[union-attr]
    if game != "caylus":  # Caylus hides nothing: every seat's view is the public one
        assert rest["view"] != seated_view
    if rest["table"]["status"] == "running":
        for query in ("?step=1", "?step=1&seat=0", "?step=0&seat=1"):
            assert watcher.get(f"/api/tables/{table_id}/replay{query}").json()["code"] == "not_finished"
    listed = [t for t in watcher.get("/api/tables").json()["tables"] if t["id"] == table_id]
    assert listed and not {"view", "legal", "log", "token", "host_token"} & set(listed[0])
    assert not any({"token", "token_hash", "hand", "view"} & set(seat) for seat in listed[0]["seats"])


def test_a_table_without_watchers_refuses_people_without_a_seat_once_it_runs(client: TestClient) -> None:
    table_id = create_table(client, watchers=False)["table"]["id"]
    stranger = guest(client)
    assert stranger.get(f"/api/tables/{table_id}").status_code == 200  # open: whoever may join sees the seats
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    refused = stranger.get(f"/api/tables/{table_id}")
    assert refused.status_code == 403 and refused.json()["code"] == "no_watchers"
    with stranger.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert ws.receive_json()["code"] == "no_watchers"
    assert bob.get(f"/api/tables/{table_id}").json()["seat"] == 1
    listed = [t for t in client.get("/api/tables").json()["tables"] if t["id"] == table_id]
    assert listed[0]["watchers"] is False
    assert client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada",
                                            "watchers": "no"}).json()["code"] == "bad_watchers"
    assert create_table(client)["table"]["watchers"] is True
