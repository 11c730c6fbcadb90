"""Rematch: at a finished table one click offers the same seats a new table with the same options,
mode and clock; bots accept at once, people by clicking; the new table starts once all accepted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import create_table, guest
from tests.server.test_api import live_table, wait_until


def finish(client: TestClient, table_id: str, *players: TestClient) -> None:
    """Everyone whose turn it is passes until the toy game is over (two passes in a row end it)."""
    while True:
        state = client.get(f"/api/tables/{table_id}").json()
        if state["is_over"]:
            return
        mover = next((p for p in players if p.get(f"/api/tables/{table_id}").json()["seat"]
                      == state["current_player"]), None)
        if mover is None:  # a bot's turn
            continue
        response = mover.post(f"/api/tables/{table_id}/actions", json={"action": "pass", "version": state["version"]})
        assert response.status_code == 200, response.text


def test_a_rematch_with_bots_starts_at_once_with_the_same_options_and_clock(client: TestClient) -> None:
    old = create_table(client, players=3, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                                 {"kind": "bot", "level": "hard"}],
                       options={"hand_size": 1}, mode="turn-based", speed="3d")["table"]
    assert client.post(f"/api/tables/{old['id']}/rematch", json={}).json()["code"] == "not_finished"
    finish(client, old["id"], client)
    stranger = guest(client)
    refused = stranger.post(f"/api/tables/{old['id']}/rematch", json={})
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"

    response = client.post(f"/api/tables/{old['id']}/rematch", json={})
    assert response.status_code == 200, response.text
    offer: dict[str, Any] = response.json()
    new = offer["table"]
    assert new["id"] != old["id"] and offer["seat"] == 0 and offer["url"] == f"/tables/{new['id']}"
    assert new["status"] == "running"  # both bots accepted at once
    assert new["options"] == {**old["options"], "hand_size": 1} and new["players"] == 3
    assert (new["mode"], new["speed"], new["rated"]) == ("turn-based", "3d", old["rated"])
    assert [(s["kind"], s["bot_level"]) for s in new["seats"][1:]] == [("bot", "easy"), ("bot", "hard")]
    assert new["seats"][0]["name"] == "Ada"
    assert live_table(client, new["id"]).seed != live_table(client, old["id"]).seed  # a new deal
    mine = client.get(f"/api/tables/{new['id']}").json()
    assert mine["seat"] == 0 and mine["is_host"] is True
    assert client.get(f"/api/tables/{old['id']}").json()["table"]["rematch"] == new["id"]
    # clicking again leads to the same table and seat, and nothing else is created
    again = client.post(f"/api/tables/{old['id']}/rematch", json={}).json()
    assert (again["table"]["id"], again["seat"]) == (new["id"], 0)


def test_a_rematch_between_two_people_starts_when_both_accepted(client: TestClient) -> None:
    old_id = create_table(client)["table"]["id"]
    bob = guest(client)
    assert bob.post(f"/api/tables/{old_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    finish(client, old_id, client, bob)

    with bob.websocket_connect(f"/ws/tables/{old_id}") as bob_socket:
        assert bob_socket.receive_json()["table"]["rematch"] is None
        offer = bob.post(f"/api/tables/{old_id}/rematch", json={}).json()
        new_id = offer["table"]["id"]
        assert offer["seat"] == 1 and offer["table"]["status"] == "open"
        # everyone watching the old table hears of the offer
        wait_until(lambda: bob_socket.receive_json()["table"]["rematch"] == new_id)

    waiting = client.get(f"/api/tables/{new_id}").json()
    assert waiting["seat"] is None and waiting["table"]["status"] == "open"
    held = waiting["table"]["seats"][0]
    assert (held["name"], held["taken"], held["reserved"]) == ("Ada", True, True)
    # Ada's seat is held for her: a stranger cannot take it, nor list it as open
    stranger = guest(client)
    taken = stranger.post(f"/api/tables/{new_id}/join", json={"seat": 0, "name": "Eve"})
    assert taken.status_code == 409 and taken.json()["code"] == "seat_reserved"
    assert new_id not in [t["id"] for t in client.get("/api/tables?open_seats=true").json()["tables"]]
    assert stranger.post(f"/api/tables/{old_id}/rematch", json={}).status_code == 403

    accepted = client.post(f"/api/tables/{old_id}/rematch", json={})
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["seat"] == 0 and accepted.json()["table"]["id"] == new_id
    state = client.get(f"/api/tables/{new_id}").json()
    assert state["seat"] == 0 and state["table"]["status"] == "running" and state["is_host"] is False
    assert [s["name"] for s in state["table"]["seats"]] == ["Ada", "Bob"]
    assert bob.get(f"/api/tables/{new_id}").json()["seat"] == 1
    again = client.post(f"/api/tables/{old_id}/rematch", json={}).json()
    assert (again["table"]["id"], again["seat"]) == (new_id, 0)  # accepting twice changes nothing
    # a player with the wrong browser (no seat cookie of the new table) cannot take the seat twice
    ada_elsewhere = guest(client)
    ada_elsewhere.cookies.update({k: v for k, v in client.cookies.items() if old_id in k})
    twice = ada_elsewhere.post(f"/api/tables/{old_id}/rematch", json={})
    assert twice.status_code == 409 and twice.json()["code"] == "rematch_taken"


def test_two_processes_offering_at_once_lead_to_one_rematch(make_client: Callable[..., TestClient]) -> None:
    """Bob's process still holds the finished table without the offer Ada made through another
    process: his click accepts hers (the database names the rematch once), never opens a second."""
    first = make_client()
    old_id = create_table(first)["table"]["id"]
    bob_first = guest(first)
    assert bob_first.post(f"/api/tables/{old_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    finish(first, old_id, first, bob_first)
    second = make_client()
    bob = guest(second)
    bob.cookies.update(dict(bob_first.cookies))
    assert bob.get(f"/api/tables/{old_id}").json()["table"]["rematch"] is None  # loaded in the second process

    offer = first.post(f"/api/tables/{old_id}/rematch", json={}).json()
    accepted = bob.post(f"/api/tables/{old_id}/rematch", json={})
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["table"]["id"] == offer["table"]["id"] and accepted.json()["seat"] == 1
    store = second.app.state.runtime.store  # type: ignore[attr-defined]
    # a later offer never replaces the one that stands
    assert store.set_rematch(old_id, "another") == offer["table"]["id"]
    statuses = {row["id"]: row["status"] for row in store.list_tables(None)}
    assert statuses == {old_id: "finished", offer["table"]["id"]: "running"}  # in the database, both seated
