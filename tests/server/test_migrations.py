"""The shipped Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import Engine, inspect, text

from meeple.server.auth import hash_password
from meeple.server.db import MIGRATIONS, make_engine, migrate
from meeple.server.models import Base


def test_an_sqlite_file_gets_its_folder_created(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'nested' / 'deeper' / 'meeple.sqlite3'}")
    migrate(engine)
    engine.dispose()
    assert (tmp_path / "nested" / "deeper" / "meeple.sqlite3").exists()


def test_migrations_create_the_models_schema_and_run_twice(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)  # already at head: nothing to do
    assert set(inspect(engine).get_table_names()) >= {"accounts", "sessions", "game_tables", "seats", "actions"}
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def old_accounts(engine: Engine, names_and_passwords: list[tuple[str, str]]) -> None:
    """Accounts as meeple before migration 0002 stored them (no name key), oldest first."""
    with engine.begin() as connection:
        for name, password in names_and_passwords:
            connection.execute(text("insert into accounts (name, password_hash, created_at) "
                                    "values (:name, :hash, :now)"),
                               {"name": name, "hash": hash_password(password), "now": datetime.now(UTC)})


def stored_keys(engine: Engine) -> dict[str, str | None]:
    with engine.connect() as connection:
        return {name: key for name, key in connection.execute(text("select name, name_key from accounts"))}


def test_migration_0002_keys_old_accounts_and_a_later_AUDITOR_beside_auditor_keeps_logging_in(
        database_url: str, make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture) -> None:
    engine = make_engine(database_url)
    migrate(engine, "0001")
    old_accounts(engine, [("auditor", "first secret"), ("AUDITOR", "second secret"), ("Ｂｏｂ", "bob's secret"),
                          ("carol", "carol's secret")])
    with caplog.at_level(logging.WARNING, logger="meeple.server.migrations"):
        migrate(engine)
    assert stored_keys(engine) == {"auditor": "auditor", "AUDITOR": None, "Ｂｏｂ": "bob", "carol": "carol"}
    assert "'AUDITOR' reads the same as the older account" in caplog.text
    engine.dispose()

    client = make_client()
    for typed, password, account in (("AUDITOR", "second secret", "AUDITOR"), ("auditor", "first secret", "auditor"),
                                     ("Auditor", "first secret", "auditor"), ("bob", "bob's secret", "Ｂｏｂ"),
                                     ("CAROL", "carol's secret", "carol")):
        logged_in = client.post("/api/login", json={"name": typed, "password": password})
        assert logged_in.status_code == 200, (typed, logged_in.text)
        assert logged_in.json()["account"]["name"] == account
    for lookalike in ("AuDiToR", "ＡＵＤＩＴＯＲ", "BOB"):
        registered = client.post("/api/accounts", json={"name": lookalike, "password": "a new secret"})
        assert registered.status_code == 409 and registered.json()["code"] == "name_taken", lookalike


def test_migration_0002_goes_down_and_up_again(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    old_accounts(engine, [("dora", "dora's secret")])
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    assert "name_key" not in {column["name"] for column in inspect(engine).get_columns("accounts")}
    migrate(engine)
    assert stored_keys(engine) == {"dora": "dora"}
    engine.dispose()


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # SQLite serves one process
def test_servers_starting_at_once_on_one_postgresql_database_migrate_once(database_url: str) -> None:
    """Hosts behind one address may all start together on an empty database: without a lock, two ran the
    first migration at once and one died with "relation already exists"."""
    from concurrent.futures import ThreadPoolExecutor

    engines = [make_engine(database_url) for _ in range(3)]
    try:
        with ThreadPoolExecutor(max_workers=3) as pool:
            for outcome in [pool.submit(migrate, engine) for engine in engines]:
                outcome.result()
        with engines[0].connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        assert len(versions) == 1
    finally:
        for engine in engines:
            engine.dispose()
