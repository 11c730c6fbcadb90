"""The bot runner: claims bot jobs from the database's durable queue and plays them.

A move that leaves a bot to play queues a job (``bot_jobs``) in the move's own transaction. A runner
(in every ``meeple serve`` process, and in standalone ``meeple bots`` workers) claims due jobs with a
lease, has the bot choose in a worker process (``processes`` > 0; threads when 0, for tests and
embedding), so the web event loop never runs a search, and plays the choice like any move: one
append with a unique move number, so a job played twice (a lease that ran out while a slow worker was
still thinking) is applied once. A worker that dies lets its lease expire and the job is claimed
again; after ``MAX_ATTEMPTS`` claims, or when the bot fails, a random legal move stands in, so a
table never waits forever for a bot. With several server processes, a server's runner claims the jobs
of the tables its process owns first, and another's only once that table has no live owner or the
job is overdue by ``hub.OWNER_GRACE`` (``Hub.due_here``): the owner applies the bot's move without
forwarding it. A standalone worker owns no table and claims any due job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime

from meeple.bots import make_bot
from meeple.core.contract import JSON
from meeple.core.registry import load_game
from meeple.server.runtime import Refused, TableRuntime
from meeple.server.store import BOT, RUNNING, BotJobRow, Store

log = logging.getLogger("meeple.server")

MAX_ATTEMPTS = 3
MAX_THINKING = 120.0
"""Seconds a bot may think before a random legal move stands in (the hard bots take a few)."""
DEFAULT_LEASE = 5.0
DEFAULT_POLL = 0.25


def choose(game: str, level: str, seed: str, saved: JSON) -> str:
    """What a bot plays, from the saved state (this runs in a worker process or thread)."""
    state = load_game(game).from_json(saved)
    return str(make_bot(level, seed=seed).choose(state))


def _warm_up() -> None:
    """Import the games in a fresh worker process before its first job needs them."""
    from meeple.core.registry import game_names

    for name in game_names():
        with contextlib.suppress(Exception):
            load_game(name)


class BotRunner:
    """Claims and plays bot jobs; ``wake()`` makes it look at once (a move just queued one)."""

    def __init__(self, runtime: TableRuntime, store: Store, processes: int = 0, lease: float = DEFAULT_LEASE,
                 poll: float = DEFAULT_POLL, capacity: int | None = None, delay: float = 0.0) -> None:
        self.runtime = runtime
        self.delay = delay
        self.store = store
        self.processes = processes
        self.lease = lease
        self.poll = poll
        self.capacity = capacity or max(2, 2 * (processes or os.cpu_count() or 1))
        self.worker = f"{os.uname().nodename if hasattr(os, 'uname') else 'host'}-{os.getpid()}-{secrets.token_hex(3)}"
        self._wake = asyncio.Event()
        self._active: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._executor: Executor | None = None
        self._stopping = False
        self.played = 0
        self._owned: dict[tuple[str, int], bool] = {}
        """Whether this process owned the table of each job it holds when it claimed it."""

    def wake(self) -> None:
        self._wake.set()

    async def start(self) -> None:
        self._executor = self._new_executor()
        self.runtime.bot_wake = self.wake
        self._task = asyncio.create_task(self._run())
        self._renewer = asyncio.create_task(self._renew())

    async def _renew(self) -> None:
        """Keep the leases of the jobs being thought about: one statement for all, every third of a lease."""
        while not self._stopping:
            await asyncio.sleep(self.lease / 3)
            if self._active:
                try:
                    await asyncio.to_thread(self.store.renew_leases, self.worker, self.lease)
                except Exception:
                    log.exception("renewing bot leases failed")

    def _new_executor(self) -> Executor:
        if self.processes > 0:
            pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_warm_up)
            return pool
        return ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1), thread_name_prefix="meeple-bot")

    async def stop(self) -> None:
        self._stopping = True
        tasks = [t for t in (self._task, self._renewer, *self._active) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            free = self.capacity - len(self._active)
            jobs: list[BotJobRow] = []
            if free > 0:
                try:
                    jobs = await self._claim(free)
                except Exception:
                    log.exception("claiming bot jobs failed; retrying")
            for job in jobs:
                task = asyncio.create_task(self._play(job))
                self._active.add(task)
                task.add_done_callback(self._done)
            if len(jobs) == free and free > 0:
                continue  # more may be due
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)

    async def _claim(self, free: int) -> list[BotJobRow]:
        """Up to ``free`` due jobs, now leased to this runner: any when its process runs alone or never
        owns a table (a standalone worker); with other processes, those ``Hub.due_here`` leaves to it."""
        hub = self.runtime.hub
        if not hub.owner_first:
            jobs = await asyncio.to_thread(self.store.claim_bot_jobs, self.worker, free, self.lease, self.delay)
            here = {job.table_id: not hub.shared for job in jobs}
        else:
            due = await asyncio.to_thread(self.store.due_bot_jobs, max(4 * free, 50), self.delay)
            here = await hub.due_here(due, datetime.now(UTC)) if due else {}
            jobs = await asyncio.to_thread(self.store.claim_bot_jobs, self.worker, free, self.lease, self.delay,
                                           list(here)) if here else []
        for job in jobs:
            self._owned[(job.table_id, job.version)] = here.get(job.table_id, False)
        return jobs

    def _done(self, task: asyncio.Task[None]) -> None:
        self._active.discard(task)
        if not self._stopping:
            self._wake.set()

    async def _play(self, job: BotJobRow) -> None:
        try:
            await self._play_job(job)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot job %s/%s failed; it is retried", job.table_id, job.version)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.release_bot_job, job.table_id, job.version)
        finally:
            self._owned.pop((job.table_id, job.version), None)

    async def _play_job(self, job: BotJobRow) -> None:
        try:
            table = await self.runtime.get(job.table_id, fresh=True)
        except Refused:
            await asyncio.to_thread(self.store.drop_bot_job, job.table_id, job.version)
            return
        async with table.lock:  # a move being made now finishes first (its job may be this one)
            if table.version < job.version or table.is_stale:
                await self.runtime.catch_up(table)
            state = table.state
            if (table.status != RUNNING or state is None or table.version != job.version
                    or state.current_player != job.seat or table.seats[job.seat].kind != BOT):
                await asyncio.to_thread(self.store.drop_bot_job, job.table_id, job.version)
                return
            saved = state.to_json()
        level = table.seats[job.seat].bot_level or job.level
        seed = f"{table.seed}:{job.seat}:{job.version}"
        if job.attempts > MAX_ATTEMPTS:
            log.error("bot at table %s seat %s failed %s times; playing a random move", table.id, job.seat,
                      job.attempts - 1)
            choice = choose(table.game.name, "easy", seed, saved)
        else:
            assert self._executor is not None
            loop = asyncio.get_running_loop()
            try:
                choice = await asyncio.wait_for(
                    loop.run_in_executor(self._executor, choose, table.game.name, level, seed, saved), MAX_THINKING)
            except BrokenProcessPool:
                log.error("a bot worker process died; its job is retried")
                self._executor = self._new_executor()
                await asyncio.to_thread(self.store.release_bot_job, job.table_id, job.version)
                return
            except Exception:  # a broken or hung bot must not stall the table: a random legal move stands in
                log.exception("bot %r at table %s seat %s failed; playing a random move", level, table.id, job.seat)
                choice = choose(table.game.name, "easy", seed, saved)
        try:
            await self.runtime.act(table.id, job.seat, choice, job.version, bot_job=job.version)
            self.played += 1
            counts = self.runtime.hub.counts
            counts["bot_moves"] += 1
            counts["bot_moves_not_owned"] += 0 if self._owned.get((job.table_id, job.version)) else 1
        except Refused as refusal:
            log.info("bot move at table %s version %s not played: %s", table.id, job.version, refusal.message)
            if refusal.code == "illegal":  # a bot's bug: retried, and a random move stands in after a few
                await asyncio.to_thread(self.store.release_bot_job, job.table_id, job.version)
            else:
                await asyncio.to_thread(self.store.drop_bot_job, job.table_id, job.version)

