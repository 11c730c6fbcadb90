"""The shipped Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from meeple.server.db import make_engine, migrate
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
