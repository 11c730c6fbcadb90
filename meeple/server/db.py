"""The database engine, and Alembic migrations applied to it when the server starts."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from meeple.server.models import Base

MIGRATIONS = Path(__file__).parent / "migrations"

__all__ = ["Base", "make_engine", "migrate"]


def make_engine(url: str) -> Engine:
    """An engine for ``url``; an SQLite file's folder is created, and SQLite gets WAL and foreign keys."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


#: The PostgreSQL advisory lock migrations hold (an arbitrary constant: "meeple" in ASCII).
MIGRATION_LOCK_KEY = 0x6D656570_6C65


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to the newest migration (a no-op when it already is); tests pass an older
    ``revision`` to build the schema an older meeple left behind."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several servers starting at once on one database (hosts behind one address): one migrates,
            # the others wait here and then find the schema at head. Released when the transaction ends.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
