"""The hub: fans a table's updates out to the sockets that watch it, in this process and in others.

An ``Update`` holds one message per seat (and one for spectators), made once by the process that
applied the change; each socket is sent only its own seat's message, encoded once per seat. The
local ``Hub`` serves one process (SQLite, the default). ``RedisHub`` also publishes every update on
the table's Redis channel (``meeple:table:<id>``) and delivers what other processes publish to its
own sockets; a process subscribes to a table's channel while it holds a socket of that table.

Redis pub/sub rather than PostgreSQL LISTEN/NOTIFY: NOTIFY payloads are limited to 8,000 bytes and
are queued through the database's single notification queue, which is the component a busy site
least wants more load on; Redis pub/sub costs the database nothing and a message of any size.

The hub also keeps each table's last few updates (``RECENT``) so a client that reconnects with the
version it has (to this process or another that saw them) gets only what it missed.

Table affinity (``RedisHub`` only): each running table has one owner process, recorded in Redis
(``meeple:owner:<id>``) with a lease the owner's heartbeat renews. The owner applies the table's moves
and undos; another process forwards them to the owner over the owner's own channel
(``meeple:hub:<origin>``) and gets back the refusal or nothing, the update arriving as any other. So
the owner's copy is always current and the others only follow updates, instead of each process
reading the moves it missed from the database before it can apply its own. An owner that does not
answer within ``FORWARD_TIMEOUT`` (dead, or its lease lapsed) is replaced by the process that asked:
the append's unique (table, move number) still makes every move happen once, whoever applies it.
A process claims the lease (if nobody holds it) as soon as it loads a running table or starts a
game, so a table has an owner before its first move. What falls due at a table (a clock's deadline,
a bot's job) is handled by its owner first: another process takes it only when the table has no live
owner or it is overdue by more than ``OWNER_GRACE`` (``due_here``); the database's conditional claim
still makes each happen once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from meeple.core.contract import JSON
from meeple.server.jsontext import dumps, loads

log = logging.getLogger("meeple.server")

RECENT = 8
SPECTATOR = "spectator"
HEARTBEAT = 5.0
"""Seconds between a process's proofs of life in Redis; one missing for ``3 * HEARTBEAT`` is dead."""


LEASE_MS = int(3 * HEARTBEAT * 1000)
"""How long a table's owner keeps it without renewing (its heartbeat renews every ``HEARTBEAT``)."""
FORWARD_TIMEOUT = 2.0
"""Seconds a process waits for the owner's answer to a forwarded move before taking the table over."""
REDIS_CONNECTIONS = 100
"""Connections to Redis a process opens at most (redis-py's default); more commands at once wait."""
REDIS_WAIT = 10.0
"""Seconds a command waits for a free connection before it fails."""
OWNER_GRACE = timedelta(seconds=3 * HEARTBEAT)
"""How long a deadline or bot job of a table another live process owns is left to that owner before
any process handles it (the owner may be busy; a dead one's lease lapses within ``LEASE_MS`` anyway)."""

# Take the table over if its owner is still ``ARGV[1]`` (the one that did not answer) or nobody: the
# new owner (ours, or whoever took it first) is returned.
TAKE_OVER = """
local owner = redis.call('GET', KEYS[1])
if (not owner) or owner == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return ARGV[2]
end
return owner
"""
# Renew each lease still ours (ARGV[1]); 1 where renewed, 0 where another process has the table now.
RENEW = """
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
"""
# Let go of the leases still ours, so another process takes the tables at once (a clean stop).
RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""


# The lobby sequence's epoch (made when Redis has none: a new Redis, or one that was emptied) and its
# next number (ARGV[2] == '1') or its newest one.
LOBBY_SEQUENCE = """
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[1]
  redis.call('SET', KEYS[1], epoch)
  redis.call('DEL', KEYS[2])
end
local seq
if ARGV[2] == '1' then
  seq = redis.call('INCR', KEYS[2])
else
  seq = tonumber(redis.call('GET', KEYS[2]) or '0')
end
return {epoch, seq}
"""


class OwnerSilent(Exception):
    """The owner of a table did not answer a forwarded request in time (or nobody listens on its channel)."""


ForwardHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def seat_key(seat: int | None) -> str:
    return SPECTATOR if seat is None else str(seat)


@dataclass
class Subscriber:
    """One open connection watching a table, as ``seat`` (``None``: spectator); sends encoded JSON."""

    seat: int | None
    send: Callable[[str], Awaitable[None]]


@dataclass
class Update:
    """A change of one table from version ``start`` to ``version``: each seat's message.

    ``seats_changed``: seats or status changed (someone sat down, a bot took over, the game started),
    so other processes must reload the seats. ``online``: the seats connected to the origin process.
    A seat without a message (nobody watched it when the update was made) is sent a full state
    when it needs one.
    """

    table_id: str
    start: int
    version: int
    messages: dict[str, JSON]
    seats_changed: bool = False
    origin: str = ""
    online: list[int] = field(default_factory=list)
    watching: int = 0
    """How many spectators (sockets without a seat) watch the table through the origin process."""
    _texts: dict[str, str] = field(default_factory=dict, repr=False)

    def has(self, seat: int | None) -> bool:
        key = seat_key(seat)
        return key in self._texts or key in self.messages

    def text_for(self, seat: int | None) -> str:
        """The seat's message as JSON text, encoded once however many sockets (and processes) get it."""
        key = seat_key(seat)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = dumps(self.messages[key])
        return text

    @property
    def is_move(self) -> bool:
        return self.version > self.start

    def to_wire(self) -> str:
        """A header line (JSON) and then every seat's message text as sent to sockets, back to back:
        a receiving process slices them out instead of decoding and encoding them again."""
        keys = list(self._texts.keys() | self.messages.keys())
        texts = [self.text_for(None if key == SPECTATOR else int(key)) for key in keys]
        header = {"table": self.table_id, "start": self.start, "version": self.version,
                  "seats_changed": self.seats_changed, "origin": self.origin, "online": self.online,
                  "watching": self.watching,
                  "lengths": [[key, len(text)] for key, text in zip(keys, texts, strict=True)]}
        return "\n".join([dumps(header), *texts])

    @classmethod
    def from_wire(cls, data: str | bytes) -> Update:
        text = data.decode() if isinstance(data, bytes) else data
        newline = text.index("\n")
        header: dict[str, Any] = loads(text[:newline])
        texts: dict[str, str] = {}
        at = newline + 1
        for key, length in header["lengths"]:
            texts[str(key)] = text[at:at + length]
            at += length + 1
        if at - 1 != len(text):
            raise ValueError("an update's texts do not add up to its length")
        return cls(table_id=header["table"], start=header["start"], version=header["version"], messages={},
                   seats_changed=header["seats_changed"], origin=header["origin"], online=list(header["online"]),
                   watching=int(header.get("watching", 0)), _texts=texts)


RemoteListener = Callable[[Update], None]
PresenceListener = Callable[[str], None]
LobbyListener = Callable[[JSON], Awaitable[None]]


class Hub:
    """Fan-out within this process."""

    def __init__(self) -> None:
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.local: dict[str, list[Subscriber]] = {}
        self.remote_online: dict[str, dict[str, set[int]]] = {}
        self.remote_watching: dict[str, dict[str, int]] = {}
        self.recent: dict[str, deque[Update]] = {}
        self.listeners: list[RemoteListener] = []
        self.presence_listeners: list[PresenceListener] = []
        """Told the table whose seats' presence changed without an update (a process died)."""
        self.shared = False  # whether other processes change tables too
        self.counts = {"applied": 0, "forwarded": 0, "taken_over": 0, "deadlines": 0, "deadlines_not_owned": 0,
                       "bot_moves": 0, "bot_moves_not_owned": 0}
        """Moves and undos this process applied, forwarded to an owner, and tables it took over from a
        silent owner; the clock deadlines it acted on and the bot jobs it played, and of those, how many
        were of tables it did not own (written with its heartbeat where processes share a site)."""
        self.lobby_listeners: list[LobbyListener] = []
        """Given every lobby message published by any process (``meeple.server.lobby``)."""
        self._lobby_seq = 0
        self.forward_handler: ForwardHandler | None = None
        """Applies a request another process forwarded here; returns the answer: ``{"refusal": JSON}`` or
        ``{"version": N}`` (the table's version after it)."""

    @property
    def redis(self) -> Any:
        """The Redis client shared by every process (for site-wide counts such as chat limits), or None
        in a server that runs alone."""
        return None

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def owner(self, table_id: str) -> str | None:
        """The process that applies ``table_id``'s moves, if not this one (one process: always this one)."""
        return None

    @property
    def owner_first(self) -> bool:
        """Whether what falls due at a table is left to its owner first (``due_here``): only where
        processes share a site and this one may own tables."""
        return False

    async def claim(self, table_id: str) -> None:
        """Become ``table_id``'s owner unless a process is already (one process: it always is)."""

    async def due_here(self, due: Sequence[tuple[str, datetime]], now: datetime) -> dict[str, bool]:
        """Of the tables where something fell due (a deadline, a bot job) at the given moment, those this
        process handles now, each with whether it owns the table (one process: all, its own)."""
        return {table_id: True for table_id, _moment in due}

    async def forward(self, owner: str, request: dict[str, Any]) -> dict[str, Any]:
        """Have ``owner`` apply ``request``: its answer (see ``forward_handler``); ``OwnerSilent`` if it
        does not answer."""
        raise OwnerSilent(owner)

    async def take_over(self, table_id: str, silent: str) -> str | None:
        """Own ``table_id`` in place of ``silent``: ``None`` when this process owns it now, else the
        process that took it first."""
        return None

    def owns_elsewhere(self, table_id: str) -> bool:
        """Whether this process forwarded a move of ``table_id`` to its owner and does not own it since."""
        return False

    def disown(self, table_id: str) -> None:
        """Stop renewing ``table_id``'s lease (the game is over or the table left memory)."""

    async def subscribe(self, table_id: str, subscriber: Subscriber) -> None:
        self.local.setdefault(table_id, []).append(subscriber)

    async def lobby_position(self) -> tuple[str, int]:
        """The lobby sequence's epoch and its newest number (one process: this process and its count)."""
        return self.origin, self._lobby_seq

    async def lobby_sequence(self) -> tuple[str, int]:
        """The next number of the site's lobby sequence, with its epoch."""
        self._lobby_seq += 1
        return self.origin, self._lobby_seq

    async def publish_lobby(self, message: JSON) -> None:
        """Give a lobby message to this process's lobby listeners (``RedisHub``: every process's)."""
        await self._deliver_lobby(message)

    async def _deliver_lobby(self, message: JSON) -> None:
        for listener in list(self.lobby_listeners):
            try:
                await listener(message)
            except Exception:
                log.exception("a lobby listener failed")

    async def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        subscribers = self.local.get(table_id, [])
        with contextlib.suppress(ValueError):
            subscribers.remove(subscriber)
        if not subscribers:
            self.local.pop(table_id, None)

    def local_seats(self, table_id: str) -> set[int | None]:
        """The seats (``None``: spectators) with a socket of the table in this process."""
        return {s.seat for s in self.local.get(table_id, ())}

    def local_online(self, table_id: str) -> list[int]:
        return sorted({s.seat for s in self.local.get(table_id, ()) if s.seat is not None})

    def spectators(self, table_id: str) -> int:
        """How many sockets without a seat watch the table, here and (as last heard) in other processes."""
        here = sum(1 for s in self.local.get(table_id, ()) if s.seat is None)
        return here + sum(self.remote_watching.get(table_id, {}).values())

    def online(self, table_id: str) -> set[int]:
        seats = set(self.local_online(table_id))
        for remote in self.remote_online.get(table_id, {}).values():
            seats |= remote
        return seats

    async def online_anywhere(self, table_id: str) -> set[int]:
        """Who is online at ``table_id`` in any process, even one whose updates this process does not
        follow (one process: the same as ``online``)."""
        return self.online(table_id)

    async def publish(self, update: Update, skip: Subscriber | None = None) -> None:
        """Remember ``update`` and send it to this process's sockets but ``skip`` (``RedisHub``: to
        other processes' too)."""
        update.origin = update.origin or self.origin
        update.online = self.local_online(update.table_id)
        update.watching = sum(1 for s in self.local.get(update.table_id, ()) if s.seat is None)
        self._remember(update)
        await self.deliver(update, skip)

    def _remember(self, update: Update) -> None:
        """Keep the table's last move updates in order of their versions. One from another process can
        arrive after a later one made here (this process read the move from the database first), so
        it is put in its place rather than dropped: it is the link a lagging client's chain needs."""
        if not update.is_move:
            return
        recent = self.recent.setdefault(update.table_id, deque(maxlen=RECENT))
        if not recent or recent[-1].version <= update.start:
            recent.append(update)
            return
        if all(kept.version <= update.start or kept.start >= update.version for kept in recent):
            ordered = sorted([*recent, update], key=lambda kept: kept.start)
            recent.clear()
            recent.extend(ordered)  # beyond RECENT, the oldest falls off

    async def deliver(self, update: Update, skip: Subscriber | None = None) -> None:
        for subscriber in list(self.local.get(update.table_id, ())):
            if subscriber is skip or not update.has(subscriber.seat):
                continue
            try:
                await subscriber.send(update.text_for(subscriber.seat))
            except Exception:
                await self.unsubscribe(update.table_id, subscriber)

    def missed(self, table_id: str, seat: int | None, since: int, version: int) -> list[str] | None:
        """The messages that take ``seat`` from ``since`` to ``version``, if this process still has
        them all; ``None`` when a full state must be sent instead."""
        if since == version:
            return []
        chain: list[str] = []
        at = since
        for update in self.recent.get(table_id, ()):
            if update.start == at and update.version <= version and update.has(seat):
                chain.append(update.text_for(seat))
                at = update.version
        return chain if at == version else None

    def received(self, update: Update) -> None:
        """An update from another process: note who is online there, tell the runtime, remember it."""
        if update.online:
            self.remote_online.setdefault(update.table_id, {})[update.origin] = set(update.online)
        else:
            self.remote_online.get(update.table_id, {}).pop(update.origin, None)
        if update.watching:
            self.remote_watching.setdefault(update.table_id, {})[update.origin] = update.watching
        else:
            self.remote_watching.get(update.table_id, {}).pop(update.origin, None)
        for listener in self.listeners:
            listener(update)
        self._remember(update)


class RedisHub(Hub):
    """Fan-out across processes over Redis pub/sub (redis-py's asyncio client)."""

    def __init__(self, url: str, owns_tables: bool = True) -> None:
        super().__init__()
        self.url = url
        self.owns_tables = owns_tables
        """``False`` for a bot worker: it forwards its moves to a table's owner but never becomes one
        (it holds no sockets, so owning would only add a hop for everyone else)."""
        self.shared = True
        self._outbox: asyncio.Queue[Update | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._confirmed: dict[str, asyncio.Event] = {}
        self._redis: Any = None
        self._pubsub: Any = None
        self._written_online: dict[str, list[int]] = {}
        self._written_watching: dict[str, int] = {}
        self.owned: set[str] = set()
        self.forwarding: dict[str, str] = {}
        """The owner (another process) each table's moves were last forwarded to: asked again only when
        it stops answering (an old owner that answers still applies them, once, as any process may)."""
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._handling: set[asyncio.Task[None]] = set()
        self._database = 0

    @staticmethod
    def owner_key(table_id: str) -> str:
        return f"meeple:owner:{table_id}"

    @staticmethod
    def inbox(origin: str) -> str:
        """The channel of one process: requests forwarded to it and answers to its own."""
        return f"meeple:hub:{origin}"

    @staticmethod
    def channel(table_id: str) -> str:
        return f"meeple:table:{table_id}"

    @staticmethod
    def presence_key(table_id: str) -> str:
        """A hash of the table's online seats per process (origin → seats as JSON), read by a process
        that starts watching the table: it learns who is online elsewhere before anyone moves."""
        return f"meeple:online:{table_id}"

    @staticmethod
    def watching_key(table_id: str) -> str:
        """A hash of how many spectators watch the table through each process (origin → count)."""
        return f"meeple:watching:{table_id}"

    @staticmethod
    def alive_key(origin: str) -> str:
        return f"meeple:alive:{origin}"

    @property
    def lobby_channel(self) -> str:
        """The lobby's channel. Pub/sub channels are shared by all of a Redis server's databases, so
        the database number is part of the name: two sites on one server (each its own database)
        never hear each other's lobby."""
        return f"meeple:lobby:{self._database}"

    @property
    def redis(self) -> Any:
        return self._redis

    async def start(self) -> None:
        import redis.asyncio as redis

        # A burst of commands (forwarded moves, their answers, publishes) waits for a free connection
        # instead of failing: redis-py's default pool refuses the 101st at once ("Too many connections").
        pool = redis.BlockingConnectionPool.from_url(self.url, max_connections=REDIS_CONNECTIONS,
                                                     timeout=REDIS_WAIT)
        self._redis = redis.Redis(connection_pool=pool)
        self._database = int(pool.connection_kwargs.get("db") or 0)
        await self._redis.ping()
        self._pubsub = self._redis.pubsub()
        await self._pubsub.subscribe(self.inbox(self.origin), self.lobby_channel)
        await self._redis.set(self.alive_key(self.origin), dumps(self.counts), ex=int(3 * HEARTBEAT))
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._send()),
                       asyncio.create_task(self._heartbeat())]

    async def stop(self) -> None:
        """Publish what is queued (for at most two seconds), then stop listening."""
        if not self._tasks:
            return
        sender = self._tasks[1]
        await self._outbox.put(None)
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(sender, 2)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._redis.delete(self.alive_key(self.origin))
        if self.owned:
            with contextlib.suppress(Exception):
                await self._redis.eval(RELEASE, len(self.owned), *sorted(self.owned), self.origin)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()
        with contextlib.suppress(Exception):
            await self._redis.connection_pool.disconnect()  # given to the client, so not closed by it

    async def subscribe(self, table_id: str, subscriber: Subscriber) -> None:
        first = table_id not in self.local
        await super().subscribe(table_id, subscriber)
        if first:
            confirmed = self._confirmed.setdefault(self.channel(table_id), asyncio.Event())
            await self._pubsub.subscribe(self.channel(table_id))
            # Wait until Redis has the subscription: a move published after this point reaches us,
            # so the state the caller now reads from the database misses nothing.
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(confirmed.wait(), 2)
            await self._read_presence(table_id)
            await self._read_watching(table_id)

    async def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        await super().unsubscribe(table_id, subscriber)
        if table_id not in self.local:
            self._confirmed.pop(self.channel(table_id), None)
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(self.channel(table_id))

    async def publish(self, update: Update, skip: Subscriber | None = None) -> None:
        await super().publish(update, skip)
        self._outbox.put_nowait(update)

    async def _lobby_sequence(self, advance: bool) -> tuple[str, int]:
        epoch, seq = await self._redis.eval(LOBBY_SEQUENCE, 2, "meeple:lobby-epoch", "meeple:lobby-seq",
                                            secrets.token_hex(6), "1" if advance else "0")
        return (epoch.decode() if isinstance(epoch, bytes) else str(epoch)), int(seq)

    async def lobby_position(self) -> tuple[str, int]:
        return await self._lobby_sequence(advance=False)

    async def lobby_sequence(self) -> tuple[str, int]:
        return await self._lobby_sequence(advance=True)

    async def publish_lobby(self, message: JSON) -> None:
        """This process's lobby sockets at once, then the other processes' over the lobby's channel
        (one message, however many sockets and processes)."""
        await super().publish_lobby(message)
        try:
            await self._redis.publish(self.lobby_channel, dumps({**message, "origin": self.origin}))
        except Exception:
            log.exception("publishing a lobby message failed")

    async def _send(self) -> None:
        """Publish in order, off the mover's path (a move does not wait for Redis): one message per
        update, whatever the number of seats and processes; the table's presence hash only when this
        process's online seats there changed."""
        while True:
            update = await self._outbox.get()
            if update is None:
                return
            try:
                online_same = self._written_online.get(update.table_id) == update.online
                watching_same = self._written_watching.get(update.table_id, 0) == update.watching
                if online_same and watching_same:
                    await self._redis.publish(self.channel(update.table_id), update.to_wire())
                    continue
                key = self.presence_key(update.table_id)
                watching_key = self.watching_key(update.table_id)
                async with self._redis.pipeline(transaction=False) as pipe:
                    pipe.publish(self.channel(update.table_id), update.to_wire())
                    if not online_same and update.online:
                        pipe.hset(key, self.origin, json.dumps(update.online))
                        pipe.expire(key, 86400)
                    elif not online_same:
                        pipe.hdel(key, self.origin)
                    if not watching_same and update.watching:
                        pipe.hset(watching_key, self.origin, update.watching)
                        pipe.expire(watching_key, 86400)
                    elif not watching_same:
                        pipe.hdel(watching_key, self.origin)
                    await pipe.execute()
                if update.online:
                    self._written_online[update.table_id] = list(update.online)
                else:
                    self._written_online.pop(update.table_id, None)
                if update.watching:
                    self._written_watching[update.table_id] = update.watching
                else:
                    self._written_watching.pop(update.table_id, None)
            except Exception:
                log.exception("publishing an update of table %s failed", update.table_id)

    async def owner(self, table_id: str) -> str | None:
        """The owner of ``table_id`` if another process; this one takes the lease when nobody has it.
        Redis failing: ``None`` (apply here; the database still keeps each move once)."""
        if table_id in self.owned:
            return None
        if table_id in self.forwarding:
            return self.forwarding[table_id]
        try:
            if not self.owns_tables:
                found = await self._redis.get(self.owner_key(table_id))
                return None if found is None else (found.decode() if isinstance(found, bytes) else str(found))
            previous = await self._redis.set(self.owner_key(table_id), self.origin, nx=True, px=LEASE_MS, get=True)
        except Exception:
            log.exception("reading the owner of table %s failed; applying here", table_id)
            return None
        owner = previous.decode() if isinstance(previous, bytes) else previous
        if owner is None or owner == self.origin:
            self.owned.add(table_id)
            return None
        self.forwarding[table_id] = str(owner)
        return str(owner)

    @property
    def owner_first(self) -> bool:
        return self.owns_tables

    async def claim(self, table_id: str) -> None:
        if self.owns_tables and table_id not in self.owned and table_id not in self.forwarding:
            await self.owner(table_id)

    async def due_here(self, due: Sequence[tuple[str, datetime]], now: datetime) -> dict[str, bool]:
        """Its own tables' at once; another's only once the table has no live owner (no lease: it died
        or stopped, or nobody loaded the table since) or it is overdue by more than ``OWNER_GRACE``. A
        process that never owns (a bot worker) handles everything; so does one that cannot read Redis."""
        if not self.owns_tables:
            return {table_id: False for table_id, _moment in due}
        here: dict[str, bool] = {}
        asked: list[str] = []
        for table_id, moment in due:
            if table_id in self.owned:
                here[table_id] = True
            elif now - moment > OWNER_GRACE:
                here[table_id] = False
            else:
                asked.append(table_id)
        if not asked:
            return here
        try:
            owners = await self._redis.mget([self.owner_key(table_id) for table_id in asked])
        except Exception:
            log.exception("reading the owners of tables with something due failed; handling them here")
            owners = [None] * len(asked)
        for table_id, owner in zip(asked, owners, strict=True):
            origin = owner.decode() if isinstance(owner, bytes) else owner
            if origin is None or origin == self.origin:
                here[table_id] = origin == self.origin
        return here

    async def forward(self, owner: str, request: dict[str, Any]) -> dict[str, Any]:
        request_id = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[request_id] = answer
        try:
            message = dumps({"request": request_id, "from": self.origin, **request})
            if not await self._redis.publish(self.inbox(owner), message):
                raise OwnerSilent(owner)  # nobody listens there: the owner is gone
            return await asyncio.wait_for(answer, FORWARD_TIMEOUT)
        except TimeoutError:
            raise OwnerSilent(owner) from None
        finally:
            self._answers.pop(request_id, None)

    async def take_over(self, table_id: str, silent: str) -> str | None:
        if not self.owns_tables:
            return None
        try:
            owner = await self._redis.eval(TAKE_OVER, 1, self.owner_key(table_id), silent, self.origin, LEASE_MS)
        except Exception:
            log.exception("taking table %s over failed; applying here", table_id)
            return None
        owner = owner.decode() if isinstance(owner, bytes) else str(owner)
        if owner != self.origin:
            self.forwarding[table_id] = owner
            return owner
        self.owned.add(table_id)
        self.forwarding.pop(table_id, None)
        self.counts["taken_over"] += 1
        log.warning("took table %s over from process %s, which did not answer", table_id, silent)
        return None

    def owns_elsewhere(self, table_id: str) -> bool:
        return table_id in self.forwarding

    def disown(self, table_id: str) -> None:
        self.owned.discard(table_id)
        self.forwarding.pop(table_id, None)

    def _inbox_message(self, data: str | bytes) -> None:
        """A request forwarded to this process (answered from a task, off the listener) or an answer."""
        try:
            message = loads(data.decode() if isinstance(data, bytes) else data)
            if "answer" in message:
                waiting = self._answers.get(message["answer"])
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
                return
            request_id, sender = str(message["request"]), str(message["from"])
        except (ValueError, KeyError, TypeError, AttributeError):
            log.error("an unreadable message on this process's channel")
            return
        task = asyncio.create_task(self._answer(request_id, sender, message))
        self._handling.add(task)
        task.add_done_callback(self._handling.discard)

    async def _answer(self, request_id: str, sender: str, request: dict[str, Any]) -> None:
        try:
            if self.forward_handler is None:
                raise RuntimeError("no handler for forwarded requests")
            answer = await self.forward_handler(request)
        except Exception:
            log.exception("a request forwarded by process %s failed", sender)
            answer = {"refusal": {"type": "error", "code": "internal", "message": "the server failed; try again",
                                  "status": 500}}
        with contextlib.suppress(Exception):
            await self._redis.publish(self.inbox(sender), dumps({**answer, "answer": request_id}))

    async def online_anywhere(self, table_id: str) -> set[int]:
        """Who is online at ``table_id``: here, and in every live process as the table's presence hash
        says now (read, not remembered: this process may not follow the table, and would not hear
        when those seats leave)."""
        seats = self.online(table_id)
        for remote in (await self._live_presence(table_id)).values():
            seats |= remote
        return seats

    async def _read_presence(self, table_id: str) -> None:
        """Learn who is online at ``table_id`` in the other live processes, from the table's presence hash."""
        remote = self.remote_online.setdefault(table_id, {})
        for origin, seats in (await self._live_presence(table_id)).items():
            remote.setdefault(origin, seats)

    async def _live_presence(self, table_id: str) -> dict[str, set[int]]:
        """The table's presence hash as it is now: each other live process's online seats (origin →
        seats); none when Redis could not be read (logged)."""
        try:
            entries = await self._redis.hgetall(self.presence_key(table_id))
            raw_by_origin = {(o.decode() if isinstance(o, bytes) else o): raw for o, raw in entries.items()}
            others = [o for o in raw_by_origin if o != self.origin]
            alive = [bool(x) for x in await self._redis.mget([self.alive_key(o) for o in others])] if others else []
        except Exception:
            log.exception("reading who is online at table %s failed", table_id)
            return {}
        presence: dict[str, set[int]] = {}
        for origin, live in zip(others, alive, strict=True):
            if live:
                with contextlib.suppress(ValueError, TypeError):
                    presence[origin] = {int(seat) for seat in json.loads(raw_by_origin[origin])}
        return presence

    async def _read_watching(self, table_id: str) -> None:
        """How many spectators watch ``table_id`` through the other live processes (their hash)."""
        try:
            entries = await self._redis.hgetall(self.watching_key(table_id))
            counts = {(o.decode() if isinstance(o, bytes) else o): int(n) for o, n in entries.items()}
            others = [o for o in counts if o != self.origin]
            alive = [bool(x) for x in await self._redis.mget([self.alive_key(o) for o in others])] if others else []
        except Exception:
            log.exception("reading who watches table %s failed", table_id)
            return
        watching = self.remote_watching.setdefault(table_id, {})
        for origin, live in zip(others, alive, strict=True):
            if live and origin not in watching:
                watching[origin] = counts[origin]

    async def _lobby_message(self, data: str | bytes) -> None:
        try:
            message = loads(data.decode() if isinstance(data, bytes) else data)
            origin = message.pop("origin")
        except (ValueError, KeyError, TypeError, AttributeError):
            log.error("an unreadable message on the lobby's channel")
            return
        if origin != self.origin:
            await self._deliver_lobby(message)

    async def _heartbeat(self) -> None:
        """Prove this process alive, and forget the online seats of processes that stopped proving it
        (killed: they could not say goodbye), telling the presence listeners which tables changed."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._redis.set(self.alive_key(self.origin), dumps(self.counts), ex=int(3 * HEARTBEAT))
                await self._renew_leases()
                origins = sorted({origin for remote in self.remote_online.values() for origin in remote}
                                 | {origin for counts in self.remote_watching.values() for origin in counts})
                if not origins:
                    continue
                alive = await self._redis.mget([self.alive_key(origin) for origin in origins])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the Redis heartbeat failed; retrying")
                continue
            dead = {origin for origin, value in zip(origins, alive, strict=True) if value is None}
            for counts in self.remote_watching.values():
                for origin in dead & counts.keys():
                    del counts[origin]
            for table_id, remote in list(self.remote_online.items()):
                if dead & remote.keys():
                    for origin in dead:
                        remote.pop(origin, None)
                    for listener in self.presence_listeners:
                        listener(table_id)

    async def _renew_leases(self) -> None:
        """Keep the tables this process owns; forget those another process took over meanwhile."""
        owned = sorted(self.owned)
        if not owned:
            return
        renewed = await self._redis.eval(RENEW, len(owned), *owned, self.origin, LEASE_MS)
        for table_id, kept in zip(owned, renewed, strict=True):
            if not kept:
                self.owned.discard(table_id)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading from Redis failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel = message.get("channel")
            channel = channel.decode() if isinstance(channel, bytes) else channel
            if message["type"] == "subscribe":
                event = self._confirmed.get(channel)
                if event is not None:
                    event.set()
                continue
            if message["type"] != "message":
                continue
            if channel == self.inbox(self.origin):
                self._inbox_message(message["data"])
                continue
            if channel == self.lobby_channel:
                await self._lobby_message(message["data"])
                continue
            try:
                update = Update.from_wire(message["data"])
            except (ValueError, KeyError, TypeError):
                log.error("an unreadable update on %s", channel)
                continue
            if update.origin == self.origin:
                continue
            self.received(update)
            await self.deliver(update)
