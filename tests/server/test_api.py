"""The platform's HTTP and WebSocket API against the real app, on the toy game.

Each test reads like a table's story: who sits where, what they send, what they may (and may not)
see afterwards.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from meeple.bots import BOT_KINDS
from meeple.core.events import check_event
from meeple.core.registry import game_names, load_game
from meeple.server.i18n import _read
from meeple.server.runtime import LiveTable, TableRuntime
from tests.server.conftest import create_table, guest
from tests.server.follow import Follower


def live_table(client: TestClient, table_id: str) -> LiveTable:
    """The server's own copy of a table (loaded if need be), fetched on the app's event loop."""
    runtime: TableRuntime = client.app.state.runtime  # type: ignore[attr-defined]
    table: LiveTable = client.portal.call(runtime.get, table_id)  # type: ignore[attr-defined]
    return table


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


def replayed_view(client: TestClient, table_id: str, seat: int | None) -> dict[str, Any]:
    """What ``seat`` should see, rebuilt independently from the stored seed, options and log."""
    table = live_table(client, table_id)
    assert table.state is not None
    state = load_game(table.game.name).new_game(table.players, seed=table.seed, options=table.options)
    for notation in table.state.history:
        state.apply(notation)
    view: dict[str, Any] = state.view(seat)
    return view


def stored_action_count(database_url: str, table_id: str) -> int:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        count = connection.execute(text("select count(*) from actions where table_id = :t"), {"t": table_id})
        result = int(count.scalar_one())
    engine.dispose()
    return result


def two_player_table(client: TestClient) -> tuple[str, TestClient]:
    """Ada creates a two-seat toy table in seat 0; Bob joins seat 1 from another browser."""
    table_id = create_table(client)["table"]["id"]
    bob = guest(client)
    response = bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})
    assert response.status_code == 200, response.text
    return table_id, bob


def test_games_lists_the_toy_game_and_bot_levels(client: TestClient) -> None:
    data = client.get("/api/games").json()
    toy = next(game for game in data["games"] if game["name"] == "toy")
    assert toy["min_players"] == 2 and toy["max_players"] == 4
    assert data["bot_levels"] == ["easy", "medium", "hard", "expert"]


def test_a_table_opens_then_runs_when_every_seat_is_taken(client: TestClient) -> None:
    created = create_table(client)
    table_id = created["table"]["id"]
    assert created["table"]["status"] == "open" and created["seat"] == 0
    assert client.get("/api/tables?status=open").json()["tables"][0]["id"] == table_id
    state = client.get(f"/api/tables/{table_id}").json()
    assert state["seat"] == 0 and state["view"] is None and state["is_host"]

    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Eve"}).status_code == 409
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": " "}).json()["code"] == "bad_name"
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 409
    running = client.get("/api/tables?status=running").json()["tables"]
    assert [t["id"] for t in running] == [table_id]
    assert [s["name"] for s in running[0]["seats"]] == ["Ada", "Bob"]
    assert bob.get(f"/api/tables/{table_id}").json()["seat"] == 1
    assert client.get(f"/api/tables/{table_id}").json()["seat"] == 0


def test_bad_table_requests_are_refused_with_a_reason(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"game": "chess"}, "unknown_game"),
        ({"players": 9}, "bad_options"),
        ({"players": "2"}, "bad_players"),
        ({"options": {"hand_size": 7}}, "bad_options"),
        ({"seats": [{"kind": "bot", "level": "genius"}]}, "bad_seats"),
        ({"seats": [{"kind": "bot"}], "seat": 0}, "bad_seat"),
        ({"seat": 5}, "bad_seat"),
    ]
    for fields, code in cases:
        body = {"game": "toy", "players": 2, "seat": 0, "name": "Ada"} | fields
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400 and response.json()["code"] == code, (fields, response.text)
    assert client.post("/api/tables", content=b"{not json").json()["code"] == "malformed"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/tables/nope").status_code == 404


def test_two_players_play_over_websockets_and_each_sees_only_their_view(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ada_ws, \
            bob.websocket_connect(f"/ws/tables/{table_id}") as bob_ws, \
            guest(client).websocket_connect(f"/ws/tables/{table_id}") as spectator_ws:
        ada, bob_follows = Follower(ada_ws), Follower(bob_ws)
        first = ada.receive()
        assert first["seat"] == 0 and first["current_player"] == 0 and first["legal"]
        while True:  # the later connections announce themselves to the earlier ones
            bob_state = bob_follows.receive()
            if bob_state["table"]["seats"][1]["online"] and bob_state["table"]["seats"][0]["online"]:
                break
        assert bob_state["seat"] == 1 and bob_state["legal"] == []
        spectator = spectator_ws.receive_json()
        assert spectator["seat"] is None and spectator["view"]["hand"] is None

        moves = 0
        followers = {0: ada, 1: bob_follows}
        sockets = {0: ada_ws, 1: bob_ws}
        latest = {0: first, 1: bob_state}
        while True:
            for seat in (0, 1):  # drain to the newest state
                message = latest[seat]
                while message["version"] < moves:
                    message = followers[seat].receive()
                latest[seat] = message
            if latest[0]["is_over"]:
                break
            mover = latest[0]["current_player"]
            mine = latest[mover]
            for seat in (0, 1):
                assert latest[seat]["view"] == replayed_view(client, table_id, seat)
                assert latest[seat]["view"]["hand"] == replayed_view(client, table_id, seat)["hand"]
            sockets[mover].send_json({"type": "act", "action": mine["legal"][0], "version": mine["version"]})
            moves += 1
        summary = client.get(f"/api/tables/{table_id}").json()
        assert summary["table"]["status"] == "finished" and summary["table"]["scores"] is not None
        finished = client.get("/api/tables?status=finished").json()["tables"]
        assert [t["id"] for t in finished] == [table_id]


def test_forged_illegal_stale_and_malformed_messages_change_nothing(client: TestClient, database_url: str) -> None:
    table_id, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ada_ws, \
            bob.websocket_connect(f"/ws/tables/{table_id}") as bob_ws:
        ada = ada_ws.receive_json()
        version = ada["version"]
        before_views = {seat: replayed_view(client, table_id, seat) for seat in (0, 1)}

        def refused(ws: Any, message: Any, code: str) -> None:
            ws.send_text(message if isinstance(message, str) else json.dumps(message))
            while True:
                reply = ws.receive_json()
                if reply["type"] == "error":
                    break
            assert reply["code"] == code, reply
            refreshed = ws.receive_json()
            assert refreshed["type"] == "state" and refreshed["version"] == version

        refused(bob_ws, {"type": "act", "action": ada["legal"][0], "version": version}, "not_your_turn")
        refused(bob_ws, {"type": "act", "seat": 0, "action": ada["legal"][0], "version": version}, "forbidden")
        refused(ada_ws, {"type": "act", "action": "play:99", "version": version}, "illegal")
        refused(ada_ws, {"type": "act", "action": ada["legal"][0], "version": version - 1}, "stale")
        refused(ada_ws, {"type": "act", "action": 42, "version": version}, "malformed")
        refused(ada_ws, {"type": "act", "action": ada["legal"][0], "version": "0"}, "malformed")
        refused(ada_ws, "not json at all", "malformed")
        refused(ada_ws, "[1, 2]", "malformed")
        refused(ada_ws, {"type": "shout"}, "malformed")
        refused(ada_ws, "x" * 10_000, "too_large")
        ada_ws.send_json({"type": "ping"})
        assert ada_ws.receive_json()["type"] == "pong"

    stranger = guest(client)
    response = stranger.post(f"/api/tables/{table_id}/actions", json={"action": ada["legal"][0]},
                             headers={"X-Meeple-Token": "forged-token"})
    assert response.status_code == 403 and response.json()["code"] == "not_seated"
    with stranger.websocket_connect(f"/ws/tables/{table_id}?token=forged") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "act", "action": ada["legal"][0], "version": version})
        assert ws.receive_json()["code"] == "not_seated"
    assert stored_action_count(database_url, table_id) == 0
    assert {seat: replayed_view(client, table_id, seat) for seat in (0, 1)} == before_views
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 0


def test_the_log_names_only_your_own_actions(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    ada_move = client.get(f"/api/tables/{table_id}").json()["legal"][0]
    assert client.post(f"/api/tables/{table_id}/actions", json={"action": ada_move, "version": 0}).status_code == 200
    bob_state = bob.get(f"/api/tables/{table_id}").json()
    assert bob_state["log"] == [{"event": "move", "index": 0, "seat": 0}]
    ada_state = client.get(f"/api/tables/{table_id}").json()
    assert ada_state["log"] == [{"event": "move", "index": 0, "seat": 0, "action": ada_move}]
    spectator = guest(client).get(f"/api/tables/{table_id}").json()
    for message in (bob_state, ada_state, spectator):
        text_form = json.dumps(message)
        assert '"history"' not in text_form and '"rng"' not in text_form and '"body"' not in text_form


def test_bots_play_their_seats_until_a_person_must_move(client: TestClient) -> None:
    table_id = create_table(client, players=3, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])[
        "table"]["id"]
    state = client.get(f"/api/tables/{table_id}").json()
    assert state["table"]["status"] == "running"
    while not state["is_over"]:
        if state["current_player"] == 0:
            response = client.post(f"/api/tables/{table_id}/actions",
                                   json={"action": state["legal"][-1], "version": state["version"]})
            assert response.status_code == 200, response.text
        else:
            time.sleep(0.01)
        state = client.get(f"/api/tables/{table_id}").json()
    assert state["table"]["status"] == "finished"
    assert {entry["seat"] for entry in state["log"]} == {0, 1, 2}


def test_an_all_bot_table_finishes_by_itself_and_other_tables_stay_responsive(client: TestClient) -> None:
    ids = [create_table(client, players=4, seat=None, seats=[{"kind": "bot"}] * 4)["table"]["id"]
           for _ in range(3)]
    human = create_table(client)["table"]["id"]
    assert client.get(f"/api/tables/{human}").status_code == 200
    wait_until(lambda: all(client.get(f"/api/tables/{i}").json()["is_over"] for i in ids))


def test_leaving_hands_the_seat_to_a_bot_and_the_host_can_replace_a_player(client: TestClient) -> None:
    table_id, bob = two_player_table(client)
    stranger = guest(client)
    assert stranger.post(f"/api/tables/{table_id}/seats/1/bot", json={}).status_code == 403
    assert bob.post(f"/api/tables/{table_id}/seats/0/bot", json={}).status_code == 403
    assert bob.post(f"/api/tables/{table_id}/leave", json={}).status_code == 200
    state = client.get(f"/api/tables/{table_id}").json()
    assert state["table"]["seats"][1]["kind"] == "bot"
    assert bob.get(f"/api/tables/{table_id}").json()["seat"] is None
    # the host replaces itself too; the two bots then finish the game
    assert client.post(f"/api/tables/{table_id}/seats/0/bot", json={"level": "random"}).status_code == 200
    wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["is_over"])


def test_a_restart_resumes_every_running_table_exactly(make_client: Callable[..., TestClient]) -> None:
    first = make_client(bot_delay=60.0)  # the bot waits, so the restart happens mid-game
    table_id, bob = two_player_table(first)
    bot_table = create_table(first, seats=[{"kind": "human"}, {"kind": "bot"}])["table"]["id"]
    state = first.get(f"/api/tables/{table_id}").json()
    first.post(f"/api/tables/{table_id}/actions", json={"action": state["legal"][0], "version": 0})
    bot_state = first.get(f"/api/tables/{bot_table}").json()
    first.post(f"/api/tables/{bot_table}/actions", json={"action": bot_state["legal"][0], "version": 0})
    seen = {seat: replayed_view(first, table_id, seat) for seat in (0, 1)}
    ada_cookies, bob_cookies = dict(first.cookies), dict(bob.cookies)
    first.__exit__(None, None, None)

    second = make_client(bot_delay=0.0)
    second.cookies.update(ada_cookies)
    resumed = second.get(f"/api/tables/{table_id}").json()
    assert resumed["version"] == 1 and resumed["seat"] == 0 and resumed["view"] == seen[0]
    bob2 = guest(second)
    bob2.cookies.update(bob_cookies)
    bob_view = bob2.get(f"/api/tables/{table_id}").json()
    assert bob_view["seat"] == 1 and bob_view["view"] == seen[1] and bob_view["legal"]
    # the bot that was about to move when the server stopped moves now
    wait_until(lambda: second.get(f"/api/tables/{bot_table}").json()["version"] >= 2)


def test_replays_step_through_a_finished_game_from_any_seat(client: TestClient) -> None:
    table_id = create_table(client, players=2, seat=None, seats=[{"kind": "bot"}, {"kind": "bot"}])["table"]["id"]
    wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["is_over"])
    table = live_table(client, table_id)
    assert table.state is not None
    history = table.state.history
    state = load_game("toy").new_game(2, seed=table.seed, options=table.options)
    for step in range(len(history) + 1):
        for seat in (None, 0, 1):
            query = f"?step={step}" + (f"&seat={seat}" if seat is not None else "")
            replay = client.get(f"/api/tables/{table_id}/replay{query}").json()
            assert replay["steps"] == len(history) and replay["view"] == state.view(seat)
            if step:
                check_event(replay["last"], 2)
                assert replay["last"].get("action") == (history[step - 1] if replay["last"]["seat"] == seat else None)
        if step < len(history):
            state.apply(history[step])
    assert client.get(f"/api/tables/{table_id}/replay?step={len(history) + 1}").json()["code"] == "bad_step"
    assert client.get(f"/api/tables/{table_id}/replay?step=0&seat=7").json()["code"] == "bad_seat"
    running = create_table(client)["table"]["id"]
    assert client.get(f"/api/tables/{running}/replay?step=0").json()["code"] == "not_finished"


def test_accounts_hash_passwords_and_name_their_seats(client: TestClient, database_url: str) -> None:
    assert client.post("/api/accounts", json={"name": "Ada", "password": "short"}).json()["code"] == "bad_password"
    assert client.post("/api/accounts", json={"name": "Ada", "password": "correct horse"}).status_code == 200
    assert client.post("/api/accounts", json={"name": "Ada", "password": "another one"}).status_code == 409
    assert client.get("/api/me").json()["account"]["name"] == "Ada"
    engine = create_engine(database_url)
    with engine.connect() as connection:
        stored = connection.execute(text("select password_hash from accounts")).scalar_one()
    engine.dispose()
    assert stored.startswith("$argon2") and "correct horse" not in stored
    created = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0}).json()
    assert created["table"]["seats"][0]["name"] == "Ada"
    client.post("/api/logout")
    assert client.get("/api/me").json()["account"] is None
    assert client.post("/api/login", json={"name": "Ada", "password": "wrong"}).status_code == 401
    assert client.post("/api/login", json={"name": "Ada", "password": "correct horse"}).status_code == 200
    assert client.get("/api/me").json()["account"]["name"] == "Ada"


def test_every_language_has_every_english_message(client: TestClient) -> None:
    english = client.get("/api/i18n/en").json()
    assert set(english["languages"]) == {"en", "zh-Hans", "zh-Hant", "ja"}
    for language in ("zh-Hans", "zh-Hant", "ja"):
        messages = client.get(f"/api/i18n/{language}").json()["messages"]
        assert messages.keys() == english["messages"].keys()
        missing = set(english["messages"]) - set(_read(language))
        assert not missing, (language, sorted(missing))
    assert client.get("/api/i18n/fr").status_code == 404


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    table_id = create_table(client)["table"]["id"]
    for path in ("/", f"/tables/{table_id}", f"/tables/{table_id}/replay", "/static/js/table.js",
                 "/static/css/meeple.css"):
        assert client.get(path).status_code == 200, path


def test_a_citadels_bot_table_only_ever_sends_each_seat_its_own_view(client: TestClient) -> None:
    """Every WebSocket message a seat or a spectator gets is exactly view(seat) of that moment."""
    if "citadels" not in game_names():
        pytest.skip("the Citadels engine is not installed")
    created = client.post("/api/tables", json={"game": "citadels", "players": 4, "seat": None,
                                               "seats": [{"kind": "bot"}] * 4})
    table_id = created.json()["table"]["id"]
    with guest(client).websocket_connect(f"/ws/tables/{table_id}") as spectator:
        follower = Follower(spectator)
        messages = []
        while True:
            message = follower.receive()
            messages.append(message)
            if message["is_over"]:
                break
    table = live_table(client, table_id)
    assert table.state is not None
    state = load_game("citadels").new_game(4, seed=table.seed, options=table.options)
    views = [state.view(None)]
    for notation in table.state.history:
        state.apply(notation)
        views.append(state.view(None))
    for message in messages:
        assert message["seat"] is None and message["legal"] == []
        assert message["view"] == views[message["version"]]
        assert message["view"]["hand"] is None
        assert all("action" not in entry for entry in message["log"])
    for raw in follower.raw:  # what went over the wire: only spectator messages, never a notation
        assert raw["seat"] is None and raw["legal"] == []
        assert all("action" not in entry for entry in raw["log"])


class BrokenBot:
    name = "broken"

    def choose(self, state: Any) -> Any:
        raise RuntimeError("this bot always fails")


def test_a_failing_bot_does_not_stall_its_table(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOT_KINDS, "broken", lambda seed: BrokenBot())
    table_id = create_table(client, seat=None, seats=[{"kind": "bot", "level": "broken"}, {"kind": "bot"}])[
        "table"]["id"]
    wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["is_over"])
