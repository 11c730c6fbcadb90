"""The writer commits moves queued together as one batch, with one statement per kind for all of
them; a move whose number is taken is refused alone, the others of its batch are kept."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from meeple.server.db import make_engine, migrate
from meeple.server.hub import Hub
from meeple.server.jsontext import dumps
from meeple.server.runtime import TableRuntime
from meeple.server.store import HUMAN, RUNNING, Conflict, Move, SeatRow, Store, TableRow
from meeple.server.writer import Batched, DatabaseWriter
from tests import aio


def test_moves_queued_together_share_one_batch_and_a_taken_move_is_refused_alone(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'writer.sqlite3'}")
    migrate(engine)
    store = Store(engine)
    ids = [f"t{index}" for index in range(20)]
    for table_id in ids:
        store.insert_table(TableRow(id=table_id, game="citadels", players=2, seed=1, options={}, status=RUNNING,
                                    host_token_hash="h", created_at=datetime.now(UTC), finished_at=None,
                                    seats=[SeatRow(HUMAN), SeatRow(HUMAN)]))
    writer = DatabaseWriter(store.sessions)
    entered, release = threading.Event(), threading.Event()

    def hold(_session: Session) -> None:
        entered.set()
        release.wait(30)  # the writer thread waits here while the moves queue up behind

    async def write_all() -> list[BaseException | None]:
        held = asyncio.ensure_future(writer.write(hold))
        assert await asyncio.to_thread(entered.wait, 30)
        moves = [Move(table_id=table_id, start=0, seat=0, notations=[f"a{index}", f"b{index}"], current_player=1)
                 for index, table_id in enumerate(ids)]
        moves.insert(10, Move(table_id="t3", start=0, seat=1, notations=["again"], current_player=0))  # taken
        writes = [asyncio.ensure_future(writer.write(Batched(store.append_many, move))) for move in moves]
        await asyncio.sleep(0.05)
        release.set()
        await held
        return list(await asyncio.gather(*writes, return_exceptions=True))

    try:
        outcomes = aio.run(write_all())
    finally:
        writer.close()
    refused = [index for index, outcome in enumerate(outcomes) if outcome is not None]
    assert refused == [10] and isinstance(outcomes[10], Conflict)
    assert writer.writes == 22 and writer.batches == 2  # the held write, then all 21 moves together
    with engine.connect() as connection:
        actions = connection.execute(text("select table_id, idx, seat, notation from actions")).all()
        tables = {row[0]: row[1] for row in connection.execute(text("select id, moves from game_tables"))}
        players = {row[0]: row[1] for row in connection.execute(text("select id, current_player from game_tables"))}
    assert sorted(actions) == sorted([(table_id, 0, 0, f"a{index}") for index, table_id in enumerate(ids)]
                                     + [(table_id, 1, 0, f"b{index}") for index, table_id in enumerate(ids)])
    assert tables == dict.fromkeys(ids, 2) and players == dict.fromkeys(ids, 1)
    engine.dispose()


def test_a_move_whose_write_fails_changes_nothing_and_the_writer_recovers(tmp_path: Path) -> None:
    """The writer keeps one connection; when it breaks, the move being written is refused (its table,
    state and sockets unchanged) and the next write runs on a fresh connection."""
    engine = make_engine(f"sqlite:///{tmp_path / 'broken.sqlite3'}")
    migrate(engine)
    store = Store(engine)
    writer = DatabaseWriter(store.sessions)
    runtime = TableRuntime(store, writer, Hub(), 0.0)
    received: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        received.append(json.loads(text))

    async def play() -> tuple[int, int, str, str]:
        created = await runtime.create("citadels", 4, {}, [{"kind": "human"}] * 4, 0, "P0", seed=7)
        table = created.table
        for seat in range(1, 4):
            await runtime.join(table.id, seat, f"P{seat}")
        await runtime.open_socket(table.id, created.seat_token, None, send)
        assert table.state is not None
        action = str(table.state.legal_actions()[0])
        await runtime.act(table.id, table.state.current_player, action, table.version)  # opens the connection
        before = (table.version, dumps(table.state.to_json()), len(received))
        assert writer._connection is not None
        writer._connection.connection.dbapi_connection.close()  # type: ignore[union-attr]
        state = table.state
        action = str(state.legal_actions()[0])
        with pytest.raises((sqlite3.Error, DBAPIError)):  # the driver's error, or SQLAlchemy's of its rollback
            await runtime.act(table.id, state.current_player, action, table.version)
        assert (table.version, dumps(table.state.to_json()), len(received)) == before
        await runtime.act(table.id, state.current_player, action, table.version)
        return before[0], table.version, received[-1]["type"], action

    try:
        version_before, version_after, last_message, action = aio.run(play())
    finally:
        writer.close()
    assert version_after == version_before + 1 and last_message == "update"
    with engine.connect() as connection:
        rows = connection.execute(text("select idx, notation from actions order by idx")).all()
    assert [row[0] for row in rows] == list(range(version_after)) and rows[-1][1] == action
    engine.dispose()
