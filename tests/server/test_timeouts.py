"""Clocks at real tables: the mode and speed at creation, a clock running out (a bot takes the seat,
or the others vote), the player reclaiming the seat, and a deadline that passed while no server ran.

Time is made to pass by moving a table's stored clock start back (``age``): the server computes every
clock from the database, so that is exactly what the passing of time looks like to it. One test
waits in real time across a stopped server instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from meeple.core.events import check_event
from meeple.server.models import GameTable
from meeple.server.store import Store, aware
from tests.server.conftest import create_table, guest

CLOCK: dict[str, Any] = {"mode": "real-time", "speed": {"bank": 60, "bonus": 5}, "timeout_level": "easy"}


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def age(client: TestClient, table_id: str, seconds: float) -> None:
    """As if ``seconds`` had passed since the table's clocks last changed; the keeper looks at once."""
    store = store_of(client)
    with store.sessions.begin() as session:
        row = session.get(GameTable, table_id)
        assert row is not None and row.clock_at is not None
        shift = timedelta(seconds=seconds)
        vote = dict(row.vote) if row.vote else None
        if vote is not None:
            vote["until"] = (datetime.fromisoformat(vote["until"]) - shift).isoformat()
        session.execute(update(GameTable).where(GameTable.id == table_id).values(
            clock_at=aware(row.clock_at) - shift, vote=vote,
            deadline=aware(row.deadline) - shift if row.deadline is not None else None))
    held = client.app.state.runtime.live.get(table_id)  # type: ignore[attr-defined]
    if held is not None and held.clock is not None:  # this process's copy of the same clocks
        held.clock = replace(held.clock, since=held.clock.since - shift)
        held.vote = vote
    client.app.state.clocks.wake()  # type: ignore[attr-defined]


def state(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_for(client: TestClient, table_id: str, condition: Callable[[dict[str, Any]], bool],
             timeout: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        data = state(client, table_id)
        if condition(data):
            return data
        assert time.monotonic() < deadline, f"the table never reached the condition: {data['table']}"
        time.sleep(0.1)


def kinds(data: dict[str, Any]) -> list[str]:
    """The kinds of a table's platform events, each an Event (meeple.core.events)."""
    events = data["table"]["clock"]["events"]
    return [check_event(event, data["table"]["players"])["event"] for event in events]


def two_players(client: TestClient, **clock: Any) -> tuple[str, TestClient]:
    created = create_table(client, **(CLOCK | clock))
    bob = guest(client)
    assert bob.post(f"/api/tables/{created['table']['id']}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    return created["table"]["id"], bob


def test_the_mode_and_speed_are_listed_and_the_clocks_start_with_the_game(client: TestClient) -> None:
    created = create_table(client, mode="turn-based", speed="24h", timeout_rule="vote")
    table = created["table"]
    assert (table["mode"], table["speed"], table["clock"]["timeout_rule"]) == ("turn-based", "24h", "vote")
    assert "remaining" not in table["clock"]  # an open table's clocks have not started
    bob = guest(client)
    bob.post(f"/api/tables/{table['id']}/join", json={"seat": 1, "name": "Bob"})
    listed = next(t for t in client.get("/api/tables").json()["tables"] if t["id"] == table["id"])
    clock = listed["clock"]
    assert (listed["mode"], listed["speed"]) == ("turn-based", "24h")
    assert clock["remaining"] == [86_400_000, 86_400_000] and clock["running"] == [0]
    assert (clock["bank"], clock["bonus"]) == (86_400, 86_400)  # seconds, as chosen; remaining in ms
    assert clock["deadline"] is not None
    untimed = create_table(client)["table"]
    assert (untimed["mode"], untimed["speed"], untimed["clock"]["bank"]) == ("real-time", "unlimited", None)


def test_bad_clock_settings_are_refused_and_create_nothing(client: TestClient) -> None:
    before = len(client.get("/api/tables").json()["tables"])
    cases: list[tuple[dict[str, Any], str]] = [({"mode": "blitz"}, "mode must be one of"),
                          ({"mode": "turn-based", "speed": "fast"}, "speed must be one of 12h, 24h, 3d"),
                          ({"speed": {"bank": 1}}, "bank must be"),
                          ({"timeout_rule": "zombie"}, "timeout rule"),
                          ({"timeout_level": "godlike"}, "timeout bot's level")]
    for fields, words in cases:
        response = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"} | fields)
        assert response.status_code == 400 and response.json()["code"] == "bad_clock", response.text
        assert words in response.json()["message"]
    assert len(client.get("/api/tables").json()["tables"]) == before


def test_a_move_charges_the_clock_and_adds_the_bonus_in_the_database(client: TestClient) -> None:
    table_id, _bob = two_players(client)
    age(client, table_id, 20)
    legal = state(client, table_id)["legal"]
    assert client.post(f"/api/tables/{table_id}/actions", json={"action": legal[0], "version": 0}).status_code == 200
    row = store_of(client).load_table(table_id)
    assert row is not None and row.timing is not None and row.timing.clock is not None
    spent = 60_000 - row.timing.clock.remaining[0]
    assert 15_000 - 1_000 <= spent <= 15_000 + 1_000  # 20 s spent, 5 s bonus back
    assert row.timing.clock.running == (1,)


def test_a_clock_running_out_hands_the_seat_to_a_bot_and_the_player_reclaims_it(client: TestClient) -> None:
    table_id, bob = two_players(client)
    age(client, table_id, 61)
    data = wait_for(client, table_id, lambda d: d["table"]["seats"][0]["kind"] == "bot" and d["version"] >= 1)
    seat = data["table"]["seats"][0]
    assert seat["stand_in"] and seat["bot_level"] == "easy" and seat["name"] == "Ada"
    assert kinds(data) == ["timeout_bot"] and data["table"]["clock"]["events"][0]["seat"] == 0
    assert data["seat"] == 0 and data["legal"] == []  # Ada still holds her seat's token, the bot plays
    assert bob.get(f"/api/tables/{table_id}").json()["table"]["clock"]["events"][0]["event"] == "timeout_bot"
    # the stand-in bot played her move; Bob's clock runs now, hers does not
    assert data["table"]["clock"]["running"] == [1] or data["is_over"]
    if data["is_over"]:
        return
    # Ada cannot play for the bot...
    refused = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass", "version": data["version"]})
    assert refused.status_code == 409 and refused.json()["code"] in {"bot_seat", "not_your_turn"}
    # ...she reclaims her seat: a quarter of the bank (15 s), as she had nothing left
    reclaimed = client.post(f"/api/tables/{table_id}/reclaim")
    assert reclaimed.status_code == 200, reclaimed.text
    after = reclaimed.json()["table"]
    assert after["seats"][0]["kind"] == "human" and not after["seats"][0]["stand_in"]
    assert after["clock"]["remaining"][0] == 15_000
    assert [e["event"] for e in after["clock"]["events"]] == ["timeout_bot", "reclaim"]
    assert client.post(f"/api/tables/{table_id}/reclaim").json()["code"] == "not_replaced"
    assert bob.post(f"/api/tables/{table_id}/reclaim").json()["code"] == "not_replaced"
    # one takeover, one bot move for her: the job queue is empty again
    assert store_of(client).table_events(table_id)[0]["event"] == "timeout_bot"


def test_with_the_vote_rule_the_others_vote_to_skip_the_turn(client: TestClient) -> None:
    created = create_table(client, players=3, timeout_rule="vote", **CLOCK)
    table_id = created["table"]["id"]
    bob, cy = guest(client), guest(client)
    bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})
    cy.post(f"/api/tables/{table_id}/join", json={"seat": 2, "name": "Cy"})
    age(client, table_id, 61)
    data = wait_for(client, table_id, lambda d: d["table"]["clock"]["vote"] is not None)
    assert data["table"]["clock"]["vote"]["voters"] == [1, 2] and data["table"]["clock"]["running"] == []
    assert client.post(f"/api/tables/{table_id}/vote", json={"choice": "skip"}).json()["code"] == "not_a_voter"
    assert bob.post(f"/api/tables/{table_id}/vote", json={"choice": "maybe"}).json()["code"] == "bad_choice"
    first = bob.post(f"/api/tables/{table_id}/vote", json={"choice": "skip"})
    assert first.status_code == 200 and first.json()["table"]["clock"]["vote"]["ballots"] == {"1": "skip"}
    decided = cy.post(f"/api/tables/{table_id}/vote", json={"choice": "skip"}).json()
    table = decided["table"]
    assert table["clock"]["vote"] is None and table["seats"][0]["kind"] == "human"
    assert [e["event"] for e in table["clock"]["events"]] == ["vote_open", "vote_cast", "vote_cast", "vote_skip"]
    assert decided["version"] == 1 and decided["current_player"] == 1  # her turn was played and passed
    # a quarter of the bank, and the move's bonus (less the milliseconds the skipped move took)
    assert 19_000 < table["clock"]["remaining"][0] <= 15_000 + 5_000
    assert table["clock"]["running"] == [1]


def test_with_the_vote_rule_a_majority_hands_the_seat_to_a_bot(client: TestClient) -> None:
    table_id, bob = two_players(client, timeout_rule="vote")
    age(client, table_id, 61)
    wait_for(client, table_id, lambda d: d["table"]["clock"]["vote"] is not None)
    bob.post(f"/api/tables/{table_id}/vote", json={"choice": "bot"})
    data = wait_for(client, table_id, lambda d: d["version"] >= 1)
    assert data["table"]["seats"][0]["kind"] == "bot" and data["table"]["seats"][0]["stand_in"]
    assert kinds(data) == ["vote_open", "vote_cast", "vote_bot"]


def test_a_vote_left_undecided_ends_with_a_bot_taking_the_seat(client: TestClient) -> None:
    created = create_table(client, players=3, timeout_rule="vote", **CLOCK)
    table_id = created["table"]["id"]
    bob, cy = guest(client), guest(client)
    bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})
    cy.post(f"/api/tables/{table_id}/join", json={"seat": 2, "name": "Cy"})
    age(client, table_id, 61)
    data = wait_for(client, table_id, lambda d: d["table"]["clock"]["vote"] is not None)
    until = datetime.fromisoformat(data["table"]["clock"]["vote"]["until"])
    assert data["table"]["clock"]["deadline"] == until.isoformat()  # the keeper looks again then
    assert bob.post(f"/api/tables/{table_id}/vote", json={"choice": "bot"}).status_code == 200  # 1 of 2
    age(client, table_id, 50)
    time.sleep(1.5)  # the keeper has looked since
    assert state(client, table_id)["table"]["clock"]["vote"] is not None  # a vote lasts a minute (bonus: 5 s)
    age(client, table_id, 10)
    data = wait_for(client, table_id, lambda d: d["table"]["seats"][0]["kind"] == "bot")
    assert kinds(data) == ["vote_open", "vote_cast", "vote_expired"]
    assert data["table"]["clock"]["vote"] is None


def test_a_late_move_during_the_vote_ends_it(client: TestClient) -> None:
    table_id, bob = two_players(client, timeout_rule="vote")
    age(client, table_id, 61)
    data = wait_for(client, table_id, lambda d: d["table"]["clock"]["vote"] is not None)
    moved = client.post(f"/api/tables/{table_id}/actions", json={"action": data["legal"][0], "version": 0})
    assert moved.status_code == 200, moved.text
    table = moved.json()["table"]
    assert table["clock"]["vote"] is None and table["clock"]["running"] == [1]
    assert 19_000 < table["clock"]["remaining"][0] <= 15_000 + 5_000
    assert bob.post(f"/api/tables/{table_id}/vote", json={"choice": "bot"}).json()["code"] == "no_vote"


def test_a_deadline_that_passed_while_the_server_was_down_is_acted_on_at_start(
        make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    table_id, _bob = two_players(first, speed={"bank": 5, "bonus": 1})
    deadline = state(first, table_id)["table"]["clock"]["deadline"]
    first.__exit__(None, None, None)  # the server stops
    time.sleep(5.5)  # ...and the deadline passes while none runs
    second = make_client()
    data = wait_for(second, table_id, lambda d: d["version"] >= 1, timeout=10)
    assert data["table"]["seats"][0]["kind"] == "bot" and kinds(data) == ["timeout_bot"]
    assert data["table"]["clock"]["events"][0]["at"] > deadline


def test_a_page_reconnecting_at_the_same_version_learns_of_the_vote(client: TestClient) -> None:
    created = create_table(client, timeout_rule="vote", **CLOCK)
    table_id = created["table"]["id"]
    bob = guest(client)
    token = bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    age(client, table_id, 61)
    wait_for(client, table_id, lambda d: d["table"]["clock"]["vote"] is not None)
    # Bob's page had version 0 before the vote opened (no move since): it is sent no move, but the table
    # as it is now
    with bob.websocket_connect(f"/ws/tables/{table_id}?version=0&token={token}") as socket:
        message = socket.receive_json()
    assert message["type"] == "update" and message["from"] == message["version"] == 0
    assert message["table"]["clock"]["vote"]["voters"] == [1]
