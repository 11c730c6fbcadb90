"""Several server processes, one site: real uvicorn processes on loopback ports sharing PostgreSQL,
with Redis carrying each table's updates between them.

Skipped, with the reason, where no test PostgreSQL or Redis answers (``tests/services.py``); in CI
they must run. Each test is bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, make_url, text

from meeple.cli import WS_IMPLEMENTATION
from meeple.core.registry import game_names
from meeple.server.patch import apply_patch
from tests import aio
from tests.services import IN_CI, postgres_url, redis_url

pytestmark = pytest.mark.xdist_group("redis")  # see pyproject.toml

ROOT = Path(__file__).resolve().parents[2]
POSTGRES, REDIS = postgres_url(), redis_url()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A private PostgreSQL schema and the Redis URL, as the environment of the processes to start."""
    missing = [name for name, url in (("PostgreSQL", POSTGRES), ("Redis", REDIS)) if not url]
    if missing:
        reason = (f"no test {' or '.join(missing)} answers (set MEEPLE_TEST_POSTGRES_URL and MEEPLE_TEST_REDIS_URL, "
                  "or run scripts/test.sh --system)")
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    if "citadels" not in game_names():
        pytest.skip("the Citadels engine is not installed")
    assert POSTGRES is not None and REDIS is not None
    schema = f"meeple_scale_{os.getpid()}"
    engine = create_engine(POSTGRES)
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(POSTGRES).update_query_dict({"options": f"-csearch_path={schema}"})
    env = dict(os.environ, MEEPLE_DATABASE_URL=url.render_as_string(hide_password=False), MEEPLE_REDIS_URL=REDIS,
               MEEPLE_BOT_DELAY="0", MEEPLE_BOT_LEASE="1", MEEPLE_BOT_PROCESSES="0", PYTHONPATH=str(ROOT))
    # migrate once, as `meeple serve --workers N` does, before several processes start at once
    from meeple.server.db import make_engine, migrate

    migrating = make_engine(env["MEEPLE_DATABASE_URL"])
    migrate(migrating)
    migrating.dispose()
    yield env
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
    engine.dispose()


class Process:
    """One server (uvicorn on a free loopback port) or bot worker, with its log in ``tmp``."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path, port: int | None = None) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}" if port else ""
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    @classmethod
    def server(cls, env: dict[str, str], tmp: Path, name: str, **extra: str) -> Process:
        port = _free_port()
        server = cls([sys.executable, "-m", "uvicorn", "--factory", "tests.browser.toy_app:make_app", "--host",
                      "127.0.0.1", "--port", str(port), "--log-level", "warning", "--ws", WS_IMPLEMENTATION],
                     dict(env, **extra),
                     tmp / f"{name}.log", port)
        deadline = time.monotonic() + 120  # a busy machine takes its time importing everything
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{server.url}/api/games", timeout=1).status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            if server.process.poll() is not None:
                break
            time.sleep(0.1)
        server.stop()
        raise RuntimeError(f"server {name} did not start:\n{server.log.read_text()}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    started: list[Process] = []
    yield started
    for process in started:
        process.stop()


def citadels_table(url: str, joins: list[str]) -> tuple[str, list[str]]:
    """A 4-seat Citadels table made on ``url``, seat n>0 taken through ``joins[n-1]``; the seat tokens."""
    created = httpx.post(f"{url}/api/tables", json={"game": "citadels", "players": 4, "seat": 0, "name": "P0"}).json()
    table_id = created["table"]["id"]
    tokens = [created["token"]]
    for seat, join_url in enumerate(joins, start=1):
        response = httpx.post(f"{join_url}/api/tables/{table_id}/join", json={"seat": seat, "name": f"P{seat}"})
        assert response.status_code == 200, response.text
        tokens.append(response.json()["token"])
    return table_id, tokens


class SeatClient:
    """One seat (or a spectator) over a WebSocket, following as the page does, failing over to the
    next URL when its server dies, and playing random legal moves when it must act."""

    def __init__(self, urls: list[str], table_id: str, token: str | None, rng: random.Random) -> None:
        self.urls, self.table_id, self.token, self.rng = urls, table_id, token, rng
        self.state: dict[str, Any] | None = None
        self.applied: list[int] = []  # versions reached by updates, in order
        self.full_states = 0
        self.first_version: int | None = None
        self.reconnects = 0
        self.errors: list[dict[str, Any]] = []
        self.acted: set[int] = set()
        self.target = 0  # no move is made at or beyond this version

    async def run(self, target: int, deadline: float) -> None:
        import websockets

        attempt = 0
        self.target = target
        while time.monotonic() < deadline:
            url = self.urls[min(attempt, len(self.urls) - 1)].replace("http://", "ws://")
            query = [f"token={self.token}"] if self.token else []
            if self.state is not None:
                query.append(f"version={self.state['version']}")
            try:
                async with websockets.connect(f"{url}/ws/tables/{self.table_id}?{'&'.join(query)}") as ws:
                    if self.state is not None:  # up to date already: a move sent as the old socket closed may be lost
                        self.acted.discard(self.state["version"])
                        await self.maybe_act(ws)
                    while time.monotonic() < deadline:
                        raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
                        await self.receive(ws, json.loads(raw))
                        if self.state is not None and (self.state["version"] >= target or self.state["is_over"]):
                            return
            except (TimeoutError, OSError, websockets.exceptions.ConnectionClosed):
                if time.monotonic() >= deadline:
                    return
                attempt += 1
                self.reconnects += 1
                await asyncio.sleep(0.1)

    async def receive(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "error":
            self.errors.append(message)
            return
        if kind == "state":
            self.state = message
            self.full_states += 1
            if self.first_version is None:
                self.first_version = message["version"]
        elif kind == "update":
            if self.state is None or message["version"] < self.state["version"] or (
                    message["from"] < self.state["version"] == message["version"]):
                return  # old news, as the table page judges it (table.js receiveUpdate)
            if message["from"] != self.state["version"]:
                await ws.send(json.dumps({"type": "resync", "version": self.state["version"]}))
                return
            patch = message.get("patch") or {}
            view = message["view"] if "view" in message else (
                apply_patch(self.state["view"], patch) if patch else self.state["view"])
            self.state = {**self.state, "version": message["version"], "table": message["table"],
                          "current_player": message["current_player"], "is_over": message["is_over"],
                          "legal": message["legal"], "log": self.state["log"] + message["log"], "view": view}
            if message["version"] > message["from"]:
                self.applied.append(message["version"])
        await self.maybe_act(ws)

    async def maybe_act(self, ws: Any) -> None:
        state = self.state
        if (state is not None and state["legal"] and state["version"] not in self.acted
                and state["version"] < self.target):
            self.acted.add(state["version"])
            await ws.send(json.dumps({"type": "act", "action": self.rng.choice(state["legal"]),
                                      "version": state["version"]}))


def play(clients: list[SeatClient], target: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds

    async def everyone() -> None:
        await asyncio.gather(*(client.run(target, deadline) for client in clients))

    aio.run(everyone())


def stored_moves(env: dict[str, str], table_id: str) -> list[tuple[int, int]]:
    engine = create_engine(env["MEEPLE_DATABASE_URL"])
    with engine.connect() as connection:
        rows = connection.execute(text("select idx, seat from actions where table_id = :t order by idx"),
                                  {"t": table_id}).all()
    engine.dispose()
    return [(row[0], row[1]) for row in rows]


def two_servers_and_a_table(site: dict[str, str], processes: list[Process],
                            tmp_path: Path) -> tuple[Process, Process, str, list[str]]:
    """Servers A and B on one site, and a 4-seat Citadels table whose seats were taken through both."""
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    table_id, tokens = citadels_table(a.url, [b.url, a.url, b.url])
    return a, b, table_id, tokens


def test_one_tables_clients_spread_over_two_processes_each_see_every_move_in_order(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a, b, table_id, tokens = two_servers_and_a_table(site, processes, tmp_path)
    rng = random.Random(1)
    clients = [SeatClient([[a.url, b.url][seat % 2]], table_id, token, rng) for seat, token in enumerate(tokens)]
    spectators = [SeatClient([url], table_id, None, rng) for url in (a.url, b.url)]
    target = 40
    play(clients + spectators, target, 40)
    moves = stored_moves(site, table_id)
    assert len(moves) >= target and [idx for idx, _ in moves] == list(range(len(moves)))
    for client in clients + spectators:
        assert client.state is not None and not client.errors, client.errors
        assert client.state["version"] >= target
        # every move arrived as its own update, in order, with no gap and nothing twice
        start = (client.first_version or 0) + 1
        assert client.applied == list(range(start, start + len(client.applied))), client.applied
        assert client.full_states == 1 and client.reconnects == 0
        assert [entry["seat"] for entry in client.state["log"]] == [seat for _, seat in moves[:client.state["version"]]]
    # the patches each process computed (one of them following the other's, heard over Redis) rebuild
    # every seat's exact view
    compared = 0
    for client in clients + spectators:
        assert client.state is not None
        for url in (a.url, b.url):
            headers = {"X-Meeple-Token": client.token} if client.token else {}
            server = httpx.get(f"{url}/api/tables/{table_id}", headers=headers).json()
            if server["version"] == client.state["version"]:
                assert server["view"] == client.state["view"]
                compared += 1
    assert compared >= 4


def test_a_process_killed_mid_game_loses_nothing_and_applies_nothing_twice(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a, b, table_id, tokens = two_servers_and_a_table(site, processes, tmp_path)
    rng = random.Random(2)
    # seats 0 and 2 play through A (then fail over to B), 1 and 3 through B
    clients = [SeatClient([a.url, b.url] if seat % 2 == 0 else [b.url], table_id, token, rng)
               for seat, token in enumerate(tokens)]
    play(clients, 20, 30)
    assert all(c.state is not None and c.state["version"] >= 20 for c in clients)
    a.kill()
    play(clients, 45, 40)
    moves = stored_moves(site, table_id)
    assert [idx for idx, _ in moves] == list(range(len(moves))) and len(moves) >= 45
    final = httpx.get(f"{b.url}/api/tables/{table_id}", headers={"X-Meeple-Token": tokens[0]}).json()
    for seat, client in enumerate(clients):
        assert client.state is not None and client.state["version"] >= 45
        if seat % 2 == 0:
            assert client.reconnects >= 1  # it moved to B
        log = [entry["seat"] for entry in client.state["log"]]
        assert log == [s for _, s in moves[:len(log)]]  # nothing lost, nothing twice
        assert all(code["code"] in ("stale", "not_your_turn") for code in client.errors), client.errors
    assert final["version"] == len(moves)


def test_the_same_move_sent_to_two_processes_at_once_is_applied_exactly_once(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a, b, table_id, tokens = two_servers_and_a_table(site, processes, tmp_path)

    async def race() -> list[int]:
        outcomes: list[int] = []
        async with httpx.AsyncClient(timeout=10) as http:
            for _round in range(8):
                state = (await http.get(f"{a.url}/api/tables/{table_id}")).json()
                seat = state["current_player"]
                headers = {"X-Meeple-Token": tokens[seat]}
                mine = (await http.get(f"{b.url}/api/tables/{table_id}", headers=headers)).json()
                body = {"action": mine["legal"][0], "version": mine["version"]}
                answers = await asyncio.gather(*(http.post(f"{url}/api/tables/{table_id}/actions", json=body,
                                                           headers=headers) for url in (a.url, b.url)))
                codes = sorted(answer.status_code for answer in answers)
                assert codes == [200, 409], [answer.text for answer in answers]
                outcomes.append(mine["version"])
        return outcomes

    versions = aio.run(race())
    moves = stored_moves(site, table_id)
    assert [idx for idx, _ in moves] == list(range(len(moves))) and len(moves) == len(versions)
    for url in (a.url, b.url):
        assert httpx.get(f"{url}/api/tables/{table_id}").json()["version"] == len(moves)


def test_a_seat_online_through_another_process_shows_online_and_goes_offline_when_that_process_dies(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a = Process.server(site, tmp_path, "a")
    b = Process.server(site, tmp_path, "b")
    processes += [a, b]
    table_id, tokens = citadels_table(a.url, [a.url, a.url, a.url])

    def online(table: dict[str, Any]) -> list[bool]:
        return [seat["online"] for seat in table["seats"]]

    async def watch() -> tuple[list[bool], list[bool], list[bool]]:
        import websockets

        ws_a, ws_b = a.url.replace("http://", "ws://"), b.url.replace("http://", "ws://")
        async with websockets.connect(f"{ws_a}/ws/tables/{table_id}?token={tokens[0]}") as seat0:
            assert json.loads(await seat0.recv())["type"] == "state"
            # B has never heard of this table's sockets: it must learn seat 0 is online from Redis
            async with websockets.connect(f"{ws_b}/ws/tables/{table_id}?token={tokens[2]}") as seat2:
                first = json.loads(await seat2.recv())
                assert first["type"] == "state"
                lobby = httpx.get(f"{b.url}/api/tables", params={"status": "running"}).json()
                listed = next(t for t in lobby["tables"] if t["id"] == table_id)
                a.kill()  # seat 0's socket dies with A, which can say nothing
                deadline = time.monotonic() + 40
                latest = first["table"]
                while online(latest)[0] and time.monotonic() < deadline:
                    with contextlib.suppress(TimeoutError):
                        message = json.loads(await asyncio.wait_for(seat2.recv(), 1))
                        if message.get("table"):
                            latest = message["table"]
                return online(first["table"]), online(listed), online(latest)

    at_start, in_lobby, after_kill = aio.run(watch())
    assert at_start == [True, False, True, False]
    assert in_lobby == [True, False, True, False]
    assert after_kill == [False, False, True, False]


def owner_of(table_id: str, servers: list[Process]) -> Process:
    """The server whose process holds ``table_id``'s lease in Redis (its origin starts with its pid)."""
    import redis

    assert REDIS is not None
    client = redis.Redis.from_url(REDIS)
    try:
        origin = client.get(f"meeple:owner:{table_id}")
    finally:
        client.close()
    assert isinstance(origin, bytes), "nobody owns the table"
    return next(server for server in servers if origin.decode().startswith(f"{server.process.pid}-"))


def counts_of(server: Process) -> dict[str, int]:
    """What the server's last heartbeat said it did: moves applied, forwarded, tables taken over."""
    import redis

    assert REDIS is not None
    client = redis.Redis.from_url(REDIS)
    try:
        keys = list(client.scan_iter(match=f"meeple:alive:{server.process.pid}-*"))
        raw = client.get(keys[0]) if keys else None
    finally:
        client.close()
    counts: dict[str, int] = json.loads(raw) if raw and raw != b"1" else {}
    return counts


def heard_counts(server: Process, done: Any, seconds: float = 30) -> dict[str, int]:
    """The server's counts once ``done(counts)`` holds (they are written every heartbeat, 5 s)."""
    deadline = time.monotonic() + seconds
    while not done(counts := counts_of(server)):
        assert time.monotonic() < deadline, f"the heartbeat never said so: {counts}"
        time.sleep(0.5)
    return counts


def test_moves_sent_through_two_processes_are_all_applied_by_the_tables_owner(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a, b, table_id, tokens = two_servers_and_a_table(site, processes, tmp_path)
    rng = random.Random(3)
    clients = [SeatClient([[a.url, b.url][seat % 2]], table_id, token, rng) for seat, token in enumerate(tokens)]
    target = 30
    play(clients, target, 40)
    moves = stored_moves(site, table_id)
    assert len(moves) >= target and [idx for idx, _ in moves] == list(range(len(moves)))
    assert {seat for _, seat in moves} == {0, 1, 2, 3}  # seats on both processes moved
    for client in clients:
        assert client.state is not None and not client.errors, client.errors
        start = (client.first_version or 0) + 1
        assert client.applied == list(range(start, start + len(client.applied))), client.applied
        assert [entry["seat"] for entry in client.state["log"]] == [seat for _, seat in moves[:client.state["version"]]]
    owner = owner_of(table_id, [a, b])
    other = b if owner is a else a
    owned = heard_counts(owner, lambda counts: counts.get("applied") == len(moves))
    forwarded = heard_counts(other, lambda counts: counts.get("forwarded", 0) > 0)
    assert owned["forwarded"] == 0 and owned["taken_over"] == 0
    assert forwarded["applied"] == 0 and forwarded["taken_over"] == 0  # it applied none: it forwarded them
    # a refusal made by the owner reaches the client through the other process as it is
    version = len(moves)
    current = httpx.get(f"{owner.url}/api/tables/{table_id}").json()["current_player"]
    waiting = (current + 1) % 4
    for seat, body in ((current, {"action": "no such move", "version": version}),
                       (current, {"action": "no such move", "version": version - 1}),
                       (waiting, {"action": "no such move", "version": version})):
        answers = [httpx.post(f"{server.url}/api/tables/{table_id}/actions", json=body,
                              headers={"X-Meeple-Token": tokens[seat]}) for server in (owner, other)]
        assert answers[0].status_code == answers[1].status_code >= 400
        assert answers[0].json() == answers[1].json() and answers[0].json()["type"] == "error"
    assert len(stored_moves(site, table_id)) == version


def test_when_a_tables_owner_is_killed_the_other_process_takes_it_over_within_seconds(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    a, b, table_id, tokens = two_servers_and_a_table(site, processes, tmp_path)
    rng = random.Random(4)
    clients = [SeatClient([a.url, b.url] if seat % 2 == 0 else [b.url, a.url], table_id, token, rng)
               for seat, token in enumerate(tokens)]
    play(clients, 12, 30)
    owner = owner_of(table_id, [a, b])
    survivor = b if owner is a else a
    at_kill = len(stored_moves(site, table_id))
    owner.kill()
    started = time.monotonic()
    play(clients, at_kill + 1, 20)
    took = time.monotonic() - started
    assert all(c.state is not None and c.state["version"] > at_kill for c in clients), "play stopped with the owner"
    assert took < 20
    play(clients, at_kill + 12, 40)
    moves = stored_moves(site, table_id)
    assert [idx for idx, _ in moves] == list(range(len(moves))) and len(moves) >= at_kill + 12
    for client in clients:
        assert client.state is not None and client.state["version"] >= at_kill + 12
        log = [entry["seat"] for entry in client.state["log"]]
        assert log == [s for _, s in moves[:len(log)]]  # nothing lost, nothing twice
        assert all(code["code"] in ("stale", "not_your_turn") for code in client.errors), client.errors
    assert owner_of(table_id, [survivor]) is survivor
    heard_counts(survivor, lambda counts: counts.get("taken_over") == 1)


WORKER = """
import asyncio, sys, time
from meeple.bots import BOT_KINDS
from meeple.core import registry
from meeple.server.config import Settings
from meeple.server.worker import run_bot_worker
registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")
SLEEP = float(sys.argv[1])
EASY = BOT_KINDS["easy"]
class Sleepy:
    name = "sleepy"
    def __init__(self, seed):
        self.inner = EASY(seed)
    def choose(self, state):
        time.sleep(SLEEP)  # a long search
        return self.inner.choose(state)
BOT_KINDS["easy"] = Sleepy  # this worker's easy bots think for SLEEP seconds
asyncio.run(run_bot_worker(Settings.from_env()))
"""

def test_a_bot_worker_killed_mid_search_leaves_a_job_that_another_worker_plays(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:
    web = Process.server(site, tmp_path, "web", MEEPLE_RUN_BOTS="0")
    processes.append(web)
    first = Process([sys.executable, "-c", WORKER, "30"], site, tmp_path / "worker1.log")
    processes.append(first)
    created = httpx.post(f"{web.url}/api/tables", json={
        "game": "toy", "players": 2, "seat": 0, "name": "Ada", "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    table_id, token = created["table"]["id"], created["token"]
    state = httpx.get(f"{web.url}/api/tables/{table_id}", headers={"X-Meeple-Token": token}).json()
    httpx.post(f"{web.url}/api/tables/{table_id}/actions", json={"action": state["legal"][0], "version": 0},
               headers={"X-Meeple-Token": token})
    engine = create_engine(site["MEEPLE_DATABASE_URL"])

    def job() -> tuple[str | None, int] | None:
        with engine.connect() as connection:
            row = connection.execute(text("select claimed_by, attempts from bot_jobs where table_id = :t"),
                                     {"t": table_id}).first()
        return (row[0], row[1]) if row is not None else None

    deadline = time.monotonic() + 20
    while (claimed := job()) is None or claimed[0] is None:
        assert time.monotonic() < deadline, "the first worker never claimed the bot's job"
        time.sleep(0.1)
    time.sleep(0.5)  # it is thinking (for 30 s)
    first.kill()
    second = Process([sys.executable, "-c", WORKER, "0"], site, tmp_path / "worker2.log")
    processes.append(second)
    deadline = time.monotonic() + 20
    while httpx.get(f"{web.url}/api/tables/{table_id}").json()["version"] < 2:
        assert time.monotonic() < deadline, "the bot never moved:\n" + (tmp_path / "worker2.log").read_text()
        time.sleep(0.1)
    engine.dispose()
    moves = stored_moves(site, table_id)
    assert [idx for idx, _ in moves][:2] == [0, 1] and moves[1][1] == 1
