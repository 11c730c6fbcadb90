"""The database tables: accounts, sessions, game tables, their seats and their action logs.

A game table is stored as seed + options + the ordered notations applied to it; replaying them
through the engine rebuilds the state exactly, so nothing else about a game needs saving.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Account(Base):
    """A simple account: a unique name and an argon2 password hash.

    ``name_key`` is ``names.name_key(name)`` and is unique, so no account can be registered under a
    spelling that reads the same as another's (``AUDITOR`` beside ``auditor``). It is ``None`` only
    for accounts made before it existed whose key an older account already had (migration 0002).

    ``email``, ``email_turns`` and ``language``: where and in which language to mail the player when it
    becomes their turn at a turn-based table, and whether they want it (``meeple.server.alerts``).
    """

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str | None] = mapped_column(String(160), unique=True, index=True, nullable=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_turns: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    bot_level: Mapped[str | None] = mapped_column(String(40), nullable=True, unique=True)
    """Set on the one account per bot level that holds that level's ratings (it cannot log in)."""


class LoginSession(Base):
    """A signed-in browser: the SHA-256 of its secret cookie, and whose account it is."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameTable(Base):
    """One game table: what is played, with which seed and options, and how far it has gone.

    ``status`` is ``open`` (waiting for players), ``running`` or ``finished``. ``moves`` and
    ``current_player`` are written with every move, so the lobby lists every table from here without
    loading any game (any process, none of which needs to hold the table).
    """

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    moves: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    current_player: Mapped[int | None] = mapped_column(Integer, nullable=True)

    # The clock (``meeple.server.clocks``): the mode and speed chosen at creation, the bank and bonus
    # they stand for (seconds; no bank: no limit), what happens when a clock runs out, and where the
    # clocks stand: each seat's milliseconds left as of ``clock_at``, the seats whose clocks run since
    # then, and the moment the first of them runs out (``deadline``, which every process watches).
    mode: Mapped[str] = mapped_column(String(16), default="real-time", server_default=text("'real-time'"))
    speed: Mapped[str] = mapped_column(String(16), default="unlimited", server_default=text("'unlimited'"))
    clock_bank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    clock_bonus: Mapped[int | None] = mapped_column(Integer, nullable=True)
    timeout_rule: Mapped[str] = mapped_column(String(8), default="bot", server_default=text("'bot'"))
    timeout_level: Mapped[str] = mapped_column(String(40), default="medium", server_default=text("'medium'"))
    clocks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    clock_running: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    clock_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The bonus each move of the last mover's run earned (``{"seat": s, "ms": [...]}``), what an undo
    # of those moves takes back (``ClockState.earned``).
    clock_earned: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    expiry_claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    expiry_lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    vote: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    """Chosen at creation (``meeple.server.ratings`` says when a rated table's game counts)."""
    # The table this finished one's rematch is played at, set once (``runtime.TableRuntime.rematch``).
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    watchers: Mapped[bool] = mapped_column(Boolean, default=True, server_default=text("true"))
    """Whether people without a seat may watch the running game (``view(None)`` only)."""

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin"
    )


class Seat(Base):
    """A seat at a table: empty, a person (bound by the hash of a secret token) or a bot. A person's
    seat with a ``name`` but no token is held for that player (a rematch's seat they have not taken yet).

    ``turn_mailed_at``: when its player was mailed that it is their turn; while set, no other mail is
    sent for this seat (cleared when they move or open the table).
    """

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot_level: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    turn_mailed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    abandoned_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """How many moves the table had when this seat's player left or ran out of time and a bot took
    over (cleared if they reclaim it); ``account_id`` stays, so the rating knows who abandoned."""

    table: Mapped[GameTable] = relationship(back_populates="seats")


class ActionRecord(Base):
    """One applied notation, in order; ``(table_id, idx)`` is unique so a log can never fork."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableEvent(Base):
    """Something the platform did to a table besides a move, for everyone's log: a clock ran out and
    a bot took the seat, a vote opened or decided, a player reclaimed their seat.

    ``version``: how many moves the table had then; ``data``: what the log line needs (a bot's level).
    """

    __tablename__ = "table_events"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    seat: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One chat line, kept for good: ``room`` is a table's id (read by its seated players, live and in
    its replay) or ``"lobby"``. ``sender`` says who for muting (``account:<id>`` or ``guest:<name key>``);
    ``name`` is what the others read (the seat's name at a table)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    sender: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BotJob(Base):
    """A bot that must move: the durable queue bot workers claim from (``store.claim_bot_jobs``).

    One job per ``(table, version)``: the move a bot owes at that point of the game. A worker claims
    it by setting ``lease_until``; a worker that dies lets its lease expire and another claims it
    again (``attempts`` counts the claims, and after a few a random legal move stands in). The job is
    deleted in the same transaction that appends the bot's move, or when the table has moved on.
    """

    __tablename__ = "bot_jobs"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(40))
    queued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class Rating(Base):
    """An account's current rating in one game: ``players`` 0 over every player count, else at that
    count only (the leaderboards per player count). ``display`` is ``ratings.displayed(mu, sigma)``."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer, index=True)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChange(Base):
    """What one rated game did to one account's rating (over every player count): its history.

    The primary key ``(table, account)`` makes a game's rating happen once: a second attempt to rate
    the same table fails on it and its transaction (the game's end) is rolled back whole."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(String(8))
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    against_bots: Mapped[bool] = mapped_column(Boolean)
    abandoned: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
