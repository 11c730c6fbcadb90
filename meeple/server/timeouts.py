"""Timeouts: what happens when a clock runs out, and the keeper that notices it in every process.

The deadline lives in the database (``game_tables.deadline``, written with every move). Each server
process runs a ``ClockKeeper`` that, when it starts and then every ``poll`` seconds (and at once when
a move finds a clock already out), claims the tables whose deadline has passed
(``Store.claim_expired``: a conditional update with a lease, ``SKIP LOCKED`` on PostgreSQL), so with
several processes exactly one acts on each, and a deadline that passed while every server was down
is acted on when the first one starts. With several processes the table's owner claims first: another
process claims a deadline only once the table has no live owner or the deadline passed more than
``hub.OWNER_GRACE`` ago (``Hub.due_here``). The claimer applies the table's rule in one transaction that
only succeeds while no move came meanwhile (``Store.change_table``):

- ``bot`` (the default): a bot of the table's level takes the seat at once and plays for the player;
  the player may reclaim the seat (``reclaim``) whenever they come back.
- ``vote``: every clock stops and the other seated players vote to ``skip`` the player's turn (the
  simplest bot plays it for them; the seat stays theirs) or to hand the seat to a ``bot``. A choice
  wins with more than half of the voters (those still seated); a tie once all have voted skips. With
  nobody to vote, a bot takes the seat. A vote lasts at most ``vote_window`` (one bonus, at least a
  minute: its end is the table's deadline meanwhile); undecided by then, a bot takes the seat. Until
  the vote ends, the late player may still move (that ends the vote).

A player who gets their seat back (reclaim, or a skipped turn) restarts with
``clocks.reclaimed_time``: what they had left, but at least a quarter of the bank and at least one
bonus. Every one of these is a ``TableEvent`` that every seat sees in the table's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from meeple.bots import make_bot
from meeple.server.clocks import RULE_VOTE, ClockState, reclaimed_time
from meeple.server.runtime import LiveTable, Refused, TableRuntime
from meeple.server.store import BOT, HUMAN, RUNNING, Conflict, Store, TableChange

log = logging.getLogger("meeple.server")

SKIP, HAND_TO_BOT = "skip", "bot"
VOTE_CHOICES = (SKIP, HAND_TO_BOT)
DEFAULT_POLL = 1.0
CLAIM_BATCH = 20
"""Deadlines one poll claims at most (the rest wait for the next)."""
CLAIM_LEASE = 30.0
"""Seconds a process holds a deadline it claimed; if it dies meanwhile, another claims it after."""
MAX_SKIPPED_ACTIONS = 200
"""A skipped turn is played by the simplest bot until the turn passes; a bound against a game whose
turn never passes."""


class ClockKeeper:
    """Claims expired deadlines from the database and applies each table's timeout rule."""

    def __init__(self, runtime: TableRuntime, store: Store, poll: float = DEFAULT_POLL) -> None:
        self.runtime = runtime
        self.store = store
        self.poll = poll
        self.worker = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.expired = 0  # deadlines this process acted on

    def wake(self) -> None:
        self._wake.set()

    async def start(self) -> None:
        self.runtime.clock_wake = self.wake
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        counts = self.runtime.hub.counts
        while True:
            self._wake.clear()
            try:
                claimed = await self._claim()
            except Exception:
                log.exception("claiming expired clocks failed; retrying")
                claimed = {}
            for table_id, owned in claimed.items():
                try:
                    await expire(self.runtime, table_id)
                    self.expired += 1
                    counts["deadlines"] += 1
                    counts["deadlines_not_owned"] += 0 if owned else 1
                except Exception:
                    log.exception("the timeout of table %s failed; it is tried again", table_id)
                finally:
                    with contextlib.suppress(Exception):
                        await asyncio.to_thread(self.store.release_expiry, table_id, self.worker)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)

    async def _claim(self) -> dict[str, bool]:
        """The deadlines this process now holds, each with whether it owns the table: every passed one
        it can get when it runs alone; with other processes, those ``Hub.due_here`` leaves to it."""
        hub = self.runtime.hub
        if not hub.owner_first:
            claimed = await asyncio.to_thread(self.store.claim_expired, self.worker, CLAIM_LEASE, CLAIM_BATCH)
            return {table_id: not hub.shared for table_id in claimed}
        due = await asyncio.to_thread(self.store.due_deadlines, 5 * CLAIM_BATCH)
        here = await hub.due_here(due, datetime.now(UTC)) if due else {}
        if not here:
            return {}
        claimed = await asyncio.to_thread(self.store.claim_expired, self.worker, CLAIM_LEASE, CLAIM_BATCH, list(here))
        return {table_id: here[table_id] for table_id in claimed}


def vote_window(clock: ClockState) -> timedelta:
    """How long the others have to decide: one move's bonus, at least a minute."""
    return timedelta(milliseconds=max(clock.bonus_ms, 60_000))


def _voters(table: LiveTable, late: int) -> list[int]:
    return [index for index, seat in enumerate(table.seats)
            if index != late and seat.kind == HUMAN and seat.token_hash is not None]


async def _change(runtime: TableRuntime, table: LiveTable, change: TableChange) -> None:
    """Write ``change`` (the caller holds the lock), take it into this copy and tell every seat."""
    events = await asyncio.to_thread(runtime.store.change_table, change)
    for seat, (kind, level) in change.seat_kinds.items():
        table.seats[seat].kind, table.seats[seat].bot_level = kind, level
    table.clock, table.vote = change.clock, change.vote
    table.events.extend(events)
    await runtime.publish_change(table)


async def expire(runtime: TableRuntime, table_id: str) -> None:
    """Apply the timeout rule to every seat of ``table_id`` whose clock has run out (if any still has:
    a move may have come first)."""
    table = await runtime.get(table_id, fresh=True)
    async with table.lock:
        await runtime.catch_up(table)
        clock = table.clock
        if table.status != RUNNING or clock is None:
            return
        now = datetime.now(UTC)
        if table.vote is not None:
            await _end_undecided_vote(runtime, table, clock, now)
            return
        expired = clock.expired(now)
        late = [s for s in expired if table.seats[s].kind == HUMAN]
        if not late:
            if expired:  # a bot's seat still timed (it was handed over meanwhile): its clock stops
                running = [s for s in clock.running if table.seats[s].kind == HUMAN]
                with contextlib.suppress(Conflict):
                    await _change(runtime, table, TableChange(table.id, table.version, clock.rerun(now, running),
                                                              None, []))
            return
        seat = late[0]
        level = table.settings.level
        voters = _voters(table, seat)
        if table.settings.rule == RULE_VOTE and voters:
            until = now + vote_window(clock)
            change = TableChange(table.id, table.version, clock.rerun(now, []),
                                 {"seat": seat, "voters": voters, "ballots": {}, "until": until.isoformat()},
                                 [("vote_open", seat, {"voters": voters})], deadline=until)
        else:
            still = [s for s in clock.running if s not in late]
            change = TableChange(table.id, table.version, clock.rerun(now, still), None,
                                 [("timeout_bot", s, {"level": level}) for s in late],
                                 seat_kinds={s: (BOT, level) for s in late})
            if table.state is not None and table.state.current_player in late:
                change.bot_job = (table.state.current_player, level)
        try:
            await _change(runtime, table, change)
        except Conflict:  # a move came first: its own deadline stands
            return
    runtime.bot_wake()


async def _end_undecided_vote(runtime: TableRuntime, table: LiveTable, clock: ClockState, now: datetime) -> None:
    """The vote's time is up without a decision: a bot takes the late player's seat."""
    assert table.vote is not None
    if now < datetime.fromisoformat(table.vote["until"]):
        return
    late, level = int(table.vote["seat"]), table.settings.level
    change = TableChange(table.id, table.version, clock.rerun(now, []), None,
                         [("vote_expired", late, {"level": level})], seat_kinds={late: (BOT, level)},
                         events_seen=len(table.events))
    if table.state is not None and table.state.current_player == late:
        change.bot_job = (late, level)
    with contextlib.suppress(Conflict):  # a ballot or a move came first
        await _change(runtime, table, change)
    runtime.bot_wake()


async def vote(runtime: TableRuntime, table_id: str, seat: int | None, choice: Any) -> None:
    """``seat`` votes on the open vote; once a choice has won, it is carried out. A ballot cast at the
    same moment in another process makes this one count again on the table as it is then."""
    for _attempt in range(3):
        with contextlib.suppress(Conflict):
            await _vote_once(runtime, table_id, seat, choice)
            return
    raise Refused("busy", "the table kept changing; vote again", 409)


async def _vote_once(runtime: TableRuntime, table_id: str, seat: int | None, choice: Any) -> None:
    table = await runtime.get(table_id, fresh=True)
    async with table.lock:
        await runtime.catch_up(table)
        ballot = table.vote
        if ballot is None:
            raise Refused("no_vote", "there is no vote at this table now", 409)
        if seat is None or seat not in ballot["voters"]:
            raise Refused("not_a_voter", "only the other seated players vote on a player whose time ran out", 403)
        if choice not in VOTE_CHOICES:
            raise Refused("bad_choice", f"vote {' or '.join(VOTE_CHOICES)}")
        late = int(ballot["seat"])
        still = [v for v in ballot["voters"] if v in _voters(table, late)]  # a voter who left no longer counts
        ballots = {key: made for key, made in {**ballot["ballots"], str(seat): choice}.items() if int(key) in still}
        decided = _decision(ballots, len(still))
        now = datetime.now(UTC)
        clock = table.clock
        assert clock is not None
        if decided is None:
            change = TableChange(table.id, table.version, clock, {**ballot, "ballots": ballots},
                                 [("vote_cast", seat, {"choice": choice})],
                                 deadline=datetime.fromisoformat(ballot["until"]))
        elif decided == HAND_TO_BOT:
            level = table.settings.level
            change = TableChange(table.id, table.version, clock.rerun(now, []), None,
                                 [("vote_cast", seat, {"choice": choice}), ("vote_bot", late, {"level": level})],
                                 seat_kinds={late: (BOT, level)})
            if table.state is not None and table.state.current_player == late:
                change.bot_job = (late, level)
        else:
            restarted = clock.rerun(now, []).with_time(late, reclaimed_time(clock, late, now))
            change = TableChange(table.id, table.version, restarted.rerun(now, runtime.timed_actors(table, table.state,
                                                                                                    voting=False)),
                                 None, [("vote_cast", seat, {"choice": choice}), ("vote_skip", late, {})])
        change.events_seen = len(table.events)
        await _change(runtime, table, change)  # a Conflict: counted again by ``vote``
        if decided == SKIP:
            await _skip_turn(runtime, table, late)
    runtime.bot_wake()


def _decision(ballots: dict[str, str], voters: int) -> str | None:
    """The choice more than half of the voters made; once all have voted without one, ``skip``."""
    for choice in VOTE_CHOICES:
        if sum(1 for made in ballots.values() if made == choice) * 2 > voters:
            return choice
    return SKIP if len(ballots) >= voters else None


async def _skip_turn(runtime: TableRuntime, table: LiveTable, seat: int) -> None:
    """The simplest bot plays ``seat``'s turn until the turn passes (the caller holds the lock)."""
    for step in range(MAX_SKIPPED_ACTIONS):
        state = table.state
        if state is None or state.is_over or state.current_player != seat or table.status != RUNNING:
            return
        choice = str(make_bot("easy", seed=f"{table.seed}:{seat}:{table.version}:skip").choose(state.clone()))
        try:
            await runtime.commit_for(table, seat, choice)
        except (Refused, Conflict):
            log.info("the skipped turn of seat %s at table %s stopped after %s actions", seat, table.id, step)
            return


async def reclaim(runtime: TableRuntime, table_id: str, seat: int | None) -> None:
    """The player of ``seat`` takes their seat back from the bot that stood in for them."""
    table = await runtime.get(table_id, fresh=True)
    async with table.lock:
        await runtime.catch_up(table)
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table", 403)
        info = table.seats[seat]
        if table.status != RUNNING:
            raise Refused("not_running", "this game is not running")
        if info.kind != BOT or info.token_hash is None:
            raise Refused("not_replaced", "your seat is yours already; nothing to reclaim", 409)
        now = datetime.now(UTC)
        clock = table.clock
        info.kind = HUMAN  # for timed_actors below; the change writes it
        try:
            running = runtime.timed_actors(table, table.state)
        finally:
            info.kind = BOT
        if clock is not None:
            clock = clock.rerun(now, []).with_time(seat, reclaimed_time(clock, seat, now)).rerun(now, running)
        change = TableChange(table.id, table.version, clock, table.vote, [("reclaim", seat, {})],
                             seat_kinds={seat: (HUMAN, None)})
        try:
            await _change(runtime, table, change)
        except Conflict:
            raise Refused("stale", "the table has moved on; try again", 409) from None
