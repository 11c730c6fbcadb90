"""The live lobby (``/ws/lobby``): table changes, lobby chat lines and "My games" rows pushed to other
browsers without any GET; resynchronising after a reconnect; filters; refusals that change nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from meeple.server.lobby import MOVE_FIELDS, LobbyFeed, lobby_entry
from tests.server.conftest import create_table, guest
from tests.server.test_api import two_player_table
from tests.server.test_my_games import play


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, skipping others (every message but ``kind`` is allowed meanwhile)."""
    for _ in range(100):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def nothing_more(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """What arrives before the answer to a ping sent now (after the feed's coalescing delay)."""
    ws.send_json({"type": "ping"})
    arrived: list[dict[str, Any]] = []
    while (message := ws.receive_json())["type"] != "pong":
        arrived.append(message)
    return arrived


def settle(client: TestClient) -> None:
    """Let the feed publish what is marked (it looks a moment after a change)."""
    assert client.portal is not None  # the app is running (its lifespan entered)
    client.portal.call(feed_of(client).flush)


def feed_of(client: TestClient) -> LobbyFeed:
    feed: LobbyFeed = client.app.state.lobby  # type: ignore[attr-defined]
    return feed


def listed(client: TestClient, table_id: str) -> dict[str, Any]:
    """The table's entry as ``GET /api/tables`` shows it, without what the lobby socket leaves out."""
    entry: dict[str, Any] = next(t for t in client.get("/api/tables").json()["tables"] if t["id"] == table_id)
    assert set(MOVE_FIELDS) - {"spectators"} <= entry.keys() and all("online" in seat for seat in entry["seats"])
    return lobby_entry(entry)


def connect(client: TestClient, query: str = "") -> Any:
    return client.websocket_connect(f"/ws/lobby{query}")


def test_a_table_created_and_joined_and_a_line_said_reach_the_other_lobby_without_a_get(client: TestClient) -> None:
    bob = guest(client)
    with connect(client) as ada_ws, connect(bob) as bob_ws:
        assert next_of(bob_ws, "tables")["tables"] == [] and next_of(bob_ws, "chat")["lines"] == []
        next_of(ada_ws, "tables")
        next_of(ada_ws, "chat")
        table_id = create_table(client)["table"]["id"]
        settle(client)
        created = next_of(bob_ws, "table")
        assert created["table"] == listed(client, table_id)
        assert created["table"]["status"] == "open" and [s["taken"] for s in created["table"]["seats"]] == [True, False]
        assert not MOVE_FIELDS & created["table"].keys()
        assert not any("online" in seat for seat in created["table"]["seats"])
        assert next_of(ada_ws, "table") == created

        assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
        settle(client)
        joined = next_of(ada_ws, "table")
        assert joined["seq"] > created["seq"]
        assert joined["table"]["status"] == "running" and joined["table"]["seats"][1]["name"] == "Bob"
        assert joined["table"] == listed(client, table_id)

        said = client.post("/api/lobby/chat", json={"text": "<i>anyone</i> for Caylus?", "name": "Ada"})
        assert said.status_code == 200, said.text
        heard = next_of(bob_ws, "chat")
        assert heard["lines"] == [said.json()["line"]] and heard["lines"][0]["text"] == "<i>anyone</i> for Caylus?"

        # A move changes nothing the lobby shows: nothing is published to it.
        published = dict(feed_of(client).counts)
        play(client, table_id)
        settle(client)
        assert nothing_more(bob_ws) == []
        assert feed_of(client).counts["changes"] == published["changes"]
        assert feed_of(client).counts["turns"] == published["turns"] + 1


def test_a_reconnecting_client_gets_only_what_it_missed_or_the_whole_list_when_its_sequence_is_stale(
        client: TestClient) -> None:
    first = create_table(client)["table"]["id"]
    settle(client)
    with connect(client) as ws:
        where = next_of(ws, "tables")
        assert [t["id"] for t in where["tables"]] == [first]
    second = create_table(client)["table"]["id"]
    settle(client)
    with connect(client, f"?epoch={where['epoch']}&since={where['seq']}") as ws:
        resumed = next_of(ws, "resumed")
        assert resumed["missed"] == 1 and resumed["seq"] == where["seq"] + 1
        change = ws.receive_json()
        assert change["type"] == "table" and change["table"]["id"] == second
    for stale in (f"?epoch=another&since={where['seq']}", f"?epoch={where['epoch']}&since={where['seq'] + 50}"):
        with connect(client, stale) as ws:
            whole = ws.receive_json()
            assert whole["type"] == "tables" and {t["id"] for t in whole["tables"]} == {first, second}
            assert whole["seq"] == where["seq"] + 1
    feed = feed_of(client)
    feed.recent.clear()  # this process no longer has the changes (restarted, or too many since)
    with connect(client, f"?epoch={where['epoch']}&since={where['seq']}") as ws:
        assert ws.receive_json()["type"] == "tables"


def test_filters_keep_the_list_as_the_endpoint_does_and_a_filled_table_leaves_the_open_seats_list(
        client: TestClient) -> None:
    with connect(client, "?game=citadels") as citadels_ws, connect(client, "?open_seats=true") as open_ws:
        next_of(citadels_ws, "tables")
        assert next_of(open_ws, "tables")["filters"] == {"game": None, "mode": None, "open_seats": True}
        table_id, _bob = two_player_table(client)
        settle(client)
        assert next_of(open_ws, "table_gone")["id"] == table_id  # created with a free seat, then taken
        assert all(m["type"] == "chat" for m in nothing_more(citadels_ws))  # a toy table never reaches it
        waiting = create_table(client)["table"]["id"]
        settle(client)
        assert next_of(open_ws, "table")["table"]["id"] == waiting
        open_ws.send_json({"type": "filters", "game": "toy", "mode": "turn-based", "open_seats": False})
        refiltered = next_of(open_ws, "tables")
        assert refiltered["tables"] == [] and refiltered["filters"]["mode"] == "turn-based"


def test_malformed_or_forged_messages_get_a_clear_error_and_change_nothing(client: TestClient) -> None:
    with connect(client, "?game=toy") as ws:
        next_of(ws, "tables")
        next_of(ws, "chat")
        ws.send_bytes(b"\x00")
        assert ws.receive_json()["code"] == "malformed"
        ws.send_text("not json")
        assert ws.receive_json()["code"] == "malformed"
        ws.send_json({"type": "chat", "text": "a line the socket does not take"})
        assert ws.receive_json()["code"] == "malformed"
        ws.send_json({"type": "filters", "game": "chess"})
        assert ws.receive_json()["code"] == "unknown_game"
        ws.send_json({"type": "filters", "game": "toy", "open_seats": "yes"})
        assert ws.receive_json()["code"] == "malformed"
        ws.send_text("[" * 2000 + "]" * 2000)
        assert ws.receive_json()["code"] in ("too_deep", "too_large")
        # the filters are still game=toy: a toy table arrives, and nothing was said in the chat
        table_id = create_table(client)["table"]["id"]
        settle(client)
        assert next_of(ws, "table")["table"]["id"] == table_id
    assert client.get("/api/lobby/chat").json()["lines"] == []
    with connect(client, "?topics=tables,secrets") as ws:
        assert ws.receive_json()["code"] == "bad_topics"
    with connect(client, "?mode=blitz") as ws:
        assert ws.receive_json()["code"] == "bad_mode"


def test_my_games_rows_are_pushed_to_their_players_only_when_the_turn_becomes_theirs(client: TestClient) -> None:
    table_id, bob = two_player_table(client)  # Ada (seat 0) to move
    stranger = guest(client)
    create_table(stranger)
    settle(client)
    with connect(bob, "?topics=my") as bob_ws, connect(stranger, "?topics=my") as stranger_ws:
        mine = next_of(bob_ws, "my")
        assert [(t["id"], t["my_turn"]) for t in mine["tables"]] == [(table_id, False)]
        assert [t["id"] for t in next_of(stranger_ws, "my")["tables"]] != [table_id]
        play(client, table_id)
        settle(client)
        row = next_of(bob_ws, "my_table")["table"]
        assert (row["id"], row["mine"], row["my_turn"], row["waiting_for"]) == (table_id, [1], True, [1])
        assert row == next(t for t in bob.get("/api/my/tables").json()["tables"] if t["id"] == table_id)
        assert nothing_more(stranger_ws) == []


def test_a_finished_table_is_pushed_as_the_endpoint_lists_it(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    with connect(client) as ws:
        next_of(ws, "tables")
        for _ in range(20):
            state = client.get(f"/api/tables/{table_id}").json()
            if state["is_over"]:
                break
            player = client if state["current_player"] == 0 else bob
            play(player, table_id)
        settle(client)
        finished = next_of(ws, "table")
        while finished["table"]["status"] != "finished":
            finished = next_of(ws, "table")
        assert finished["table"] == listed(client, table_id)
        assert finished["table"]["scores"] is not None and finished["table"]["winners"]


def test_a_page_of_another_origin_cannot_open_the_lobby_socket(client: TestClient) -> None:
    """The lobby socket reads the seat cookies (My games): a foreign page is refused before that."""
    table_id, bob = two_player_table(client)
    with bob.websocket_connect("/ws/lobby?topics=my", headers={"Origin": "http://evil.example"}) as ws:
        refusal = ws.receive_json()
    assert refusal["code"] == "forbidden_origin"
    with bob.websocket_connect("/ws/lobby?topics=my", headers={"Origin": "http://testserver"}) as ws:
        assert [t["id"] for t in next_of(ws, "my")["tables"]] == [table_id]
