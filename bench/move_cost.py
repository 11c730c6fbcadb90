"""The server's own CPU per move, in one process, without sockets or a client: ``TableRuntime.act``
on Citadels tables whose four seats each hold a socket that sends nowhere.

What ``bench/load_server.py`` measures includes uvicorn, WebSocket framing and compression, and the
machine's other load; this isolates what meeple itself does per move (apply on a clone, append
through the writer thread to SQLite, each seat's view, patch and encoding, the hub's fan-out), so
two versions of the server can be compared on a busy machine: process CPU time is counted, not
wall time. ``--at`` plays each table that many moves first (fast) and then measures ``--moves``
moves per table, so the cost early and late in a game can be compared.

    python bench/move_cost.py --tables 10 --at 0,150 --moves 40 --repeat 5
    python bench/move_cost.py --tables 10 --at 0,150 --moves 40 --redis redis://127.0.0.1:6379/15

``--redis`` plays the same moves through two runtimes in this one process, as two server processes
would: each with its own hub on Redis and its own writer, seats 0 and 2 holding their sockets on the
first and seats 1 and 3 on the second, each seat acting on its own one with a move picked from what
its socket was last sent (as a client does: no server copy is read, so none is caught up for the
benchmark; with table affinity the one that does not own the table forwards). A move is counted once every
socket of both has its update, so the figure is the CPU a move costs the two processes together,
relay included (Redis's own CPU is not counted). The sockets read each message's version with
orjson, so the benchmark's own share of the CPU counted stays small.

The garbage collector is tuned as ``meeple serve`` tunes it (``meeple.server.collector``) once the
tables are set up; ``--default-gc`` keeps CPython's defaults, to see what the tuning gains.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import orjson


async def measure(tables: int, at: int, moves: int, seed: int, redis: str | None,
                  tune_gc: bool = True) -> tuple[int, float, float]:
    """(moves measured, process CPU ms a move, messages' mean bytes) after ``at`` moves a table."""
    from meeple.server.collector import tune_for_serving
    from meeple.server.db import make_engine, migrate
    from meeple.server.hub import Hub, RedisHub
    from meeple.server.runtime import TableRuntime
    from meeple.server.store import Store
    from meeple.server.writer import DatabaseWriter

    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'cost.sqlite3'}")
        migrate(engine)
        store = Store(engine)
        hubs: list[Hub] = [RedisHub(redis), RedisHub(redis)] if redis else [Hub()]
        writers = [DatabaseWriter(store.sessions) for _ in hubs]
        runtimes = [TableRuntime(store, writer, hub, 0.0) for writer, hub in zip(writers, hubs, strict=True)]
        for hub in hubs:
            await hub.start()
        rng = random.Random(seed)
        sent = [0, 0]
        seen: dict[tuple[str, int], int] = {}  # (table, seat) -> the newest version its socket was sent
        offered: dict[tuple[str, int], tuple[int, list[str], bool]] = {}  # (table, seat) -> (version, legal, over)
        arrived = asyncio.Event()

        def socket(table_id: str, seat: int) -> Callable[[str], Awaitable[None]]:
            async def send(text: str) -> None:
                sent[0] += 1
                sent[1] += len(text)
                message = orjson.loads(text)
                version = message.get("version", 0)
                if version >= seen.get((table_id, seat), 0):
                    seen[table_id, seat] = version
                    offered[table_id, seat] = (version, message.get("legal") or [], bool(message.get("is_over")))
                arrived.set()
            return send

        def runtime_of(seat: int) -> TableRuntime:
            return runtimes[seat % len(runtimes)]

        ids: list[str] = []
        for _ in range(tables):
            created = await runtimes[0].create("citadels", 4, {}, [{"kind": "human"}] * 4, 0, "P0")
            table_id = created.table.id
            tokens = [created.seat_token] + [await runtimes[0].join(table_id, seat, f"P{seat}")
                                             for seat in range(1, 4)]
            for seat, token in enumerate(tokens):
                await runtime_of(seat).open_socket(table_id, token, None, socket(table_id, seat))
            ids.append(table_id)

        async def play(rounds: int) -> int:
            """Each round, each table's seat to move picks from what its socket was sent, as a client
            does (no server copy is read, so none is caught up on the benchmark's behalf)."""
            played = 0
            for _ in range(rounds):
                for table_id in ids:
                    movers = [(seat, offered[table_id, seat]) for seat in range(4) if offered[table_id, seat][1]]
                    if not movers or offered[table_id, 0][2]:
                        continue
                    seat, (version, legal, _over) = movers[0]
                    await runtime_of(seat).act(table_id, seat, rng.choice(legal), version)
                    while any(seen.get((table_id, s), 0) <= version for s in range(4)):
                        arrived.clear()
                        try:
                            await asyncio.wait_for(arrived.wait(), 10)
                        except TimeoutError:
                            raise RuntimeError(f"a seat of table {table_id} never got move {version}") from None
                    played += 1
            return played

        await play(at)
        if tune_gc:
            tune_for_serving()
        sent[:] = [0, 0]
        started = time.process_time()
        played = await play(moves)
        cpu = time.process_time() - started
        for hub in hubs:
            await hub.stop()
        for writer in writers:
            writer.close()
        engine.dispose()
    return played, 1000 * cpu / max(played, 1), sent[1] / max(sent[0], 1)


def run_once(tables: int, at: int, moves: int, seed: int, redis: str | None, tune_gc: bool) -> tuple[int, float, float]:
    """One ``measure``, the collector as it was before (a run's tuning and frozen objects undone)."""
    thresholds = gc.get_threshold()
    try:
        return asyncio.run(measure(tables, at, moves, seed, redis, tune_gc))
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        gc.collect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--at", default="0,150", help="comma-separated: moves played per table before measuring")
    parser.add_argument("--moves", type=int, default=40, help="moves measured per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", help="a Redis URL: play through two runtimes relaying over it")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure each --at this many times (the same moves) and print the least and the "
                             "median: on a busy machine the least is the steadiest figure")
    parser.add_argument("--default-gc", action="store_true",
                        help="keep CPython's garbage-collector thresholds (meeple serve tunes them)")
    args = parser.parse_args()
    for at in (int(part) for part in args.at.split(",")):
        runs = [run_once(args.tables, at, args.moves, args.seed, args.redis, not args.default_gc)
                for _ in range(max(1, args.repeat))]
        played, _, size = runs[0]
        costs = sorted(cpu_ms for _, cpu_ms, _ in runs)
        spread = f" (least of {len(costs)}; median {statistics.median(costs):.2f})" if len(costs) > 1 else ""
        print(f"at move {at}: {played} moves, server CPU {costs[0]:.2f} ms a move{spread}, "
              f"{size:.0f} bytes a message")


if __name__ == "__main__":
    main()
