"""A real app on a temporary SQLite file, with the toy game registered and bots moving at once.

Every test also runs on PostgreSQL when a test database answers (``tests/services.py``: the one
``MEEPLE_TEST_POSTGRES_URL`` names, which the tests may wipe, or the one ``scripts/test.sh --system``
makes); in CI it must.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, make_url, text

from meeple.core import registry
from meeple.server.app import create_app
from meeple.server.config import Settings
from tests.services import IN_CI, postgres_url

registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")


POSTGRES_URL = postgres_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'meeple.sqlite3'}"
    if not POSTGRES_URL:
        if IN_CI:
            pytest.fail("PostgreSQL is required in CI (bash scripts/test.sh --system sets one up)")
        pytest.skip("no test PostgreSQL answers (set MEEPLE_TEST_POSTGRES_URL, or run scripts/test.sh --system)")
    # A schema of this test process's own, emptied for every test: two test runs on one machine (a
    # developer's and CI's) never wipe each other's tables.
    schema = f"meeple_test_{os.getpid()}"
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    request.addfinalizer(lambda: _drop_schema(schema))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def _drop_schema(schema: str) -> None:
    assert POSTGRES_URL is not None
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
    engine.dispose()


@pytest.fixture
def make_client(database_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start an app (lifespan included) on the test database; several may share it, one after another."""
    opened: list[TestClient] = []

    def make(bot_delay: float = 0.0, allowed_origins: tuple[str, ...] = (), raise_server_exceptions: bool = True,
             **limits: Any) -> TestClient:
        """``limits``: more ``Settings`` fields (``max_body_bytes``); ``raise_server_exceptions=False``
        answers a server error with a 500 as a real server does, instead of raising it in the test."""
        settings = Settings(database_url=database_url, bot_delay=bot_delay, allowed_origins=allowed_origins,
                            **limits)
        client = TestClient(create_app(settings), raise_server_exceptions=raise_server_exceptions)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def guest(client: TestClient) -> TestClient:
    """A second browser on the same running app: same server, its own cookie jar."""
    other = TestClient(client.app)
    other.portal = client.portal  # type: ignore[attr-defined]
    return other


def create_table(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"game": "toy", "players": 2, "seat": 0, "name": "Ada"} | fields
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data
