"""Load benchmark of the web platform: many 4-seat tables of people playing over WebSocket.

    python bench/load_server.py --tables 20,50,100,200 --think 1.0 --duration 25 --spread
    python bench/load_server.py --database postgresql postgresql+psycopg://user:pw@127.0.0.1/bench
    python bench/load_server.py --processes 2 --database postgresql URL --redis redis://127.0.0.1:6379/0
    python bench/load_server.py --processes 2 --routing seats --database postgresql URL --redis auto
    python bench/load_server.py --url http://127.0.0.1:8000          # a server that is already running
    python bench/load_server.py --processes 2 --cpu-quota 0.25 ...   # each server capped at a quarter core

It starts ``meeple serve`` (``--processes N`` of them, on free ports of 127.0.0.1; a temporary SQLite
file unless ``--database`` says otherwise), or attaches to servers given by ``--url`` (loopback only).
Then, for each level of ``--tables`` in turn, its client processes (``--client-procs``) bring the
number of tables up to that level: each table is created and its seats taken over the HTTP API (one
seat token each), one WebSocket is opened per seat (picows when it is installed, else ``websockets``:
``--ws-client``; offering permessage-deflate, as browsers do), and the seats play. A seat whose message carries
legal actions waits the think time (``--think``, jittered by ``--jitter``) and sends a random one
with the message's ``version``. With ``--spread`` every new table is first fast-forwarded by a random
number of moves (think time 0) so that the tables are spread over the whole length of a game. A
table whose game ends is replaced by a new one. With several servers, ``--routing table`` (the
default) does what nginx's ``hash $table_id consistent`` does in front of them (docs/deploy.md): a
table is created on the servers in turn (that request names no table), and its joins and every one of
its sockets go to the one server its id hashes to, so tables are spread over the servers and each
table's updates stay in one process; ``--routing seats`` puts a table's seats on the servers in turn,
so every move's update crosses Redis. After ``--warmup`` seconds, ``--duration`` seconds are
measured and printed, one figure per line (``key: value``):

- moves/s: moves acknowledged to their sender in the window;
- sender latency: act sent -> the sender's own update (the first message with a newer version);
  fan-out latency: act sent -> the last of the table's seats has its update;
- errors: refusals (error messages), disconnects, timeouts (a move not seen by every seat within
  ``--timeout``; split into those that arrived late and those lost, some seat still not sent them after
  ``LOST_AFTER`` timeouts), stalls (a table that stopped moving), setup errors (HTTP refusals, failed
  connections), counted since the previous level;
- bytes per message (the JSON payload, before permessage-deflate) and per move;
- each server process's RSS and CPU% (100% = one core), and per server the moves/s its sockets' seats
  made and its CPU ms per such move (with ``--routing table``: the moves of the tables it serves);
- the machine's CPU, each client process's CPU
  and event-loop lag; when a client process is above ``SATURATED_CPU`` of a core or its loop lags
  more than ``SATURATED_LAG`` the level is marked client-bound: its figures say more about the client
  than about the server.

Server and client share the machine, so the client's CPU is taken from the server's. ``--cpu-quota
CORES`` caps each server process at that share of one core (a cgroup, ``bench/cpu_quota.py``; root),
so one process and two can be compared at saturation on a machine whose other cores run the clients;
each level then prints how often the cap held each server back (``throttled``). Every loop is
bounded in count and time; the whole run stops by itself at a deadline computed from its arguments.
It exits 0 after a closing ``summary:`` line, non-zero when it could not run (a server that does not
start, a mode the server does not support yet).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib
import importlib.util
import json
import math
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: a client process above this share of one core, or whose event loop lags more than this, is the bottleneck
SATURATED_CPU = 85.0
SATURATED_LAG = 0.050
#: other processes of the machine using more than this (% of a core) during a level disturb its figures
OTHERS_WARNING = 25.0
LAG_PROBE = 0.020
#: keys under which a message may carry the acting seat's legal actions
LEGAL_KEYS = ("legal", "legal_actions")
#: a table is fast-forwarded by up to this many moves with --spread (random Citadels games last ~140-370)
DEFAULT_SPREAD = {"citadels": 200}
MAX_RECONNECTS = 3
#: a move some seat has still not been sent after this many --timeout periods counts as lost
LOST_AFTER = 3
MAX_REFUSALS_PER_TABLE = 20


# --- figures ---------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile, ``None`` for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1000:.1f}"


# --- the client processes --------------------------------------------------------------------------


@dataclass(frozen=True)
class ClientConfig:
    """What one client process needs; picklable for multiprocessing's spawn."""

    index: int
    servers: tuple[str, ...]
    game: str
    players: int
    think: float
    jitter: float
    timeout: float
    setup_timeout: float
    compression: bool
    seed: int
    deadline: float
    routing: str = "table"
    setup_concurrency: int = 16
    ws_client: str = "websockets"


@dataclass
class Stats:
    """What a client process saw since the previous report; samples only inside the measured window."""

    sender: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    moves: int = 0
    moves_by_server: Counter[str] = field(default_factory=Counter)
    sizes: list[int] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    disconnects: int = 0
    timeouts: int = 0
    late: int = 0
    lost: int = 0
    stalls: int = 0
    setup_errors: Counter[str] = field(default_factory=Counter)
    replaced: int = 0
    opened: int = 0  # sockets opened since the previous report (the level's setup included)
    deflated: int = 0  # of which with permessage-deflate


@dataclass
class Pending:
    version: int
    seat: int
    sent: float
    measured: bool
    seen: set[int] = field(default_factory=set)
    own: bool = False
    late: bool = False  # already counted as a timeout; still waited for, up to LOST_AFTER timeouts


loads: Callable[[bytes | str], Any] = json.loads
with contextlib.suppress(ImportError):  # orjson (one of meeple's dependencies) reads the same, faster
    import orjson

    loads = orjson.loads

#: what a client offers, as browsers do (``client_max_window_bits``: any window the server likes)
DEFLATE_OFFER = "permessage-deflate; client_max_window_bits"
#: the 4 bytes a permessage-deflate sender strips from the end of each compressed message (RFC 7692, 7.2.2)
DEFLATE_TAIL = b"\x00\x00\xff\xff"


class SeatSocket:
    """A seat's WebSocket, whichever library carries it: ``send`` a text, ``close``; each message received
    is handed to ``deliver`` (its JSON payload, decompressed) and the closing to ``closed``, once."""

    failed = False  # it closed because this client failed to read a message, not because the server closed it
    deflate = False  # the server agreed to permessage-deflate

    async def send(self, text: str) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class WebsocketsSocket(SeatSocket):
    """On ``websockets`` (asyncio): a reader task a socket, the library's own permessage-deflate."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.reader: asyncio.Task[None] | None = None

    async def read(self, deliver: Callable[[bytes], None], closed: Callable[[SeatSocket], None]) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                deliver(await self.ws.recv(decode=False))
        except ConnectionClosed:
            pass
        except asyncio.CancelledError:
            return
        except Exception:
            self.failed = True
        closed(self)

    async def send(self, text: str) -> None:
        await self.ws.send(text)

    async def close(self) -> None:
        if self.reader is not None and self.reader is not asyncio.current_task():
            self.reader.cancel()
        await self.ws.close()


async def open_websockets(url: str, compression: bool, deliver: Callable[[bytes], None],
                          closed: Callable[[SeatSocket], None]) -> SeatSocket:
    from websockets.asyncio.client import connect

    ws = await connect(url, compression="deflate" if compression else None, max_size=None, ping_interval=None,
                       proxy=None, open_timeout=30, close_timeout=2)
    socket = WebsocketsSocket(ws)
    socket.deflate = bool(ws.protocol.extensions)
    socket.reader = asyncio.get_running_loop().create_task(socket.read(deliver, closed))
    return socket


@functools.cache
def picows_socket_class() -> Any:
    """The picows socket (a Cython WebSocket client for asyncio: frames are parsed in C and handed to a
    callback, no task or future a message, about a third of ``websockets``' CPU a message here). picows
    negotiates no extension, so permessage-deflate is offered in a header and decoded here with zlib;
    this client's own messages go uncompressed, which the extension allows."""
    import picows

    text, binary, continuation, close = (picows.WSMsgType.TEXT, picows.WSMsgType.BINARY,
                                         picows.WSMsgType.CONTINUATION, picows.WSMsgType.CLOSE)

    class PicowsSocket(SeatSocket, picows.WSListener):
        def __init__(self, deliver: Callable[[bytes], None], closed: Callable[[SeatSocket], None]) -> None:
            self.deliver, self.closed = deliver, closed
            self.transport: Any = None
            self.inflater: Any = None
            self.fresh_inflater = False  # the server said server_no_context_takeover: one context a message
            self.parts: list[bytes] = []
            self.compressed = False
            self.gone = asyncio.get_running_loop().create_future()

        def on_ws_connected(self, transport: Any) -> None:
            self.transport = transport
            agreed = ",".join(transport.response.headers.getall("Sec-WebSocket-Extensions", []))
            if "permessage-deflate" in agreed:
                self.deflate = True
                self.inflater = zlib.decompressobj(wbits=-15)
                self.fresh_inflater = "server_no_context_takeover" in agreed

        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            kind = frame.msg_type
            if kind is text or kind is binary:
                self.parts, self.compressed = [], bool(frame.rsv1)
            elif kind is close:
                transport.send_close(frame.get_close_code())
                transport.disconnect()
                return
            elif kind is not continuation:
                return  # ping (picows answers it) or pong
            payload = frame.get_payload_as_bytes()
            if not frame.fin:
                self.parts.append(payload)
                return
            if self.parts:
                payload, self.parts = b"".join([*self.parts, payload]), []
            if self.compressed:
                if self.fresh_inflater:
                    self.inflater = zlib.decompressobj(wbits=-15)
                try:
                    payload = self.inflater.decompress(payload + DEFLATE_TAIL)
                except (zlib.error, AttributeError):  # garbled, or compressed though nothing was agreed
                    self.failed = True
                    transport.disconnect()
                    return
            self.deliver(payload)

        def on_ws_disconnected(self, transport: Any) -> None:
            if not self.gone.done():
                self.gone.set_result(None)
            self.closed(self)

        async def send(self, text: str) -> None:
            self.transport.send(text_kind, text.encode())

        async def close(self) -> None:
            if self.transport is None or self.gone.done():
                return
            self.transport.send_close(picows.WSCloseCode.OK)
            self.transport.disconnect(graceful=True)
            await self.gone

    text_kind = text
    return PicowsSocket


async def open_picows(url: str, compression: bool, deliver: Callable[[bytes], None],
                      closed: Callable[[SeatSocket], None]) -> SeatSocket:
    import picows

    socket_class = picows_socket_class()
    _transport, listener = await picows.ws_connect(
        lambda: socket_class(deliver, closed), url, websocket_handshake_timeout=30,
        extra_headers={"Sec-WebSocket-Extensions": DEFLATE_OFFER} if compression else None)
    assert isinstance(listener, SeatSocket)
    return listener


class Seat:
    def __init__(self, table: Table, index: int, token: str, server: str) -> None:
        self.table = table
        self.index = index
        self.token = token
        self.server = server
        self.ws: SeatSocket | None = None
        self.version = -1
        self.legal: list[str] = []
        self.acted = -1
        self.scheduled = -1
        self.think: asyncio.Task[None] | None = None
        self.reconnects = 0

    @property
    def url(self) -> str:
        parts = urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        # on a reconnection, the version it has: a server that knows ?version= sends only what it missed
        since = f"&version={self.version}" if self.version >= 0 else ""
        return f"{scheme}://{parts.netloc}/ws/tables/{self.table.id}?token={self.token}{since}"


class Table:
    def __init__(self, table_id: str, target: int) -> None:
        self.id = table_id
        self.target = target
        self.seats: list[Seat] = []
        self.version = 0
        self.pendings: list[Pending] = []
        self.playing = False
        self.over = False
        self.closed = False
        self.refusals = 0
        self.progress = time.monotonic()

    @property
    def forwarding(self) -> bool:
        """Still being fast-forwarded (think time 0) to its starting move."""
        return self.version < self.target


class Client:
    """One client process: its share of the tables, their sockets, and the figures."""

    def __init__(self, conn: Connection, config: ClientConfig) -> None:
        self.conn = conn
        self.config = config
        self.rng = random.Random(config.seed)
        self.tables: dict[str, Table] = {}
        self.stats = Stats()
        self.window = (math.inf, math.inf)
        self.stopping = False
        self.created = 0
        self.max_created = 0
        self.next_server = config.index
        self.background: set[asyncio.Task[Any]] = set()
        self.http: Any = None
        self.spread = 0  # while a level's tables are set up: a finished game's successor is spread too

    def in_window(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]

    def spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coroutine)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    # --- the run, as the parent commands it

    async def run(self) -> None:
        import httpx

        loop = asyncio.get_running_loop()
        commands: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

        def on_command() -> None:
            try:
                commands.put_nowait(self.conn.recv())
            except (EOFError, OSError):
                loop.remove_reader(self.conn.fileno())
                commands.put_nowait(("stop",))

        loop.add_reader(self.conn.fileno(), on_command)
        self.spawn(self.probe_lag())
        self.spawn(self.watch_tables())
        # No cookies (a seat cookie would make the next join at that table "already seated"), no proxies.
        jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        async with httpx.AsyncClient(timeout=30, cookies=jar, trust_env=False,
                                     limits=httpx.Limits(max_connections=self.config.setup_concurrency)) as http:
            self.http = http
            while True:
                remaining = self.config.deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    command = await asyncio.wait_for(commands.get(), timeout=remaining)
                except TimeoutError:
                    break
                if command[0] == "grow":
                    self.conn.send(("ready", await self.grow(int(command[1]), int(command[2]))))
                elif command[0] == "measure":
                    self.conn.send(("report", await self.measure(float(command[1]), float(command[2]))))
                else:
                    break
            self.stopping = True
            await self.close_all()
        for task in list(self.background):
            task.cancel()

    async def grow(self, total: int, spread: int) -> dict[str, Any]:
        """Bring this process's tables up to ``total``, the new ones fast-forwarded by up to ``spread`` moves."""
        self.max_created = self.created + 3 * total + 10  # replacements of finished games are bounded too
        self.spread = spread
        gate = asyncio.Semaphore(self.config.setup_concurrency)
        limit = time.monotonic() + self.config.setup_timeout

        async def one() -> None:
            # Creating a table and fast-forwarding it hold one of a few slots, so that the server is not
            # flooded by hundreds of tables moving at think time 0 (its HTTP answers would time out).
            async with gate:
                for attempt in range(3):
                    table = await self.new_table(self.rng.randrange(spread) if spread > 0 else 0)
                    if table is not None or time.monotonic() > limit:
                        break
                    await asyncio.sleep(1.0 + attempt)
                while table is not None and table.forwarding and not table.closed and time.monotonic() < limit:
                    await asyncio.sleep(0.1)

        await asyncio.gather(*(one() for _ in range(max(0, total - len(self.tables)))))
        while time.monotonic() < limit and any(t.forwarding and not t.over for t in self.tables.values()):
            await asyncio.sleep(0.2)
        late = sum(1 for t in self.tables.values() if t.forwarding and not t.over)
        self.spread = 0
        for table in self.tables.values():  # whatever was not forwarded in time plays from where it is
            table.target = min(table.target, table.version)
        return {"tables": len(self.tables), "late": late}

    async def measure(self, start: float, end: float) -> dict[str, Any]:
        """Record from ``start`` to ``end`` (monotonic clock, shared by the processes of this machine)."""
        self.window = (start, end)
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        cpu, wall, system = time.process_time(), time.monotonic(), os.times().system
        positions = [t.version for t in self.tables.values()]
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        cpu, wall, system = time.process_time() - cpu, time.monotonic() - wall, os.times().system - system
        # moves sent inside the window may be answered after it: wait for them, within the timeout
        limit = time.monotonic() + self.config.timeout
        while time.monotonic() < limit and any(p.measured for t in self.tables.values() for p in t.pendings):
            await asyncio.sleep(0.05)
        stats, self.stats = self.stats, Stats()
        return {
            "index": self.config.index, "tables": len(self.tables), "positions": positions,
            "cpu": cpu, "system": system, "wall": wall, "sender": stats.sender, "fanout": stats.fanout,
            "moves": stats.moves,
            "moves_by_server": dict(stats.moves_by_server),
            "sizes": stats.sizes, "lag": stats.lag, "refusals": dict(stats.refusals),
            "disconnects": stats.disconnects, "timeouts": stats.timeouts, "late": stats.late, "lost": stats.lost,
            "stalls": stats.stalls,
            "setup_errors": dict(stats.setup_errors), "replaced": stats.replaced,
            "opened": stats.opened, "deflated": stats.deflated,
        }

    # --- tables

    def server_for(self, seat: int, table_number: int, table_id: str | None) -> str:
        """Where a request of ``seat`` goes. ``table`` routing: the server ``table_id`` hashes to (a
        stable hash of the id, as nginx's ``hash $table_id consistent`` over a fixed set of servers),
        and for the creation, which names no table yet, the servers in turn. ``seats``: the table's
        seats on the servers in turn."""
        servers = self.config.servers
        if self.config.routing == "table":
            if table_id is None:
                return servers[table_number % len(servers)]
            return servers[zlib.crc32(table_id.encode()) % len(servers)]
        return servers[(table_number + seat) % len(servers)]

    async def new_table(self, target: int) -> Table | None:
        """Create a table, take every seat over the API, open one WebSocket a seat."""
        if self.stopping or self.created >= self.max_created:
            return None
        self.created += 1
        number = self.next_server
        self.next_server += 1
        players, stats = self.config.players, self.stats
        try:
            reply = await self.http.post(f"{self.server_for(0, number, None)}/api/tables", json={
                "game": self.config.game, "players": players, "seats": [{"kind": "human"}] * players,
                "seat": 0, "name": "bench0"})
            if reply.status_code != 201:
                stats.setup_errors[f"create {reply.status_code}"] += 1
                return None
            created = reply.json()
            table = Table(created["table"]["id"], target)
            tokens = [created["token"]]
            for index in range(1, players):
                reply = await self.http.post(f"{self.server_for(index, number, table.id)}/api/tables/{table.id}/join",
                                             json={"seat": index, "name": f"bench{index}"})
                if reply.status_code != 200:
                    stats.setup_errors[f"join {reply.status_code}"] += 1
                    return None
                tokens.append(reply.json()["token"])
        except Exception as error:
            stats.setup_errors[type(error).__name__] += 1
            return None
        table.seats = [Seat(table, i, token, self.server_for(i, number, table.id)) for i, token in enumerate(tokens)]
        self.tables[table.id] = table
        opened = await asyncio.gather(*(self.connect(seat) for seat in table.seats))
        if not all(opened):
            await self.drop(table)
            return None
        table.playing = True
        table.progress = time.monotonic()
        for seat in table.seats:
            self.consider(seat)
        return table

    async def connect(self, seat: Seat) -> bool:
        def deliver(raw: bytes) -> None:
            self.on_message(seat, raw, time.monotonic())

        def closed(socket: SeatSocket) -> None:
            self.spawn(self.lost(seat, socket))

        try:
            opener = open_picows if self.config.ws_client == "picows" else open_websockets
            seat.ws = await opener(seat.url, self.config.compression, deliver, closed)
        except Exception as error:
            self.stats.setup_errors[f"connect {type(error).__name__}"] += 1
            return False
        self.stats.opened += 1
        self.stats.deflated += seat.ws.deflate
        return True

    async def lost(self, seat: Seat, socket: SeatSocket) -> None:
        """A seat's socket closed: unless the table is being closed, reconnect (a few times), else drop it."""
        table = seat.table
        if socket.failed:
            self.stats.refusals["client failure"] += 1
        if self.stopping or table.closed or seat.ws is not socket:
            return
        self.stats.disconnects += 1
        seat.ws = None
        if seat.reconnects < MAX_RECONNECTS:
            seat.reconnects += 1
            await asyncio.sleep(0.5 * seat.reconnects)
            if not (self.stopping or table.closed) and await self.connect(seat):
                return
        await self.drop(table)

    def on_message(self, seat: Seat, raw: bytes | str, now: float) -> None:
        table, stats = seat.table, self.stats
        if self.in_window(now):
            stats.sizes.append(len(raw))
        try:
            message = loads(raw)
        except ValueError:
            stats.refusals["unreadable message"] += 1
            return
        if not isinstance(message, dict):
            stats.refusals["unreadable message"] += 1
            return
        if message.get("type") == "error":
            stats.refusals[str(message.get("code"))] += 1
            table.refusals += 1
            seat.acted = -1  # the fresh state that follows may be acted on again
            if table.refusals > MAX_REFUSALS_PER_TABLE:
                self.spawn(self.drop(table, replace=True))
            return
        version = message.get("version")
        if type(version) is not int:
            return  # pong, or a message this client does not know
        seat.version = version
        for pending in list(table.pendings):
            if version <= pending.version:
                continue
            if seat.index == pending.seat and not pending.own:
                pending.own = True
                if pending.measured:
                    stats.sender.append(now - pending.sent)
                if self.in_window(now):
                    stats.moves += 1
                    stats.moves_by_server[seat.server] += 1
            pending.seen.add(seat.index)
            if len(pending.seen) == len(table.seats):
                if pending.measured:
                    stats.fanout.append(now - pending.sent)
                if pending.late:
                    stats.late += 1
                table.pendings.remove(pending)
        if version > table.version:
            table.version = version
            table.progress = now
        if message.get("is_over") is True:
            if not table.over:
                table.over = True
                self.spawn(self.drop(table, replace=True))
            return
        legal: list[Any] = next((message[key] for key in LEGAL_KEYS if isinstance(message.get(key), list)), [])
        seat.legal = [action for action in legal if isinstance(action, str)]
        self.consider(seat)

    def consider(self, seat: Seat) -> None:
        """Act on the seat's latest message if it must act and has not yet done so."""
        table = seat.table
        version = seat.version
        if not table.playing or table.closed or not seat.legal or version in (seat.acted, seat.scheduled):
            return
        if seat.think is not None and not seat.think.done():
            seat.think.cancel()
        delay = 0.0 if table.forwarding else self.config.think * self.rng.uniform(1 - self.config.jitter,
                                                                                   1 + self.config.jitter)
        seat.scheduled = version
        seat.think = self.spawn(self.act(seat, version, self.rng.choice(seat.legal), delay))

    async def act(self, seat: Seat, version: int, action: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        table = seat.table
        if seat.version != version or seat.ws is None or table.closed or self.stopping:
            seat.scheduled = -1
            return
        seat.acted = version
        sent = time.monotonic()
        table.pendings.append(Pending(version, seat.index, sent, self.in_window(sent)))
        with contextlib.suppress(Exception):  # a closed socket is counted when it reports its closing
            await seat.ws.send(json.dumps({"type": "act", "action": action, "version": version}))

    async def drop(self, table: Table, replace: bool = False) -> None:
        """Close a table's sockets (a finished game, a broken table); ``replace`` starts a new one."""
        if table.closed:
            return
        table.closed = True
        self.tables.pop(table.id, None)
        for seat in table.seats:
            if seat.think is not None:
                seat.think.cancel()
        await asyncio.gather(*(self.close(seat) for seat in table.seats))
        if replace and not self.stopping:
            self.stats.replaced += 1
            await self.new_table(self.rng.randrange(self.spread) if self.spread > 0 else 0)

    async def close(self, seat: Seat) -> None:
        ws, seat.ws = seat.ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), timeout=3)

    async def close_all(self) -> None:
        tables = list(self.tables.values())
        for start in range(0, len(tables), 200):
            await asyncio.gather(*(self.drop(t) for t in tables[start:start + 200]))

    # --- watchdogs

    async def probe_lag(self) -> None:
        """How late the event loop wakes up: a sleep of ``LAG_PROBE`` seconds, measured."""
        while not self.stopping and time.monotonic() < self.config.deadline:
            before = time.monotonic()
            await asyncio.sleep(LAG_PROBE)
            now = time.monotonic()
            if self.in_window(now):
                self.stats.lag.append(max(0.0, now - before - LAG_PROBE))

    async def watch_tables(self) -> None:
        """A move not seen by every seat after ``timeout`` is a timeout, and still waited for: if it arrives it
        was late, if some seat has not been sent it after ``LOST_AFTER`` timeouts it is lost. A table that
        stopped moving with no move outstanding is a stall. Lost moves and stalls are followed by a
        refresh of the table's seats (at most once a timeout period each), so the table goes on."""
        timeout, stats = self.config.timeout, self.stats
        while not self.stopping and time.monotonic() < self.config.deadline:
            await asyncio.sleep(min(1.0, timeout / 4))
            now, stats = time.monotonic(), self.stats
            for table in list(self.tables.values()):
                if table.closed or not table.playing:
                    continue
                for pending in table.pendings:
                    if not pending.late and now - pending.sent > timeout:
                        pending.late = True
                        stats.timeouts += 1
                lost = [p for p in table.pendings if now - p.sent > LOST_AFTER * timeout]
                stalled = not table.pendings and now - table.progress > timeout + 2 * self.config.think
                if not (lost or stalled):
                    continue
                stats.lost += len(lost)
                stats.stalls += 1 if stalled else 0
                table.pendings.clear()
                table.progress = now
                for seat in table.seats:
                    seat.acted = seat.scheduled = -1
                    if seat.ws is not None:
                        with contextlib.suppress(Exception):
                            await seat.ws.send('{"type": "refresh"}')


def client_main(conn: Connection, config: ClientConfig) -> None:
    """A client process: its own event loop (uvloop when installed), commanded over ``conn``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    asyncio.run(Client(conn, config).run())


# --- processes of this machine ---------------------------------------------------------------------


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _psutil() -> Any:
    """psutil when it is installed (``pip install psutil``), else None: /proc is read instead."""
    try:
        return importlib.import_module("psutil")
    except ImportError:
        return None


def children_of(pid: int) -> list[int]:
    """``pid`` and its descendants (a server with workers of its own)."""
    psutil = _psutil()
    if psutil is not None:
        try:
            return [pid] + [int(child.pid) for child in psutil.Process(pid).children(recursive=True)]
        except Exception:
            return [pid]
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            parents.setdefault(parent, []).append(int(entry.name))
    found, queue = [pid], [pid]
    while queue and len(found) < 1000:
        for child in parents.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def cpu_times(pid: int) -> tuple[float, float] | None:
    """(user, system) CPU seconds of a process, all its threads."""
    psutil = _psutil()
    if psutil is not None:
        try:
            times = psutil.Process(pid).cpu_times()
            return float(times.user), float(times.system)
        except Exception:
            return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def cpu_seconds(pid: int) -> float | None:
    times = cpu_times(pid)
    return None if times is None else times[0] + times[1]


def rss_bytes(pid: int) -> int | None:
    psutil = _psutil()
    if psutil is not None:
        try:
            return int(psutil.Process(pid).memory_info().rss)
        except Exception:
            return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def machine_busy() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole machine since boot, from /proc/stat."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    total = sum(fields[:8])
    return (total - idle) / CLOCK_TICKS, total / CLOCK_TICKS


def listening_pids(port: int) -> list[int]:
    """The processes that hold a listening TCP socket on ``port`` (for servers given by --url)."""
    inodes: set[str] = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(parts[9])
    pids: list[int] = []
    if not inodes:
        return pids
    wanted = {f"socket:[{inode}]" for inode in inodes}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in wanted:
                        pids.append(int(entry.name))
                        break
    return sorted(pids)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    url: str
    pid: int | None
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    def pids(self) -> list[int]:
        if self.pid is None:
            return listening_pids(urlsplit(self.url).port or 80)
        return children_of(self.pid)

    def tracebacks(self) -> list[str]:
        """The tracebacks in the server's log (its exceptions: a refusal is not logged as one), each
        with the log line before it (what failed)."""
        if self.log is None or not self.log.exists():
            return []
        lines = self.log.read_text(errors="replace").splitlines()
        found: list[str] = []
        for index, line in enumerate(lines):
            if line.startswith("Traceback"):
                end = index + 1
                while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
                    end += 1
                found.append("\n".join(lines[max(0, index - 1):end + 1]))
        return found

    def tail(self, lines: int = 15) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def serve_help() -> str:
    result = subprocess.run([sys.executable, "-m", "meeple.cli", "serve", "--help"], cwd=ROOT,
                            env={**os.environ, "COLUMNS": "240", "PYTHONPATH": str(ROOT)},
                            capture_output=True, text=True, timeout=60)
    return re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)


def start_servers(args: argparse.Namespace, database_url: str, tmp: Path, quota: Any = None) -> list[Server]:
    extra: list[str] = list(args.serve_arg or [])
    if args.redis:
        help_text = serve_help()
        option = next((o for o in ("--redis-url", "--redis") if re.search(rf"{o}\b", help_text)), None)
        if option is None:
            raise SystemExit("load_server: `meeple serve --help` has no --redis option: this server cannot run as "
                             "several processes yet (issue 17), so --processes > 1 is not supported")
        extra += [option, args.redis]
    servers: list[Server] = []
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp / "data"))

    def start(number: int) -> Server:
        port = free_port()
        log = tmp / f"server{number}.log"
        command = [sys.executable, "-m", "meeple.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--database-url", database_url, "--bot-delay", "0", *extra]
        with log.open("wb") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL)
        if quota is not None:
            quota.add(process.pid)
        server = Server(f"http://127.0.0.1:{port}", process.pid, process, log)
        servers.append(server)
        return server

    try:
        # The first one alone: it migrates a new database, which several processes starting at once would
        # each try (and all but one fail); then the others together.
        wait_until_up(start(0), args.start_timeout)
        for server in [start(number) for number in range(1, args.processes)]:
            wait_until_up(server, args.start_timeout)
    except BaseException:
        stop_servers(servers)
        raise
    return servers


def start_redis(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``--redis auto``: a private redis-server on a free loopback port, without persistence, for this run."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("load_server: --redis auto needs redis-server (Debian: apt-get install redis-server)")
    port = free_port()
    with (tmp / "redis.log").open("wb") as out:
        process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "no", "--dir", str(tmp)],
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
            probe.sendall(b"PING\r\n")
            if probe.recv(16).startswith(b"+PONG"):
                return process, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.1)
    process.kill()
    process.wait(timeout=10)
    raise SystemExit(f"load_server: redis-server did not start:\n{(tmp / 'redis.log').read_text(errors='replace')}")


def wait_until_up(server: Server, timeout: float) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{server.url}/api/games", timeout=2, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if server.process is not None and server.process.poll() is not None:
            raise SystemExit(f"load_server: the server on {server.url} exited ({server.process.returncode}):\n"
                             f"{server.tail()}")
        if time.monotonic() > deadline:
            raise SystemExit(f"load_server: no answer from {server.url} within {timeout:.0f} s:\n{server.tail()}")
        time.sleep(0.2)


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        if server.process is not None and server.process.poll() is None:
            server.process.send_signal(signal.SIGINT)  # uvicorn shuts down cleanly on SIGINT
    for server in servers:
        if server.process is None:
            continue
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=15)


# --- the parent ------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Load benchmark of meeple's web platform (see the module doc).")
    parser.add_argument("--tables", default="50,200,500,1000",
                        help="escalating levels: comma-separated numbers of concurrent tables (50,200,500,1000)")
    parser.add_argument("--game", default="citadels")
    parser.add_argument("--players", type=int, default=4, help="human seats per table (default 4)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a seat thinks before acting (1.0)")
    parser.add_argument("--jitter", type=float, default=0.5,
                        help="think time is uniform in think*(1-jitter)..think*(1+jitter) (0.5)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds per level (30)")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of play before measuring a level (10)")
    parser.add_argument("--spread", action="store_true",
                        help="fast-forward each new table by a random number of moves first (think 0), so tables "
                             "are spread over the whole game")
    parser.add_argument("--spread-moves", type=int, default=None,
                        help="the most moves a table is fast-forwarded (default 200 for citadels, else 100)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="a move not seen by every seat within this many seconds is a timeout (10)")
    parser.add_argument("--setup-timeout", type=float, default=300.0,
                        help="the most seconds a level's new tables get to be created and fast-forwarded (300)")
    parser.add_argument("--start-timeout", type=float, default=60.0, help="seconds a server gets to start (60)")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--no-compression", action="store_true",
                        help="do not offer permessage-deflate (browsers do, so by default the client does too)")
    parser.add_argument("--ws-client", choices=("auto", "picows", "websockets"), default="auto",
                        help="the clients' WebSocket library: picows (Cython, ~a third of the CPU a message), "
                             "websockets, or auto: picows when it is installed (pip install picows)")
    parser.add_argument("--seed", type=int, default=1)
    where = parser.add_argument_group("servers")
    where.add_argument("--url", action="append",
                       help="attach to a running server instead of starting one (repeatable; loopback only)")
    where.add_argument("--database", nargs="+", metavar="KIND_OR_URL", default=["sqlite"],
                       help="sqlite (a temporary file; the default), sqlite URL, postgresql URL, or just a URL")
    where.add_argument("--processes", type=int, default=1,
                       help="meeple serve processes on different ports; >1 needs PostgreSQL and --redis")
    where.add_argument("--redis", help="Redis URL handed to every server process (needed with --processes > 1); "
                                       "auto: start a private redis-server for the run")
    where.add_argument("--routing", choices=("table", "seats"), default="table",
                       help="with several servers: table (each table's joins and sockets on the server its id "
                            "hashes to, as nginx's hash $table_id consistent; the default) or seats (a table's "
                            "seats on the servers in turn, so every update crosses Redis)")
    where.add_argument("--cpu-quota", type=float, metavar="CORES",
                       help="cap each server process at this share of one core (a cgroup; needs root), e.g. 0.25")
    where.add_argument("--serve-arg", action="append",
                       help="one more argument for `meeple serve` (repeatable), e.g. --serve-arg=--workers=2")
    args = parser.parse_args(argv)
    try:
        args.levels = [int(part) for part in args.tables.split(",") if part.strip()]
    except ValueError:
        parser.error("--tables is a comma-separated list of numbers")
    if not args.levels or any(n < 1 or n > 5000 for n in args.levels):
        parser.error("--tables: each level is between 1 and 5000 tables")
    if args.players < 1 or args.client_procs < 1 or args.client_procs > 16 or args.processes < 1:
        parser.error("--players, --client-procs (at most 16) and --processes are at least 1")
    if args.duration <= 0 or args.warmup < 0 or args.think < 0 or not 0 <= args.jitter <= 1 or args.timeout <= 0:
        parser.error("--duration and --timeout are positive, --warmup and --think not negative, --jitter in 0..1")
    args.database_url = None
    if args.url:
        for url in args.url:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or parts.hostname not in LOOPBACK_HOSTS:
                parser.error(f"--url {url!r}: this benchmark only talks to servers on 127.0.0.1")
        args.url = [url.rstrip("/") for url in args.url]
    else:
        args.database_url = database_url_of(parser, args.database)
        if args.processes > 1:
            if not (args.database_url or "").startswith("postgresql"):
                parser.error("--processes > 1 needs --database postgresql URL (SQLite is for one process)")
            if not args.redis:
                parser.error("--processes > 1 needs --redis URL (the processes share updates through it)")
        for url in [args.database_url, args.redis]:
            host = urlsplit(url).hostname if url and "://" in url else None
            if host is not None and host not in LOOPBACK_HOSTS:
                parser.error(f"{url!r}: this benchmark only talks to services on 127.0.0.1")
    if args.ws_client == "auto":
        args.ws_client = "picows" if importlib.util.find_spec("picows") is not None else "websockets"
    elif args.ws_client == "picows" and importlib.util.find_spec("picows") is None:
        parser.error("--ws-client picows: picows is not installed (pip install picows)")
    if args.spread_moves is None:
        args.spread_moves = DEFAULT_SPREAD.get(args.game, 100)
    return args


def database_url_of(parser: argparse.ArgumentParser, words: list[str]) -> str | None:
    """``sqlite`` (None: a temporary file), ``sqlite URL``, ``postgresql URL``, or a URL alone."""
    if len(words) > 2:
        parser.error("--database takes a kind and a URL at most")
    kind, url = (words[0], words[1] if len(words) == 2 else None)
    if "://" in kind and url is None:
        kind, url = kind.split(":", 1)[0].split("+", 1)[0], kind
    if kind not in ("sqlite", "postgresql"):
        parser.error(f"--database: sqlite or postgresql, not {kind!r}")
    if kind == "postgresql" and not url:
        parser.error("--database postgresql needs a URL, e.g. postgresql+psycopg://user:pw@127.0.0.1/bench")
    if url and not url.startswith(kind):
        parser.error(f"--database {kind}: the URL should start with {kind}")
    return url


def raise_file_limit() -> None:
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


class Run:
    """The parent: servers, client processes, levels, the printed figures."""

    def __init__(self, args: argparse.Namespace, servers: list[Server], deadline: float, quota: Any = None) -> None:
        self.args = args
        self.quota = quota
        self.servers = servers
        self.deadline = deadline
        self.conns: list[Connection] = []
        self.procs: list[multiprocessing.process.BaseProcess] = []
        self.summary: list[str] = []
        self.errors = 0
        self.client_bound: list[int] = []
        self.services: list[tuple[str, int]] = []  # (name, port) of the database and Redis, if on this machine
        for name, url, port in (("postgresql", args.database_url, 5432), ("redis", args.redis, 6379)):
            if not args.url and url and "://" in url and url.startswith(name):
                self.services.append((name, urlsplit(url).port or port))
        self.disturbed: list[int] = []

    def start_clients(self) -> None:
        context = multiprocessing.get_context("spawn")
        for index in range(self.args.client_procs):
            mine, theirs = context.Pipe()
            config = ClientConfig(
                index=index, servers=tuple(s.url for s in self.servers), game=self.args.game,
                players=self.args.players, think=self.args.think, jitter=self.args.jitter,
                timeout=self.args.timeout, setup_timeout=self.args.setup_timeout,
                compression=not self.args.no_compression, seed=self.args.seed * 1000 + index,
                deadline=self.deadline, routing=self.args.routing, ws_client=self.args.ws_client)
            process = context.Process(target=client_main, args=(theirs, config), name=f"load-client-{index}",
                                      daemon=True)
            process.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(process)

    def gather(self, kind: str, timeout: float) -> list[Any]:
        """One ``kind`` answer from every client process, or SystemExit."""
        answers: dict[int, Any] = {}
        limit = time.monotonic() + timeout
        while len(answers) < len(self.conns):
            left = limit - time.monotonic()
            if left <= 0:
                raise SystemExit(f"load_server: client processes did not answer {kind!r} within {timeout:.0f} s")
            waiting = {id(c): i for i, c in enumerate(self.conns) if i not in answers}
            for ready in wait([self.conns[i] for i in waiting.values()], timeout=min(left, 1.0)):
                index = waiting[id(ready)]
                try:
                    answer = self.conns[index].recv()
                except EOFError:
                    raise SystemExit(f"load_server: client process {index} died") from None
                if answer[0] == kind:
                    answers[index] = answer[1]
            for index, process in enumerate(self.procs):
                if index not in answers and not process.is_alive():
                    raise SystemExit(f"load_server: client process {index} exited ({process.exitcode})")
        return [answers[i] for i in range(len(self.conns))]

    def server_sample(self) -> dict[int, tuple[float, float] | None]:
        return {pid: cpu_times(pid) for server in self.servers for pid in server.pids()}

    def service_sample(self) -> dict[str, dict[int, float | None]]:
        """CPU seconds of each process of the database and Redis this run uses, when they run here."""
        return {name: {pid: cpu_seconds(pid) for root in listening_pids(port) for pid in children_of(root)}
                for name, port in self.services}

    def level(self, number: int, tables: int) -> None:
        args = self.args
        print(f"== level {number}/{len(args.levels)}: {tables} tables ==", flush=True)
        setup_started = time.monotonic()
        for conn, share in zip(self.conns, split(tables, len(self.conns)), strict=True):
            conn.send(("grow", share, args.spread_moves if args.spread else 0))
        ready = self.gather("ready", args.setup_timeout + 120)
        setup = time.monotonic() - setup_started
        start = time.monotonic() + args.warmup
        end = start + args.duration
        for conn in self.conns:
            conn.send(("measure", start, end))
        time.sleep(max(0.0, start - time.monotonic()))
        before, machine_before, own_before = self.server_sample(), machine_busy(), time.process_time()
        throttled_before = self.throttling()
        services_before = self.service_sample()
        time.sleep(max(0.0, end - time.monotonic()))
        after, machine_after, own = self.server_sample(), machine_busy(), time.process_time() - own_before
        services: dict[str, float] = {}
        for name, pids in self.service_sample().items():  # a process that started meanwhile counts whole
            used = sum(cpu - (services_before[name].get(pid) or 0.0) for pid, cpu in pids.items() if cpu is not None)
            services[name] = used / (end - start) * 100
        rss = {pid: rss_bytes(pid) for pid in after}
        reports = self.gather("report", args.timeout + 60)
        self.print_level(tables, setup, ready, reports, before, after, rss, machine_before, machine_after, own,
                         services)
        for index, (periods, throttled) in self.throttling(throttled_before).items():
            held_back = f"{throttled / periods * 100:.0f}%" if periods else "-"
            print(f"server{index} quota: {self.args.cpu_quota} core, throttled in {held_back} of its "
                  f"{periods} periods of 100 ms", flush=True)

    def throttling(self, since: dict[int, tuple[int, int]] | None = None) -> dict[int, tuple[int, int]]:
        """Per server number, (periods, throttled periods) of its CPU quota, since ``since`` if given."""
        if self.quota is None:
            return {}
        counts: dict[int, tuple[int, int]] = {}
        for number, server in enumerate(self.servers):
            now = self.quota.throttling(server.pid) if server.pid is not None else None
            if now is not None:
                earlier = (since or {}).get(number, (0, 0))
                counts[number] = (now[0] - earlier[0], now[1] - earlier[1])
        return counts

    def print_level(self, tables: int, setup: float, ready: list[dict[str, Any]], reports: list[dict[str, Any]],
                    before: dict[int, tuple[float, float] | None], after: dict[int, tuple[float, float] | None],
                    rss: dict[int, int | None],
                    machine_before: tuple[float, float] | None, machine_after: tuple[float, float] | None,
                    own_cpu: float, services: dict[str, float]) -> None:
        wall = max(r["wall"] for r in reports)
        sender = [x for r in reports for x in r["sender"]]
        fanout = [x for r in reports for x in r["fanout"]]
        sizes = [x for r in reports for x in r["sizes"]]
        lag = [x for r in reports for x in r["lag"]]
        positions = sorted(x for r in reports for x in r["positions"])
        moves = sum(r["moves"] for r in reports)
        refusals: Counter[str] = Counter()
        setup_errors: Counter[str] = Counter()
        for r in reports:
            refusals.update(r["refusals"])
            setup_errors.update(r["setup_errors"])
        disconnects = sum(r["disconnects"] for r in reports)
        timeouts = sum(r["timeouts"] for r in reports)
        stalls = sum(r["stalls"] for r in reports)
        errors = sum(refusals.values()) + disconnects + timeouts + stalls + sum(setup_errors.values())
        self.errors += errors
        lines: list[tuple[str, Any]] = [
            ("tables", sum(r["tables"] for r in reports)),
            ("setup s", f"{setup:.1f}"),
            ("tables not fast-forwarded in time", sum(r["late"] for r in ready)),
            ("measured s", f"{wall:.1f}"),
            ("moves", moves),
            ("moves/s", f"{moves / wall:.1f}"),
            ("sender latency p50 ms", ms(percentile(sender, 50))),
            ("sender latency p95 ms", ms(percentile(sender, 95))),
            ("sender latency p99 ms", ms(percentile(sender, 99))),
            ("fan-out latency p50 ms", ms(percentile(fanout, 50))),
            ("fan-out latency p95 ms", ms(percentile(fanout, 95))),
            ("fan-out latency p99 ms", ms(percentile(fanout, 99))),
            ("fan-out latency max ms", ms(max(fanout) if fanout else None)),
            ("errors", errors),
            ("refusals", sum(refusals.values())),
            ("disconnects", disconnects),
            ("timeouts", timeouts),
            ("timeouts that arrived late", sum(r["late"] for r in reports)),
            ("timeouts lost (a seat not sent the move)", sum(r["lost"] for r in reports)),
            ("stalls", stalls),
            ("setup errors", sum(setup_errors.values())),
        ]
        if refusals or setup_errors:
            detail = ", ".join(f"{k} {v}" for k, v in (refusals + setup_errors).most_common())
            lines.append(("error kinds", detail))
        lines += [
            ("games finished and replaced", sum(r["replaced"] for r in reports)),
            ("table move min", positions[0] if positions else "n/a"),
            ("table move median", positions[len(positions) // 2] if positions else "n/a"),
            ("table move max", positions[-1] if positions else "n/a"),
            ("messages", len(sizes)),
            ("messages per move", f"{len(sizes) / moves:.2f}" if moves else "n/a"),
            ("bytes per message mean", f"{sum(sizes) / len(sizes):.0f}" if sizes else "n/a"),
            ("bytes per message p99", f"{percentile([float(s) for s in sizes], 99) or 0:.0f}" if sizes else "n/a"),
            ("bytes per move", f"{sum(sizes) / moves:.0f}" if moves else "n/a"),
            ("sockets opened", sum(r["opened"] for r in reports)),
            ("sockets opened with permessage-deflate", sum(r["deflated"] for r in reports)),
        ]
        server_cpu = server_system = 0.0
        by_server: Counter[str] = Counter()
        for r in reports:
            by_server.update(r["moves_by_server"])
        for number, server in enumerate(self.servers):
            own_cpu_s = 0.0
            for pid in server.pids():
                start_times, stop_times = before.get(pid), after.get(pid)
                cpu = "n/a"
                if start_times is not None and stop_times is not None:
                    start, stop = sum(start_times), sum(stop_times)
                    server_system += stop_times[1] - start_times[1]
                    server_cpu += (stop - start) / wall * 100
                    own_cpu_s += stop - start
                    cpu = f"{(stop - start) / wall * 100:.1f}"
                memory = rss.get(pid)
                key = f"server{number} pid {pid}"
                lines += [(f"{key} rss MB", f"{memory / 2**20:.1f}" if memory else "n/a"), (f"{key} cpu %", cpu)]
            if len(self.servers) > 1:
                its_moves = by_server.get(server.url, 0)
                lines += [(f"server{number} moves/s (its sockets' seats)", f"{its_moves / wall:.1f}"),
                          (f"server{number} cpu ms per move (its sockets' moves)",
                           f"{own_cpu_s / its_moves * 1000:.2f}" if its_moves else "n/a")]
        for name, used in services.items():
            lines.append((f"{name} cpu % (all its processes)", f"{used:.1f}"))
        client_cpu = [r["cpu"] / r["wall"] * 100 for r in reports]
        if moves:
            lines += [(f"{name} cpu ms per move", f"{used / 100 * wall / moves * 1000:.2f}")
                      for name, used in services.items()]
            # CPU time per move hardly depends on who else uses the machine: the ceiling it implies is a
            # figure a shared machine still gives (it counts the replacement of finished games too)
            per_move = server_cpu / 100 * wall / moves
            lines += [("server cpu ms per move", f"{per_move * 1000:.2f}"),
                      ("server cpu ms per move in the kernel (system)", f"{server_system / moves * 1000:.2f}"),
                      ("client cpu ms per move", f"{sum(r['cpu'] for r in reports) / moves * 1000:.2f}"),
                      ("client cpu ms per move in the kernel (system)",
                       f"{sum(r['system'] for r in reports) / moves * 1000:.2f}")]
            if per_move > 0:
                lines.append(("server ceiling moves/s per core (estimated)", f"{1 / per_move:.0f}"))
        others = 0.0
        if machine_before and machine_after and machine_after[1] > machine_before[1]:
            cores = os.cpu_count() or 1
            machine = (machine_after[0] - machine_before[0]) / (machine_after[1] - machine_before[1]) * cores * 100
            others = max(0.0, machine - server_cpu - sum(services.values()) - sum(client_cpu) - own_cpu / wall * 100)
            lines += [(f"machine cpu % (of {cores * 100})", f"{machine:.1f}"),
                      ("other processes cpu %", f"{others:.1f}")]
        lines += [(f"client{r['index']} cpu %", f"{c:.1f}") for r, c in zip(reports, client_cpu, strict=True)]
        lines += [
            ("client cpu % max", f"{max(client_cpu):.1f}"),
            ("client parent cpu %", f"{own_cpu / wall * 100:.1f}"),
            ("client loop lag p99 ms", ms(percentile(lag, 99))),
            ("client loop lag max ms", ms(max(lag) if lag else None)),
        ]
        lag99 = percentile(lag, 99) or 0.0
        bound = max(client_cpu) > SATURATED_CPU or lag99 > SATURATED_LAG
        lines.append(("client-bound", "yes" if bound else "no"))
        for key, value in lines:
            print(f"{key}: {value}")
        if bound:
            self.client_bound.append(tables)
            why = ("its own CPU: try more --client-procs" if max(client_cpu) > SATURATED_CPU else
                   "its loop is not scheduled in time, the machine's cores are all busy")
            print(f"WARNING: the client saturates (cpu {max(client_cpu):.0f}% of a core, loop lag p99 "
                  f"{lag99 * 1000:.0f} ms; {why}): latencies include the client's own delay (client-bound)")
        if others > OTHERS_WARNING:
            self.disturbed.append(tables)
            print(f"WARNING: other processes used {others:.0f}% of a core meanwhile: the server had less CPU "
                  "than this machine has (figures disturbed)")
        print(flush=True)
        each = ""
        if len(self.servers) > 1:
            each = " (" + ", ".join(f"{by_server.get(s.url, 0) / wall:.1f}" for s in self.servers) + " per server)"
        self.summary.append(f"{tables} tables {moves / wall:.1f} moves/s{each} p99 fan-out "
                            f"{ms(percentile(fanout, 99))} ms{' (client-bound)' if bound else ''}")

    def stop_clients(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                conn.send(("stop",))
        for process in self.procs:
            process.join(timeout=30)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_file_limit()
    slack = args.setup_timeout + args.warmup + args.duration + 2 * args.timeout + 180
    deadline = time.monotonic() + len(args.levels) * slack + 120
    with tempfile.TemporaryDirectory(prefix="meeple-bench-") as folder, contextlib.ExitStack() as cleanup:
        tmp = Path(folder)
        quota: Any = None
        if args.url:
            servers = [Server(url, None) for url in args.url]
            where = ", ".join(args.url)
        else:
            if args.redis == "auto":
                redis, args.redis = start_redis(tmp)
                cleanup.callback(redis.wait, timeout=15)
                cleanup.callback(redis.terminate)  # callbacks run last in, first out
            url = args.database_url or f"sqlite:///{tmp / 'bench.sqlite3'}"
            if args.cpu_quota is not None:
                from cpu_quota import CpuQuota, QuotaUnavailable

                try:
                    quota = CpuQuota(args.cpu_quota)
                except (QuotaUnavailable, ValueError) as error:
                    raise SystemExit(f"load_server: --cpu-quota: {error}") from None
                cleanup.callback(quota.close)  # after the servers have stopped
            servers = start_servers(args, url, tmp, quota)
            kind = "postgresql" if url.startswith("postgresql") else "sqlite"
            where = f"{len(servers)} meeple serve process(es) on {', '.join(s.url for s in servers)}, {kind}"
            if args.redis:
                where += f", redis {args.redis}"
            if quota is not None:
                where += f", each capped at {args.cpu_quota} of a core"
        if len(servers) > 1:
            where += f", routing: {args.routing}"
        print(f"servers: {where}")
        spread = f"up to {args.spread_moves} moves" if args.spread else "no"
        print(f"game: {args.game}, {args.players} human seats a table, think {args.think} s "
              f"(±{args.jitter * 100:.0f}%), spread: {spread}")
        print(f"client processes: {args.client_procs} ({args.ws_client}); cores: {os.cpu_count()} "
              "(shared by server and client)",
              flush=True)
        run = Run(args, servers, deadline, quota)
        try:
            run.start_clients()
            for number, tables in enumerate(args.levels, 1):
                run.level(number, tables)
        finally:
            run.stop_clients()
            if not args.url:
                stop_servers(servers)
                if any(s.process is not None and s.process.returncode not in (0, -signal.SIGINT) for s in servers):
                    print("note: a server exited with an error; its log's end:\n" +
                          "\n".join(s.tail() for s in servers))
                for number, server in enumerate(servers):
                    failures = server.tracebacks()
                    if failures:
                        print(f"note: server{number} logged {len(failures)} traceback(s); the last:\n{failures[-1]}")
    bound = (f"client-bound at {', '.join(map(str, run.client_bound))} tables" if run.client_bound
             else "never client-bound")
    disturbed = (f"disturbed by other processes at {', '.join(map(str, run.disturbed))} tables" if run.disturbed
                 else "not disturbed by other processes")
    print(f"summary: {'; '.join(run.summary)}; errors {run.errors}; {bound}; {disturbed}", flush=True)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
