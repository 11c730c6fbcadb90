"""The table runtime: live game states, loaded lazily, changed one at a time under each table's lock.

Every change goes the same way: under the table's lock, check the version, try the action on a
clone, append it to the database (``writer``; acknowledged once durable), swap the clone in, then
publish one ``Update`` through the hub: for each seat, the new entries of the platform's log and the
patch of *its* view (``state.view(seat)``; spectators ``view(None)``). Nothing else about a state
ever leaves here: neither ``to_json()`` nor the history, whose notations can reveal hidden choices,
so the log sent to a seat names only that seat's own actions, and replays are rebuilt here and sent
as views.

Any process can hold any table: a table is loaded from the database when first asked for, and a copy
that fell behind (another process moved; the hub says so, or the append of move *n* finds it taken)
catches up from the database before it is used again. A stale move is refused, never applied twice.
With several processes, the one that loads a running table (or starts its game) becomes its owner
unless another is already (``Hub.claim``), and moves made elsewhere are forwarded to it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, cast

from meeple.bots import BOT_KINDS, level_name
from meeple.core.contract import JSON, Game, GameState
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.registry import game_names, load_game
from meeple.server.actions import action_shape, legal_moves, no_moves
from meeple.server.auth import new_token, token_hash
from meeple.server.clocks import BadClock, ClockSettings, ClockState, check_rule, profile_of, reclaimed_time
from meeple.server.hub import SPECTATOR, Hub, OwnerSilent, Subscriber, Update, seat_key
from meeple.server.jsontext import dumps, loads
from meeple.server.names import BadName, clean_name, name_key
from meeple.server.patch import Memo, apply_patch, diff
from meeple.server.store import (
    BOT,
    FINISHED,
    HUMAN,
    OPEN,
    RUNNING,
    Conflict,
    Move,
    SeatRow,
    Store,
    TableRow,
    TableTiming,
    clock_json,
)
from meeple.server.undo import MoveLedger, undo_notation, undone_count
from meeple.server.writer import Batched, DatabaseWriter

IN_FLIGHT_POLLS = 25
IN_FLIGHT_POLL_SECONDS = 0.02
"""How long a resync waits for an update still crossing Redis (0.5 s) before it sends a whole state."""

log = logging.getLogger("meeple.server")

STATUSES = (OPEN, RUNNING, FINISHED)
FINISHED_CACHE = 32
LIVE_CACHE = 5000
"""Tables held in memory at most; beyond, the least recently used one nobody here watches is dropped
(it is loaded again from the database when next asked for)."""
REPLAY_CACHE = 4
MAX_ACTION_CHARS = 500
DEFAULT_BOT_LEVEL = "medium"
"""The level of a bot seat that names none (the lobby's seats start at it too)."""


class Refused(Exception):
    """A request that changes nothing: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> JSON:
        return {"type": "error", "code": self.code, "message": self.message}


SeatInfo = SeatRow


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
    seats: list[SeatRow]
    state: GameState[Any] | None = None
    ledger: MoveLedger = field(default_factory=MoveLedger)
    """The log's rows (moves and undos) and the moves in effect (``meeple.server.undo``)."""
    finished_at: datetime | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    views: dict[str, JSON] = field(default_factory=dict)
    """The view each seat was last sent a patch against (key ``hub.seat_key``), at ``views_version``."""
    views_version: int = -1
    known_version: int = 0
    """The newest version another process announced; above ``version``, this copy is stale."""
    seats_stale: bool = False
    settings: ClockSettings = field(default_factory=ClockSettings)
    clock: ClockState | None = None
    """A timed table's clocks once it runs (``meeple.server.clocks``); ``None`` without a limit."""
    vote: dict[str, Any] | None = None
    """An open vote on a seat whose clock ran out (``timeouts``): its seat, voters and ballots."""
    events: list[JSON] = field(default_factory=list)
    rated: bool = False
    rematch: str | None = None
    """The table this finished one's rematch is played at, once someone offered it."""
    watchers: bool = True
    """Whether people without a seat may watch the running game (chosen at creation)."""

    @property
    def version(self) -> int:
        """How many rows the log has (moves and undos; it only grows); clients send it back so stale
        moves are refused."""
        return self.ledger.version

    @property
    def is_stale(self) -> bool:
        return self.known_version > self.version or self.seats_stale

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

    def summary(self, online: set[int], spectators: int = 0) -> JSON:
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
                    "taken": seat.is_taken or seat.is_reserved,
                    "reserved": seat.is_reserved,
                    "online": seat.kind == BOT or index in online,
                    "stand_in": seat.kind == BOT and seat.token_hash is not None,
                }
                for index, seat in enumerate(self.seats)
            ],
            "scores": state.scores() if state is not None and state.is_over else None,
            "winners": state.winners() if state is not None and state.is_over else None,
            "rematch": self.rematch,
            "mode": self.settings.mode,
            "speed": self.settings.speed,
            "rated": self.rated,
            "clock": clock_json(self.settings, self.clock if self.status == RUNNING else None, self.vote,
                                self.events),
            "watchers": self.watchers,
            "spectators": spectators,
        }

    def legal_for(self, seat: int | None) -> JSON:
        """``legal`` (notations) and ``actions`` (their ``[kind, args]``) of ``seat``: see ``actions.py``."""
        state = self.state
        if state is None or seat is None or seat != state.current_player or self.seats[seat].kind == BOT:
            return no_moves(self.game)  # a seat a bot plays (its player's clock ran out) is offered nothing
        return legal_moves(state)

    def log_entries(self, seat: int | None, start: int = 0) -> list[JSON]:
        """The platform's log from row ``start`` as ``seat`` sees it, one Event per row: who moved (the
        notation, kind and args only of ``seat``'s own moves), who took back which moves (``undo.py``)."""
        entry, shape = self.ledger.entry, partial(action_shape, self.game)
        return [cast(JSON, entry(i, seat, shape)) for i in range(start, self.version)]

    def undoable_for(self, seat: int | None) -> int:
        """How many of its last moves ``seat`` may take back now (the engine says where undo stops);
        0 for a spectator, a seat a bot plays, or a table not running."""
        state = self.state
        if state is None or seat is None or self.status != RUNNING or self.seats[seat].kind == BOT \
                or seat != state.current_player or self.vote is not None:
            return 0
        return state.undoable_moves(seat, self.ledger.actors)

    def message_for(self, seat: int | None, online: set[int], spectators: int = 0) -> JSON:
        """The full state for one seat (or a spectator): its view, its legal actions, its own log."""
        state = self.state
        message: JSON = {"type": "state", "table": self.summary(online, spectators), "seat": seat,
                         "version": self.version}
        if state is None:
            message.update(view=None, current_player=None, is_over=False, log=[], **no_moves(self.game))
            return message
        message.update(view=state.view(seat), current_player=state.current_player, is_over=state.is_over,
                       can_undo=self.undoable_for(seat), log=self.log_entries(seat), **self.legal_for(seat))
        return message

    def seat_keys(self) -> list[int | None]:
        return [None, *range(self.players)]


def _clean_name(name: Any) -> str:
    """``names.clean_name``, refusing as the API does."""
    try:
        return clean_name(name)
    except BadName as problem:
        raise Refused("bad_name", str(problem)) from None


@dataclass
class Rematched:
    """A seat at a rematch: the new table, the seat (the same as before) and the token that binds it;
    ``host_token`` for the player who offered it."""

    table: LiveTable
    seat: int
    token: str
    host_token: str | None = None


@dataclass
class Created:
    table: LiveTable
    host_token: str
    seat_token: str | None
    seat: int | None


class TableRuntime:
    """All tables this process holds: creation, seating, moves, and the updates they publish."""

    def __init__(self, store: Store, writer: DatabaseWriter, hub: Hub, bot_delay: float) -> None:
        self.store = store
        self.writer = writer
        self.hub = hub
        self.bot_delay = bot_delay
        self.live: OrderedDict[str, LiveTable] = OrderedDict()
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        self.replays: OrderedDict[str, list[GameState[Any]]] = OrderedDict()
        self.bot_wake: Callable[[], None] = lambda: None
        self.clock_wake: Callable[[], None] = lambda: None
        self._presence_tasks: set[asyncio.Task[None]] = set()
        self.turn_watchers: list[Callable[[LiveTable, int | None, int | None, int | None], None]] = []
        """Told of every move this process commits and every start: (table, mover or ``None`` for
        the start, current player before, current player after)."""
        self.change_watchers: list[Callable[[LiveTable], None]] = []
        """Told of every change of a table this process makes (created, seated, moved, started, finished;
        not who is online): the live lobby (``meeple.server.lobby``)."""
        hub.listeners.append(self._heard)
        hub.presence_listeners.append(self._presence_lost)
        hub.forward_handler = self._apply_forwarded

    def _heard(self, update: Update) -> None:
        """Another process changed a table: our copy (if any) is behind until it catches up. The views
        this copy patches against follow the update's own patches (as a client's do), so the catch-up
        does not have to compute every seat's view again before this process's next move."""
        table = self.live.get(update.table_id)
        if table is not None:
            table.known_version = max(table.known_version, update.version)
            table.seats_stale = table.seats_stale or update.seats_changed
            if update.is_move and self.hub.owns_elsewhere(update.table_id):
                table.views.clear()  # the owner makes the patches; computed afresh if this process takes over
            elif update.is_move and table.views and table.views_version == update.start:
                self._follow_views(table, update)

    @staticmethod
    def _follow_views(table: LiveTable, update: Update) -> None:
        try:
            followed: dict[str, JSON] = {}
            for key, before in table.views.items():
                seat = None if key == SPECTATOR else int(key)
                if not update.has(seat):
                    raise KeyError(key)
                message = loads(update.text_for(seat))
                followed[key] = message["view"] if "view" in message else apply_patch(before, message["patch"])
        except (KeyError, ValueError, TypeError):
            table.views.clear()  # computed afresh when next needed
            return
        table.views = followed
        table.views_version = update.version

    def _presence_lost(self, table_id: str) -> None:
        """Seats online through a process that died are offline now: tell this process's sockets."""
        table = self.live.get(table_id)
        if table is None or table_id not in self.hub.local:
            return
        task = asyncio.create_task(self._republish_presence(table))
        self._presence_tasks.add(task)
        task.add_done_callback(self._presence_tasks.discard)

    async def _republish_presence(self, table: LiveTable) -> None:
        async with table.lock:
            await self.publish_presence(table)

    # --- finding and loading tables -----------------------------------------------------------

    async def get(self, table_id: str, fresh: bool = False) -> LiveTable:
        """The table, loaded from the database the first time; ``fresh`` (or a known stale copy)
        catches up with what other processes did first."""
        table = self.live.get(table_id) or self.finished.get(table_id)
        if table is None:
            row = await asyncio.to_thread(self.store.load_table, table_id) if len(table_id) <= 32 else None
            if row is None:
                raise Refused("unknown_table", f"there is no table {table_id!r}", 404)
            try:
                loaded = self._build(row)
            except MeepleError as error:
                raise Refused("unavailable", f"table {table_id!r} cannot be shown: {error}", 503) from None
            table = self.live.get(table_id) or self.finished.get(table_id)
            if table is None:
                table = loaded
                if table.status == FINISHED:
                    self._remember_finished(table)
                else:
                    self._hold(table)
                    if table.status == RUNNING:
                        await self.hub.claim(table.id)  # an owner from the first use, not only the first move
                    await self._queue_bot(table)
        elif table.status != FINISHED and (table.is_stale or (fresh and self.hub.shared)):
            async with table.lock:
                await self.catch_up(table)
        elif table.status == FINISHED and fresh and self.hub.shared and table.rematch is None:
            table.rematch = await asyncio.to_thread(self.store.rematch_of, table.id)  # offered elsewhere
        if table_id in self.finished:
            self.finished.move_to_end(table_id)
        elif table_id in self.live:
            self.live.move_to_end(table_id)
        return table

    def _hold(self, table: LiveTable) -> None:
        """Keep ``table`` in memory, dropping the least recently used idle ones beyond ``LIVE_CACHE``."""
        self.live[table.id] = table
        for table_id in list(self.live)[: max(0, len(self.live) - LIVE_CACHE)]:
            idle = self.live[table_id]
            if table_id not in self.hub.local and not idle.lock.locked():
                self.hub.disown(table_id)
                del self.live[table_id]
                self.hub.recent.pop(table_id, None)

    def _build(self, row: TableRow) -> LiveTable:
        game = load_game(row.game)
        seats = [SeatRow(s.kind, level_name(s.bot_level), s.name, s.token_hash, s.account_id) for s in row.seats]
        table = LiveTable(
            id=row.id, game=game, players=row.players, seed=row.seed, options=dict(row.options),
            status=row.status, host_token_hash=row.host_token_hash, created_at=row.created_at,
            seats=seats, finished_at=row.finished_at, settings=row.settings, rated=row.rated, rematch=row.rematch,
            watchers=row.watchers,
        )
        if row.timing is not None:
            self._set_timing(table, row.timing)
        if row.status != OPEN:
            table.ledger.extend(row.moves)
            state = game.new_game(players=row.players, seed=row.seed, options=row.options)
            for notation in table.ledger.moves():
                state.apply(notation)
            table.state = state
        table.known_version = table.version
        return table

    @staticmethod
    def _set_timing(table: LiveTable, timing: TableTiming) -> None:
        table.clock, table.vote, table.events = timing.clock, timing.vote, timing.events

    async def catch_up(self, table: LiveTable) -> None:
        """Bring a copy up to the database (the caller holds its lock): seats, status, moves, clocks."""
        if table.seats_stale or table.status == OPEN:
            _status, seats = await asyncio.to_thread(self.store.load_seats, table.id)
            table.seats = [SeatRow(s.kind, level_name(s.bot_level), s.name, s.token_hash, s.account_id)
                           for s in seats]
            table.seats_stale = False
        status, finished_at, moves = await asyncio.to_thread(self.store.moves_since, table.id, table.version)
        if status != OPEN and table.state is None:
            table.state = table.game.new_game(players=table.players, seed=table.seed, options=table.options)
            table.views.clear()
        if moves:
            assert table.state is not None
            for seat, notation in moves:
                taken_back = table.ledger.add(seat, notation)
                if taken_back is None:
                    table.state.apply(notation)
                else:
                    table.state = table.state.undone(taken_back)
            if table.views_version != table.version:  # not brought along by the updates heard (``_heard``)
                table.views.clear()
        table.known_version = max(table.known_version, table.version)
        table.status = status
        if table.settings.timed:
            timing = await asyncio.to_thread(self.store.load_timing, table.id)
            if timing is not None:
                self._set_timing(table, timing)
                table.seats = [SeatRow(s.kind, level_name(s.bot_level), s.name, s.token_hash, s.account_id)
                               for s in timing.seats]
        if status == FINISHED:
            table.finished_at = finished_at
            self.live.pop(table.id, None)
            self._remember_finished(table)

    def _remember_finished(self, table: LiveTable) -> None:
        self.hub.disown(table.id)
        self.finished[table.id] = table
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    async def list_tables(self, status: str | None = None, limit: int = 100, game: str | None = None,
                          open_seats: bool = False, mode: str | None = None) -> list[JSON]:
        """Every table of the site (or those ``Store.list_tables`` keeps), from the database;
        ``online`` as far as this process knows."""
        tables = await asyncio.to_thread(self.store.list_tables, status, limit, game, open_seats, mode)
        for summary in tables:
            if summary["status"] != FINISHED and (summary["id"] in self.hub.local or summary["id"] in self.live):
                online = self.hub.online(summary["id"])
                for seat in summary["seats"]:
                    seat["online"] = seat["online"] or seat["seat"] in online
        return tables

    @staticmethod
    def check_watching(table: LiveTable, seat: int | None) -> None:
        """Someone without a seat may see a running game only where the table allows watchers (an open
        table shows its seats to whoever may join; a finished one is for everyone)."""
        if seat is None and table.status == RUNNING and not table.watchers:
            raise Refused("no_watchers", "this table does not allow spectators", 403)

    async def seat_of(self, table: LiveTable, token: str | None) -> int | None:
        """Whose token this is; a token this copy does not know makes it reload the seats once (the
        seat may have been taken through another process)."""
        seat = table.seat_of(token)
        if seat is None and token and self.hub.shared and table.status != FINISHED:
            async with table.lock:
                table.seats_stale = True
                await self.catch_up(table)
            seat = table.seat_of(token)
        return seat

    # --- creating and seating -----------------------------------------------------------------

    async def create(self, game_name: Any, players: Any, options: Any, seats: Any, creator_seat: Any,
                     creator_name: Any, account_id: int | None = None, seed: int | None = None,
                     clock: Mapping[str, Any] | None = None, rated: Any = True, watchers: Any = None) -> Created:
        """A new table. ``clock``: its ``mode``, ``speed`` and ``timeout_rule`` / ``timeout_level``
        (``meeple.server.clocks``; by default real-time without a limit, a medium bot taking over).
        ``rated``: whether its game may count for ratings (``meeple.server.ratings``).
        ``watchers``: whether people without a seat may watch (default yes: every table is public)."""
        if type(rated) is not bool:
            raise Refused("bad_rated", "rated must be true or false")
        if watchers is not None and type(watchers) is not bool:
            raise Refused("bad_watchers", "watchers must be true or false")
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
        settings = self._clock_settings(clock or {})
        name = ""
        if creator_seat is not None:
            if type(creator_seat) is not int or not 0 <= creator_seat < players:
                raise Refused("bad_seat", f"your seat must be between 0 and {players - 1}")
            if infos[creator_seat].kind != HUMAN:
                raise Refused("bad_seat", "you cannot sit in a bot's seat")
            name = await self._seat_name(creator_name, account_id, [])
        host_token = new_token()
        seat_token: str | None = None
        if creator_seat is not None:
            seat_token = new_token()
            infos[creator_seat].name = name
            infos[creator_seat].token_hash = token_hash(seat_token)
            infos[creator_seat].account_id = account_id
        row = TableRow(
            id=secrets.token_hex(5), game=game.name, players=players,
            seed=seed if seed is not None else secrets.randbits(62), options=dict(resolved), status=OPEN,
            host_token_hash=token_hash(host_token), created_at=datetime.now(UTC), finished_at=None, seats=infos,
            settings=settings, rated=rated, watchers=watchers is not False,
        )
        await asyncio.to_thread(self.store.insert_table, row)
        table = self._build(row)
        self._hold(table)
        async with table.lock:
            await self._start_if_full(table)
        self._changed(table)
        await self._queue_bot(table)
        return Created(table, host_token, seat_token, creator_seat)

    @staticmethod
    def _clock_settings(clock: Mapping[str, Any]) -> ClockSettings:
        try:
            profile = profile_of(clock.get("mode"), clock.get("speed"))
            rule = check_rule(clock.get("timeout_rule"))
        except BadClock as problem:
            raise Refused("bad_clock", str(problem)) from None
        level = level_name(clock.get("timeout_level") or "medium")
        if level not in BOT_KINDS:
            raise Refused("bad_clock", f"the timeout bot's level must be one of {', '.join(BOT_KINDS)}")
        return ClockSettings(mode=profile.mode, speed=profile.name, bank=profile.bank, bonus=profile.bonus,
                             rule=rule, level=level)

    def timed_actors(self, table: LiveTable, state: GameState[Any] | None, voting: bool | None = None) -> list[int]:
        """The seats whose clocks run in ``state``: the players who must act now (bots are not timed,
        nor anyone while a vote is open). The contract names one actor, ``current_player``; the clocks
        run any number at once."""
        if state is None or state.is_over or (table.vote is not None if voting is None else voting):
            return []
        actors = [state.current_player] if state.current_player is not None else []
        return [seat for seat in actors if table.seats[seat].kind == HUMAN]

    def _seat_specs(self, seats: Any, players: int) -> list[SeatRow]:
        if seats is None:
            seats = []
        if not isinstance(seats, Sequence) or isinstance(seats, str) or len(seats) > players:
            raise Refused("bad_seats", f"seats must be a list of at most {players} entries")
        infos: list[SeatRow] = []
        for index in range(players):
            spec = seats[index] if index < len(seats) else {"kind": HUMAN}
            if not isinstance(spec, Mapping) or spec.get("kind") not in (HUMAN, BOT):
                raise Refused("bad_seats", f"seat {index}: kind must be 'human' or 'bot'")
            if spec["kind"] == BOT:
                level = level_name(spec.get("level") or DEFAULT_BOT_LEVEL)
                if level not in BOT_KINDS:
                    raise Refused("bad_seats", f"seat {index}: bot level must be one of {', '.join(BOT_KINDS)}")
                infos.append(SeatRow(BOT, bot_level=level, name=None))
            else:
                infos.append(SeatRow(HUMAN))
        return infos

    async def seat_name(self, name: Any, account_id: int | None) -> str:
        """A name to speak under outside a table (the lobby's chat): cleaned, and not a registered
        player's unless signed in as them."""
        return await self._seat_name(name, account_id, [])

    async def _seat_name(self, name: Any, account_id: int | None, names_at_table: Sequence[str | None]) -> str:
        """The cleaned name to sit under. Nobody poses as someone else: not as another player at this
        table, nor as a registered account (unless signed in as it), in any spelling with the same
        ``name_key`` (case, width, invisible characters)."""
        cleaned = _clean_name(name)
        key = name_key(cleaned)
        if any(other is not None and name_key(other) == key for other in names_at_table):
            raise Refused("name_in_use", f"someone at this table is already called {cleaned!r}", 409)
        owner = await asyncio.to_thread(self.store.name_owner, key)
        if owner is not None and owner != account_id:
            raise Refused("name_reserved", f"{cleaned!r} is a registered player's name; sign in as them to use it",
                          409)
        return cleaned

    async def join(self, table_id: str, seat: Any, name: Any, account_id: int | None = None) -> str:
        """Take an open seat (once across every process); returns the secret token that binds it."""
        table = await self.get(table_id, fresh=True)
        async with table.lock:
            if table.status == FINISHED:
                raise Refused("finished", "this game is over")
            if type(seat) is not int or not 0 <= seat < table.players:
                raise Refused("bad_seat", f"seat must be between 0 and {table.players - 1}")
            taken = Refused("seat_taken", f"seat {seat} is already taken", 409)
            if table.seats[seat].is_taken:
                raise taken
            if table.seats[seat].is_reserved:
                raise Refused("seat_reserved", f"seat {seat} is held for {table.seats[seat].name}, who played it "
                                               "in the previous game", 409)
            cleaned = await self._seat_name(name, account_id, [s.name for s in table.seats])
            token = new_token()
            if not await asyncio.to_thread(self.store.take_seat, table.id, seat, cleaned, token_hash(token),
                                           account_id):
                table.seats_stale = True
                await self.catch_up(table)
                raise taken
            info = table.seats[seat]
            info.name, info.token_hash, info.account_id = cleaned, token_hash(token), account_id
            start = table.version
            await self._start_if_full(table)
            await self._publish(table, start, seats_changed=True)
        await self._queue_bot(table)
        return token

    async def rematch(self, table_id: str, token: str | None, new_token_held: str | None = None) -> Rematched:
        """Offer a finished table's rematch, or accept the one offered: the same seats (bots at their
        level, each person's seat held for them), options, mode and clock, at a new table; the first
        offer (across every process) stands. ``new_token_held``: the caller's seat token of the rematch
        table, if it has one (accepting twice is answered with the seat already taken)."""
        table = await self.get(table_id)
        if table.status != FINISHED:
            raise Refused("not_finished", "a rematch is offered once the game is over", 409)
        seat = table.seat_of(token)
        if seat is None:
            raise Refused("not_seated", "only the players of this game can offer or accept its rematch", 403)
        offered: str | None = None
        async with table.lock:
            if table.rematch is None:
                table.rematch = await asyncio.to_thread(self.store.rematch_of, table.id)
            if table.rematch is None:
                created, token_here, host = await self._create_rematch(table, seat)
                table.rematch = await asyncio.to_thread(self.store.set_rematch, table.id, created.id)
                if table.rematch == created.id:
                    offered = created.id
                    self._hold(created)
                    async with created.lock:
                        await self._start_if_full(created)
                    self._changed(created)
                    await self._publish(table, table.version, seats_changed=True)
                else:  # another process offered first: take our seat at its table
                    await asyncio.to_thread(self.store.delete_table, created.id)
            rematch_id = table.rematch
        assert rematch_id is not None
        if offered is not None:
            new_table = await self.get(rematch_id)
            await self._queue_bot(new_table)
            return Rematched(new_table, seat, token_here, host_token=host)
        new_table = await self.get(rematch_id, fresh=True)
        if new_token_held is not None and new_table.seat_of(new_token_held) == seat:
            return Rematched(new_table, seat, new_token_held)
        info = table.seats[seat]
        async with new_table.lock:
            held = new_table.seats[seat]
            if held.is_taken:
                raise Refused("rematch_taken", "your seat at the rematch is taken already", 409)
            token_new = new_token()
            if not await asyncio.to_thread(self.store.take_seat, new_table.id, seat, held.name or info.name or "",
                                           token_hash(token_new), info.account_id):
                new_table.seats_stale = True
                await self.catch_up(new_table)
                raise Refused("rematch_taken", "your seat at the rematch is taken already", 409)
            held.token_hash, held.account_id = token_hash(token_new), info.account_id
            start = new_table.version
            await self._start_if_full(new_table)
            await self._publish(new_table, start, seats_changed=True)
        await self._queue_bot(new_table)
        return Rematched(new_table, seat, token_new)

    async def _create_rematch(self, table: LiveTable, seat: int) -> tuple[LiveTable, str, str]:
        """The new table of ``table``'s rematch, written with the offering ``seat`` taken and every
        other person's seat held for them; with the offerer's seat token and the host token."""
        token_new, host = new_token(), new_token()
        seats: list[SeatRow] = []
        for index, old in enumerate(table.seats):
            if old.kind == BOT and old.token_hash is None:  # a bot for good (a stand-in's player comes back)
                seats.append(SeatRow(BOT, bot_level=old.bot_level or DEFAULT_BOT_LEVEL))
            else:
                seats.append(SeatRow(HUMAN, name=old.name or "",
                                     token_hash=token_hash(token_new) if index == seat else None,
                                     account_id=old.account_id if index == seat else None))
        row = TableRow(
            id=secrets.token_hex(5), game=table.game.name, players=table.players, seed=secrets.randbits(62),
            options=dict(table.options), status=OPEN, host_token_hash=token_hash(host),
            created_at=datetime.now(UTC), finished_at=None, seats=seats, settings=table.settings, rated=table.rated,
        )
        await asyncio.to_thread(self.store.insert_table, row)
        return self._build(row), token_new, host

    async def seat_bot(self, table_id: str, seat: Any, level: Any, seat_token: str | None,
                       host_token: str | None) -> None:
        """Hand a seat to a bot: its own player leaving, or the host replacing someone who left."""
        table = await self.get(table_id, fresh=True)
        async with table.lock:
            if type(seat) is not int or not 0 <= seat < table.players:
                raise Refused("bad_seat", f"seat must be between 0 and {table.players - 1}")
            if table.status == FINISHED:
                raise Refused("finished", "this game is over")
            if table.seat_of(seat_token) != seat and not table.is_host(host_token):
                raise Refused("forbidden", "only that seat's player or the table's host can do this", 403)
            level = level_name(level or DEFAULT_BOT_LEVEL)
            if level not in BOT_KINDS:
                raise Refused("bad_level", f"bot level must be one of {', '.join(BOT_KINDS)}")
            info = table.seats[seat]
            kind, token = info.kind, info.token_hash
            info.kind, info.token_hash = BOT, None
            clock = table.clock
            if clock is not None and table.status == RUNNING:  # the seat's clock stops
                clock = clock.rerun(datetime.now(UTC), self.timed_actors(table, table.state))
            info.kind, info.token_hash = kind, token
            await asyncio.to_thread(self.store.seat_to_bot, table.id, seat, level, clock)
            info.kind, info.bot_level, info.token_hash, info.account_id = BOT, level, None, None
            table.clock = clock
            start = table.version
            await self._start_if_full(table)
            await self._publish(table, start, seats_changed=True)
        await self._queue_bot(table)

    async def _start_if_full(self, table: LiveTable) -> None:
        """Deal the game once every seat is taken (the caller holds the lock)."""
        if table.status != OPEN or not all(s.is_taken for s in table.seats):
            return
        state = table.game.new_game(players=table.players, seed=table.seed, options=table.options)
        clock = None
        if table.settings.timed:
            clock = ClockState.start(table.settings.profile, table.players, datetime.now(UTC),
                                     self.timed_actors(table, state))
        await asyncio.to_thread(self.store.start_table, table.id, state.current_player, clock)
        table.state, table.status, table.clock = state, RUNNING, clock
        table.views.clear()
        await self.hub.claim(table.id)  # its first deadline or bot job is this process's to handle
        self._turn_changed(table, None, None, state.current_player)

    def _turn_changed(self, table: LiveTable, mover: int | None, before: int | None, after: int | None) -> None:
        for watcher in self.turn_watchers:
            watcher(table, mover, before, after)

    # --- playing ------------------------------------------------------------------------------

    async def act(self, table_id: str, seat: int | None, action: Any, version: Any, bot_job: int | None = None,
                  forwarded: bool = False) -> None:
        """Apply ``action`` for ``seat`` (or have the table's owner process apply it); anything wrong
        raises ``Refused`` and changes nothing.

        ``bot_job``: the bot job (its version) this move fulfils, deleted with the move. ``forwarded``:
        another process sent it here, the owner, to apply."""
        if not isinstance(action, str) or not action or len(action) > MAX_ACTION_CHARS:
            await self.get(table_id)  # an unknown table is refused as such first
            raise Refused("malformed", "an action must be a notation string, as listed in your legal actions")
        if version is not None and type(version) is not int:
            await self.get(table_id)
            raise Refused("malformed", "version must be an integer")
        if not forwarded and await self._sent_to_owner(table_id, {"kind": "act", "table": table_id, "seat": seat,
                                                                  "action": action, "version": version,
                                                                  "bot_job": bot_job}):
            return
        table = await self.get(table_id)
        async with table.lock:
            for _attempt in range(3):
                state, seat = await self._caught_up_for(table, seat, version)
                if state.current_player != seat:
                    raise Refused("not_your_turn", f"it is seat {state.current_player}'s turn, not yours", 409)
                if (table.seats[seat].kind == BOT) != (bot_job is not None):
                    raise Refused("bot_seat", "a bot plays this seat now; reclaim the seat to play", 409) \
                        if bot_job is None else Refused("not_bot", "this seat is a player's again", 409)
                if table.clock is not None and seat in table.clock.expired(datetime.now(UTC)):
                    self.clock_wake()
                    raise Refused("out_of_time", "your time ran out; the table's timeout rule applies", 409)
                try:
                    await self._commit(table, seat, action, bot_job)
                except Conflict:  # another process appended this move number first
                    table.known_version = table.version + 1
                    if version is None:
                        continue  # no version was promised: try again on the caught-up table
                    await self.catch_up(table)
                    raise Refused("stale", "the table has moved on; your view is refreshed", 409) from None
                break
            else:
                raise Refused("busy", "the table kept changing; try again", 409)
        await self._queue_bot(table, inserted=True)

    async def _caught_up_for(self, table: LiveTable, seat: int | None,
                             version: int | None) -> tuple[GameState[Any], int]:
        """The running state a seated player's move or undo at ``version`` (``None``: whatever is current)
        applies to, once this copy has caught up with other processes; the caller holds the lock. Refused
        for a table not running, a spectator, or a stale version."""
        if table.is_stale or (version is not None and version > table.version and self.hub.shared):
            await self.catch_up(table)
        state = table.state
        if table.status != RUNNING or state is None:
            raise Refused("not_running", "this game is not running")
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table (spectators cannot act)", 403)
        if version is not None and version != table.version:
            raise Refused("stale", f"the table has moved on (version {table.version}, you sent {version}); "
                                   "your view is refreshed", 409)
        return state, seat

    async def _commit(self, table: LiveTable, seat: int, action: str, bot_job: int | None) -> None:
        """Apply on a copy, append durably, swap in, publish; the caller holds the lock."""
        assert table.state is not None
        previous_player = table.state.current_player
        trial = table.state.clone()
        before = len(table.state.history)
        try:
            trial.apply(action)
        except (IllegalAction, MeepleError) as error:
            raise Refused("illegal", str(error)) from None
        added = trial.history[before:]
        current = trial.current_player
        close_vote = table.vote is not None
        clock = None
        if table.clock is not None:
            now = datetime.now(UTC)
            before_move = table.clock
            if close_vote:  # the player whose clock ran out moved while the others were voting
                before_move = before_move.rerun(now, []).with_time(seat, reclaimed_time(before_move, seat, now))
                before_move = before_move.rerun(now, [seat])
            clock = before_move.after_move(seat, now, self.timed_actors(table, trial, voting=False))
        next_bot: tuple[int, str] | None = None
        if not trial.is_over and current is not None and table.seats[current].kind == BOT:
            next_bot = (current, table.seats[current].bot_level or "easy")
        finished_at = datetime.now(UTC) if trial.is_over else None  # the same in the database and in memory
        move = Move(table_id=table.id, start=table.version, seat=seat, notations=list(added), current_player=current,
                    finished=(trial.scores(), trial.winners()) if trial.is_over else None, next_bot=next_bot,
                    done_job=bot_job, clock=clock, close_vote=close_vote, finished_at=finished_at)
        try:
            await self.writer.write(Batched(self.store.append_many, move))
        except Conflict:
            if close_vote:
                table.seats_stale = True  # the vote's state is reloaded with the rest
            raise
        if clock is not None:
            table.clock = clock
        if close_vote:
            table.vote = None
        self._keep_views(table)
        start = table.version
        table.state = trial
        for notation in added:
            table.ledger.add(seat, notation)
        table.known_version = max(table.known_version, table.version)
        if trial.is_over:
            table.status, table.finished_at = FINISHED, finished_at
            self.live.pop(table.id, None)
            self._remember_finished(table)
        self.hub.counts["applied"] += 1
        await self._publish(table, start)
        self._turn_changed(table, seat, previous_player, current)

    async def commit_for(self, table: LiveTable, seat: int, action: str) -> None:
        """A move the platform makes for ``seat`` (a skipped turn); the caller holds the lock."""
        await self._commit(table, seat, action, None)
        await self._queue_bot(table, inserted=True)

    async def undo(self, table_id: str, seat: int | None, moves: Any, version: Any, forwarded: bool = False) -> None:
        """Take back ``seat``'s last ``moves`` moves (all it may, if ``None``) at ``version``: one more row
        in the log, the state replayed without them, every seat told. Anything wrong raises ``Refused``
        and changes nothing. The mover's clock keeps running and the bonus of each move taken back is
        taken back too (an undo never gains time). Sent to the table's owner process as a move is."""
        if type(version) is not int:
            await self.get(table_id)  # an unknown table is refused as such first
            raise Refused("malformed", "an undo must say the version it takes back from")
        if moves is not None and type(moves) is not int:
            await self.get(table_id)
            raise Refused("malformed", "moves must be a whole number")
        if not forwarded and await self._sent_to_owner(table_id, {"kind": "undo", "table": table_id, "seat": seat,
                                                                  "moves": moves, "version": version}):
            return
        table = await self.get(table_id)
        async with table.lock:
            state, seat = await self._caught_up_for(table, seat, version)
            if state.current_player != seat:
                raise Refused("not_your_turn", f"it is seat {state.current_player}'s turn, not yours: "
                                               "only your own moves of this turn can be taken back", 409)
            if table.seats[seat].kind == BOT:
                raise Refused("bot_seat", "a bot plays this seat now; reclaim the seat to play", 409)
            if table.vote is not None or (table.clock is not None and seat in table.clock.expired(datetime.now(UTC))):
                raise Refused("out_of_time", "your time ran out; the table's timeout rule applies", 409)
            allowed = table.undoable_for(seat)
            count = allowed if moves is None else moves
            if allowed == 0:
                raise Refused("nothing_to_undo", "you have no move to take back: undo covers only your own moves "
                                                 "of this turn since the last card drawn, random draw or reveal", 409)
            if not 0 < count <= allowed:
                raise Refused("past_reveal", f"you can take back at most {allowed} move(s): before them something "
                                             "hidden was revealed or drawn", 409)
            earlier = state.undone(count)
            clock = None
            if table.clock is not None:
                clock = table.clock.taken_back(seat, count, datetime.now(UTC), self.timed_actors(table, earlier))
            row = Move(table_id=table.id, start=table.version, seat=seat, notations=[undo_notation(count)],
                       current_player=earlier.current_player, clock=clock)
            try:
                await self.writer.write(Batched(self.store.append_many, row))
            except Conflict:  # another process appended this row number first
                table.known_version = table.version + 1
                await self.catch_up(table)
                raise Refused("stale", "the table has moved on; your view is refreshed", 409) from None
            if clock is not None:
                table.clock = clock
            self._keep_views(table)
            start = table.version
            table.ledger.add(seat, undo_notation(count))
            table.state = earlier
            table.known_version = max(table.known_version, table.version)
            self.hub.counts["applied"] += 1
            await self._publish(table, start)

    async def _sent_to_owner(self, table_id: str, request: dict[str, Any]) -> bool:
        """Whether another process, the table's owner, applied ``request`` (a move or an undo) for us;
        its refusal is raised here as it would have been. ``False``: apply it here (this process owns
        the table, or took it over from an owner that did not answer). Our copy is not caught up
        first: the owner's is current, and ours follows its updates."""
        if not self.hub.shared:
            return False
        table = self.live.get(table_id) or self.finished.get(table_id) or await self.get(table_id)
        if table.status == FINISHED:
            return False
        owner = await self.hub.owner(table.id)
        for _attempt in range(2):
            if owner is None:
                return False
            try:
                answer = await self.hub.forward(owner, request)
            except OwnerSilent:
                owner = await self.hub.take_over(table.id, owner)
                continue
            self.hub.counts["forwarded"] += 1
            refusal = answer.get("refusal")
            if isinstance(refusal, dict):
                async with table.lock:  # the state sent along with the refusal is the table's as it is now
                    await self.catch_up(table)
                raise Refused(str(refusal.get("code")), str(refusal.get("message")), int(refusal.get("status", 400)))
            version = answer.get("version")
            if type(version) is int:  # until the owner's update arrives, our copy is known to be behind
                table.known_version = max(table.known_version, version)
            return True
        return False

    async def _apply_forwarded(self, request: dict[str, Any]) -> dict[str, Any]:
        """A move or undo another process forwarded to this one, the table's owner: the refusal, or
        the table's version after it."""
        table_id, seat = str(request["table"]), request.get("seat")
        seat = seat if type(seat) is int else None
        try:
            await self.get(table_id)  # a known table: the lease is taken again if it lapsed meanwhile
            await self.hub.owner(table_id)
            if request.get("kind") == "undo":
                await self.undo(table_id, seat, request.get("moves"), request.get("version"), forwarded=True)
            else:
                bot_job = request.get("bot_job")
                await self.act(table_id, seat, request.get("action"), request.get("version"),
                               bot_job=bot_job if type(bot_job) is int else None, forwarded=True)
        except Refused as refusal:
            return {"refusal": {**refusal.to_json(), "status": refusal.status}}
        return {"version": (await self.get(table_id)).version}

    async def publish_change(self, table: LiveTable) -> None:
        """Seats, clocks or events changed without a move (``timeouts``): every seat is told."""
        await self._publish(table, table.version, seats_changed=True)

    def _keep_views(self, table: LiveTable) -> None:
        """The views the watched seats have now, to patch against after the move (after a catch-up
        they are not known yet)."""
        state = table.state
        if state is None or table.views:
            return
        watched = self._watched(table)
        for seat, view in zip(watched, state.views(watched), strict=True):
            table.views[seat_key(seat)] = view
        table.views_version = table.version

    def _watched(self, table: LiveTable) -> list[int | None]:
        """The seats (``None``: spectators) an update must carry a message for: all of them when
        other processes may hold sockets of the table, else those with a socket here. An update
        without a seat's message makes that seat's next one carry its whole view."""
        if self.hub.shared:
            return table.seat_keys()
        here = self.hub.local_seats(table.id)
        return [seat for seat in table.seat_keys() if seat in here]

    async def _publish(self, table: LiveTable, start: int, seats_changed: bool = False) -> None:
        """One update from version ``start``: each watched seat's new log entries and view patch."""
        state = table.state
        summary = table.summary(self.hub.online(table.id), self.hub.spectators(table.id))
        current = state.current_player if state is not None else None
        messages: dict[str, JSON] = {}
        watched = self._watched(table)
        for seat in table.seat_keys():
            if seat not in watched:
                table.views.pop(seat_key(seat), None)
        views = state.views(watched) if state is not None else [None] * len(watched)
        memo: Memo = {}  # the parts the views share are diffed once
        for seat, view in zip(watched, views, strict=True):
            key = seat_key(seat)
            message: JSON = {"type": "update", "seat": seat, "from": start, "version": table.version,
                             "table": summary, "current_player": current,
                             "is_over": state.is_over if state is not None else False,
                             **table.legal_for(seat), "can_undo": table.undoable_for(seat),
                             "log": table.log_entries(seat, start)}
            if view is None:
                message["patch"] = {}
            else:
                before = table.views.get(key)
                if before is None:
                    message["view"] = view
                else:
                    message["patch"] = diff(before, view, memo)
                table.views[key] = view
            messages[key] = message
        table.views_version = table.version
        await self.hub.publish(Update(table.id, start, table.version, messages, seats_changed=seats_changed))
        self._changed(table)

    def _changed(self, table: LiveTable) -> None:
        for watcher in self.change_watchers:
            watcher(table)

    async def publish_presence(self, table: LiveTable, skip: Subscriber | None = None) -> None:
        """Who is online changed: every seat (but ``skip``, the newcomer, who has just been sent the
        state) gets the table's summary and, whose turn it is, its legal actions; no view is computed."""
        state = table.state
        summary = table.summary(self.hub.online(table.id), self.hub.spectators(table.id))
        current = state.current_player if state is not None else None
        messages: dict[str, JSON] = {}
        for seat in table.seat_keys():
            messages[seat_key(seat)] = {
                "type": "update", "seat": seat, "from": table.version, "version": table.version, "table": summary,
                "current_player": current, "is_over": state.is_over if state is not None else False,
                **table.legal_for(seat), "can_undo": table.undoable_for(seat), "log": [], "patch": {},
            }
        await self.hub.publish(Update(table.id, table.version, table.version, messages), skip)

    async def _queue_bot(self, table: LiveTable, inserted: bool = False) -> None:
        """If a bot must move, make sure its job is queued (``inserted``: the move just did) and wake
        the bot runner."""
        state = table.state
        if table.status != RUNNING or state is None or state.current_player is None:
            return
        info = table.seats[state.current_player]
        if info.kind != BOT:
            return
        if not inserted:
            await asyncio.to_thread(self.store.ensure_bot_job, table.id, table.version, state.current_player,
                                    info.bot_level or "easy")
        self.bot_wake()

    # --- sockets ------------------------------------------------------------------------------

    async def open_socket(self, table_id: str, token: str | None, since: int | None,
                          send: Callable[[str], Awaitable[None]]) -> tuple[LiveTable, Subscriber]:
        """Subscribe a socket and send it where it stands: what it missed since version ``since`` if
        this process still has it (and the table's summary as it is now), else the full state; then
        tell everyone it is online."""
        table = await self.get(table_id)
        seat = await self.seat_of(table, token)
        self.check_watching(table, seat)
        subscriber = Subscriber(seat, send)
        await self.hub.subscribe(table.id, subscriber)
        async with table.lock:
            if self.hub.shared and table.status != FINISHED:
                await self.catch_up(table)
            missed = None
            if since is not None and 0 <= since <= table.version:
                missed = self.hub.missed(table.id, seat, since, table.version)
            try:
                if missed is None:
                    await send(self.full_text(table, seat))
                else:
                    for text in missed:
                        await send(text)
            except BaseException:
                # Its client is gone already (it left during the handshake): nothing of it is kept, and
                # nobody was told it is online.
                await self.hub.unsubscribe(table.id, subscriber)
                raise
            # The newcomer gets the presence update too unless it was just sent a full state: what it
            # missed holds only moves, and the table may have changed since without one (a clock ran
            # out, a vote opened, a seat was reclaimed).
            await self.publish_presence(table, skip=subscriber if missed is None else None)
        return table, subscriber

    async def resync(self, table: LiveTable, seat: int | None, since: Any,
                     send: Callable[[str], Awaitable[None]]) -> None:
        """A client that found a gap: what it missed since ``since``, or the full state."""
        valid = type(since) is int
        async with table.lock:
            if self.hub.shared and table.status != FINISHED:
                await self.catch_up(table)
            version = table.version
            missed = self.hub.missed(table.id, seat, since, version) if valid and 0 <= since <= version else None
        if missed is None and valid and 0 <= since <= version and self.hub.shared:
            missed = await self._missed_in_flight(table.id, seat, since, version)
        if missed is None:
            async with table.lock:
                await send(self.full_text(table, seat))
        else:  # nothing at all when the client is up to date already (what it took for a gap came since)
            for text in missed:
                await send(text)

    async def _missed_in_flight(self, table_id: str, seat: int | None, since: int, version: int) -> list[str] | None:
        """With several processes, a gap is most often a move another process made whose update is still
        on its way over Redis (this process read the move from the database first): wait for it a
        little (without holding the table), rather than send a whole state."""
        for _ in range(IN_FLIGHT_POLLS):
            await asyncio.sleep(IN_FLIGHT_POLL_SECONDS)
            missed = self.hub.missed(table_id, seat, since, version)
            if missed is not None:
                return missed
        return None

    async def close_socket(self, table: LiveTable, subscriber: Subscriber) -> None:
        await self.hub.unsubscribe(table.id, subscriber)
        async with table.lock:
            await self.publish_presence(table)

    def full_text(self, table: LiveTable, seat: int | None) -> str:
        return dumps(self.message_for(table, seat))

    def message_for(self, table: LiveTable, seat: int | None) -> JSON:
        return table.message_for(seat, self.hub.online(table.id), self.hub.spectators(table.id))

    # --- replays ------------------------------------------------------------------------------

    async def replay(self, table_id: str, seat: Any, step: Any) -> JSON:
        """The view of ``seat`` (``None``: spectator) after ``step`` rows of a finished game's log; an
        undo is a step of its own (back to the view before the moves it took back, which are marked
        ``undone``), and a step's notation is shown only for ``seat``'s own move."""
        table = await self.get(table_id)
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
            previous = cast(JSON, table.ledger.entry(step - 1, seat, partial(action_shape, table.game)))
        return {
            "type": "replay",
            "table": table.summary(set()),
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
        in_effect = [states[0]]  # the state after each move in effect, to go back to at an undo
        for _seat, notation in table.ledger.rows:
            taken_back = undone_count(notation)
            if taken_back is None:
                state.apply(notation)
                in_effect.append(state.clone())
            else:
                del in_effect[-taken_back:]
                state = in_effect[-1].clone()
            states.append(in_effect[-1])
        self.replays[table.id] = states
        while len(self.replays) > REPLAY_CACHE:
            self.replays.popitem(last=False)
        return states
