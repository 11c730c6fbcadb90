"""The store: every SQL statement of the server, and the only module that talks to the database.

Its methods are synchronous and run off the event loop: reads in worker threads
(``asyncio.to_thread``), writes of moves through the batching ``writer.DatabaseWriter``. The
database is the source of truth shared by every process of a site:

- a move is an insert of ``(table, move number)``, the primary key of ``actions``, so two processes
  can never both append move *n* of a table (the second gets ``Conflict``);
- a seat is taken with a conditional update (only while it is empty), so it is taken once;
- a table starts with a conditional update (only while ``open``), whichever process sees it full;
- bot jobs are claimed with ``FOR UPDATE SKIP LOCKED`` where the database has it (PostgreSQL), and a
  lease, so two workers never think about one job at once and a dead worker's job comes back;
- a clock's deadline is claimed the same way (``claim_expired``), so exactly one process acts on it,
  and what it does (a bot takes the seat, a vote opens) is written only if no move came meanwhile.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, cast

from sqlalchemy import Connection, Dialect, Engine, Table, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from meeple.core.contract import JSON
from meeple.core.errors import MeepleError
from meeple.core.registry import load_game
from meeple.server.actions import action_shape
from meeple.server.clocks import ClockSettings, ClockState
from meeple.server.models import (
    Account,
    ActionRecord,
    BotJob,
    ChatMessage,
    GameTable,
    LoginSession,
    RatingChange,
    Seat,
    TableEvent,
)
from meeple.server.models import Rating as RatingRow
from meeple.server.names import name_key
from meeple.server.ratings import START_MU, START_SIGMA, Entrant, abandoned_too_early, displayed, rate
from meeple.server.undo import MoveLedger, as_seen, move_event, moves_in_effect, undone_count

OPEN, RUNNING, FINISHED = "open", "running", "finished"
HUMAN, BOT = "human", "bot"


class Conflict(Exception):
    """Another process appended this move number first (or a row this write relies on changed)."""


@dataclass
class SeatRow:
    kind: str
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    account_id: int | None = None

    @property
    def is_taken(self) -> bool:
        return self.kind == BOT or self.token_hash is not None

    @property
    def is_reserved(self) -> bool:
        """A person's seat held for a named player (a rematch's, until they accept): nobody else joins it."""
        return self.kind == HUMAN and self.token_hash is None and self.name is not None


@dataclass
class TableRow:
    """A table as stored: what to replay (seed, options, the moves) and its seats."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    host_token_hash: str
    created_at: datetime
    finished_at: datetime | None
    seats: list[SeatRow]
    moves: list[tuple[int, str]] = field(default_factory=list)  # (seat, notation) in order
    settings: ClockSettings = field(default_factory=ClockSettings)
    timing: TableTiming | None = None
    rated: bool = False
    rematch: str | None = None
    watchers: bool = True


@dataclass
class TableTiming:
    """Where a timed table's clocks stand, any vote on a seat whose clock ran out, and its events;
    with its seats, which a timeout in another process may have handed to a bot (no socket of that
    table need be here for this process to hear of it)."""

    clock: ClockState | None
    vote: dict[str, Any] | None
    events: list[JSON]
    seats: list[SeatRow] = field(default_factory=list)


@dataclass
class TableChange:
    """What the platform does to a running table between moves (a clock ran out, a vote, a reclaim):
    written in one transaction, and only while the table still has ``version`` moves."""

    table_id: str
    version: int
    clock: ClockState | None
    vote: dict[str, Any] | None
    events: list[tuple[str, int, dict[str, Any]]]  # kind, seat, data
    seat_kinds: dict[int, tuple[str, str | None]] = field(default_factory=dict)  # seat: kind, bot level
    bot_job: tuple[int, str] | None = None  # seat, level: a bot must now make move ``version``
    deadline: datetime | None = None  # when the keeper must look again, if not the clocks' (a vote's end)
    events_seen: int | None = None
    """How many events the table had when this change was decided: written only if it still has as
    many, so two changes decided at once in two processes (two ballots) never overwrite each other."""


@dataclass
class Move:
    """What one applied action writes: its notations from ``start`` on, and the table's new figures."""

    table_id: str
    start: int
    seat: int
    notations: Sequence[str]
    current_player: int | None
    finished: tuple[list[int], list[int]] | None = None  # scores, winners
    next_bot: tuple[int, str] | None = None  # seat, level: the bot job this move leaves
    done_job: int | None = None  # the bot job (its version) this move fulfils
    clock: ClockState | None = None  # a timed table's clocks after the move
    close_vote: bool = False  # the move ends a vote on its seat (the player moved after all)
    finished_at: datetime | None = None  # when the game ended, as the table's copy in memory says too


@dataclass
class TurnMail:
    """Who to mail that it is their turn: the account's address, language and name."""

    email: str
    language: str | None
    name: str


@dataclass
class BotJobRow:
    table_id: str
    version: int
    seat: int
    level: str
    attempts: int


def clock_values(clock: ClockState | None) -> dict[str, Any]:
    """The ``game_tables`` columns that hold ``clock``."""
    if clock is None:
        return {"clocks": None, "clock_running": None, "clock_at": None, "deadline": None, "clock_earned": None}
    earned = None if clock.earned_by is None else {"seat": clock.earned_by, "ms": list(clock.earned)}
    return {"clocks": list(clock.remaining), "clock_running": list(clock.running), "clock_at": clock.since,
            "deadline": clock.deadline(), "clock_earned": earned}


def clock_of(row: GameTable) -> ClockState | None:
    if row.clocks is None or row.clock_at is None or row.clock_bank is None:
        return None
    earned = row.clock_earned or {}
    return ClockState(row.clock_bank * 1000, (row.clock_bonus or 0) * 1000, tuple(row.clocks), aware(row.clock_at),
                      tuple(row.clock_running or ()), earned.get("seat"), tuple(earned.get("ms", ())))


def settings_of(row: GameTable) -> ClockSettings:
    return ClockSettings(mode=row.mode, speed=row.speed, bank=row.clock_bank, bonus=row.clock_bonus or 0,
                         rule=row.timeout_rule, level=row.timeout_level)


def event_json(event: TableEvent) -> JSON:
    """A stored table event as the Event every seat is sent (``meeple.core.events``; public whole): its
    kind and seat, its own fields (a bot's ``level``, a ballot's ``choice``), where and when it happened."""
    return {**event.data, "event": event.kind, "seat": event.seat, "index": event.idx, "version": event.version,
            "at": aware(event.created_at).isoformat()}


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


_ACTIONS, _TABLES, _JOBS = (cast(Table, model.__table__) for model in (ActionRecord, GameTable, BotJob))
# The statements every move runs, built once: building one (and its cache key) per move cost more
# than a tenth of the writer's time per move.
_INSERT_ACTIONS = insert(_ACTIONS)
_UPDATE_MOVES = (update(_TABLES).where(_TABLES.c.id == bindparam("b_id"))
                 .values(moves=bindparam("b_moves"), current_player=bindparam("b_current")))
_DELETE_DONE_JOBS = delete(_JOBS).where(_JOBS.c.table_id == bindparam("b_table"),
                                        _JOBS.c.version == bindparam("b_version"))
_INSERT_JOBS = insert(_JOBS)


class DriverStatement:
    """A statement every move runs, compiled once for the database's driver and run on the driver's
    own cursor (``executemany``), its parameters converted as SQLAlchemy converts them (each bind's
    type processor, e.g. SQLite's datetimes). Through ``Connection.execute`` the same executemany
    cost ~0.08 ms of the writer thread's CPU a statement (an execution context, its parameters
    compiled again); the driver takes a few microseconds. A row is a dict by bind name."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.sql = str(compiled)
        self.positional = bool(compiled.positional)
        names = list(compiled.positiontup or ()) if self.positional else list(compiled.binds)
        self.binds = [(name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
                      for name in names]

    def run(self, cursor: Any, rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        binds = self.binds
        if self.positional:
            params: list[Any] = [tuple(row[name] if convert is None else convert(row[name]) for name, convert in binds)
                                 for row in rows]
        else:
            params = [{name: row[name] if convert is None else convert(row[name]) for name, convert in binds}
                      for row in rows]
        cursor.executemany(self.sql, params)


@dataclass(frozen=True)
class _MoveStatements:
    """The driver's form of the statements of ``Store.append_many``, and its exception for a broken
    unique key (a move number taken)."""

    insert_actions: DriverStatement
    update_moves: DriverStatement
    delete_done_jobs: DriverStatement
    insert_jobs: DriverStatement
    integrity_error: type[Exception]

    @classmethod
    def of(cls, dialect: Dialect) -> _MoveStatements:
        return cls(DriverStatement(_INSERT_ACTIONS, dialect), DriverStatement(_UPDATE_MOVES, dialect),
                   DriverStatement(_DELETE_DONE_JOBS, dialect), DriverStatement(_INSERT_JOBS, dialect),
                   dialect.loaded_dbapi.IntegrityError)


class Store:
    """The SQL of the server over one engine; thread-safe (a session per call)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = sessionmaker(engine, expire_on_commit=False)
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._moves = _MoveStatements.of(engine.dialect)

    # --- tables -------------------------------------------------------------------------------

    def insert_table(self, row: TableRow) -> None:
        with self.sessions.begin() as session:
            session.add(GameTable(
                id=row.id, game=row.game, players=row.players, seed=row.seed, options=row.options,
                status=row.status, host_token_hash=row.host_token_hash, created_at=row.created_at, moves=0,
                mode=row.settings.mode, speed=row.settings.speed, clock_bank=row.settings.bank,
                clock_bonus=row.settings.bonus, timeout_rule=row.settings.rule, timeout_level=row.settings.level,
                rated=row.rated,
                watchers=row.watchers,
                seats=[Seat(seat=i, kind=s.kind, bot_level=s.bot_level, name=s.name, token_hash=s.token_hash,
                            account_id=s.account_id) for i, s in enumerate(row.seats)],
            ))

    def load_table(self, table_id: str) -> TableRow | None:
        """The table with all its moves, or ``None``."""
        with self.sessions() as session:
            row = session.get(GameTable, table_id)
            if row is None:
                return None
            table = TableRow(
                id=row.id, game=row.game, players=row.players, seed=row.seed, options=dict(row.options),
                status=row.status, host_token_hash=row.host_token_hash, created_at=aware(row.created_at),
                finished_at=aware(row.finished_at) if row.finished_at else None,
                seats=[SeatRow(s.kind, s.bot_level, s.name, s.token_hash, s.account_id) for s in row.seats],
                settings=settings_of(row), rated=row.rated, rematch=row.rematch, watchers=row.watchers,
            )
            if row.clock_bank is not None:
                table.timing = self._timing(session, row)
            table.moves = [(seat, notation) for seat, notation in session.execute(
                select(ActionRecord.seat, ActionRecord.notation).where(ActionRecord.table_id == table_id)
                .order_by(ActionRecord.idx))]
            return table

    def moves_since(self, table_id: str, start: int) -> tuple[str, datetime | None, list[tuple[int, str]]]:
        """The table's status, when it finished, and its moves from number ``start`` on: what a stale
        copy must catch up."""
        with self.sessions() as session:
            row = session.execute(select(GameTable.status, GameTable.finished_at).where(GameTable.id == table_id)
                                  ).first()
            status, finished_at = (row[0], row[1]) if row is not None else (OPEN, None)
            moves = [(seat, notation) for seat, notation in session.execute(
                select(ActionRecord.seat, ActionRecord.notation)
                .where(ActionRecord.table_id == table_id, ActionRecord.idx >= start).order_by(ActionRecord.idx))]
            return status, aware(finished_at) if finished_at else None, moves

    def _timing(self, session: Session, row: GameTable) -> TableTiming:
        events = session.scalars(select(TableEvent).where(TableEvent.table_id == row.id).order_by(TableEvent.idx))
        return TableTiming(clock_of(row), dict(row.vote) if row.vote else None, [event_json(e) for e in events],
                           [SeatRow(s.kind, s.bot_level, s.name, s.token_hash, s.account_id) for s in row.seats])

    def load_timing(self, table_id: str) -> TableTiming | None:
        """A timed table's clocks, vote and events as stored now (a copy catching up)."""
        with self.sessions() as session:
            row = session.get(GameTable, table_id)
            return self._timing(session, row) if row is not None and row.clock_bank is not None else None

    def set_rematch(self, table_id: str, rematch_id: str) -> str | None:
        """Name ``rematch_id`` the finished table's rematch unless one is named already (by any process);
        returns the rematch that stands."""
        with self.sessions.begin() as session:
            session.execute(update(GameTable).where(GameTable.id == table_id, GameTable.status == FINISHED,
                                                    GameTable.rematch.is_(None)).values(rematch=rematch_id))
            return session.scalar(select(GameTable.rematch).where(GameTable.id == table_id))

    def rematch_of(self, table_id: str) -> str | None:
        with self.sessions() as session:
            return session.scalar(select(GameTable.rematch).where(GameTable.id == table_id))

    def delete_table(self, table_id: str) -> None:
        """Drop a table nobody has seen (a rematch offered a moment after another process's)."""
        with self.sessions.begin() as session:
            table = session.get(GameTable, table_id)
            if table is not None:
                session.delete(table)

    def load_seats(self, table_id: str) -> tuple[str, list[SeatRow]]:
        with self.sessions() as session:
            status = session.scalar(select(GameTable.status).where(GameTable.id == table_id)) or OPEN
            seats = session.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)).all()
            return status, [SeatRow(s.kind, s.bot_level, s.name, s.token_hash, s.account_id) for s in seats]

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str, account_id: int | None) -> bool:
        """Take ``seat`` if it is still an empty human seat; ``False`` when someone (anywhere) was first."""
        with self.sessions.begin() as session:
            result = session.execute(
                update(Seat).where(Seat.table_id == table_id, Seat.seat == seat, Seat.kind == HUMAN,
                                   Seat.token_hash.is_(None))
                .values(name=name, token_hash=token_hash, account_id=account_id))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def seat_to_bot(self, table_id: str, seat: int, level: str, clock: ClockState | None = None) -> None:
        """A bot takes ``seat`` for good (its player left, or the host replaced them); ``clock``: the
        table's clocks without that seat's running."""
        with self.sessions.begin() as session:
            running = session.scalar(select(GameTable.moves).where(GameTable.id == table_id,
                                                                   GameTable.status == RUNNING))
            person = session.execute(select(Seat.kind, Seat.token_hash, Seat.abandoned_at).where(
                Seat.table_id == table_id, Seat.seat == seat)).first()
            values: dict[str, Any] = {"kind": BOT, "bot_level": level, "token_hash": None}
            if running is not None and person is not None and person[1] is not None:
                if person[2] is None:  # a player left a running game: the seat was abandoned (ratings)
                    values["abandoned_at"] = running
            else:
                values["account_id"] = None
            session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(**values))
            if clock is not None:
                session.execute(update(GameTable).where(GameTable.id == table_id).values(**clock_values(clock)))

    def start_table(self, table_id: str, current_player: int | None, clock: ClockState | None = None) -> bool:
        """Mark an open table running (once, whichever process sees it full first), its clocks started."""
        with self.sessions.begin() as session:
            result = session.execute(update(GameTable).where(GameTable.id == table_id, GameTable.status == OPEN)
                                     .values(status=RUNNING, current_player=current_player, **clock_values(clock)))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def append_many(self, connection: Connection, moves: Sequence[Move]) -> None:
        """Write moves of different tables in ``connection``'s transaction (the writer's batch), one
        statement of each kind for all of them (executemany on the driver's cursor), not one ORM
        flush per move; ``Conflict`` if any move's number exists (the writer then retries the batch's
        moves one by one)."""
        now = datetime.now(UTC)
        statements = self._moves
        cursor = connection.connection.cursor()
        try:
            try:  # the primary key (table, move number) is checked here
                statements.insert_actions.run(cursor, [
                    {"table_id": move.table_id, "idx": move.start + offset, "seat": move.seat, "notation": notation,
                     "created_at": now}
                    for move in moves for offset, notation in enumerate(move.notations)])
            except statements.integrity_error:
                raise Conflict(f"a move of table {', '.join(m.table_id for m in moves)} exists") from None
            statements.update_moves.run(cursor, [
                {"b_id": m.table_id, "b_moves": m.start + len(m.notations), "b_current": m.current_player}
                for m in moves if m.finished is None and m.clock is None and not m.close_vote])
            statements.delete_done_jobs.run(cursor, [{"b_table": m.table_id, "b_version": m.done_job}
                                                     for m in moves if m.done_job is not None])
            try:
                statements.insert_jobs.run(cursor, [
                    {"table_id": m.table_id, "version": m.start + len(m.notations), "seat": m.next_bot[0],
                     "level": m.next_bot[1], "queued_at": now, "lease_until": None, "claimed_by": None,
                     "attempts": 0}
                    for m in moves if m.next_bot is not None])
            except statements.integrity_error:
                raise Conflict("a bot job this move leaves is queued already") from None
        finally:
            cursor.close()
        for move in moves:
            if move.finished is None and move.clock is None and not move.close_vote:
                continue
            values: dict[str, Any] = {"moves": move.start + len(move.notations),
                                      "current_player": move.current_player}
            if move.clock is not None:
                values.update(clock_values(move.clock))
            if move.close_vote:
                values["vote"] = None
            if move.finished is not None:
                values.update(status=FINISHED, finished_at=move.finished_at or now, scores=move.finished[0],
                              winners=move.finished[1], deadline=None)
            connection.execute(update(_TABLES).where(_TABLES.c.id == move.table_id).values(**values))
            if move.finished is not None:  # in the transaction that ends the game: rated once, or not at all
                with Session(bind=connection) as session:
                    self.rate_finished(session, move.table_id, *move.finished)
                    session.flush()

    # --- clocks -------------------------------------------------------------------------------

    def due_deadlines(self, limit: int = 100) -> list[tuple[str, datetime]]:
        """Running tables whose deadline has passed and that no live process is handling, with their
        deadlines, earliest first: what a process may claim (``claim_expired``), read without a lock."""
        now = datetime.now(UTC)
        unclaimed = or_(GameTable.expiry_lease_until.is_(None), GameTable.expiry_lease_until < now)
        with self.sessions() as session:
            rows = session.execute(select(GameTable.id, GameTable.deadline)
                                   .where(GameTable.status == RUNNING, GameTable.deadline <= now, unclaimed)
                                   .order_by(GameTable.deadline).limit(limit)).all()
        return [(table_id, aware(deadline)) for table_id, deadline in rows if deadline is not None]

    def claim_expired(self, worker: str, lease: float, limit: int = 20,
                      table_ids: Sequence[str] | None = None) -> list[str]:
        """Running tables whose deadline has passed and that no live process is handling (of
        ``table_ids`` when given), now claimed by ``worker`` for ``lease`` seconds: each claim is a
        conditional update (and ``SKIP LOCKED`` where the database has it), so exactly one process gets
        each. A claimer that dies lets its lease run out, and the deadline is claimed again."""
        if table_ids is not None and not table_ids:
            return []
        now = datetime.now(UTC)
        unclaimed = or_(GameTable.expiry_lease_until.is_(None), GameTable.expiry_lease_until < now)
        among = [] if table_ids is None else [GameTable.id.in_(list(table_ids))]
        claimed: list[str] = []
        with self.sessions.begin() as session:
            due = (select(GameTable.id).where(GameTable.status == RUNNING, GameTable.deadline <= now, unclaimed, *among)
                   .order_by(GameTable.deadline).limit(limit).with_for_update(skip_locked=True))
            for table_id in session.scalars(due).all():
                result = session.execute(update(GameTable).where(GameTable.id == table_id, GameTable.deadline <= now,
                                                                 unclaimed)
                                         .values(expiry_claimed_by=worker,
                                                 expiry_lease_until=now + timedelta(seconds=lease)))
                if result.rowcount:  # type: ignore[attr-defined]
                    claimed.append(table_id)
        return claimed

    def release_expiry(self, table_id: str, worker: str) -> None:
        with self.sessions.begin() as session:
            session.execute(update(GameTable).where(GameTable.id == table_id, GameTable.expiry_claimed_by == worker)
                            .values(expiry_claimed_by=None, expiry_lease_until=None))

    def change_table(self, change: TableChange) -> list[JSON]:
        """Write ``change`` in one transaction if the table still has ``change.version`` moves (else
        ``Conflict``: a move came first); returns the events as written."""
        now = datetime.now(UTC)
        with self.sessions.begin() as session:
            values = clock_values(change.clock)
            if change.deadline is not None:
                values["deadline"] = change.deadline
            result = session.execute(
                update(GameTable).where(GameTable.id == change.table_id, GameTable.moves == change.version,
                                        GameTable.status == RUNNING)
                .values(vote=change.vote, expiry_claimed_by=None, expiry_lease_until=None, **values))
            if not result.rowcount:  # type: ignore[attr-defined]
                raise Conflict(f"table {change.table_id} moved on from version {change.version}")
            seen = session.scalar(select(func.count()).select_from(TableEvent)
                                  .where(TableEvent.table_id == change.table_id))
            if change.events_seen is not None and seen != change.events_seen:
                raise Conflict(f"table {change.table_id} changed meanwhile")
            for seat, (kind, level) in change.seat_kinds.items():
                session.execute(update(Seat).where(Seat.table_id == change.table_id, Seat.seat == seat)
                                .values(kind=kind, bot_level=level))
                if kind == HUMAN:  # reclaimed: not abandoned after all
                    session.execute(update(Seat).where(Seat.table_id == change.table_id, Seat.seat == seat)
                                    .values(abandoned_at=None))
                else:  # a bot took over a person's seat (their clock ran out): abandoned, unless it already was
                    session.execute(update(Seat).where(Seat.table_id == change.table_id, Seat.seat == seat,
                                                       Seat.token_hash.is_not(None), Seat.abandoned_at.is_(None))
                                    .values(abandoned_at=change.version))
            first = session.scalar(select(func.max(TableEvent.idx)).where(TableEvent.table_id == change.table_id))
            written: list[TableEvent] = []
            for offset, (kind, seat, data) in enumerate(change.events):
                event = TableEvent(table_id=change.table_id, idx=(first + 1 if first is not None else 0) + offset,
                                   version=change.version, kind=kind, seat=seat, data=data, created_at=now)
                session.add(event)
                written.append(event)
            if change.bot_job is not None and session.get(BotJob, (change.table_id, change.version)) is None:
                seat, level = change.bot_job
                session.add(BotJob(table_id=change.table_id, version=change.version, seat=seat, level=level,
                                   queued_at=now, attempts=0))
            try:
                session.flush()
            except IntegrityError:
                raise Conflict(f"table {change.table_id} changed meanwhile") from None
            return [event_json(event) for event in written]

    def table_events(self, table_id: str) -> list[JSON]:
        """Every event of a table, in order (for tests and operators)."""
        with self.sessions() as session:
            return [event_json(e) for e in session.scalars(
                select(TableEvent).where(TableEvent.table_id == table_id).order_by(TableEvent.idx))]

    # --- bot jobs -----------------------------------------------------------------------------

    def ensure_bot_job(self, table_id: str, version: int, seat: int, level: str) -> None:
        """The job for the bot that must make move ``version``, unless it is queued already."""
        try:
            with self.sessions.begin() as session:
                if session.get(BotJob, (table_id, version)) is not None:
                    return
                session.add(BotJob(table_id=table_id, version=version, seat=seat, level=level, attempts=0,
                                   queued_at=datetime.now(UTC)))
        except IntegrityError:  # queued meanwhile by another process
            pass

    def due_bot_jobs(self, limit: int, delay: float = 0.0) -> list[tuple[str, datetime]]:
        """The tables of jobs queued at least ``delay`` seconds ago that nobody holds (or whose holder's
        lease ran out), each with the moment its job fell due, earliest first; read without a lock."""
        now = datetime.now(UTC)
        with self.sessions() as session:
            rows = session.execute(select(BotJob.table_id, BotJob.queued_at)
                                   .where(BotJob.queued_at <= now - timedelta(seconds=delay),
                                          or_(BotJob.lease_until.is_(None), BotJob.lease_until < now))
                                   .order_by(BotJob.queued_at).limit(limit)).all()
        return [(table_id, aware(queued_at) + timedelta(seconds=delay)) for table_id, queued_at in rows]

    def claim_bot_jobs(self, worker: str, limit: int, lease: float, delay: float = 0.0,
                       table_ids: Sequence[str] | None = None) -> list[BotJobRow]:
        """Up to ``limit`` jobs queued at least ``delay`` seconds ago (the pause that lets people follow
        a bot) that nobody holds, or whose holder's lease ran out (of ``table_ids``' tables when given),
        now leased to ``worker``."""
        if table_ids is not None and not table_ids:
            return []
        now = datetime.now(UTC)
        among = [] if table_ids is None else [BotJob.table_id.in_(list(table_ids))]
        with self.sessions.begin() as session:
            due = (select(BotJob).where(BotJob.queued_at <= now - timedelta(seconds=delay),
                                        or_(BotJob.lease_until.is_(None), BotJob.lease_until < now), *among)
                   .order_by(BotJob.queued_at).limit(limit).with_for_update(skip_locked=True))
            jobs = session.scalars(due).all()
            claimed: list[BotJobRow] = []
            for job in jobs:
                job.lease_until = now + timedelta(seconds=lease)
                job.claimed_by = worker
                job.attempts += 1
                claimed.append(BotJobRow(job.table_id, job.version, job.seat, job.level, job.attempts))
            return claimed

    def renew_leases(self, worker: str, lease: float) -> None:
        """Extend the leases of every job ``worker`` holds: it is alive and still thinking."""
        with self.sessions.begin() as session:
            session.execute(update(BotJob).where(BotJob.claimed_by == worker)
                            .values(lease_until=datetime.now(UTC) + timedelta(seconds=lease)))

    def release_bot_job(self, table_id: str, version: int) -> None:
        """Give a job back to the queue at once (its attempt failed; the next claim counts another)."""
        with self.sessions.begin() as session:
            session.execute(update(BotJob).where(BotJob.table_id == table_id, BotJob.version == version)
                            .values(claimed_by=None, lease_until=None))

    def drop_bot_job(self, table_id: str, version: int) -> None:
        with self.sessions.begin() as session:
            session.execute(delete(BotJob).where(BotJob.table_id == table_id, BotJob.version == version))

    def bot_jobs(self) -> list[BotJobRow]:
        """Every queued job (for tests and operators)."""
        with self.sessions() as session:
            return [BotJobRow(j.table_id, j.version, j.seat, j.level, j.attempts)
                    for j in session.scalars(select(BotJob).order_by(BotJob.queued_at))]

    # --- the lobby ----------------------------------------------------------------------------

    def list_tables(self, status: str | None, limit: int = 100, game: str | None = None,
                    open_seats: bool = False, mode: str | None = None) -> list[JSON]:
        """Open and running tables newest first, then finished ones newest first: from the database,
        so every process lists every table. ``game`` and ``mode`` keep one game's or one mode's
        tables; ``open_seats`` keeps the unfinished tables where a person's seat is still free (the rule
        ``lobby.has_free_seat`` applies to an entry the live lobby pushes)."""
        result: list[JSON] = []
        filters = [] if game is None else [GameTable.game == game]
        if mode is not None:
            filters.append(GameTable.mode == mode)
        if open_seats:
            filters.append(select(Seat.seat).where(Seat.table_id == GameTable.id, Seat.kind == HUMAN,
                                                   Seat.token_hash.is_(None), Seat.name.is_(None)).exists())
        with self.sessions() as session:
            if status in (None, OPEN, RUNNING):
                wanted = (OPEN, RUNNING) if status is None else (status,)
                rows = session.scalars(select(GameTable).where(GameTable.status.in_(wanted), *filters)
                                       .order_by(GameTable.created_at.desc()).limit(limit)).all()
                result += [summary_of_row(row) for row in rows]
            if status in (None, FINISHED) and not open_seats:
                rows = session.scalars(select(GameTable).where(GameTable.status == FINISHED, *filters)
                                       .order_by(GameTable.finished_at.desc()).limit(limit)).all()
                result += [summary_of_row(row) for row in rows]
        return result[:limit]

    # --- chat -------------------------------------------------------------------------------

    def add_chat(self, room: str, seat: int | None, sender: str, name: str, text: str) -> JSON:
        """Keep one chat line; returns it as clients are sent it."""
        with self.sessions.begin() as session:
            line = ChatMessage(room=room, seat=seat, sender=sender, name=name, text=text,
                               created_at=datetime.now(UTC))
            session.add(line)
            session.flush()
            return chat_json(line)

    def chat(self, room: str, after: int = 0, limit: int = 200) -> list[JSON]:
        """The room's last ``limit`` lines after line ``after`` (an id), oldest first."""
        with self.sessions() as session:
            lines = session.scalars(select(ChatMessage).where(ChatMessage.room == room, ChatMessage.id > after)
                                    .order_by(ChatMessage.id.desc()).limit(limit)).all()
            return [chat_json(line) for line in reversed(lines)]

    # --- accounts -----------------------------------------------------------------------------

    def account_of_session(self, token_hash: str) -> tuple[int, str] | None:
        with self.sessions() as session:
            row = session.execute(select(Account.id, Account.name).join(
                LoginSession, LoginSession.account_id == Account.id).where(LoginSession.token_hash == token_hash)
            ).first()
            return (row[0], row[1]) if row is not None else None

    def find_account(self, name: str, key: str) -> tuple[int, str, str] | None:
        """(id, name, password hash) of the account a login names: its exact name first (an account
        made before name keys existed may have none), else its ``name_key``."""
        with self.sessions() as session:
            for condition in (Account.name == name, Account.name_key == key):
                row = session.execute(select(Account.id, Account.name, Account.password_hash).where(condition)
                                      ).first()
                if row is not None:
                    return row[0], row[1], row[2]
            return None

    def name_owner(self, key: str) -> int | None:
        with self.sessions() as session:
            return session.scalars(select(Account.id).where(Account.name_key == key)).first()

    def register(self, name: str, key: str, password_hash: str) -> int:
        """The new account's id; ``Conflict`` when the name (or its key) is taken, even meanwhile."""
        try:
            with self.sessions.begin() as session:
                account = Account(name=name, name_key=key, password_hash=password_hash)
                session.add(account)
                session.flush()
                return account.id
        except IntegrityError:
            raise Conflict(name) from None

    def claim_seats(self, account_id: int, token_hashes: Sequence[str]) -> int:
        """A guest who signs up claims their games: the seats this browser's seat cookies hold, and that
        no account holds yet, become ``account_id``'s; how many. Results already rated stay as they were
        (guests are not rated); a game still running counts for the account when it ends."""
        if not token_hashes:
            return 0
        with self.sessions.begin() as session:
            result = session.execute(update(Seat).where(Seat.token_hash.in_(list(token_hashes)),
                                                        Seat.account_id.is_(None)).values(account_id=account_id))
            return int(result.rowcount)  # type: ignore[attr-defined]

    def add_login(self, token_hash: str, account_id: int) -> None:
        with self.sessions.begin() as session:
            session.add(LoginSession(token_hash=token_hash, account_id=account_id))

    def drop_login(self, token_hash: str) -> None:
        with self.sessions.begin() as session:
            session.execute(delete(LoginSession).where(LoginSession.token_hash == token_hash))

    # --- my games and turn alerts ----------------------------------------------------------------

    def my_tables(self, account_id: int | None, token_hashes: Sequence[str], limit: int = 100,
                  only: Sequence[str] | None = None) -> list[JSON]:
        """The tables where the account, or a seat token of this browser, holds a seat (``only``: of
        those tables): each table's lobby summary, which seats are ``mine``, and its last move (who,
        when, and the notation only when it was one of mine: another seat's notation may name a
        hidden choice)."""
        conditions = []
        if account_id is not None:
            conditions.append(Seat.account_id == account_id)
        if token_hashes:
            conditions.append(Seat.token_hash.in_(list(token_hashes)))
        if not conditions:
            return []
        restrict = [] if only is None else [Seat.table_id.in_(list(only))]
        with self.sessions() as session:
            mine: dict[str, list[int]] = {}
            for table_id, seat in session.execute(select(Seat.table_id, Seat.seat).where(or_(*conditions),
                                                                                          *restrict)):
                mine.setdefault(table_id, []).append(seat)
            if not mine:
                return []
            rows = session.scalars(select(GameTable).where(GameTable.id.in_(list(mine)))
                                   .order_by(GameTable.created_at.desc()).limit(limit)).all()
            last = {table_id: (seat, notation, created_at) for table_id, seat, notation, created_at in session.execute(
                select(ActionRecord.table_id, ActionRecord.seat, ActionRecord.notation, ActionRecord.created_at)
                .join(GameTable, GameTable.id == ActionRecord.table_id)
                .where(ActionRecord.table_id.in_([row.id for row in rows]), ActionRecord.idx == GameTable.moves - 1))}
            result: list[JSON] = []
            for row in rows:
                summary = summary_of_row(row)
                summary["mine"] = sorted(mine[row.id])
                move = last.get(row.id)
                summary["last_move"] = None if move is None else self._last_entry(session, row, move, mine[row.id])
                result.append(summary)
            return result

    @staticmethod
    def _last_entry(session: Session, row: GameTable, move: tuple[int, str, datetime], mine: list[int]) -> JSON:
        """A table's last log row as the entry its table sends (``meeple.server.undo``) to the one of
        ``mine`` who made it, or to a spectator when none did, plus when (``at``)."""
        seat, notation, at = move
        index = row.moves - 1
        if undone_count(notation) is None:
            entry = move_event(index, seat, notation, partial(action_shape, load_game(row.game)))
        else:  # which moves it took back: the table's rows say (an undo is rarely a table's last row)
            ledger = MoveLedger()
            ledger.extend((mover, written) for mover, written in session.execute(
                select(ActionRecord.seat, ActionRecord.notation)
                .where(ActionRecord.table_id == row.id).order_by(ActionRecord.idx)))
            entry = ledger.event(index)
        return {**as_seen(entry, seat if seat in mine else None), "at": aware(at).isoformat()}

    def alert_settings(self, account_id: int) -> tuple[str | None, bool, str | None]:
        """(e-mail address, whether to mail on one's turn, language) of an account."""
        with self.sessions() as session:
            row = session.execute(select(Account.email, Account.email_turns, Account.language)
                                  .where(Account.id == account_id)).one()
            return row[0], bool(row[1]), row[2]

    def set_alert_settings(self, account_id: int, email: str | None, email_turns: bool, language: str | None) -> None:
        with self.sessions.begin() as session:
            session.execute(update(Account).where(Account.id == account_id)
                            .values(email=email, email_turns=email_turns, language=language))

    def claim_turn_mail(self, table_id: str, seat: int) -> TurnMail | None:
        """The mail owed to ``seat``'s player now that it is their turn, if their account asked for one
        and none is outstanding; marking it sent is a conditional update, so across every process the
        player gets one mail until ``clear_turn_mail``."""
        now = datetime.now(UTC)
        with self.sessions.begin() as session:
            row = session.execute(
                select(Account.id, Account.email, Account.language, Account.name)
                .join(Seat, Seat.account_id == Account.id)
                .where(Seat.table_id == table_id, Seat.seat == seat, Seat.kind == HUMAN, Seat.turn_mailed_at.is_(None),
                       Account.email_turns.is_(True), Account.email.is_not(None))).first()
            if row is None or not row[1]:
                return None
            claimed = session.execute(
                update(Seat).where(Seat.table_id == table_id, Seat.seat == seat, Seat.account_id == row[0],
                                   Seat.turn_mailed_at.is_(None)).values(turn_mailed_at=now))
            if not claimed.rowcount:  # type: ignore[attr-defined]
                return None
            return TurnMail(email=row[1], language=row[2], name=row[3])

    def clear_turn_mail(self, table_id: str, seat: int) -> None:
        """The player moved or opened the table: the next time it becomes their turn may be mailed."""
        with self.sessions.begin() as session:
            session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat,
                                               Seat.turn_mailed_at.is_not(None)).values(turn_mailed_at=None))

    def turn_mailed(self, table_id: str, seat: int) -> bool:
        with self.sessions() as session:
            return session.scalar(select(Seat.turn_mailed_at).where(Seat.table_id == table_id, Seat.seat == seat)
                                  ) is not None

    # --- ratings (meeple.server.ratings) -----------------------------------------------------------

    def rate_finished(self, session: Session, table_id: str, scores: Sequence[int], winners: Sequence[int],
                      ladder: bool = False) -> bool:
        """Rate the game that just ended at ``table_id``, in ``session`` (the transaction that ends it),
        if the rules say it counts; whether it did. ``ladder``: a bot-ladder game, rated with no person
        seated. A second attempt for one table fails on ``rating_changes``' primary key."""
        table = session.get(GameTable, table_id)
        if table is None or not table.rated:
            return False
        seats = session.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)).all()
        if not ladder and not any(s.account_id is not None and (s.kind == HUMAN or s.abandoned_at is not None)
                                  for s in seats):
            return False
        moments = [s.abandoned_at for s in seats]  # log rows then; counted as moves in effect (undos)
        if any(moment is not None for moment in moments):
            notations = session.scalars(select(ActionRecord.notation).where(ActionRecord.table_id == table_id)
                                        .order_by(ActionRecord.idx)).all()
            moments = [None if moment is None else moves_in_effect(notations[:moment]) for moment in moments]
        if abandoned_too_early(moments):
            return False
        holders: list[int | None] = []  # the account each seat is rated as (None: a guest)
        for s in seats:
            if s.abandoned_at is not None:
                holders.append(s.account_id)
            elif s.kind == BOT:
                holders.append(self.bot_account(session, s.bot_level or "medium"))
            else:
                holders.append(s.account_id)
        bot_accounts = {holders[s.seat] for s in seats if s.kind == BOT and s.abandoned_at is None}
        now = datetime.now(UTC)
        for players in (0, table.players):
            current: dict[int, RatingRow] = {}
            for account in {h for h in holders if h is not None}:
                row = session.get(RatingRow, (account, table.game, players))
                if row is None:
                    row = RatingRow(account_id=account, game=table.game, players=players, mu=START_MU,
                                    sigma=START_SIGMA, display=displayed(START_MU, START_SIGMA), games=0, wins=0)
                    session.add(row)
                current[account] = row
            entrants = [Entrant(mu=current[h].mu if h is not None else START_MU,
                                sigma=current[h].sigma if h is not None else START_SIGMA,
                                winner=s.seat in winners, score=scores[s.seat] if s.seat < len(scores) else 0,
                                abandoned=s.abandoned_at is not None) for s, h in zip(seats, holders, strict=True)]
            done: set[int] = set()
            for s, holder, outcome in zip(seats, holders, rate(entrants), strict=True):
                if holder is None or holder in done:  # a guest, or a level's second bot at this table
                    continue
                done.add(holder)
                row = current[holder]
                before = row.display
                row.mu, row.sigma, row.display = outcome.mu, outcome.sigma, displayed(outcome.mu, outcome.sigma)
                row.games += 1
                row.wins += outcome.result == "win"
                row.updated_at = now
                if players == 0:
                    session.add(RatingChange(
                        table_id=table_id, account_id=holder, game=table.game, players=table.players, seat=s.seat,
                        rank=outcome.rank, result=outcome.result, before=before, after=row.display, mu=outcome.mu,
                        sigma=outcome.sigma, against_bots=bool(bot_accounts - {holder}),
                        abandoned=s.abandoned_at is not None, created_at=now))
        session.flush()
        return True

    def record_bot_game(self, row: TableRow, scores: list[int], winners: list[int]) -> None:
        """Store a finished game the bots played away from the site with its moves: a bot-ladder game
        (``meeple.server.ladder``), rated in the same transaction, or a tournament's, unrated
        (``meeple.server.tournament_games``)."""
        with self.sessions.begin() as session:
            session.add(GameTable(
                id=row.id, game=row.game, players=row.players, seed=row.seed, options=row.options, status=FINISHED,
                host_token_hash=row.host_token_hash, created_at=row.created_at, finished_at=row.finished_at,
                moves=len(row.moves), scores=scores, winners=winners, rated=row.rated,
                seats=[Seat(seat=i, kind=s.kind, bot_level=s.bot_level) for i, s in enumerate(row.seats)]))
            session.flush()
            if row.moves:
                session.execute(insert(cast(Table, ActionRecord.__table__)), [
                    {"table_id": row.id, "idx": index, "seat": seat, "notation": notation, "created_at": row.created_at}
                    for index, (seat, notation) in enumerate(row.moves)])
            if row.rated:
                self.rate_finished(session, row.id, scores, winners, ladder=True)

    def profile(self, name: str, key: str, recent: int = 20) -> JSON | None:
        """An account's public record, or ``None``: per game the finished games it played and won and
        its rating with its history; its most recent finished games (``recent``), its seats in them."""
        with self.sessions() as session:
            account = session.execute(select(Account.id, Account.name, Account.bot_level).where(
                or_(Account.name == name, Account.name_key == key)).order_by(Account.name != name)).first()
            if account is None:
                return None
            account_id = account[0]
            seats: dict[str, int] = {table_id: seat for table_id, seat in session.execute(
                select(Seat.table_id, Seat.seat).where(Seat.account_id == account_id))}
            changes = session.scalars(select(RatingChange).where(RatingChange.account_id == account_id)
                                      .order_by(RatingChange.created_at, RatingChange.table_id)).all()
            for change in changes:
                seats.setdefault(change.table_id, change.seat)
            tables = session.scalars(select(GameTable).where(GameTable.id.in_(list(seats)),
                                                             GameTable.status == FINISHED)
                                     .order_by(GameTable.finished_at.desc())).all() if seats else []
            games: dict[str, JSON] = {}
            for table in tables:
                entry = games.setdefault(table.game, {"game": table.game, "played": 0, "won": 0, "rating": None,
                                                      "rated_games": 0, "history": []})
                entry["played"] += 1
                entry["won"] += seats[table.id] in (table.winners or [])
            for row in session.scalars(select(RatingRow).where(RatingRow.account_id == account_id,
                                                               RatingRow.players == 0)):
                entry = games.setdefault(row.game, {"game": row.game, "played": row.games, "won": row.wins,
                                                    "rating": None, "rated_games": 0, "history": []})
                entry["rating"], entry["rated_games"] = row.display, row.games
            for change in changes:
                games[change.game]["history"].append({
                    "table_id": change.table_id, "at": aware(change.created_at).isoformat(), "before": change.before,
                    "rating": change.after, "result": change.result, "players": change.players,
                    "against_bots": change.against_bots, "abandoned": change.abandoned})
            rated = {change.table_id: change for change in changes}
            recent_games: list[JSON] = []
            for table in tables[:recent]:
                summary = summary_of_row(table)
                rated_change = rated.get(table.id)
                summary["seat"] = seats[table.id]
                summary["won"] = seats[table.id] in (table.winners or [])
                summary["rating_change"] = None if rated_change is None else {
                    "before": rated_change.before, "after": rated_change.after, "result": rated_change.result,
                    "against_bots": rated_change.against_bots, "abandoned": rated_change.abandoned}
                recent_games.append(summary)
            for entry in games.values():
                try:
                    entry["title"] = load_game(entry["game"]).title
                except MeepleError:
                    entry["title"] = entry["game"]
            return {"player": {"name": account[1], "bot": account[2] is not None, "bot_level": account[2]},
                    "games": sorted(games.values(), key=lambda g: str(g["game"])), "recent": recent_games}

    def leaderboard(self, game: str, players: int, min_games: int, limit: int = 100) -> list[JSON]:
        """The best-rated accounts at ``game`` (``players`` 0: over every player count) with at least
        ``min_games`` rated games there, best first (ties: more games, then the older rating first)."""
        with self.sessions() as session:
            rows = session.execute(
                select(Account.name, Account.bot_level, RatingRow.display, RatingRow.games, RatingRow.wins)
                .join(Account, Account.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.players == players, RatingRow.games >= min_games)
                .order_by(RatingRow.display.desc(), RatingRow.games.desc(), RatingRow.updated_at).limit(limit)).all()
            return [{"rank": index + 1, "name": name, "bot": level is not None, "bot_level": level, "rating": display,
                     "games": count, "wins": wins} for index, (name, level, display, count, wins) in enumerate(rows)]

    def bot_account(self, session: Session, level: str) -> int:
        """The account that holds ``level``'s ratings, made on first use (it has no password)."""
        found = session.scalar(select(Account.id).where(Account.bot_level == level))
        if found is not None:
            return found
        name = f"{level} bot"
        taken = session.scalar(select(Account.id).where(or_(Account.name == name,
                                                            Account.name_key == name_key(name))))
        if taken is not None:  # a person registered the name first
            name = f"{level} bot {secrets.token_hex(2)}"
        with session.begin_nested():  # made meanwhile by another process: use theirs
            try:
                account = Account(name=name, name_key=name_key(name), password_hash="!bot", bot_level=level)
                session.add(account)
                session.flush()
                return account.id
            except IntegrityError:
                pass
        found = session.scalar(select(Account.id).where(Account.bot_level == level))
        if found is None:
            raise Conflict(f"the {level} bot's account could not be made")
        return found

    def count_moves(self, table_id: str) -> int:
        with self.sessions() as session:
            return session.scalar(select(func.count()).select_from(ActionRecord)
                                  .where(and_(ActionRecord.table_id == table_id))) or 0


def chat_json(line: ChatMessage) -> JSON:
    return {"id": line.id, "seat": line.seat, "sender": line.sender, "name": line.name, "text": line.text,
            "at": aware(line.created_at).isoformat()}


def summary_of_row(row: GameTable) -> JSON:
    """A table's lobby summary from its row alone (no game loaded); ``online`` is not known here."""
    try:
        title = load_game(row.game).title
    except MeepleError:
        title = row.game
    over = row.status == FINISHED
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "players": row.players,
        "options": dict(row.options),
        "status": row.status,
        "created_at": aware(row.created_at).isoformat(),
        "finished_at": aware(row.finished_at).isoformat() if row.finished_at else None,
        "current_player": None if over else row.current_player,
        "actions": row.moves,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "bot_level": s.bot_level, "name": s.name,
             "taken": s.kind == BOT or s.token_hash is not None or s.name is not None,
             "reserved": s.kind == HUMAN and s.token_hash is None and s.name is not None,
             "online": not over and s.kind == BOT, "stand_in": s.kind == BOT and s.token_hash is not None}
            for s in row.seats
        ],
        "mode": row.mode,
        "speed": row.speed,
        "rated": row.rated,
        "clock": clock_json(settings_of(row), None if over else clock_of(row), dict(row.vote) if row.vote else None),
        "scores": row.scores,
        "winners": row.winners,
        "rematch": row.rematch,
        "watchers": row.watchers,
    }


def clock_json(settings: ClockSettings, clock: ClockState | None, vote: dict[str, Any] | None,
               events: list[JSON] | None = None) -> JSON:
    """A table's clock as every seat (and the lobby) is sent it: settings, banks, who runs, any vote."""
    data: JSON = settings.to_json()
    data["vote"] = vote
    if clock is not None:
        data.update(clock.to_json(datetime.now(UTC)))
        if vote is not None:  # every clock stands still; the vote's end is the table's deadline
            data["deadline"] = vote.get("until")
    if events is not None:
        data["events"] = events
    return data
