"""Chat: one room per table (its seated players) and one for the lobby (everyone).

A line is plain text: the server keeps it as typed (trimmed, control characters but line breaks
removed) and every client shows it with ``textContent``, never as HTML. Lines are kept in the
database (``chat_messages``) and reach a table's players live through the hub, like a move's update
(so across processes over Redis); the lobby's reach every lobby socket through the live lobby
(``meeple.server.lobby``), and ``after`` the last line one has is read when a socket (re)connects.

Limits, each refused with a clear error and nothing stored: ``MAX_CHAT_CHARS`` characters a line, and
``RATE_LINES`` lines per ``RATE_SECONDS`` per sender (an account, a seat, or a guest's address), counted
for the whole site: in Redis when the server runs with one (so ``--workers N`` does not multiply the
limit), else in the one process.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
import uuid
from collections import deque
from typing import Any

from meeple.core.contract import JSON
from meeple.server.hub import Hub, Update, seat_key
from meeple.server.lobby import LobbyFeed
from meeple.server.names import name_key
from meeple.server.runtime import LiveTable, Refused, TableRuntime

LOBBY = "lobby"
MAX_CHAT_CHARS = 500
RATE_LINES = 5
RATE_SECONDS = 10.0
HISTORY = 200
"""Lines a client is sent when it opens a room (older ones stay in the database)."""


def clean_text(text: Any) -> str:
    """The line as it is kept: a non-empty string of at most ``MAX_CHAT_CHARS`` characters, without
    control characters other than line breaks and tabs."""
    if not isinstance(text, str):
        raise Refused("bad_chat", "a chat message must be text")
    kept = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))
    kept = kept.strip()
    if not kept:
        raise Refused("empty_chat", "a chat message cannot be empty")
    if len(kept) > MAX_CHAT_CHARS:
        raise Refused("chat_too_long", f"a chat message is limited to {MAX_CHAT_CHARS} characters "
                                       f"(this one has {len(kept)})")
    return kept


_ADMIT = """
local key, now, window, lines = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= lines then
  return redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return false
"""
"""One sender's sliding window in a sorted set, checked and counted in one atomic step: the time of
the oldest line in the window when the sender is over the limit, else nothing (and the line counted)."""


class RateLimit:
    """At most ``lines`` per ``seconds`` per sender key: in the hub's Redis when it has one (every
    process shares the count), else in this process."""

    def __init__(self, hub: Hub, lines: int = RATE_LINES, seconds: float = RATE_SECONDS) -> None:
        self.hub = hub
        self.lines = lines
        self.seconds = seconds
        self.sent: dict[str, deque[float]] = {}

    async def check(self, key: str) -> None:
        """Count one line for ``key``, or refuse it (uncounted) when the sender is over the limit."""
        redis = self.hub.redis
        if redis is None:
            oldest = self._admit_here(key, time.monotonic())
            now = time.monotonic()
        else:
            now = time.time()
            answer = await redis.eval(_ADMIT, 1, f"meeple:chat-rate:{key}", now, self.seconds, self.lines,
                                      f"{now}:{uuid.uuid4().hex}")
            oldest = None if answer is None else float(answer)
        if oldest is not None:
            wait = max(1, round(oldest + self.seconds - now))
            raise Refused("chat_rate", f"at most {self.lines} chat messages per {self.seconds:g} seconds; "
                                       f"wait {wait} s", 429)

    def _admit_here(self, key: str, now: float) -> float | None:
        times = self.sent.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) >= self.lines:
            return times[0]
        times.append(now)
        if len(self.sent) > 10000:  # forget idle senders
            for idle in [k for k, v in self.sent.items() if not v or v[-1] <= now - self.seconds]:
                del self.sent[idle]
        return None


def sender_of(account_id: int | None, name: str) -> str:
    """Who a line is from, for muting: the account, else the guest's name as ``names.name_key`` reads it."""
    return f"account:{account_id}" if account_id is not None else f"guest:{name_key(name)}"


class Chat:
    """The table rooms and the lobby room of this process."""

    def __init__(self, runtime: TableRuntime, lobby: LobbyFeed | None = None) -> None:
        self.runtime = runtime
        self.lobby = lobby
        self.store = runtime.store
        self.limit = RateLimit(runtime.hub)

    async def table_lines(self, table: LiveTable, seat: int | None) -> list[JSON]:
        """A table's chat, for its seated players only."""
        if seat is None:
            raise Refused("not_seated", "a table's chat is for its players", 403)
        return await asyncio.to_thread(self.store.chat, table.id, 0, HISTORY)

    async def say_at_table(self, table_id: str, seat: int | None, text: Any) -> JSON:
        """A seated player's line: kept, then sent to every seat of the table (spectators get none)."""
        table = await self.runtime.get(table_id)
        if seat is None:
            raise Refused("not_seated", "only the table's players can chat here", 403)
        kept = clean_text(text)
        info = table.seats[seat]
        name = info.name or f"#{seat + 1}"
        await self.limit.check(f"table:{table.id}:{seat}")
        line = await asyncio.to_thread(self.store.add_chat, table.id, seat, sender_of(info.account_id, name),
                                       name, kept)
        message: JSON = {"type": "chat", "lines": [line]}
        messages = {seat_key(index): message for index in range(table.players)}
        await self.runtime.hub.publish(Update(table.id, table.version, table.version, messages))
        return line

    async def lobby_lines(self, after: int) -> list[JSON]:
        return await asyncio.to_thread(self.store.chat, LOBBY, max(0, after), HISTORY)

    async def say_in_lobby(self, text: Any, name: Any, account: tuple[int, str] | None, address: str) -> JSON:
        """A lobby line from an account (its name) or a guest (a name nobody registered; limited by address)."""
        kept = clean_text(text)
        if account is not None:
            account_id: int | None = account[0]
            speaker = account[1]
            key = f"account:{account_id}"
        else:
            account_id = None
            speaker = await self.runtime.seat_name(name, None)
            key = f"address:{address}"
        await self.limit.check(key)
        line = await asyncio.to_thread(self.store.add_chat, LOBBY, None, sender_of(account_id, speaker), speaker,
                                       kept)
        if self.lobby is not None:
            await self.lobby.said(line)
        return line
