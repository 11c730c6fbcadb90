"""The server's own CPU per move, in one process, without sockets or a client: ``TableRuntime.act``
on Citadels tables whose four seats each hold a socket that sends nowhere.

What ``bench/load_server.py`` measures includes uvicorn, WebSocket framing and compression, and the
machine's other load; this isolates what meeple itself does per move (apply on a clone, append
through the writer thread to SQLite, each seat's view, patch and encoding, the hub's fan-out), so
two versions of the server can be compared on a busy machine: process CPU time is counted, not
wall time. ``--at`` plays each table that many moves first (fast) and then measures ``--moves``
moves per table, so the cost early and late in a game can be compared.

    python bench/move_cost.py --tables 10 --at 0,150 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path


async def measure(tables: int, at: int, moves: int, seed: int) -> tuple[int, float, float]:
    """(moves measured, process CPU ms a move, messages' mean bytes) after ``at`` moves a table."""
    from meeple.server.db import make_engine, migrate
    from meeple.server.hub import Hub
    from meeple.server.runtime import TableRuntime
    from meeple.server.store import Store
    from meeple.server.writer import DatabaseWriter

    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'cost.sqlite3'}")
        migrate(engine)
        store = Store(engine)
        writer = DatabaseWriter(store.sessions)
        runtime = TableRuntime(store, writer, Hub(), 0.0)
        rng = random.Random(seed)
        sent = [0, 0]

        async def send(text: str) -> None:
            sent[0] += 1
            sent[1] += len(text)

        ids: list[str] = []
        for _ in range(tables):
            created = await runtime.create("citadels", 4, {}, [{"kind": "human"}] * 4, 0, "P0")
            table_id = created.table.id
            tokens = [created.seat_token] + [await runtime.join(table_id, seat, f"P{seat}") for seat in range(1, 4)]
            for token in tokens:
                await runtime.open_socket(table_id, token, None, send)
            ids.append(table_id)

        async def play(rounds: int) -> int:
            played = 0
            for _ in range(rounds):
                for table_id in ids:
                    table = await runtime.get(table_id)
                    if table.state is None or table.state.is_over:
                        continue
                    seat = table.state.current_player
                    await runtime.act(table_id, seat, rng.choice(table.legal_for(seat)), table.version)
                    played += 1
            return played

        await play(at)
        sent[:] = [0, 0]
        started = time.process_time()
        played = await play(moves)
        cpu = time.process_time() - started
        writer.close()
        engine.dispose()
    return played, 1000 * cpu / max(played, 1), sent[1] / max(sent[0], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--at", default="0,150", help="comma-separated: moves played per table before measuring")
    parser.add_argument("--moves", type=int, default=40, help="moves measured per table")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for at in (int(part) for part in args.at.split(",")):
        played, cpu_ms, size = asyncio.run(measure(args.tables, at, args.moves, args.seed))
        print(f"at move {at}: {played} moves, server CPU {cpu_ms:.2f} ms a move, {size:.0f} bytes a message")


if __name__ == "__main__":
    main()
