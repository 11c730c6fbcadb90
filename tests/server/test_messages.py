"""Messages stay bounded: after a move a seat gets an update (new log entries, a patch of its view)
whose size does not grow with the game's length, and applying the updates gives exactly its view."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from statistics import mean

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import game_names, load_game
from meeple.server.patch import apply_patch, diff
from tests.server.conftest import create_table
from tests.server.follow import Follower


def test_a_patch_rebuilds_the_new_value_and_sends_appended_items_only() -> None:
    old = {"log": [1, 2], "gold": 3, "hand": ["a", "b"], "gone": True, "seats": [{"g": 1}, {"g": 2}]}
    new = {"log": [1, 2, 3], "gold": 4, "hand": ["b"], "seats": [{"g": 1}, {"g": 5}], "added": None}
    patch = diff(old, new)
    assert patch == {"del": ["gone"], "add": {"log": [3]}, "set": {"gold": 4, "hand": ["b"], "added": None},
                     "sub": {"seats": {"sub": {"1": {"set": {"g": 5}}}}}}
    assert apply_patch(old, patch) == new and old["log"] == [1, 2]
    assert diff(new, new) == {} and apply_patch(new, {}) == new


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_bytes_per_message_do_not_grow_with_the_game(make_client: Callable[..., TestClient]) -> None:
    """Palais Royal (two seats, ~600 moves; its view carries the whole game's log): the updates seat 0
    receives around move 300 are no larger than around move 10, while the full state has grown."""
    if "palais_royal" not in game_names():
        pytest.skip("the Palais Royal engine is not installed")
    client = make_client()
    table_id = create_table(client, game="palais_royal", players=2, seats=[{"kind": "human"}, {"kind": "bot"}],
                            options={})["table"]["id"]
    rng = random.Random(7)
    sizes: dict[int, int] = {}
    full: dict[int, int] = {}
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        follower = Follower(ws)
        state = follower.receive()
        while not state["is_over"] and state["version"] < 330:
            if state["legal"] and state["current_player"] == 0:
                ws.send_json({"type": "act", "action": rng.choice(state["legal"]), "version": state["version"]})
            state = follower.receive()
            assert state["type"] == "state", state
            raw = follower.raw[-1]
            if raw["type"] == "update" and raw["version"] > raw["from"]:
                sizes[raw["version"]] = len(json.dumps(raw, separators=(",", ":")))
                if raw["version"] in (10, 300):
                    full[raw["version"]] = len(json.dumps(state, separators=(",", ":")))
        assert follower.resyncs == 0
    assert state["version"] >= 310, "the game ended too early to measure"
    early = mean(size for version, size in sizes.items() if 10 <= version < 40)
    late = mean(size for version, size in sizes.items() if 300 <= version < 330)
    print(f"bytes per update: moves 10-39 {early:.0f}, moves 300-329 {late:.0f}; "
          f"full state at move 10 {full.get(10)}, at move 300 {full.get(300)}")
    assert late < 1.5 * early + 200, (early, late)
    assert full[300] > 3 * late


def test_updates_rebuild_every_seats_view_in_a_citadels_game(make_client: Callable[..., TestClient]) -> None:
    """Two people over WebSockets in a Citadels game with two bots: every state rebuilt from updates
    equals view(seat) of that version, and no message names another seat's action."""
    if "citadels" not in game_names():
        pytest.skip("the Citadels engine is not installed")
    client = make_client()
    created = create_table(client, game="citadels", players=4,
                           seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    table_id = created["table"]["id"]
    bob = TestClient(client.app)
    bob.portal = client.portal  # type: ignore[attr-defined]
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    rng = random.Random(3)
    seen: dict[int, dict[int, dict[str, object]]] = {0: {}, 1: {}}
    with client.websocket_connect(f"/ws/tables/{table_id}") as ada_ws, \
            bob.websocket_connect(f"/ws/tables/{table_id}") as bob_ws:
        followers = {0: Follower(ada_ws), 1: Follower(bob_ws)}
        states = {seat: followers[seat].receive() for seat in (0, 1)}
        moves = 0
        while moves < 400:
            for seat in (0, 1):
                while states[seat]["version"] < max(s["version"] for s in states.values()):
                    states[seat] = followers[seat].receive()
                seen[seat][states[seat]["version"]] = states[seat]["view"]  # type: ignore[assignment]
            if states[0]["is_over"]:
                break
            mover = states[0]["current_player"]
            if mover in (0, 1) and states[mover]["legal"]:
                followers[mover].ws.send_json({"type": "act", "action": rng.choice(states[mover]["legal"]),
                                               "version": states[mover]["version"]})
                moves += 1
            for seat in (0, 1):
                states[seat] = followers[seat].receive()
    history = client.portal.call(client.app.state.runtime.get, table_id).state.history  # type: ignore[attr-defined]
    table = client.get(f"/api/tables/{table_id}").json()["table"]
    replayed = load_game("citadels").new_game(4, seed=client.portal.call(  # type: ignore[attr-defined]
        client.app.state.runtime.get, table_id).seed, options=table["options"])  # type: ignore[attr-defined]
    for version in range(len(history) + 1):
        for seat in (0, 1):
            if version in seen[seat]:
                assert seen[seat][version] == replayed.view(seat), (seat, version)
        if version < len(history):
            replayed.apply(history[version])
    for seat in (0, 1):
        for raw in followers[seat].raw:
            assert raw.get("seat", seat) == seat
            assert all("action" not in entry for entry in raw.get("log", ()) if entry["seat"] != seat)
