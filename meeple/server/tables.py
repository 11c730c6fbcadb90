"""Live game tables: the engine states in memory, their seats, subscribers, bots and persistence.

Every change goes the same way, under the table's lock: try the action on a clone, write the new
notations to the database, swap the clone in, then tell each subscriber what *its* seat may see
(``state.view(seat)``; spectators ``view(None)``). Nothing else about a state ever leaves here:
neither ``to_json()`` nor the history, whose notations can reveal hidden choices, so the log sent to
a seat names only that seat's own actions, and replays are rebuilt here and sent as views.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from meeple.bots import BOT_KINDS, level_name, make_bot
from meeple.core.contract import JSON, Game, GameState
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.registry import game_names, load_game
from meeple.server.auth import new_token, token_hash
from meeple.server.models import Account, ActionRecord, GameTable, Seat
from meeple.server.names import BadName, clean_name, name_key

log = logging.getLogger("meeple.server")

OPEN, RUNNING, FINISHED = "open", "running", "finished"
STATUSES = (OPEN, RUNNING, FINISHED)
HUMAN, BOT = "human", "bot"
FINISHED_CACHE = 32
REPLAY_CACHE = 4


class Refused(Exception):
    """A request that changes nothing: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> JSON:
        return {"type": "error", "code": self.code, "message": self.message}


@dataclass
class SeatInfo:
    kind: str
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    account_id: int | None = None

    @property
    def is_taken(self) -> bool:
        return self.kind == BOT or self.token_hash is not None


@dataclass
class Subscriber:
    """One open connection watching a table, as ``seat`` (``None``: spectator)."""

    seat: int | None
    send: Callable[[JSON], Awaitable[None]]


@dataclass
class LiveTable:
    id: str
    game: Game[Any]
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    host_token_hash: str
    created_at: datetime
    seats: list[SeatInfo]
    state: GameState[Any] | None = None
    actors: list[int] = field(default_factory=list)
    finished_at: datetime | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: list[Subscriber] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        """How many actions have been applied; clients send it back so stale moves are refused."""
        return len(self.actors)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_hash(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return index
        return None

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.host_token_hash, token_hash(token or ""))

    def summary(self) -> JSON:
        online = {sub.seat for sub in self.subscribers}
        state = self.state
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "options": dict(self.options),
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "current_player": state.current_player if state is not None else None,
            "actions": self.version,
            "seats": [
                {
                    "seat": index,
                    "kind": seat.kind,
                    "bot_level": seat.bot_level,
                    "name": seat.name,
                    "taken": seat.is_taken,
                    "online": seat.kind == BOT or index in online,
                }
                for index, seat in enumerate(self.seats)
            ],
            "scores": state.scores() if state is not None and state.is_over else None,
            "winners": state.winners() if state is not None and state.is_over else None,
        }

    def message_for(self, seat: int | None) -> JSON:
        """Everything one seat (or a spectator) is shown: the view, its legal actions, its own log."""
        state = self.state
        message: JSON = {"type": "state", "table": self.summary(), "seat": seat, "version": self.version}
        if state is None:
            message.update(view=None, current_player=None, is_over=False, legal=[], log=[])
            return message
        current = state.current_player
        legal = [str(a) for a in state.legal_actions()] if seat is not None and seat == current else []
        history = state.history
        message.update(
            view=state.view(seat),
            current_player=current,
            is_over=state.is_over,
            legal=legal,
            log=[
                {"index": i, "seat": actor, "action": history[i] if actor == seat else None}
                for i, actor in enumerate(self.actors)
            ],
        )
        return message


def _bot_choice(level: str, seed: str, state: GameState[Any]) -> str:
    """What a bot plays; run in a worker thread on a copy, so the live state is never read there."""
    return str(make_bot(level, seed=seed).choose(state))


def _clean_name(name: Any) -> str:
    """``names.clean_name``, refusing as the API does."""
    try:
        return clean_name(name)
    except BadName as problem:
        raise Refused("bad_name", str(problem)) from None


@dataclass
class Created:
    table: LiveTable
    host_token: str
    seat_token: str | None
    seat: int | None


class TableService:
    """All tables of one server: creation, seating, actions, bots, broadcasts, replays, restarts."""

    def __init__(self, sessions: sessionmaker[Session], bot_delay: float) -> None:
        self.sessions = sessions
        self.bot_delay = bot_delay
        self.live: dict[str, LiveTable] = {}
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        self.replays: OrderedDict[str, list[GameState[Any]]] = OrderedDict()
        self._stopping = False
        # Bots think here, one thread per core, so searching bots never starve the server's own threads.
        self._bot_threads = ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1),
                                               thread_name_prefix="meeple-bot")

    # --- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Reload every open and running table from the database and let their bots resume."""
        with self.sessions() as session:
            rows = session.scalars(select(GameTable).where(GameTable.status.in_((OPEN, RUNNING)))).all()
            for row in rows:
                try:
                    table = self._restore(session, row)
                except MeepleError as error:
                    log.error("table %s cannot be restored: %s", row.id, error)
                    continue
                self.live[table.id] = table
        for table in self.live.values():
            self.kick_bots(table)

    async def stop(self) -> None:
        self._stopping = True
        tasks = [t.bot_task for t in self.live.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._bot_threads.shutdown(wait=False, cancel_futures=True)

    def _restore(self, session: Session, row: GameTable) -> LiveTable:
        game = load_game(row.game)
        seats = [SeatInfo(s.kind, level_name(s.bot_level), s.name, s.token_hash, s.account_id) for s in row.seats]
        table = LiveTable(
            id=row.id, game=game, players=row.players, seed=row.seed, options=dict(row.options),
            status=row.status, host_token_hash=row.host_token_hash, created_at=_aware(row.created_at),
            seats=seats, finished_at=_aware(row.finished_at) if row.finished_at else None,
        )
        if row.status != OPEN:
            state = game.new_game(players=row.players, seed=row.seed, options=row.options)
            records = session.scalars(
                select(ActionRecord).where(ActionRecord.table_id == row.id).order_by(ActionRecord.idx)
            ).all()
            for record in records:
                state.apply(record.notation)
                table.actors.append(record.seat)
            table.state = state
        return table

    # --- finding tables ------------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        table = self.live.get(table_id) or self.finished.get(table_id)
        if table is not None:
            if table_id in self.finished:
                self.finished.move_to_end(table_id)
            return table
        with self.sessions() as session:
            row = session.get(GameTable, table_id)
            if row is None:
                raise Refused("unknown_table", f"there is no table {table_id!r}", 404)
            try:
                table = self._restore(session, row)
            except MeepleError as error:
                raise Refused("unavailable", f"table {table_id!r} cannot be shown: {error}", 503) from None
        if table.status == FINISHED:
            self._remember_finished(table)
        else:
            self.live[table.id] = table
        return table

    def _remember_finished(self, table: LiveTable) -> None:
        self.finished[table.id] = table
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    def list_tables(self, status: str | None = None, limit: int = 100) -> list[JSON]:
        """Open and running tables come from memory; finished ones from the database, newest first."""
        result: list[JSON] = []
        if status in (None, OPEN, RUNNING):
            live = sorted(self.live.values(), key=lambda t: t.created_at, reverse=True)
            result += [t.summary() for t in live if status is None or t.status == status]
        if status in (None, FINISHED):
            with self.sessions() as session:
                rows = session.scalars(
                    select(GameTable).where(GameTable.status == FINISHED)
                    .order_by(GameTable.finished_at.desc()).limit(limit)
                ).all()
                for row in rows:
                    result.append(_finished_summary(row))
        return result[:limit]

    # --- creating and seating ------------------------------------------------------------------

    def create(
        self,
        game_name: Any,
        players: Any,
        options: Any,
        seats: Any,
        creator_seat: Any,
        creator_name: Any,
        account_id: int | None = None,
        seed: int | None = None,
    ) -> Created:
        if not isinstance(game_name, str) or game_name not in game_names():
            raise Refused("unknown_game", f"unknown game {game_name!r}; available: {', '.join(game_names())}")
        game = load_game(game_name)
        if type(players) is not int:
            raise Refused("bad_players", "players must be a whole number")
        if options is not None and not isinstance(options, Mapping):
            raise Refused("bad_options", "options must be an object of name: value")
        try:
            game.check_players(players)
            resolved = game.resolve_options(options or {}, players)
        except MeepleError as error:
            raise Refused("bad_options", str(error)) from None
        infos = self._seat_specs(seats, players)
        if creator_seat is not None:
            if type(creator_seat) is not int or not 0 <= creator_seat < players:
                raise Refused("bad_seat", f"your seat must be between 0 and {players - 1}")
            if infos[creator_seat].kind != HUMAN:
                raise Refused("bad_seat", "you cannot sit in a bot's seat")
            name = self._seat_name(creator_name, account_id, [])
        host_token = new_token()
        seat_token: str | None = None
        if creator_seat is not None:
            seat_token = new_token()
            infos[creator_seat].name = name
            infos[creator_seat].token_hash = token_hash(seat_token)
            infos[creator_seat].account_id = account_id
        table = LiveTable(
            id=secrets.token_hex(5), game=game, players=players,
            seed=seed if seed is not None else secrets.randbits(62), options=dict(resolved),
            status=OPEN, host_token_hash=token_hash(host_token), created_at=datetime.now(UTC), seats=infos,
        )
        with self.sessions.begin() as session:
            session.add(GameTable(
                id=table.id, game=game.name, players=players, seed=table.seed, options=table.options,
                status=OPEN, host_token_hash=table.host_token_hash, created_at=table.created_at,
                seats=[Seat(seat=i, kind=s.kind, bot_level=s.bot_level, name=s.name, token_hash=s.token_hash,
                            account_id=s.account_id) for i, s in enumerate(infos)],
            ))
        self.live[table.id] = table
        self._start_if_full(table)
        return Created(table, host_token, seat_token, creator_seat)

    def _seat_specs(self, seats: Any, players: int) -> list[SeatInfo]:
        if seats is None:
            seats = []
        if not isinstance(seats, Sequence) or isinstance(seats, str) or len(seats) > players:
            raise Refused("bad_seats", f"seats must be a list of at most {players} entries")
        infos: list[SeatInfo] = []
        for index in range(players):
            spec = seats[index] if index < len(seats) else {"kind": HUMAN}
            if not isinstance(spec, Mapping) or spec.get("kind") not in (HUMAN, BOT):
                raise Refused("bad_seats", f"seat {index}: kind must be 'human' or 'bot'")
            if spec["kind"] == BOT:
                level = level_name(spec.get("level") or "easy")
                if level not in BOT_KINDS:
                    raise Refused("bad_seats", f"seat {index}: bot level must be one of {', '.join(BOT_KINDS)}")
                infos.append(SeatInfo(BOT, bot_level=level, name=None))
            else:
                infos.append(SeatInfo(HUMAN))
        return infos

    def _seat_name(self, name: Any, account_id: int | None, names_at_table: Sequence[str | None]) -> str:
        """The cleaned name to sit under. Nobody poses as someone else: not as another player at this
        table, nor as a registered account (unless signed in as it), in any spelling with the same
        ``name_key`` (case, width, invisible characters)."""
        cleaned = _clean_name(name)
        key = name_key(cleaned)
        if any(other is not None and name_key(other) == key for other in names_at_table):
            raise Refused("name_in_use", f"someone at this table is already called {cleaned!r}", 409)
        with self.sessions() as session:
            owner = session.scalars(select(Account.id).where(Account.name_key == key)).first()
        if owner is not None and owner != account_id:
            raise Refused("name_reserved", f"{cleaned!r} is a registered player's name; sign in as them to use it",
                          409)
        return cleaned

    async def join(self, table_id: str, seat: Any, name: Any, account_id: int | None = None) -> str:
        """Take an open seat; returns the secret token that binds it to this player."""
        table = self.get(table_id)
        async with table.lock:
            if table.status == FINISHED:
                raise Refused("finished", "this game is over")
            if type(seat) is not int or not 0 <= seat < table.players:
                raise Refused("bad_seat", f"seat must be between 0 and {table.players - 1}")
            info = table.seats[seat]
            if info.is_taken:
                raise Refused("seat_taken", f"seat {seat} is already taken", 409)
            cleaned = self._seat_name(name, account_id, [s.name for s in table.seats])
            token = new_token()
            with self.sessions.begin() as session:
                row = session.get(Seat, (table.id, seat))
                assert row is not None
                row.name, row.token_hash, row.account_id = cleaned, token_hash(token), account_id
            info.name, info.token_hash, info.account_id = cleaned, token_hash(token), account_id
            self._start_if_full(table)
        await self.broadcast(table)
        self.kick_bots(table)
        return token

    async def seat_bot(self, table_id: str, seat: Any, level: Any, seat_token: str | None,
                       host_token: str | None) -> None:
        """Hand a seat to a bot: its own player leaving, or the host replacing someone who left."""
        table = self.get(table_id)
        async with table.lock:
            if type(seat) is not int or not 0 <= seat < table.players:
                raise Refused("bad_seat", f"seat must be between 0 and {table.players - 1}")
            if table.status == FINISHED:
                raise Refused("finished", "this game is over")
            if table.seat_of(seat_token) != seat and not table.is_host(host_token):
                raise Refused("forbidden", "only that seat's player or the table's host can do this", 403)
            level = level_name(level or "easy")
            if level not in BOT_KINDS:
                raise Refused("bad_level", f"bot level must be one of {', '.join(BOT_KINDS)}")
            info = table.seats[seat]
            with self.sessions.begin() as session:
                row = session.get(Seat, (table.id, seat))
                assert row is not None
                row.kind, row.bot_level, row.token_hash, row.account_id = BOT, level, None, None
            info.kind, info.bot_level, info.token_hash, info.account_id = BOT, level, None, None
            self._start_if_full(table)
        await self.broadcast(table)
        self.kick_bots(table)

    def _start_if_full(self, table: LiveTable) -> None:
        if table.status != OPEN or not all(s.is_taken for s in table.seats):
            return
        table.state = table.game.new_game(players=table.players, seed=table.seed, options=table.options)
        table.status = RUNNING
        with self.sessions.begin() as session:
            row = session.get(GameTable, table.id)
            assert row is not None
            row.status = RUNNING

    # --- playing -------------------------------------------------------------------------------

    async def act(self, table_id: str, seat: int | None, action: Any, version: Any) -> None:
        """Apply ``action`` for ``seat``; anything wrong raises ``Refused`` and changes nothing."""
        table = self.get(table_id)
        if not isinstance(action, str) or not action or len(action) > 500:
            raise Refused("malformed", "an action must be a notation string, as listed in your legal actions")
        if version is not None and type(version) is not int:
            raise Refused("malformed", "version must be an integer")
        async with table.lock:
            state = table.state
            if table.status != RUNNING or state is None:
                raise Refused("not_running", "this game is not running")
            if seat is None:
                raise Refused("not_seated", "you have no seat at this table (spectators cannot act)", 403)
            if version is not None and version != table.version:
                raise Refused("stale", f"the table has moved on (version {table.version}, you sent {version}); "
                                       "your view is refreshed", 409)
            if state.current_player != seat:
                raise Refused("not_your_turn", f"it is seat {state.current_player}'s turn, not yours", 409)
            await self._commit(table, seat, action)
        await self.broadcast(table)
        self.kick_bots(table)

    async def _commit(self, table: LiveTable, seat: int, action: str) -> None:
        """Apply on a copy, persist, then swap in; the caller holds the lock and broadcasts."""
        assert table.state is not None
        trial = table.state.clone()
        before = len(trial.history)
        try:
            trial.apply(action)
        except IllegalAction as error:
            raise Refused("illegal", str(error)) from None
        except MeepleError as error:
            raise Refused("illegal", str(error)) from None
        added = trial.history[before:]
        over = trial.is_over
        now = datetime.now(UTC)
        with self.sessions.begin() as session:
            for offset, notation in enumerate(added):
                session.add(ActionRecord(table_id=table.id, idx=table.version + offset, seat=seat,
                                         notation=notation, created_at=now))
            if over:
                row = session.get(GameTable, table.id)
                assert row is not None
                row.status, row.finished_at = FINISHED, now
                row.scores, row.winners = trial.scores(), trial.winners()
        table.state = trial
        table.actors.extend([seat] * len(added))
        if over:
            table.status, table.finished_at = FINISHED, now
            self.live.pop(table.id, None)
            self._remember_finished(table)

    def kick_bots(self, table: LiveTable) -> None:
        if self._stopping or table.status != RUNNING or table.state is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        current = table.state.current_player
        if current is None or table.seats[current].kind != BOT:
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._run_bots(table))

    async def _run_bots(self, table: LiveTable) -> None:
        """Play the bots' turns one after another, each after a short pause, until a person must move."""
        while not self._stopping and table.status == RUNNING and table.state is not None:
            current = table.state.current_player
            if current is None or table.seats[current].kind != BOT:
                return
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            version = table.version
            level = table.seats[current].bot_level or "easy"
            snapshot = table.state.clone()
            seed = f"{table.seed}:{current}:{version}"
            try:
                choice = await asyncio.get_running_loop().run_in_executor(
                    self._bot_threads, _bot_choice, level, seed, snapshot)
            except Exception:  # a broken bot must not stall the table: a random legal move stands in
                log.exception("bot %r at table %s seat %s failed; playing a random move", level, table.id, current)
                choice = _bot_choice("easy", seed, snapshot)
            async with table.lock:
                state = table.state
                if (table.version != version or state is None or state.current_player != current
                        or table.seats[current].kind != BOT or table.status != RUNNING):
                    continue
                try:
                    await self._commit(table, current, choice)
                except Refused as refusal:
                    log.error("bot at table %s seat %s was refused: %s", table.id, current, refusal.message)
                    return
            await self.broadcast(table)

    # --- telling the clients -------------------------------------------------------------------

    def subscribe(self, table: LiveTable, subscriber: Subscriber) -> None:
        table.subscribers.append(subscriber)

    def unsubscribe(self, table: LiveTable, subscriber: Subscriber) -> None:
        with contextlib.suppress(ValueError):
            table.subscribers.remove(subscriber)

    async def broadcast(self, table: LiveTable) -> None:
        """Send each subscriber the message for its own seat (each view computed once)."""
        messages: dict[int | None, JSON] = {}
        for subscriber in list(table.subscribers):
            if subscriber.seat not in messages:
                messages[subscriber.seat] = table.message_for(subscriber.seat)
            try:
                await subscriber.send(messages[subscriber.seat])
            except Exception:
                self.unsubscribe(table, subscriber)

    # --- replays -------------------------------------------------------------------------------

    def replay(self, table_id: str, seat: Any, step: Any) -> JSON:
        """The view of ``seat`` (``None``: spectator) after ``step`` actions of a finished game."""
        table = self.get(table_id)
        if table.status != FINISHED or table.state is None:
            raise Refused("not_finished", "replays open once the game is over", 409)
        if seat is not None and (type(seat) is not int or not 0 <= seat < table.players):
            raise Refused("bad_seat", f"seat must be between 0 and {table.players - 1}, or none for a spectator")
        states = self._replay_states(table)
        last = len(states) - 1
        if type(step) is not int or not 0 <= step <= last:
            raise Refused("bad_step", f"step must be between 0 and {last}")
        state = states[step]
        previous: JSON | None = None
        if step > 0:
            actor = table.actors[step - 1]
            previous = {"seat": actor, "action": table.state.history[step - 1] if actor == seat else None}
        return {
            "type": "replay",
            "table": table.summary(),
            "seat": seat,
            "step": step,
            "steps": last,
            "view": state.view(seat),
            "current_player": state.current_player,
            "is_over": state.is_over,
            "last": previous,
        }

    def _replay_states(self, table: LiveTable) -> list[GameState[Any]]:
        cached = self.replays.get(table.id)
        if cached is not None:
            self.replays.move_to_end(table.id)
            return cached
        assert table.state is not None
        state = table.game.new_game(players=table.players, seed=table.seed, options=table.options)
        states = [state.clone()]
        for notation in table.state.history:
            state.apply(notation)
            states.append(state.clone())
        self.replays[table.id] = states
        while len(self.replays) > REPLAY_CACHE:
            self.replays.popitem(last=False)
        return states


def _aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _finished_summary(row: GameTable) -> JSON:
    try:
        title = load_game(row.game).title
    except MeepleError:
        title = row.game
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "players": row.players,
        "options": dict(row.options),
        "status": row.status,
        "created_at": _aware(row.created_at).isoformat(),
        "finished_at": _aware(row.finished_at).isoformat() if row.finished_at else None,
        "current_player": None,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "bot_level": s.bot_level, "name": s.name, "taken": True,
             "online": False}
            for s in row.seats
        ],
        "scores": row.scores,
        "winners": row.winners,
    }
