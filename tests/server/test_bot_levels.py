"""Bot levels on the platform: easy, medium, hard and expert are offered; a table saved under a level's
former name (random, heuristic, ismcts) still loads, shows the new name and plays."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tests.server.conftest import create_table


def _wait_for_version(client: TestClient, table_id: str, version: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while client.get(f"/api/tables/{table_id}").json()["version"] < version:
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)


def test_only_the_three_levels_are_offered(client: TestClient) -> None:
    assert client.get("/api/games").json()["bot_levels"] == ["easy", "medium", "hard", "expert"]
    table = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])["table"]
    assert [seat["bot_level"] for seat in table["seats"]] == [None, "easy"]  # an old name is stored as the new


def test_a_table_saved_with_an_old_level_name_loads_and_plays(
    make_client: Callable[..., TestClient], database_url: str
) -> None:
    first = make_client(bot_delay=60.0)  # the bot waits, so the table is saved before it moves
    table_id = create_table(first, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])["table"]["id"]
    state = first.get(f"/api/tables/{table_id}").json()
    first.post(f"/api/tables/{table_id}/actions", json={"action": state["legal"][0], "version": 0})
    cookies = dict(first.cookies)
    first.__exit__(None, None, None)
    engine = create_engine(database_url)
    with engine.begin() as connection:  # as an older version of meeple saved it
        connection.execute(text("UPDATE seats SET bot_level = 'random' WHERE table_id = :id AND seat = 1"),
                           {"id": table_id})
    engine.dispose()

    second = make_client(bot_delay=0.0)
    second.cookies.update(cookies)
    resumed = second.get(f"/api/tables/{table_id}").json()
    assert resumed["table"]["seats"][1]["bot_level"] == "easy"
    _wait_for_version(second, table_id, 2)
