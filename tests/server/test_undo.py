"""Undo at the table: a seat takes back its own moves of its turn up to the game's undo floor, through
REST or the WebSocket; refusals change nothing; the log only grows (an undo is a row of its own) and
versions are never reused, across processes too; everyone sees that an undo happened and nobody learns
anything hidden through it (REST state, WebSocket updates, the replay; seats and spectators)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import game_names, load_game
from meeple.server.undo import UNDO_PREFIX
from tests.server.conftest import create_table, guest
from tests.server.follow import Follower
from tests.server.test_api import live_table, replayed_view, stored_action_count, wait_until

REAL_GAMES = [name for name in game_names() if name != "toy"]


def state_of(client: TestClient, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return data


def plain(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry without the action's ``kind`` and ``args`` (present with its notation)."""
    return {key: value for key, value in entry.items() if key not in ("kind", "args")}


def undo(client: TestClient, table_id: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table_id}/undo", json=body)


def follow_until(follower: Follower, version: int) -> dict[str, Any]:
    while True:
        state = follower.receive()
        if state.get("type") == "state" and state["version"] >= version:
            return state


def citadels_until_gold(ada: TestClient, bob: TestClient, table_id: str) -> dict[str, Any]:
    """Both play their first legal action until Ada may take gold (the start of her character's turn)."""
    for _ in range(400):
        mine = state_of(ada, table_id)
        if "gold" in mine["legal"]:
            return mine
        for player in (ada, bob):
            seen = state_of(player, table_id)
            if seen["legal"]:
                player.post(f"/api/tables/{table_id}/actions", json={"action": seen["legal"][0],
                                                                     "version": seen["version"]})
                break
        else:
            wait_until(lambda: any(state_of(p, table_id)["legal"] for p in (ada, bob)), timeout=30)
    raise AssertionError("Ada never got to take gold")


def test_citadels_gold_is_taken_back_a_draw_is_not_and_nobody_learns_anything(
        client: TestClient, database_url: str) -> None:
    """docs/rules/citadels.md §2.3: after taking gold the player can undo; after drawing district
    cards (seen) he cannot."""
    created = create_table(client, game="citadels", players=3, name="Ada",
                           seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])
    table_id = created["table"]["id"]
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    watcher = guest(client)
    before = citadels_until_gold(client, bob, table_id)
    version = before["version"]
    assert before["can_undo"] == 0
    bob_before, public_before = state_of(bob, table_id)["view"], state_of(watcher, table_id)["view"]
    with bob.websocket_connect(f"/ws/tables/{table_id}") as bob_ws, \
            watcher.websocket_connect(f"/ws/tables/{table_id}") as watcher_ws:
        bob_follows, watcher_follows = Follower(bob_ws), Follower(watcher_ws)
        follow_until(bob_follows, version)
        follow_until(watcher_follows, version)
        took = client.post(f"/api/tables/{table_id}/actions", json={"action": "gold", "version": version}).json()
        assert took["can_undo"] == 1 and took["view"] != before["view"]
        assert state_of(bob, table_id)["can_undo"] == 0 and state_of(watcher, table_id)["can_undo"] == 0

        refusals = [
            (bob, {"version": version + 1}, 409, "not_your_turn"),
            (watcher, {"version": version + 1}, 403, "not_seated"),
            (client, {"version": version}, 409, "stale"),
            (client, {"version": version + 1, "moves": 2}, 409, "past_reveal"),
            (client, {"version": version + 1, "moves": "all"}, 400, "malformed"),
            (client, {}, 400, "malformed"),
        ]
        for who, body, status, code in refusals:
            refused = undo(who, table_id, **body)
            assert (refused.status_code, refused.json()["code"]) == (status, code), body
        assert state_of(client, table_id)["version"] == version + 1

        bob_ws.send_json({"type": "undo", "version": version + 1})  # over the socket: refused the same way
        while (answer := bob_follows.receive()).get("type") != "error":
            pass
        assert answer["code"] == "not_your_turn"

        undone = undo(client, table_id, version=version + 1)
        assert undone.status_code == 200, undone.text
        back = undone.json()
        assert back["version"] == version + 2 and back["view"] == before["view"] and back["can_undo"] == 0
        assert back["log"][-1] == {"event": "undo", "index": version + 1, "seat": 0, "taken_back": [version]}
        assert plain(back["log"][-2]) == {"event": "move", "index": version, "seat": 0, "action": "gold",
                                          "undone": True}
        for follower, seat, view in ((bob_follows, 1, bob_before), (watcher_follows, None, public_before)):
            seen = follow_until(follower, version + 2)
            assert seen["view"] == view == replayed_view(client, table_id, seat)
            assert {"event": "undo", "index": version + 1, "seat": 0, "taken_back": [version]} in seen["log"]
            for raw in follower.raw:  # everything that went over the wire to this seat
                for entry in raw.get("log", []):
                    assert entry.get("action") is None or entry["seat"] == seat, entry
            assert '"gold"' not in str([raw.get("log") for raw in follower.raw])

    drew = client.post(f"/api/tables/{table_id}/actions", json={"action": "draw", "version": version + 2}).json()
    assert drew.get("can_undo") == 0, drew
    refused = undo(client, table_id, version=version + 3)
    assert (refused.status_code, refused.json()["code"]) == (409, "nothing_to_undo")
    assert stored_action_count(database_url, table_id) == version + 3, "nothing stored is lost"

    for player in (client, bob):  # bots finish the game, then its replay shows the undo
        assert player.post(f"/api/tables/{table_id}/leave", json={}).status_code == 200
    wait_until(lambda: state_of(watcher, table_id)["is_over"], timeout=300)

    def replay(step: int, seat: int | None) -> dict[str, Any]:
        query = f"?step={step}" + (f"&seat={seat}" if seat is not None else "")
        data: dict[str, Any] = watcher.get(f"/api/tables/{table_id}/replay{query}").json()
        return data

    for seat in (None, 0, 1, 2):
        assert replay(version + 2, seat)["view"] == replay(version, seat)["view"]
        assert replay(version + 2, seat)["last"] == {"event": "undo", "index": version + 1, "seat": 0,
                                                     "taken_back": [version]}
        assert plain(replay(version + 1, seat)["last"]) == {"event": "move", "index": version, "seat": 0,
                                                            **({"action": "gold"} if seat == 0 else {}),
                                                            "undone": True}


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_game_takes_back_a_players_own_moves_over_the_websocket(client: TestClient, game: str) -> None:
    """Against bots: Ada plays until the server offers her an undo, takes everything back over her
    socket, and is exactly where she was; the spectator's socket shows the undo and public views only."""
    others = load_game(game).min_players - 1
    watcher = guest(client)

    def ada_decides_or_game_over(table: str) -> bool:
        state = state_of(client, table)
        return state["legal"] != [] or bool(state["is_over"])

    for _table in range(3):  # a table's seed is drawn at random: rarely a whole game offers Ada no undo
        table_id = create_table(client, game=game, players=others + 1, name="Ada",
                                seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * others)["table"]["id"]
        views: dict[int, dict[str, Any]] = {}
        for _ in range(300):
            wait_until(partial(ada_decides_or_game_over, table_id), timeout=60)
            mine = state_of(client, table_id)
            if mine["can_undo"] or mine["is_over"]:
                break
            views[mine["version"]] = mine["view"]
            client.post(f"/api/tables/{table_id}/actions",
                        json={"action": mine["legal"][-1], "version": mine["version"]})
        if mine["can_undo"]:
            break
    else:
        raise AssertionError(f"{game}: no undo was offered in three whole games")
    version, moves = mine["version"], mine["can_undo"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ada_ws, \
            watcher.websocket_connect(f"/ws/tables/{table_id}") as watcher_ws:
        ada, spectator = Follower(ada_ws), Follower(watcher_ws)
        follow_until(ada, version)
        follow_until(spectator, version)
        ada_ws.send_json({"type": "undo", "version": version})
        back = follow_until(ada, version + 1)
        assert back["view"] == views[version - moves] and back["can_undo"] == 0
        seen = follow_until(spectator, version + 1)
        assert seen["view"] == replayed_view(client, table_id, None)
        assert seen["log"][-1] == {"event": "undo", "index": version, "seat": 0,
                                   "taken_back": list(range(version - moves, version))}
        assert all(entry.get("action") is None for raw in spectator.raw for entry in raw.get("log", []))
    assert live_table(client, table_id).ledger.moves()[-1:] != [f"{UNDO_PREFIX}{moves}"]


def test_a_stale_process_cannot_reuse_a_version_an_undo_took(make_client: Callable[..., TestClient]) -> None:
    """Two servers on one database: an undo through one; the other's move at the version it still
    has is refused (the row exists), and it catches up to the undo."""
    first = make_client()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    table_id = create_table(first, game="citadels", players=3, name="Ada", seats=seats)["table"]["id"]
    bob = guest(first)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    version = citadels_until_gold(first, bob, table_id)["version"]
    first.post(f"/api/tables/{table_id}/actions", json={"action": "gold", "version": version})
    second = make_client()
    second.cookies.update(dict(first.cookies))
    assert undo(second, table_id, version=version + 1).status_code == 200
    still = state_of(first, table_id)  # the first server has not heard of the undo (no Redis here)
    assert still["version"] == version + 1 and "gold" not in still["legal"]
    stale = first.post(f"/api/tables/{table_id}/actions", json={"action": still["legal"][0], "version": version + 1})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale")
    caught_up = state_of(first, table_id)
    assert caught_up["version"] == version + 2 and caught_up["log"][-1]["taken_back"] == [version]
    assert "gold" in caught_up["legal"]


@pytest.mark.parametrize("game", REAL_GAMES)
def test_no_game_notation_can_pass_for_an_undo_row(game: str) -> None:
    """The log's undo rows start with a character no notation of any game starts with."""
    loaded = load_game(game)
    for players in range(loaded.min_players, loaded.max_players + 1):
        assert not any(notation.startswith(UNDO_PREFIX[0]) for notation in loaded.action_notations(players))


def test_the_clock_keeps_running_through_an_undo_and_gives_no_time_back(make_client: Callable[..., TestClient]) -> None:
    """A real-time table with a 30-second bonus: taking gold earns it (as much as the bank leaves room
    for), the undo takes back exactly that, and the mover has the time she would have had had she not
    moved at all; her clock still runs. Another process loading the table from the database agrees."""
    client = make_client()
    seats = [{"kind": "human"}, {"kind": "human"}]
    table_id = create_table(client, game="citadels", players=2, name="Ada", seats=seats, mode="real-time",
                            speed={"bank": 600, "bonus": 30})["table"]["id"]
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    version = citadels_until_gold(client, bob, table_id)["version"]
    start = live_table(client, table_id).clock
    assert start is not None and start.running == (0,)
    client.post(f"/api/tables/{table_id}/actions", json={"action": "gold", "version": version})
    assert undo(client, table_id, version=version + 1).status_code == 200
    after = live_table(client, table_id).clock
    assert after is not None and after.running == (0,)
    waited = round((after.since - start.since).total_seconds() * 1000)
    # her bank was full, so the gold's bonus was capped: the undo takes back what it earned, not 30 s
    assert start.remaining[0] == 600_000
    assert abs(after.remaining[0] - (start.remaining[0] - waited)) <= 2
    assert after.remaining[1] == start.remaining[1]
    reloaded = live_table(make_client(), table_id).clock  # what the database holds gives the same
    assert reloaded is not None and reloaded.remaining == after.remaining and reloaded.earned == after.earned
