"""Clocks with several server processes on one PostgreSQL (and Redis): every process watches the
deadlines, and exactly one acts on each. Skipped like ``test_scale_out`` where no test PostgreSQL or
Redis answers."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

from tests.server.test_scale_out import Process, processes, site

__all__ = ["processes", "site"]  # the fixtures, shared with the other scale-out tests

TABLES = 6


def test_two_processes_watch_the_same_deadlines_and_exactly_one_takes_each_seat_over(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    tables = []
    for index in range(TABLES):  # made on one process, joined on the other: both hold every table
        made, joined = (a, b) if index % 2 else (b, a)
        created = httpx.post(f"{made.url}/api/tables", json={
            "game": "toy", "players": 2, "seat": 0, "name": "Ada", "mode": "real-time",
            "speed": {"bank": 5, "bonus": 1}, "timeout_level": "easy"}).json()
        table_id = created["table"]["id"]
        assert httpx.post(f"{joined.url}/api/tables/{table_id}/join",
                          json={"seat": 1, "name": "Bob"}).status_code == 200
        tables.append(table_id)
    deadline = time.monotonic() + 90  # generous: the test machine may be busy
    engine = create_engine(site["MEEPLE_DATABASE_URL"])
    try:
        while True:
            with engine.connect() as connection:
                moved = connection.execute(text(
                    "select count(*) from actions where idx = 0 and seat = 0")).scalar_one()
            if moved == TABLES:
                break
            assert time.monotonic() < deadline, f"only {moved} of {TABLES} stand-in bots moved"
            time.sleep(0.2)
        time.sleep(1.5)  # both keepers have polled again since: any second takeover would show now
        with engine.connect() as connection:
            events = connection.execute(text(
                "select table_id, kind, seat from table_events order by table_id, idx")).all()
            seats = connection.execute(text(
                "select table_id, kind, bot_level, token_hash is not null from seats where seat = 0")).all()
            # a claim lasts while its process applies the rule, then it is released (not left to expire)
            stale_claims = connection.execute(text(
                "select count(*) from game_tables where expiry_claimed_by is not null and deadline is null"
            )).scalar_one()
    finally:
        engine.dispose()
    # Ada's deadline: one takeover per table; Bob's clock runs from the bot's move on, and may have run
    # out too by now: at most one takeover of his seat, never two
    assert sorted(e for e in events if e[2] == 0) == sorted((table_id, "timeout_bot", 0) for table_id in tables)
    assert len(events) == len(set(events)) and {kind for _t, kind, _s in events} == {"timeout_bot"}
    assert all(kind == "bot" and level == "easy" and reclaimable for _table, kind, level, reclaimable in seats)
    assert stale_claims == 0
    for table_id in tables:  # each process shows the takeover, whichever made it
        for process in (a, b):
            table = httpx.get(f"{process.url}/api/tables/{table_id}").json()["table"]
            assert [event["kind"] for event in table["clock"]["events"] if event["seat"] == 0] == ["timeout_bot"]
            assert table["seats"][0]["kind"] == "bot"
