"""Ratings: known results give openskill's rating moves, a game is rated exactly once, the abandoned-game
rule, and which tables count at all."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from meeple.server import ratings
from meeple.server.models import Rating, RatingChange
from meeple.server.ratings import Entrant, displayed, rate
from meeple.server.store import Store
from tests.server.conftest import create_table, guest


def test_three_players_move_as_openskill_says_and_the_display_is_conservative() -> None:
    model = PlackettLuce()
    entrants = [Entrant(25.0, 25 / 3, winner=False, score=10), Entrant(30.0, 4.0, winner=True, score=14),
                Entrant(20.0, 6.0, winner=False, score=3)]
    expected = model.rate([[model.rating(mu=25.0, sigma=25 / 3)], [model.rating(mu=30.0, sigma=4.0)],
                           [model.rating(mu=20.0, sigma=6.0)]], ranks=[2, 1, 3])
    outcomes = rate(entrants)
    assert [o.rank for o in outcomes] == [2, 1, 3]
    assert [o.result for o in outcomes] == ["loss", "win", "loss"]
    for outcome, team in zip(outcomes, expected, strict=True):
        assert outcome.mu == pytest.approx(team[0].mu) and outcome.sigma == pytest.approx(team[0].sigma)
    assert displayed(25.0, 25 / 3) == 1000  # a newcomer
    assert displayed(25.0, 1.0) == 1000 + 30 * 22  # settled: 30 points per point of mu above mu - 3 sigma
    assert displayed(0.0, 25 / 3) == 250 and displayed(-20.0, 25 / 3) == 0  # never negative


def test_an_abandoning_player_is_last_and_the_others_never_lose_for_it() -> None:
    # Seat 1 abandoned while ahead on score: ranked last anyway. Seat 2 (who lost on score to seat 0)
    # would fall, but counts a non-loss: it keeps its rating.
    entrants = [Entrant(25.0, 3.0, winner=True, score=9), Entrant(25.0, 3.0, winner=False, score=20, abandoned=True),
                Entrant(40.0, 2.0, winner=False, score=1)]
    outcomes = rate(entrants)
    assert [o.rank for o in outcomes] == [1, 3, 2]
    assert [o.result for o in outcomes] == ["win", "loss", "draw"]
    assert displayed(outcomes[0].mu, outcomes[0].sigma) > displayed(25.0, 3.0)
    assert displayed(outcomes[1].mu, outcomes[1].sigma) < displayed(25.0, 3.0)
    assert (outcomes[2].mu, outcomes[2].sigma) == (40.0, 2.0)
    assert ratings.abandoned_too_early([None, 5, None]) and not ratings.abandoned_too_early([None, 25, None])
    assert not ratings.abandoned_too_early([None, None])


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def account(client: TestClient, name: str) -> TestClient:
    browser = guest(client)
    response = browser.post("/api/accounts", json={"name": name, "password": "secret words"})
    assert response.status_code == 200, response.text
    return browser


def play_out(players: dict[int, TestClient], table_id: str, leave: tuple[int, int] | None = None) -> dict[str, Any]:
    """Every seated browser plays its first legal action until the game ends; ``leave``: (seat, after how
    many moves) that seat's player hands it to a bot instead."""
    some = next(iter(players.values()))
    for _ in range(400):
        state = some.get(f"/api/tables/{table_id}").json()
        if state["table"]["status"] == "finished":
            return dict(state["table"])
        if leave is not None and state["version"] >= leave[1] and leave[0] in players:
            response = players.pop(leave[0]).post(f"/api/tables/{table_id}/leave", json={"level": "easy"})
            assert response.status_code == 200, response.text
            continue
        seat = state["table"]["current_player"]
        if seat in players:
            mine = players[seat].get(f"/api/tables/{table_id}").json()
            response = players[seat].post(f"/api/tables/{table_id}/actions",
                                          json={"action": mine["legal"][0], "version": mine["version"]})
            assert response.status_code in (200, 409), response.text
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def two_accounts_table(client: TestClient, **fields: Any) -> tuple[str, TestClient, TestClient]:
    ada, bob = account(client, "Ada"), account(client, "Bob")
    table_id = create_table(ada, **fields)["table"]["id"]
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1}).status_code == 200
    return table_id, ada, bob


def changes(store: Store, table_id: str) -> list[RatingChange]:
    with store.sessions() as session:
        return list(session.scalars(select(RatingChange).where(RatingChange.table_id == table_id)
                                    .order_by(RatingChange.seat)))


def test_a_finished_game_between_two_accounts_is_rated_once_as_openskill_computes(client: TestClient) -> None:
    table_id, ada, bob = two_accounts_table(client)
    summary = play_out({0: ada, 1: bob}, table_id)
    store = store_of(client)
    rows = changes(store, table_id)
    assert [(r.seat, r.abandoned, r.against_bots) for r in rows] == [(0, False, False), (1, False, False)]
    winners = summary["winners"]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]],
                          ranks=[1 if 0 in winners else 2, 1 if 1 in winners else 2])
    for row, team in zip(rows, expected, strict=True):
        assert row.mu == pytest.approx(team[0].mu) and row.sigma == pytest.approx(team[0].sigma)
        assert row.before == 1000 and row.after == displayed(team[0].mu, team[0].sigma)
        assert row.result == ("win" if row.seat in winners else "loss")
    with store.sessions() as session:
        stored = session.scalars(select(Rating).where(Rating.game == "toy").order_by(Rating.account_id,
                                                                                    Rating.players)).all()
        assert [(r.players, r.games, r.wins) for r in stored] == [
            (0, 1, int(0 in winners)), (2, 1, int(0 in winners)), (0, 1, int(1 in winners)), (2, 1, int(1 in winners))]
    # Exactly once: rating the same end a second time (another process, a retried write) fails and changes nothing.
    with pytest.raises(IntegrityError), store.sessions.begin() as session:
        store.rate_finished(session, table_id, summary["scores"], winners)
    assert len(changes(store, table_id)) == 2
    with store.sessions() as session:
        assert all(r.games == 1 for r in session.scalars(select(Rating)))


def test_guests_unrated_tables_and_a_bot_opponent(client: TestClient) -> None:
    store = store_of(client)
    # Two guests: nobody to rate.
    table_id = create_table(client)["table"]["id"]
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    play_out({0: client, 1: bob}, table_id)
    assert changes(store, table_id) == []
    # Two accounts at a table created unrated.
    unrated, ada, bob_account = two_accounts_table(client, rated=False)
    assert play_out({0: ada, 1: bob_account}, unrated)["rated"] is False
    assert changes(store, unrated) == []
    # An account against a medium bot: both rated, marked as against a bot; the bot's account is a bot's.
    against = create_table(ada, seats=[{"kind": "human"}, {"kind": "bot", "level": "medium"}])
    play_out({0: ada}, against["table"]["id"])
    rows = changes(store, against["table"]["id"])
    assert [(r.seat, r.against_bots) for r in rows] == [(0, True), (1, False)]
    bad = ada.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "rated": "yes"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_rated"


def test_a_player_who_leaves_takes_the_loss_and_early_abandonment_is_unrated(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_of(client)
    early, ada, bob = two_accounts_table(client)
    play_out({0: ada, 1: bob}, early, leave=(1, 1))  # Bob leaves after one move: fewer than the minimum
    assert changes(store, early) == []

    monkeypatch.setattr(ratings, "MIN_MOVES_RATED", 1)
    ada2, bob2 = account(client, "Ada2"), account(client, "Bob2")
    table_id = create_table(ada2, name="Ada2")["table"]["id"]
    assert bob2.post(f"/api/tables/{table_id}/join", json={"seat": 1}).status_code == 200
    play_out({0: ada2, 1: bob2}, table_id, leave=(1, 1))
    rows = changes(store, table_id)
    assert [(r.seat, r.abandoned, r.rank) for r in rows] == [(0, False, 1), (1, True, 2)]
    assert rows[1].result == "loss" and rows[1].after < rows[1].before
    assert rows[0].after >= rows[0].before  # whatever the score, never a loss for the one who stayed


def test_the_profile_counts_games_and_shows_the_rating_history_and_replays(client: TestClient) -> None:
    table_id, ada, bob = two_accounts_table(client)
    summary = play_out({0: ada, 1: bob}, table_id)
    unrated, ada_again, carol = table_id, ada, account(client, "Carol")
    unrated = create_table(ada_again, rated=False)["table"]["id"]
    assert carol.post(f"/api/tables/{unrated}/join", json={"seat": 1}).status_code == 200
    second = play_out({0: ada_again, 1: carol}, unrated)
    profile = client.get("/api/players/ada").json()  # any spelling of the name finds the account
    assert profile["player"] == {"name": "Ada", "bot": False, "bot_level": None}
    [toy] = profile["games"]
    ada_won = int(0 in summary["winners"]) + int(0 in second["winners"])
    assert (toy["game"], toy["played"], toy["won"], toy["rated_games"]) == ("toy", 2, ada_won, 1)
    [point] = toy["history"]
    assert point["table_id"] == table_id and point["before"] == 1000 and point["rating"] == toy["rating"]
    assert [game["id"] for game in profile["recent"]] == [unrated, table_id]
    assert profile["recent"][0]["rating_change"] is None and profile["recent"][1]["rating_change"]["before"] == 1000
    missing = client.get("/api/players/nobody")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_player"
    assert client.get("/players/Ada").status_code == 200 and "player.js" in client.get("/players/Ada").text


def test_the_leaderboard_lists_only_players_with_the_minimum_of_games(client: TestClient) -> None:
    ada = account(client, "Ada")
    against_easy = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    for _ in range(2):  # Ada plays the easy bot twice: two rated games each
        play_out({0: ada}, create_table(ada, seats=against_easy)["table"]["id"])
    board = client.get("/api/leaderboard", params={"game": "toy"}).json()
    assert board["min_games"] == ratings.MIN_GAMES_LISTED == 3 and board["leaders"] == []
    play_out({0: ada}, create_table(ada, seats=against_easy)["table"]["id"])
    leaders = client.get("/api/leaderboard", params={"game": "toy", "players": 2}).json()["leaders"]
    assert sorted((row["name"], row["bot"], row["games"]) for row in leaders) == [
        ("Ada", False, 3), ("easy bot", True, 3)]
    assert [row["rank"] for row in leaders] == [1, 2] and leaders[0]["rating"] >= leaders[1]["rating"]
    assert client.get("/api/leaderboard", params={"game": "toy", "players": 3}).json()["leaders"] == []
    bot = client.get("/api/players/easy bot").json()
    assert bot["player"]["bot"] is True and bot["games"][0]["rated_games"] == 3 and len(bot["recent"]) == 3
    assert client.get("/api/leaderboard", params={"game": "chess"}).status_code == 400
    assert client.get("/api/leaderboard", params={"game": "toy", "players": 9}).json()["code"] == "bad_players"


def test_a_guest_who_signs_up_in_the_same_browser_claims_their_games(client: TestClient) -> None:
    # A guest finishes a game against a bot and sits at a running table; another guest's seat stays theirs.
    against_bot = create_table(client, name="Dee", seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    play_out({0: client}, against_bot["table"]["id"])
    running = create_table(client, name="Dee")["table"]["id"]
    other = guest(client)
    assert other.post(f"/api/tables/{running}/join", json={"seat": 1, "name": "Eve"}).status_code == 200
    response = client.post("/api/accounts", json={"name": "Dee", "password": "secret words"})
    assert response.status_code == 200 and response.json()["claimed_seats"] == 2
    profile = client.get("/api/players/Dee").json()
    assert [game["id"] for game in profile["recent"]] == [against_bot["table"]["id"]]
    assert profile["games"][0]["played"] == 1 and profile["games"][0]["rating"] is None  # played as a guest: unrated
    # The running game is now the account's: when it ends it is rated for Dee (Eve is still a guest).
    play_out({0: client, 1: other}, running)
    [change] = changes(store_of(client), running)
    assert change.seat == 0 and client.get("/api/players/Dee").json()["games"][0]["rated_games"] == 1
    # Signing up again elsewhere claims nothing; another browser's seats were never this account's.
    assert account(client, "Fay").post("/api/logout").status_code == 200
    eve = other.post("/api/accounts", json={"name": "Eve", "password": "secret words"}).json()
    assert eve["claimed_seats"] == 1  # Eve's own seat at the running table
    assert client.post("/api/accounts", json={"name": "Dee2", "password": "secret words"}).json()["claimed_seats"] == 0


@pytest.mark.parametrize("rated", [True, False])
def test_every_payload_says_whether_the_table_is_rated(client: TestClient, rated: bool) -> None:
    ada = account(client, "Ada")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    table_id = create_table(ada, rated=rated, seats=seats)["table"]["id"]
    watcher = guest(client)
    payloads: dict[str, dict[str, Any]] = {
        "seat (REST)": ada.get(f"/api/tables/{table_id}").json(),
        "spectator (REST)": watcher.get(f"/api/tables/{table_id}").json(),
    }
    for who, browser in (("seat", ada), ("spectator", watcher)):
        with browser.websocket_connect(f"/ws/tables/{table_id}") as ws:
            payloads[f"{who} (WebSocket)"] = ws.receive_json()
    assert payloads["seat (WebSocket)"]["seat"] == 0 and payloads["spectator (WebSocket)"]["seat"] is None
    [listed] = [row for row in client.get("/api/tables").json()["tables"] if row["id"] == table_id]
    [mine] = [row for row in ada.get("/api/my/tables").json()["tables"] if row["id"] == table_id]
    play_out({0: ada}, table_id)
    for seat in ("", "&seat=0"):
        payloads[f"replay{seat}"] = watcher.get(f"/api/tables/{table_id}/replay?step=1{seat}").json()
    assert all(payload["table"]["rated"] is rated for payload in payloads.values()), payloads
    assert listed["rated"] is rated and mine["rated"] is rated
    assert ada.get("/api/players/Ada").json()["recent"][0]["rated"] is rated


def test_the_rating_rules_the_pages_quote_are_the_servers(client: TestClient) -> None:
    assert client.get("/api/ratings/rules").json() == {"min_moves": ratings.MIN_MOVES_RATED,
                                                       "min_games_listed": ratings.MIN_GAMES_LISTED}
