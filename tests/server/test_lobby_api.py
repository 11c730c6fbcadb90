"""The lobby's API: the table list filtered by game and by free seats, bots at the medium level unless a
level is named, and option groups in the games' descriptions."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import create_table, guest


def test_the_table_list_filters_by_game_and_by_free_seats(client: TestClient) -> None:
    waiting = create_table(client)["table"]["id"]  # toy, seat 1 still free
    full = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])["table"]["id"]
    citadels = create_table(client, game="citadels", players=3,
                            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])["table"]["id"]

    every = [table["id"] for table in client.get("/api/tables").json()["tables"]]
    assert set(every) == {waiting, full, citadels}
    toy = [table["id"] for table in client.get("/api/tables?game=toy").json()["tables"]]
    assert sorted(toy) == sorted([waiting, full])
    assert [t["id"] for t in client.get("/api/tables?game=citadels").json()["tables"]] == [citadels]
    free = [table["id"] for table in client.get("/api/tables?open_seats=true").json()["tables"]]
    assert free == [citadels, waiting]  # newest first; the toy table with a bot is full
    assert [t["id"] for t in client.get("/api/tables?open_seats=true&game=toy").json()["tables"]] == [waiting]

    bob = guest(client)
    assert bob.post(f"/api/tables/{waiting}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    assert [t["id"] for t in client.get("/api/tables?open_seats=true").json()["tables"]] == [citadels]


def test_an_unknown_game_filter_is_refused_and_lists_the_games(client: TestClient) -> None:
    create_table(client)
    response = client.get("/api/tables?game=chess")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_game" and "citadels" in response.json()["message"]


def test_a_bot_seat_without_a_level_plays_at_medium(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert games["default_bot_level"] == "medium" and "medium" in games["bot_levels"]
    table = create_table(client, seats=[{"kind": "human"}, {"kind": "bot"}])["table"]
    assert [seat["bot_level"] for seat in table["seats"]] == [None, "medium"]


def test_games_describe_each_option_with_its_group(client: TestClient) -> None:
    citadels = next(game for game in client.get("/api/games").json()["games"] if game["name"] == "citadels")
    groups = {option["name"]: option["group"] for option in citadels["options"]}
    assert groups["deck"] == "setup" and groups["smithy"] == "rules" and groups["tie_break"] == "scoring"
    assert groups["max_rounds"] == "research"
    assert citadels["presets"]["original"] == {"deck": "original65", "observatory_cost": 5, "complete_at": 8}


def test_the_table_list_filters_by_mode(client: TestClient) -> None:
    real_time = create_table(client)["table"]["id"]
    turn_based = create_table(client, mode="turn-based", speed="24h")["table"]["id"]
    listed = {table["id"]: table["mode"] for table in client.get("/api/tables").json()["tables"]}
    assert listed == {real_time: "real-time", turn_based: "turn-based"}
    assert [t["id"] for t in client.get("/api/tables?mode=turn-based").json()["tables"]] == [turn_based]
    assert [t["id"] for t in client.get("/api/tables?mode=real-time&game=toy").json()["tables"]] == [real_time]
    refused = client.get("/api/tables?mode=blitz")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_mode"
