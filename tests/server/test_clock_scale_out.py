"""Clocks with several server processes on one PostgreSQL (and Redis): every process watches the
deadlines, and exactly one acts on each, the table's owner first. Skipped like ``test_scale_out``
where no test PostgreSQL or Redis answers."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

from meeple.server.hub import OWNER_GRACE
from tests.server.test_scale_out import Process, counts_of, heard_counts, owner_of, processes, site

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
            assert [event["event"] for event in table["clock"]["events"] if event["seat"] == 0] == ["timeout_bot"]
            assert table["seats"][0]["kind"] == "bot"


def timed_tables(made: Process, joined: Process, count: int, bank: int) -> list[str]:
    """``count`` 2-seat toy tables on a real-time clock of ``bank`` seconds, made on one process and
    started (the last seat taken) on the other, which so becomes their owner."""
    tables = []
    for _ in range(count):
        created = httpx.post(f"{made.url}/api/tables", json={
            "game": "toy", "players": 2, "seat": 0, "name": "Ada", "mode": "real-time",
            "speed": {"bank": bank, "bonus": 1}, "timeout_level": "easy"}).json()
        table_id = created["table"]["id"]
        assert httpx.post(f"{joined.url}/api/tables/{table_id}/join",
                          json={"seat": 1, "name": "Bob"}).status_code == 200
        tables.append(table_id)
    return tables


def wait_for_stand_ins(site: dict[str, str], tables: list[str], seconds: float) -> float:
    """Seconds until the stand-in bot of seat 0 (Ada, who never moves) made the first move at every table."""
    started = time.monotonic()
    engine = create_engine(site["MEEPLE_DATABASE_URL"])
    try:
        while True:
            with engine.connect() as connection:
                moved = connection.execute(text(
                    "select count(*) from actions where idx = 0 and seat = 0 and table_id = any(:tables)"),
                    {"tables": tables}).scalar_one()
            if moved == len(tables):
                return time.monotonic() - started
            assert time.monotonic() - started < seconds, f"only {moved} of {len(tables)} stand-in bots moved"
            time.sleep(0.2)
    finally:
        engine.dispose()


def test_the_owner_acts_on_its_tables_deadlines_and_plays_their_bots_and_the_other_process_does_not(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    tables = timed_tables(b, a, 4, bank=5)  # A started every game: it owns them before anyone moved
    assert all(owner_of(table_id, [a, b]) is a for table_id in tables)
    wait_for_stand_ins(site, tables, 90)
    owner = heard_counts(a, lambda counts: counts.get("deadlines", 0) >= len(tables)
                         and counts.get("bot_moves", 0) >= len(tables))
    assert owner["deadlines_not_owned"] == 0 and owner["bot_moves_not_owned"] == 0
    other = counts_of(b)
    assert other["deadlines"] == 0 and other["bot_moves"] == 0, other  # B watched the same deadlines and jobs


def test_when_the_owner_is_killed_the_other_process_acts_on_its_deadlines_within_the_grace(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    bank = 12
    tables = timed_tables(b, a, 3, bank=bank)
    assert all(owner_of(table_id, [a, b]) is a for table_id in tables)
    a.kill()  # before any deadline: A acted on none
    # each deadline passes within ``bank`` s; B acts once A's lease lapses or the deadline is
    # ``OWNER_GRACE`` old, whichever comes first; its bot job then waits no longer (nobody owns the table)
    wait_for_stand_ins(site, tables, bank + OWNER_GRACE.total_seconds() + 60)
    survivor = heard_counts(b, lambda counts: counts.get("deadlines_not_owned", 0) >= len(tables))
    assert survivor["deadlines"] >= len(tables)
