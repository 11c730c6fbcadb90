"""The live lobby: the table list, the lobby's chat and "My games", pushed over one WebSocket
(``/ws/lobby``, ``meeple.server.routes.lobby``) as they change instead of polled.

Every table change this process makes (``TableRuntime.change_watchers``: created, a seat taken or
handed to a bot, started, a move, finished) marks the table; a moment later
(``COALESCE_SECONDS``, so a burst of changes costs one look) each marked table's lobby entry is built
and compared with the last one published: only an entry that changed is published, with the next
number of the site's lobby sequence. A move inside a running game changes nothing the lobby shows, so
it publishes nothing; when it changes whose turn it is, a small ``turn`` notice is published for the
players' "My games" instead. The hub carries both (``Hub.publish_lobby``: this process's sockets, and
with Redis every process's, over one channel), and each process sends its sockets what they asked for:
the entries their filters keep, the chat lines, and their own tables' rows of "My games", encoded once
per change whatever the number of sockets.

A lobby entry is a table's entry of ``GET /api/tables`` without what changes with every move
(``MOVE_FIELDS``), so what is pushed is what that endpoint shows everyone, and no more. A client that
reconnects says the sequence number it has (``epoch`` and ``since``): when this process still has every
change since (the last ``RECENT_CHANGES``), it is sent just those, else the whole list once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from meeple.core.contract import JSON
from meeple.core.registry import game_names
from meeple.server.alerts import is_turn_based
from meeple.server.clocks import MODES
from meeple.server.jsontext import dumps
from meeple.server.runtime import LiveTable, Refused, TableRuntime
from meeple.server.store import FINISHED, HUMAN, RUNNING

log = logging.getLogger("meeple.server")

MOVE_FIELDS = ("actions", "current_player", "clock", "spectators")
"""What a table's summary carries that changes with moves and time (or is counted per process) and the
lobby does not show: left out of lobby entries, so a move publishes nothing to the lobby. "My games"
rows carry whose turn it is and the clocks. Each seat's ``online`` is left out too: it changes
whenever a page of the table opens or closes, and the lobby does not show it."""
COALESCE_SECONDS = 0.1
RECENT_CHANGES = 256
"""Table changes each process keeps, to send a reconnecting client only what it missed."""
KNOWN_ENTRIES = 20000
"""Tables whose last published entry a process remembers (to publish only changes); the oldest forgotten."""
TOPICS = ("tables", "chat", "my")
DEFAULT_TOPICS = ("tables", "chat")
TABLE_LIMIT = 100

Send = Callable[[str], Awaitable[None]]


def lobby_entry(summary: JSON) -> JSON:
    """A table's lobby entry from its summary (``LiveTable.summary`` or ``store.summary_of_row``):
    without ``MOVE_FIELDS`` and without its seats' ``online``."""
    entry = {key: value for key, value in summary.items() if key not in MOVE_FIELDS}
    entry["seats"] = [{key: value for key, value in seat.items() if key != "online"} for seat in entry["seats"]]
    return entry


def has_free_seat(entry: JSON) -> bool:
    """An unfinished table with a person's seat nobody took nor holds (``open_seats``)."""
    return entry["status"] != FINISHED and any(seat["kind"] == HUMAN and not seat["taken"] for seat in entry["seats"])


@dataclass(frozen=True)
class Filters:
    """The table list's filters, checked as ``GET /api/tables`` checks them."""

    game: str | None = None
    mode: str | None = None
    open_seats: bool = False

    @classmethod
    def parse(cls, game: Any, mode: Any, open_seats: Any) -> Filters:
        if game is not None and (not isinstance(game, str) or game not in game_names()):
            raise Refused("unknown_game", f"game is one of {', '.join(game_names())}")
        if mode is not None and mode not in MODES:
            raise Refused("bad_mode", f"mode is {' or '.join(MODES)}")
        if type(open_seats) is not bool:
            raise Refused("malformed", "open_seats must be true or false")
        return cls(game or None, mode or None, open_seats)

    def keeps(self, entry: JSON) -> bool:
        return ((self.game is None or entry["game"] == self.game) and (self.mode is None or entry["mode"] == self.mode)
                and (not self.open_seats or has_free_seat(entry)))

    def to_json(self) -> JSON:
        return {"game": self.game, "mode": self.mode, "open_seats": self.open_seats}


@dataclass(eq=False)
class LobbySocket:
    """One open lobby socket: what it asked for and who it is (for "My games")."""

    send: Send
    topics: frozenset[str]
    filters: Filters
    account_id: int | None = None
    account_name: str | None = None
    token_hashes: list[str] = field(default_factory=list)
    my_tables: set[str] = field(default_factory=set)
    """The tables it sits at, as far as known (those found when it connected, and those its account
    took a seat at since)."""
    ready: bool = False
    pending: list[tuple[int, str]] = field(default_factory=list)
    """Changes (sequence number, text) that arrived before its first list was sent."""
    my_due: set[str] = field(default_factory=set)
    my_task: asyncio.Task[None] | None = None

    def sits_at(self, table_id: str, accounts: Sequence[int]) -> bool:
        if table_id in self.my_tables:
            return True
        if self.account_id is not None and self.account_id in accounts:
            self.my_tables.add(table_id)
            return True
        return False


@dataclass
class Change:
    """A published table change: its sequence number and entry, and its texts for sockets, made once."""

    seq: int
    entry: JSON
    text: str
    gone: str


def waiting_for(table: JSON) -> list[int]:
    """The seats that must act: the current player, and every seat whose clock runs (Citadels'
    simultaneous decisions)."""
    if table["status"] != RUNNING:
        return []
    clock = table.get("clock") or {}
    seats = set(clock.get("running") or [])
    if table["current_player"] is not None:
        seats.add(table["current_player"])
    return sorted(seats)


def time_left(table: JSON) -> list[JSON]:
    """Milliseconds left on the clock of each seat that must act (none without a clock), at the
    server's ``now`` the clock was read at."""
    clock = table.get("clock") or {}
    if table["status"] != RUNNING or "remaining" not in clock:
        return []
    spent = max(0, round((datetime.fromisoformat(clock["now"]) - datetime.fromisoformat(clock["since"]))
                         .total_seconds() * 1000))
    return [{"seat": seat, "ms": max(0, clock["remaining"][seat] - (spent if seat in clock["running"] else 0))}
            for seat in table["waiting_for"]]


def last_public_event(view: Any) -> JSON | None:
    """The newest entry of the game's public log in a seat's own view, when the game keeps one."""
    if isinstance(view, dict) and isinstance(view.get("log"), list) and view["log"]:
        event = view["log"][-1]
        return event if isinstance(event, dict) else None
    return None


def _last_activity(table: JSON) -> str:
    move = table.get("last_move")
    return str(move["at"] if move else table.get("finished_at") or table["created_at"])


async def my_rows(runtime: TableRuntime, account_id: int | None, token_hashes: Sequence[str],
                  only: Sequence[str] | None = None) -> list[JSON]:
    """"My games": the tables this account or these seat tokens sit at (``only``: of those tables),
    each with whose turn it is and the last move as the caller's own seat may see it; waiting for the
    caller first, then by last activity, finished last. ``only`` reads the tables afresh (a change
    heard from another process)."""
    tables = await asyncio.to_thread(runtime.store.my_tables, account_id, list(token_hashes), 100, only)
    for table in tables:
        mine: list[int] = table["mine"]
        table["waiting_for"] = waiting_for(table)
        table["time_left"] = time_left(table)
        table["my_turn"] = any(seat in mine for seat in table["waiting_for"])
        table["url"] = f"/tables/{table['id']}"
        table["last_event"] = None
        table["turn_based"] = False
        if table["status"] == RUNNING:
            try:
                live = await runtime.get(table["id"], fresh=only is not None)
            except Refused:
                continue
            table["turn_based"] = is_turn_based(live)
            table["last_event"] = last_public_event(live.state.view(mine[0]) if live.state is not None else None)
    tables.sort(key=_last_activity, reverse=True)
    tables.sort(key=lambda table: 0 if table["my_turn"] else 2 if table["status"] == FINISHED else 1)
    return tables


class LobbyFeed:
    """This process's side of the live lobby: it publishes the changes this process makes and sends
    its lobby sockets every change published anywhere."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.runtime = runtime
        self.hub = runtime.hub
        self.sockets: set[LobbySocket] = set()
        self.dirty: dict[str, LiveTable] = {}
        self._flushing: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.published: OrderedDict[str, tuple[int, int]] = OrderedDict()
        """The hashes of each table's last published entry text and "whose turn" key, to publish only
        changes (a hash rather than the text: a few bytes a table, however many tables)."""
        self.recent: deque[Change] = deque(maxlen=RECENT_CHANGES)
        self.epoch = ""
        self.seq = 0
        """The newest sequence number this process has seen in ``epoch``."""
        self.counts = {"changes": 0, "skipped": 0, "turns": 0, "sent": 0}
        """Table changes published and left unpublished (nothing the lobby shows changed), "whose turn"
        notices published, and messages sent to sockets: for the benchmark and the curious."""
        runtime.change_watchers.append(self.table_changed)
        self.hub.lobby_listeners.append(self.received)

    async def start(self) -> None:
        """Learn where the site's lobby sequence stands (a client may reconnect with it at once)."""
        self.epoch, self.seq = await self.hub.lobby_position()

    # --- publishing what this process changed ------------------------------------------------

    def table_changed(self, table: LiveTable) -> None:
        """Called for every change this process makes (cheap: the look happens a moment later)."""
        self.dirty[table.id] = table
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().call_later(COALESCE_SECONDS, self._start_flush)

    def _start_flush(self) -> None:
        self._flushing = None
        self._spawn(self.flush())

    def _spawn(self, work: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Publish what changed of the marked tables: an entry the lobby shows, or whose turn it is."""
        dirty, self.dirty = self.dirty, {}
        for table in dirty.values():
            try:
                await self._publish_table(table)
            except Exception:
                log.exception("publishing the lobby entry of table %s failed", table.id)

    async def _publish_table(self, table: LiveTable) -> None:
        summary = table.summary(set())
        entry = lobby_entry(summary)
        text = hash(dumps(entry))
        turn = hash(dumps([summary["status"], waiting_for(summary)]))
        before = self.published.get(table.id)
        self._remember(table.id, text, turn)
        accounts = sorted({seat.account_id for seat in table.seats if seat.account_id is not None})
        if before is None or before[0] != text:
            self.counts["changes"] += 1
            epoch, seq = await self.hub.lobby_sequence()
            await self.hub.publish_lobby({"kind": "table", "epoch": epoch, "seq": seq, "entry": entry,
                                          "accounts": accounts})
        elif before[1] != turn:
            self.counts["turns"] += 1
            await self.hub.publish_lobby({"kind": "turn", "table": table.id, "accounts": accounts})
        else:
            self.counts["skipped"] += 1

    def _remember(self, table_id: str, text: int, turn: int) -> None:
        self.published[table_id] = (text, turn)
        self.published.move_to_end(table_id)
        while len(self.published) > KNOWN_ENTRIES:
            self.published.popitem(last=False)

    async def said(self, line: JSON) -> None:
        """A lobby chat line, stored: to every lobby socket, in every process."""
        await self.hub.publish_lobby({"kind": "chat", "line": line})

    # --- what any process published -----------------------------------------------------------

    async def received(self, message: JSON) -> None:
        """A lobby message published by this process or another (``Hub.lobby_listeners``)."""
        kind = message.get("kind")
        if kind == "table":
            change = self._keep(message)
            if change is not None:
                await self._send_change(change, message["accounts"])
        elif kind == "turn":
            self._my_tables_changed(str(message["table"]), message["accounts"])
        elif kind == "chat":
            text = dumps({"type": "chat", "lines": [message["line"]]})
            await self._send_all([s for s in self.sockets if "chat" in s.topics], text)

    def _keep(self, message: JSON) -> Change | None:
        """Remember a table change in order of its sequence number; ``None`` for one of an older epoch."""
        epoch, seq, entry = str(message["epoch"]), int(message["seq"]), message["entry"]
        if epoch != self.epoch:
            if self.epoch and seq < self.seq:  # an old epoch's straggler
                return None
            self.epoch, self.seq = epoch, 0
            self.recent.clear()
        change = Change(seq, entry, dumps({"type": "table", "seq": seq, "table": entry}),
                        dumps({"type": "table_gone", "seq": seq, "id": entry["id"]}))
        self.seq = max(self.seq, seq)
        if not self.recent or self.recent[-1].seq < seq:
            self.recent.append(change)
        else:  # published by another process a moment before one we heard first
            ordered = sorted([*self.recent, change], key=lambda kept: kept.seq)
            self.recent.clear()
            self.recent.extend(ordered)
        known = self.published.get(entry["id"])
        self._remember(entry["id"], hash(dumps(entry)), known[1] if known else 0)
        return change

    async def _send_change(self, change: Change, accounts: Sequence[int]) -> None:
        listeners = [s for s in self.sockets if "tables" in s.topics]
        kept = [s for s in listeners if s.filters.keeps(change.entry)]
        await self._send_all(kept, change.text, change.seq)
        dropped = [s for s in listeners if s.filters.open_seats and not s.filters.keeps(change.entry)]
        await self._send_all(dropped, change.gone, change.seq)  # only open_seats can stop keeping a table
        self._my_tables_changed(change.entry["id"], accounts)

    async def _send_all(self, sockets: Sequence[LobbySocket], text: str, seq: int = 0) -> None:
        for socket in sockets:
            if not socket.ready:
                socket.pending.append((seq, text))
                continue
            await self._send(socket, text)

    async def _send(self, socket: LobbySocket, text: str) -> None:
        try:
            await socket.send(text)
            self.counts["sent"] += 1
        except Exception:
            self.leave(socket)  # its client is gone

    # --- "My games" -----------------------------------------------------------------------------

    def _my_tables_changed(self, table_id: str, accounts: Sequence[int]) -> None:
        for socket in self.sockets:
            if "my" in socket.topics and socket.sits_at(table_id, accounts):
                socket.my_due.add(table_id)
                if socket.my_task is None:
                    socket.my_task = asyncio.ensure_future(self._send_my_rows(socket))
                    self._tasks.add(socket.my_task)
                    socket.my_task.add_done_callback(self._tasks.discard)

    async def _send_my_rows(self, socket: LobbySocket) -> None:
        """The rows of "My games" that changed, read as ``GET /api/my/tables`` reads them (a moment
        later, so a burst of moves costs one read)."""
        await asyncio.sleep(COALESCE_SECONDS)
        due, socket.my_due = sorted(socket.my_due), set()
        socket.my_task = None
        try:
            rows = await my_rows(self.runtime, socket.account_id, socket.token_hashes, only=due)
        except Exception:
            log.exception("reading the changed rows of My games failed")
            return
        for row in rows:
            if socket in self.sockets:
                await self._send(socket, dumps({"type": "my_table", "table": row}))

    # --- sockets --------------------------------------------------------------------------------

    async def join(self, socket: LobbySocket, epoch: str | None, since: int | None, chat_after: int | None) -> None:
        """Start sending ``socket`` changes, after where it stands: the changes it missed since
        ``since`` (of ``epoch``) when this process has them all, else the whole list; the chat lines
        after ``chat_after``; its tables of "My games"."""
        self.sockets.add(socket)
        try:
            if "tables" in socket.topics:
                await self._send_where_it_stands(socket, epoch, since)
            if "chat" in socket.topics:
                lines = await asyncio.to_thread(self.runtime.store.chat, "lobby", max(0, chat_after or 0), 200)
                await socket.send(dumps({"type": "chat", "lines": lines}))
            if "my" in socket.topics:
                rows = await my_rows(self.runtime, socket.account_id, socket.token_hashes)
                socket.my_tables = {row["id"] for row in rows}
                account = None if socket.account_id is None else {"id": socket.account_id, "name": socket.account_name}
                await socket.send(dumps({"type": "my", "account": account, "tables": rows}))
            socket.ready = True
            pending, socket.pending = socket.pending, []
            for _seq, text in pending:
                await socket.send(text)
        except BaseException:
            self.leave(socket)
            raise

    async def _send_where_it_stands(self, socket: LobbySocket, epoch: str | None, since: int | None) -> None:
        latest = self.seq
        missed = self.missed(epoch, since)
        if missed is not None:
            await socket.send(dumps({"type": "resumed", "epoch": self.epoch, "seq": latest, "missed": len(missed)}))
            for change in missed:
                if socket.filters.keeps(change.entry):
                    await socket.send(change.text)
                elif socket.filters.open_seats:
                    await socket.send(change.gone)
            socket.pending = [(seq, text) for seq, text in socket.pending if seq == 0 or seq > latest]
            return
        await self.send_list(socket)

    async def send_list(self, socket: LobbySocket) -> None:
        """The whole list its filters keep, once, with the sequence number it is as new as; changes
        heard meanwhile that it already holds are not sent after it."""
        seq = self.seq
        filters = socket.filters
        summaries = await self.runtime.list_tables(None, TABLE_LIMIT, game=filters.game, open_seats=filters.open_seats,
                                                   mode=filters.mode)
        await socket.send(dumps({"type": "tables", "epoch": self.epoch, "seq": seq, "filters": filters.to_json(),
                                 "tables": [lobby_entry(summary) for summary in summaries]}))
        socket.pending = [(kept, text) for kept, text in socket.pending if kept == 0 or kept > seq]

    def missed(self, epoch: str | None, since: int | None) -> list[Change] | None:
        """Every change after ``since``, if this process has them all; ``None`` when the whole list
        must be sent instead (another epoch, too old, or a gap)."""
        if since is None or epoch != self.epoch or not self.epoch or since > self.seq:
            return None
        changes = [change for change in self.recent if change.seq > since]
        expected = list(range(since + 1, self.seq + 1))
        return changes if [change.seq for change in changes] == expected else None

    def leave(self, socket: LobbySocket) -> None:
        self.sockets.discard(socket)
        if socket.my_task is not None:
            socket.my_task.cancel()

    async def stop(self) -> None:
        if self._flushing is not None:
            self._flushing.cancel()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
