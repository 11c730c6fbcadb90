"""A real uvicorn server on 127.0.0.1 (free port, temp SQLite file) and Debian's chromium via Playwright.

Without chromium the tests are skipped with the reason, except in CI (``CI=true``), where they must run.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from meeple.cli import WS_IMPLEMENTATION
from meeple.core.registry import load_game
from tests.server.follow import applied
from tests.services import IN_CI, chromium_path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = chromium_path()

if not CHROMIUM and not IN_CI:
    pytest.skip("chromium is not installed (apt-get install chromium); browser tests skipped", allow_module_level=True)

from playwright.sync_api import Browser, sync_playwright  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = f"sqlite:///{tmp / 'meeple.sqlite3'}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, MEEPLE_DATABASE_URL=self.database_url, MEEPLE_BOT_DELAY="0",
                   PYTHONPATH=str(ROOT))
        self.log = (self.tmp / "server.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "tests.browser.toy_app:make_app",
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning", "--ws", WS_IMPLEMENTATION],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90  # importing the app alone took 30 s of wall time on a busy 2-core machine
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start:\n" + (self.tmp / "server.log").read_text())

    def stop(self, hard: bool = False) -> None:
        """Stop the server: politely (SIGTERM), or ``hard`` (SIGKILL, as a crash or power cut would)."""
        if self.process is not None and self.process.poll() is None:
            if hard:
                self.process.kill()
            else:
                self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self.log is not None:
            self.log.close()
            self.log = None

    def restart(self, hard: bool = False) -> None:
        self.stop(hard)
        self.start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One Chromium for the browser tests, closed when they are done: Playwright's sync API keeps an
    asyncio loop marked as running in the main thread while it is open, so a session-wide browser made
    every later ``asyncio.run`` (tests/server) fail with "cannot be called from a running event loop"."""
    if not CHROMIUM:
        pytest.fail("chromium is required in CI (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def close_pages_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser context a test opened: the session shares one browser, and pages left open
    keep polling, animating and holding sockets, which slows (and, on a busy machine, times out) every
    later test."""
    yield
    if "browser" in request.fixturenames:
        browser: Browser = request.getfixturevalue("browser")
        for context in list(browser.contexts):
            context.close()


def screenshot_dir() -> Path:
    """Where browser tests save screenshots: docs/screenshots/ with MEEPLE_SCREENSHOTS=1 (to refresh the
    committed pictures), otherwise a fresh temporary folder, so running the suite never dirties the tree."""
    if os.environ.get("MEEPLE_SCREENSHOTS"):
        return ROOT / "docs" / "screenshots"
    import tempfile

    return Path(tempfile.mkdtemp(prefix="meeple-screenshots-"))


def views_by_version(server: Server, table_id: str, seat: int | None) -> list[dict[str, Any]]:
    """A seat's view after every action of a table, rebuilt from what the server wrote to its database:
    the reference every frame a page received is compared with."""
    engine = create_engine(server.database_url)
    with engine.connect() as connection:
        row = connection.execute(text("select game, players, seed, options from game_tables where id = :t"),
                                 {"t": table_id}).one()
        notations = connection.execute(text("select notation from actions where table_id = :t order by idx"),
                                       {"t": table_id}).scalars().all()
    engine.dispose()
    options = row.options if isinstance(row.options, dict) else json.loads(row.options)
    state = load_game(row.game).new_game(row.players, seed=row.seed, options=options)
    views = [state.view(seat)]
    for notation in notations:
        state.apply(notation)
        views.append(state.view(seat))
    return views


def record_frames(page: Any, raw: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every state the page has from now on, in arrival order: each full state it receives, and each
    update applied to the state before it (as ``table.js`` does), so a test reads whole views. The
    frames themselves, as sent, go to ``raw`` when given."""
    frames: list[dict[str, Any]] = []
    current: dict[str, Any] = {}  # the page's state, across its reconnections

    def received(payload: str) -> None:
        message = json.loads(payload)
        if raw is not None:
            raw.append(message)
        if message.get("type") == "update":
            state = current.get("state")
            if state is None or message["version"] < state["version"] or message["from"] != state["version"] \
                    or message["seat"] != state["seat"]:
                return  # the page asks for a resync (or a refresh) and gets what it missed
            message = applied(state, message)
        if message.get("type") == "state":
            current["state"] = message
        frames.append(message)

    page.on("websocket", lambda socket: socket.on("framereceived", received))
    return frames


def reload_and_check(page: Any, server: Server, table_id: str, board: str | None = None) -> None:
    """Reload the table page mid-game: the seat is still Ada's, the socket reconnects, the ``board``
    selector is drawn again, and what the server sends is seat 0's view at that version."""
    from playwright.sync_api import expect

    page.reload()
    expect(page.locator(".seat-chip.me")).to_contain_text("Ada")
    expect(page.locator("#connection")).to_have_attribute("data-state", "online")
    if board is not None:
        expect(page.locator(board)).to_be_visible()
    state = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    assert state["seat"] == 0
    assert state["view"] == views_by_version(server, table_id, 0)[state["version"]]
