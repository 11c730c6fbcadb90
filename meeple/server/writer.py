"""Database writes off the event loop: one writer thread that commits queued writes in batches.

The event loop hands a write (a function of a ``Session``) to ``DatabaseWriter.write`` and awaits
it; the write is acknowledged only once its transaction has committed, so a move is broadcast only
when it is durable. While one batch commits, the next writes queue up and are committed together:
under load, many tables' moves share one commit (one fsync) instead of each paying its own, and the
loop never waits for the database. A batch in which one write fails (a ``Conflict``: another process
appended that move first) is rolled back and its writes are retried one transaction each, so one
refused write never takes the others with it.

The thread keeps one connection for all its transactions (a pool checkout and a ``Session`` per
commit cost the writer more than the move's statements did); after a failed transaction it gives
the connection back and takes a fresh one from the pool (which checks it where the engine
pre-pings), so a database that restarted costs only the writes of the transaction that found out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger("meeple.server")

T = TypeVar("T")
MAX_BATCH = 128


@dataclass(frozen=True)
class Batched:
    """A write that many of its kind, queued together, make with one call: ``run(connection, [payload,
    ...])`` in the batch's transaction (e.g. one executemany for many tables' moves, instead of one
    ORM flush each). Alone it is ``run(connection, [payload])``."""

    run: Callable[[Connection, list[Any]], None]
    payload: Any


Work = Callable[[Session], Any] | Batched
"""A write: a ``Batched`` one, or any function of a ``Session`` (run in the batch's transaction)."""


@dataclass
class _Write:
    work: Work
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


def _settle(outcomes: list[tuple[_Write, Any, BaseException | None]]) -> None:
    """Give each write its result or error on its own loop: one wake-up of each loop for the whole
    batch (waking the loop once per write cost a batch of moves as many thread-safe calls)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Write, Any, BaseException | None]]] = {}
    for outcome in outcomes:
        by_loop.setdefault(outcome[0].loop, []).append(outcome)

    def settle(settled: list[tuple[_Write, Any, BaseException | None]]) -> None:
        for item, result, error in settled:
            if item.future.done():
                continue
            if error is not None:
                item.future.set_exception(error)
            else:
                item.future.set_result(result)

    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(settle, settled)


class DatabaseWriter:
    """A thread committing batches of writes; ``write`` returns once the write is durable."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.engine: Engine = sessions.kw["bind"]
        self._connection: Connection | None = None
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="meeple-db-writer", daemon=True)
        self._thread.start()
        self.batches = 0
        self.writes = 0

    @overload
    async def write(self, work: Batched) -> None: ...

    @overload
    async def write(self, work: Callable[[Session], T]) -> T: ...

    async def write(self, work: Work) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put(_Write(work, future, loop))
        return await future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._give_back()
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                self._give_back()
                return

    def _commit(self, batch: list[_Write]) -> None:
        self.batches += 1
        self.writes += len(batch)
        if len(batch) > 1:
            try:
                results = self._transaction(batch)
            except Exception:  # one write failed: retry each alone, so only that one is refused
                pass
            else:
                _settle([(item, result, None) for item, result in zip(batch, results, strict=True)])
                return
        outcomes: list[tuple[_Write, Any, BaseException | None]] = []
        for item in batch:
            try:
                outcomes.append((item, self._transaction([item])[0], None))
            except Exception as error:
                outcomes.append((item, None, error))
        _settle(outcomes)

    def _transaction(self, batch: list[_Write]) -> list[Any]:
        """Every write of ``batch`` in one transaction on the thread's connection; each run of
        ``Batched`` writes of one kind next to each other is made with one call."""
        connection = self._connection
        if connection is None:
            connection = self._connection = self.engine.connect()
        try:
            with connection.begin():
                return _run_batch(connection, batch)
        except BaseException:
            self._give_back()  # it may be broken (the database restarted): the next transaction takes another
            raise

    def _give_back(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()


def _run_batch(connection: Connection, batch: list[_Write]) -> list[Any]:
    results: list[Any] = []
    index = 0
    while index < len(batch):
        work = batch[index].work
        if isinstance(work, Batched):
            end = index + 1
            while end < len(batch) and isinstance(other := batch[end].work, Batched) and other.run == work.run:
                end += 1
            work.run(connection, [item.work.payload for item in batch[index:end]])  # type: ignore[union-attr]
            results += [None] * (end - index)
            index = end
        else:
            with Session(bind=connection) as session:  # joins the transaction, which it leaves to us
                results.append(work(session))
                session.flush()
            index += 1
    return results
