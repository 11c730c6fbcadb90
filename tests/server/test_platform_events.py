"""The platform's own log entries (moves, undos) are Events, on every channel, for every game.

Every seat of a table is a person (one browser each) who plays random legal moves and now and then
takes one back; a spectator follows over the WebSocket. Every entry each seat and the spectator
receive (REST state, WebSocket states and updates, my-games' last move) must pass ``check_event``,
and another seat's move must come without its notation, kind and args: the engine hides choices
(a character called, a card kept) that a notation names.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.events import check_event
from meeple.core.registry import game_names, load_game
from meeple.server.undo import MOVE, UNDO
from tests.server.conftest import create_table, guest
from tests.server.follow import Follower

GAMES = game_names()
MOVES = 24
LAST_UNDO_WITHIN = 200
"""After MOVES, moves go on until the mover may take one back, which it then does (so the last row is an undo)."""
PRIVATE = ("action", "kind", "args")


def check_entries(entries: list[dict[str, Any]], seat: int | None, players: int,
                  history: dict[int, str]) -> None:
    """Each entry is an Event of the platform's; a move names its action to its mover only."""
    for entry in entries:
        check_event(entry, players)
        assert entry["event"] in (MOVE, UNDO), entry
        if entry["event"] == UNDO:
            assert set(entry) == {"event", "seat", "index", "taken_back"}, entry
            continue
        if entry["seat"] == seat:
            assert entry["action"] == history[entry["index"]], entry
        else:
            assert not any(field in entry for field in PRIVATE), f"seat {seat} was sent another's move: {entry}"


@pytest.mark.parametrize("game_name", GAMES)
def test_every_platform_entry_is_an_event_and_hides_other_seats_notations(client: TestClient,
                                                                          game_name: str) -> None:
    game = load_game(game_name)
    players = game.min_players
    table_id = create_table(client, game=game_name, players=players,
                            seats=[{"kind": "human"}] * players)["table"]["id"]
    browsers = [client]
    for seat in range(1, players):
        browser = guest(client)
        assert browser.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": f"P{seat}"}).status_code \
            == 200
        browsers.append(browser)
    spectator = guest(client)
    chooser = random.Random(f"events:{game_name}")
    history: dict[int, str] = {}  # the notation of every move row, by index
    undos = 0
    with spectator.websocket_connect(f"/ws/tables/{table_id}") as watcher_ws, \
            client.websocket_connect(f"/ws/tables/{table_id}") as seat0_ws:
        watcher, seat0 = Follower(watcher_ws), Follower(seat0_ws)
        for step in range(MOVES + LAST_UNDO_WITHIN):
            states = [browser.get(f"/api/tables/{table_id}").json() for browser in browsers]
            for seat, state in enumerate(states):
                check_entries(state["log"], seat, players, history)
            check_entries(spectator.get(f"/api/tables/{table_id}").json()["log"], None, players, history)
            if states[0]["is_over"] or (step > MOVES and undos and history.get(states[0]["version"] - 1) is None):
                break  # past MOVES, the table's last row is an undo (my-games then sends one)
            mover = states[0]["current_player"]
            state = states[mover]
            if state["can_undo"] and (step >= MOVES or chooser.random() < 0.3):
                answer = browsers[mover].post(f"/api/tables/{table_id}/undo", json={"version": state["version"]})
                undos += 1
            else:
                notation = chooser.choice(state["legal"])
                history[state["version"]] = notation
                answer = browsers[mover].post(f"/api/tables/{table_id}/actions",
                                              json={"action": notation, "version": state["version"]})
            assert answer.status_code == 200, answer.text
        version = client.get(f"/api/tables/{table_id}").json()["version"]
        for follower in (watcher, seat0):
            while follower.receive().get("version", -1) < version:
                pass
    followed: list[tuple[Follower, int | None]] = [(watcher, None), (seat0, 0)]
    for follower, viewer in followed:
        for message in follower.raw:
            check_entries(message.get("log", []), viewer, players, history)
        assert [entry["index"] for entry in follower.state["log"]] == list(range(version))  # type: ignore[index]
    full_log = client.get(f"/api/tables/{table_id}").json()["log"]
    for seat, browser in enumerate(browsers):  # my-games: the table's last row, as the table sends it
        [row] = browser.get("/api/my/tables").json()["tables"]
        last = dict(row["last_move"])
        assert last.pop("at")
        check_entries([last], seat, players, history)
        assert last["index"] == version - 1
        if last["event"] == UNDO:
            assert last == full_log[-1]
    if undos:  # whoever sees an undo sees it whole: the moves it took back by index, and them marked
        taken = {index for entry in full_log if entry["event"] == UNDO for index in entry["taken_back"]}
        assert taken == {entry["index"] for entry in full_log if entry.get("undone")}
    if game_name != "toy":  # the real games' undos are offered often enough that this seed's last row is one
        assert full_log[-1]["event"] == UNDO
