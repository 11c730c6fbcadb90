"""Structured actions and component data as the browser gets them, for each of the four games.

A seat's legal actions arrive as notations (``legal``) and as ``[kind, args]`` (``actions``) from the
engine's ``action_info``, over the WebSocket and REST alike; the page posts back the notation it was
given. Only the seat to move gets them, and a seat's log names only its own actions. Component data is
the engine's printed data, public, one request per game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import load_game
from meeple.server.runtime import LiveTable, TableRuntime
from tests.server.conftest import guest
from tests.server.follow import Follower

GAMES = ("citadels", "burgundy", "caylus", "palais_royal")


def check_actions(game_name: str, message: dict[str, Any]) -> None:
    """``actions`` holds, in ``legal`` order, exactly the engine's kind and args of each notation, and each
    kind and args write that notation back."""
    game = load_game(game_name)
    legal, actions = message["legal"], message["actions"]
    assert isinstance(actions, list) and len(actions) == len(legal)
    for notation, (kind, args) in zip(legal, actions, strict=True):
        info = game.action_info(notation).to_json()
        assert (kind, args) == (info["kind"], info["args"]), notation
        assert game.notation_from_info(kind, {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}) \
            == notation


def check_log(game_name: str, message: dict[str, Any]) -> None:
    """Own log entries carry their action's kind and args; other seats' carry neither notation nor kind."""
    game = load_game(game_name)
    for entry in message["log"]:
        if entry["seat"] == message["seat"]:
            info = game.action_info(entry["action"]).to_json()
            assert (entry["kind"], entry["args"]) == (info["kind"], info["args"])
        else:
            assert "action" not in entry and "kind" not in entry and "args" not in entry


@pytest.mark.parametrize("game_name", GAMES)
def test_each_legal_action_is_sent_with_the_engines_kind_and_args(client: TestClient, game_name: str) -> None:
    """Seat 0 plays a dozen moves against bots over its WebSocket, posting the notations it was sent;
    every state and update of its own carries kind/args equal to action_info, a spectator's none."""
    players = 2 if game_name != "caylus" else 3
    created = client.post("/api/tables", json={"game": game_name, "players": players, "seat": 0, "name": "Ada",
                                               "seats": [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)})
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    chooser = random.Random(20)
    moves = 0
    with client.websocket_connect(f"/ws/tables/{table_id}") as ada_ws, \
            guest(client).websocket_connect(f"/ws/tables/{table_id}") as spectator_ws:
        ada = Follower(ada_ws)
        while moves < 12:
            state = ada.receive()
            if state.get("type") != "state":  # a move sent on a state the bots had moved past: refreshed
                assert state.get("code") == "stale", state
                continue
            if state["is_over"]:
                break
            check_log(game_name, state)
            if state["current_player"] != 0 or not state["legal"]:
                assert state["legal"] == [] and state["actions"] == []
                continue
            check_actions(game_name, state)
            rest = client.get(f"/api/tables/{table_id}").json()
            if rest["version"] == state["version"]:
                assert rest["legal"] == state["legal"] and rest["actions"] == state["actions"]
            ada_ws.send_json({"type": "act", "action": chooser.choice(state["legal"]), "version": state["version"]})
            moves += 1
        assert moves >= 5, f"only {moves} moves were offered to seat 0"
        spectator = Follower(spectator_ws)
        seen = spectator.receive()
        assert seen["seat"] is None and seen["legal"] == [] and seen["actions"] == []
        assert all("kind" not in entry for entry in seen["log"])
    raw = [message for message in ada.raw if message.get("type") in ("state", "update")]
    assert any(message["actions"] for message in raw if message["type"] == "update"), "updates carry actions too"


def test_a_replays_last_move_is_named_with_kind_and_args_for_its_own_seat_only(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "palais_royal", "players": 2, "seat": None,
                                               "seats": [{"kind": "bot"}] * 2})
    table_id = created.json()["table"]["id"]
    runtime: TableRuntime = client.app.state.runtime  # type: ignore[attr-defined]
    with guest(client).websocket_connect(f"/ws/tables/{table_id}") as spectator_ws:
        follower = Follower(spectator_ws)
        while not follower.receive()["is_over"]:
            pass
    table: LiveTable = client.portal.call(runtime.get, table_id)  # type: ignore[union-attr]
    mover, notation = table.ledger.rows[0]
    own = client.get(f"/api/tables/{table_id}/replay?step=1&seat={mover}").json()["last"]
    info = load_game("palais_royal").action_info(notation).to_json()
    assert own == {"event": "move", "index": 0, "seat": mover, "action": info["notation"], "kind": info["kind"],
                   "args": info["args"]}
    other = client.get(f"/api/tables/{table_id}/replay?step=1&seat={1 - mover}").json()["last"]
    assert other == {"event": "move", "index": 0, "seat": mover}


def test_the_toy_game_without_structured_actions_sends_notations_only(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada",
                                               "seats": [{"kind": "human"}, {"kind": "bot"}]})
    state = client.get(f"/api/tables/{created.json()['table']['id']}").json()
    assert state["legal"] and state["actions"] is None


# --- component data ----------------------------------------------------------------------------------


def test_citadels_components_are_the_engines_district_list(client: TestClient) -> None:
    from meeple.games.citadels import data

    response = client.get("/api/games/citadels/components")
    assert response.status_code == 200 and "max-age" in response.headers["cache-control"]
    parts = response.json()["components"]
    assert parts["characters"] == list(data.CHARACTER_SLUGS)
    assert len(parts["districts"]) == len(data.DISTRICTS)
    for slug, _name, type_, cost, points, copies in data.DISTRICTS:
        assert parts["districts"][slug] == {"type": data.TYPE_SLUGS[type_], "cost": cost, "points": points,
                                            "copies": copies}
    assert parts["districts"]["university"]["points"] == 8 and parts["districts"]["university"]["cost"] == 6


def test_caylus_components_are_the_engines_tiles(client: TestClient) -> None:
    from meeple.games.caylus import data

    parts = client.get("/api/games/caylus/components").json()["components"]
    for tile in data.TILES:
        shown = parts["tiles"][tile.slug]
        assert data.cubes(shown["cost"].rstrip("+")) == tile.cost and shown["cost"].endswith("+") == tile.any_cube
        assert (shown["kind"], shown["prestige"], shown["favours"]) == (data.KIND_NAMES[tile.kind], tile.prestige,
                                                                         tile.favours)
    assert parts["tiles"]["cathedral"] == {"kind": "prestige", "cost": "sssssggg", "prestige": 25, "favours": 0,
                                           "copies": 1}
    assert parts["tiles"]["w_market"]["cost"] == "w+"
    assert parts["favour_rows"] == list(data.ROWS) == ["pp", "money", "res", "bld"]
    assert parts["favour_columns"] == len(data.FAVOUR_TABLE[0]) == 5
    assert parts["specials"] == ["gate", "trading_post", "guild", "joust", "stables", "inn", "castle"]


def test_palais_royal_and_burgundy_components_are_the_engines_figures(client: TestClient) -> None:
    from meeple.games.burgundy import data as burgundy
    from meeple.games.palais_royal.data import SQUARE_NAMES, components

    palais = client.get("/api/games/palais_royal/components").json()["components"]
    rooms = {room.code: room.step for room in components().rooms}
    assert set(palais["rooms"]) == set(rooms)
    assert palais["rooms"]["OFF"] == {"step": 4} and palais["rooms"]["MIN"] == {"step": 3}
    assert palais["rooms"]["CAR"] == {"step": None}
    assert palais["cards"]["REINF"]["step"] == 1 and palais["cards"]["TIE"]["step"] is None
    squares = {f"{file}{rank}" for file in palais["garden_files"] for rank in range(1, palais["garden_ranks"] + 1)}
    assert squares == set(SQUARE_NAMES)
    board = client.get("/api/games/burgundy/components").json()["components"]
    assert sum(board["row_lengths"]) == len(board["space_dice"]) == 37
    assert board["space_dice"] == [burgundy.SPACE_DIE[space] for space in range(1, 38)]
    assert board["type_letters"] == burgundy.TYPE_LETTERS
    assert set(board["tiles"]) == set(burgundy.TILE_NAMES)
    assert board["tiles"]["A.cow3"] == {"type": "A", "animal": "cow", "count": 3, "number": None}
    assert board["tiles"]["K08"] == {"type": "K", "animal": None, "count": None, "number": 8}
    assert board["tiles"]["B.bank"]["type"] == "B" and board["tiles"]["S"]["type"] == "S"


def test_components_are_public_data_only_and_unknown_games_are_refused(client: TestClient) -> None:
    for game_name in GAMES:
        text = json.dumps(client.get(f"/api/games/{game_name}/components").json())
        for private in ("hand", "seed", "deck", "rng", "history"):
            assert f'"{private}"' not in text, (game_name, private)
    for unknown in ("toy", "chess"):
        response = client.get(f"/api/games/{unknown}/components")
        assert response.status_code == 404 and response.json()["code"] == "unknown_game"
