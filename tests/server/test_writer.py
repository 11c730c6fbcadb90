"""The writer commits moves queued together as one batch, with one statement per kind for all of
them; a move whose number is taken is refused alone, the others of its batch are kept."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

from meeple.server.db import make_engine, migrate
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
