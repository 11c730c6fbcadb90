"""``GET /api/my/tables``: the tables a browser sits at (by account and by seat cookies), waiting ones
first, and nothing of what other seats alone may see."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from meeple.core.registry import load_game
from tests.server.conftest import create_table, guest
from tests.server.test_api import live_table, two_player_table, wait_until


def my_tables(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/my/tables")
    assert response.status_code == 200, response.text
    tables: list[dict[str, Any]] = response.json()["tables"]
    return tables


def play(client: TestClient, table_id: str) -> None:
    state = client.get(f"/api/tables/{table_id}").json()
    response = client.post(f"/api/tables/{table_id}/actions",
                           json={"action": state["legal"][0], "version": state["version"]})
    assert response.status_code == 200, response.text


def test_a_browser_without_seats_has_no_games(client: TestClient) -> None:
    create_table(guest(client))
    assert my_tables(client) == []


def test_guests_find_their_tables_by_seat_cookie_waiting_ones_first_finished_last(client: TestClient) -> None:
    first, bob = two_player_table(client)  # Ada (seat 0) to move
    time.sleep(0.01)
    second = create_table(client)["table"]["id"]  # open: waiting for a second player
    time.sleep(0.01)
    third = create_table(client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])["table"]["id"]
    # Ada (seat 0, first to move) plays the third table to its end against the bot.
    for _ in range(200):
        if live_table(client, third).status == "finished":
            break
        if live_table(client, third).state.current_player == 0:  # type: ignore[union-attr]
            play(client, third)
        time.sleep(0.02)
    assert live_table(client, third).status == "finished"

    ada = my_tables(client)
    assert [table["id"] for table in ada] == [first, second, third]
    assert [(t["my_turn"], t["status"], t["mine"]) for t in ada] == [
        (True, "running", [0]), (False, "open", [0]), (False, "finished", [0])]
    assert ada[0]["waiting_for"] == [0] and ada[0]["url"] == f"/tables/{first}"
    assert ada[0]["seats"][1]["name"] == "Bob" and ada[0]["last_move"] is None

    # Bob's browser knows only the table he joined; after Ada moves it waits for him.
    play(client, first)
    [bobs] = my_tables(bob)
    assert (bobs["id"], bobs["mine"], bobs["my_turn"], bobs["waiting_for"]) == (first, [1], True, [1])
    assert bobs["last_move"]["seat"] == 0
    # Now the first table waits for Bob: for Ada it is another running game, the newest activity first.
    ada = my_tables(client)
    assert [table["id"] for table in ada] == [first, second, third]
    assert [table["my_turn"] for table in ada] == [False, False, False]


def test_the_last_move_names_only_your_own_notation(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    play(client, table_id)  # Ada's move: she may read it, Bob may not
    ada_notation = live_table(client, table_id).state.history[-1]  # type: ignore[union-attr]
    [mine] = my_tables(client)
    [his] = my_tables(bob)
    assert mine["last_move"]["action"] == ada_notation
    assert his["last_move"]["seat"] == 0 and "action" not in his["last_move"]
    assert ada_notation not in json.dumps(his["last_move"])
    # No view is in the answer (the toy game's hands are hidden), and no public log to quote.
    assert '"hand"' not in json.dumps(his) and '"hand"' not in json.dumps(mine)
    assert mine["last_event"] is None and his["last_event"] is None


def test_an_account_finds_its_seats_from_any_browser(client: TestClient) -> None:
    assert client.post("/api/accounts", json={"name": "Ada", "password": "a secret"}).status_code == 200
    table_id, _bob = two_player_table(client)
    elsewhere = guest(client)  # another browser: no seat cookie, same account
    assert elsewhere.post("/api/login", json={"name": "Ada", "password": "a secret"}).status_code == 200
    body = elsewhere.get("/api/my/tables").json()
    assert body["account"]["name"] == "Ada"
    assert [(t["id"], t["mine"], t["my_turn"]) for t in body["tables"]] == [(table_id, [0], True)]


def test_a_citadels_table_gives_the_newest_public_log_entry_of_your_own_view(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3
    table_id = create_table(client, game="citadels", players=4, seats=seats)["table"]["id"]
    play(client, table_id)  # Ada has the crown and picks first; the bots follow until she must act again
    wait_until(lambda: live_table(client, table_id).state.current_player == 0  # type: ignore[union-attr]
               and live_table(client, table_id).ledger.actors[-1] != 0, timeout=30)
    [table] = my_tables(client)
    live = live_table(client, table_id)
    state = load_game("citadels").new_game(4, seed=live.seed, options=live.options)
    for notation in live.state.history:  # type: ignore[union-attr]
        state.apply(notation)
    assert table["last_event"] == state.view(0)["log"][-1]
    assert table["my_turn"] is True and table["last_move"]["seat"] in (1, 2, 3)
    assert "action" not in table["last_move"]  # a bot's move: its notation stays on the server
    # The answer holds no other seat's private knowledge: no hand, no private log.
    text = json.dumps(table)
    assert "private_log" not in text and '"hand"' not in text


def test_a_timed_table_says_how_long_the_waiting_seat_has(client: TestClient) -> None:
    table_id = create_table(client, mode="turn-based", speed="12h")["table"]["id"]
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    [table] = my_tables(bob)
    assert (table["waiting_for"], table["my_turn"], table["turn_based"]) == ([0], False, True)
    [left] = table["time_left"]
    assert left["seat"] == 0 and 12 * 3600_000 - 60_000 < left["ms"] <= 12 * 3600_000
    untimed = create_table(client)["table"]["id"]
    assert guest(client).post(f"/api/tables/{untimed}/join", json={"seat": 1, "name": "Cy"}).status_code == 200
    assert {t["id"]: t["time_left"] for t in my_tables(client)}[untimed] == []
