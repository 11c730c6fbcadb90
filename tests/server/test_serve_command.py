"""``meeple serve`` starts the platform on the given host and port, with its SQLite file in the user
data directory unless told otherwise."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests import aio

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_meeple_serve_serves_the_lobby_on_a_default_sqlite_file(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_DATABASE_URL"}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--bot-delay", "0"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                lobby = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None and time.monotonic() < deadline, "meeple serve did not start"
                time.sleep(0.1)
        assert lobby.status_code == 200 and "lobby.js" in lobby.text
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).json()
        assert games["bot_levels"] == ["easy", "medium", "hard", "expert"]
        assert (tmp_path / "data" / "meeple" / "meeple.sqlite3").exists()
        assert _oversized_frame_close_code(port) == 1009, "a 1 MB frame must be refused before it is buffered"
        assert "permessage-deflate" in _negotiated_extensions(port), "messages are compressed by default"
    finally:
        process.terminate()
        output = process.communicate(timeout=15)[0].decode()
    assert f"http://127.0.0.1:{port}" in output


def test_no_ws_deflate_sends_messages_uncompressed(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "serve", "--port", str(port), "--bot-delay", "0", "--no-ws-deflate"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None and time.monotonic() < deadline, "meeple serve did not start"
                time.sleep(0.1)
        assert _negotiated_extensions(port) == "", "--no-ws-deflate: the offered compression is declined"
    finally:
        process.terminate()
        process.communicate(timeout=15)


def _negotiated_extensions(port: int) -> str:
    """The WebSocket extensions the server accepted for a client offering permessage-deflate (as browsers do)."""
    import websockets

    table = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "citadels", "players": 2}, timeout=5)
    assert table.status_code == 201, table.text

    async def probe() -> str:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table.json()['table']['id']}",
                                      compression="deflate") as socket_:
            await socket_.recv()  # the table's state
            assert socket_.response is not None
            return str(socket_.response.headers.get("Sec-WebSocket-Extensions", ""))

    return aio.run(probe())


def _oversized_frame_close_code(port: int) -> int | None:
    """Send a 1 MB text frame to a table's socket; uvicorn (ws_max_size) closes with 1009 "message too big"."""
    import asyncio

    import websockets

    table = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "citadels", "players": 2}, timeout=5)
    assert table.status_code == 201, table.text
    table_id = table.json()["table"]["id"]

    async def probe() -> int | None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as socket_:
            await socket_.recv()  # the table's state
            await socket_.send("x" * 1_000_000)
            try:
                while True:
                    await asyncio.wait_for(socket_.recv(), timeout=10)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

    return aio.run(probe())


def test_several_workers_refuse_sqlite_and_a_missing_redis_clearly(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(ROOT), COLUMNS="200")
    for extra, words in (([], "SQLite is one process's"),
                         (["--database-url", "postgresql+psycopg://u:p@127.0.0.1:1/x"], "--redis-url")):
        done = subprocess.run([sys.executable, "-m", "meeple.cli", "serve", "--workers", "2", *extra],
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and words in done.stderr + done.stdout, done.stderr
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.sqlite3"))
