"""What the live lobby costs the server: the CPU of one lobby change sent to many lobby sockets, and
whether lobby watchers make a table's moves any dearer.

    python bench/lobby_fanout.py --sockets 200 --changes 40 --moves 60

It starts ``meeple serve`` (one process, a temporary SQLite file, no bots) and, for 0 and then
``--sockets`` open lobby sockets (``/ws/lobby``, held by this process), measures over the server's
own CPU time (``/proc/<pid>/stat``):

- per lobby change: ``--changes`` tables created over HTTP (each is one change every lobby socket is
  sent), the server's CPU ms per creation and the time until the last socket has it;
- per move: ``--moves`` moves played over HTTP at a running 2-seat Citadels table (a move changes
  nothing the lobby shows, so it is published to no lobby socket), the server's CPU ms per move and
  how many lobby messages arrived meanwhile.

The difference between the two rows of each is what the lobby sockets cost. Figures are printed one
per line (``key: value``); the machine's load average is printed too, since CPU time grows on a busy
machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "meeple.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--database-url", f"sqlite:///{tmp / 'bench.sqlite3'}", "--bot-delay", "0", "--bot-processes", "0",
               "--no-ws-deflate"]
    log = (tmp / "server.log").open("wb")
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start:\n" + (tmp / "server.log").read_text())


class Watchers:
    """``count`` lobby sockets, each noting when it was sent each table."""

    def __init__(self, url: str, count: int) -> None:
        self.url = url.replace("http://", "ws://") + "/ws/lobby?topics=tables"
        self.count = count
        self.sockets: list[Any] = []
        self.seen: dict[str, list[float]] = {}
        self.messages = 0
        self.tasks: list[asyncio.Task[None]] = []

    async def open(self) -> None:
        import websockets

        for _ in range(self.count):
            ws = await websockets.connect(self.url, compression=None, max_queue=None)
            assert json.loads(await ws.recv())["type"] == "tables"
            self.sockets.append(ws)
            self.tasks.append(asyncio.create_task(self._read(ws)))

    async def _read(self, ws: Any) -> None:
        async for text in ws:
            message = json.loads(text)
            self.messages += 1
            if message["type"] == "table":
                self.seen.setdefault(message["table"]["id"], []).append(time.perf_counter())

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for ws in self.sockets:
            await ws.close()


async def measure_changes(url: str, watchers: Watchers, changes: int) -> tuple[float, float]:
    """CPU ms per table created (one lobby change), and the mean ms until every socket had it."""
    pid = SERVER_PID
    delays: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        before = cpu_seconds(pid)
        for _ in range(changes):
            sent = time.perf_counter()
            created = await client.post("/api/tables", json={"game": "citadels", "players": 2, "seat": 0,
                                                             "name": "Ada"})
            table_id = created.json()["table"]["id"]
            client.cookies.clear()  # each request as from a new browser
            if watchers.count:
                deadline = time.monotonic() + 10
                while len(watchers.seen.get(table_id, ())) < watchers.count and time.monotonic() < deadline:
                    await asyncio.sleep(0.002)
                delays.append((max(watchers.seen.get(table_id, [sent])) - sent) * 1000)
            else:
                await asyncio.sleep(0.15)  # as long as the feed waits before it publishes
        await asyncio.sleep(0.3)
        spent = cpu_seconds(pid) - before
    return spent * 1000 / changes, (sum(delays) / len(delays) if delays else 0.0)


async def measure_moves(url: str, watchers: Watchers, moves: int) -> tuple[float, int]:
    """CPU ms per move at a running 2-seat table, and how many lobby messages arrived meanwhile."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        created = (await client.post("/api/tables", json={"game": "citadels", "players": 2, "seat": 0,
                                                          "name": "Ada"})).json()
        table_id = created["table"]["id"]
        client.cookies.clear()  # Bob's browser is another one
        joined = (await client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"})).json()
        tokens = [created["token"], joined["token"]]
        await asyncio.sleep(0.5)
        heard_before = watchers.messages
        before = cpu_seconds(SERVER_PID)
        for _ in range(moves):
            state = (await client.get(f"/api/tables/{table_id}", headers={"X-Meeple-Token": tokens[0]})).json()
            seat = state["current_player"]
            if seat is None or state["is_over"]:
                break
            mine = (await client.get(f"/api/tables/{table_id}", headers={"X-Meeple-Token": tokens[seat]})).json()
            await client.post(f"/api/tables/{table_id}/actions", headers={"X-Meeple-Token": tokens[seat]},
                              json={"action": mine["legal"][0], "version": mine["version"]})
        await asyncio.sleep(0.3)
        spent = cpu_seconds(SERVER_PID) - before
    return spent * 1000 / moves, watchers.messages - heard_before


SERVER_PID = 0


async def run(args: argparse.Namespace, url: str) -> None:
    for count in (0, args.sockets):
        watchers = Watchers(url, count)
        await watchers.open()
        per_change, delay = await measure_changes(url, watchers, args.changes)
        per_move, heard = await measure_moves(url, watchers, args.moves)
        await watchers.close()
        print(f"lobby sockets: {count}")
        print(f"  server CPU ms per lobby change (a table created): {per_change:.2f}")
        if count:
            print(f"  ms until the last of {count} sockets had the change: {delay:.1f}")
        print(f"  server CPU ms per move: {per_move:.2f}")
        print(f"  lobby messages during {args.moves} moves: {heard}")


def main() -> None:
    global SERVER_PID
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="meeple-lobby-bench-") as folder:
        process, url = start_server(Path(folder))
        SERVER_PID = process.pid
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f}")
            asyncio.run(run(args, url))
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
