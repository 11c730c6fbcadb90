"""docs/deploy/nginx-meeple.conf works: Debian's nginx runs that very file in front of a real
``meeple serve --public-url https://localhost:<port>`` (``tests/nginx_proxy.py``). Through it: the
lobby loads over https, plain http is sent to https, a table's creation answers an https
``invite_url`` and Secure cookies, a redirect points at the public address, a foreign origin is still
refused, and a WebSocket over ``wss://`` gets the table's state and applies a move.

Skipped with the reason where nginx is not installed, except in CI (``CI=true``), where it must run
(``scripts/test.sh --system`` installs Debian's nginx).
"""

from __future__ import annotations

import asyncio
import json
import ssl
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import aio
from tests.nginx_proxy import Proxied, meeple_behind_nginx
from tests.services import IN_CI, nginx_path

NGINX = nginx_path()

if NGINX is None:
    if IN_CI:
        pytest.fail("nginx is required in CI (bash scripts/test.sh --system installs it)", pytrace=False)
    pytest.skip("nginx is not installed (apt-get install nginx); the nginx deployment test is skipped",
                allow_module_level=True)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Proxied]:
    assert NGINX is not None
    with meeple_behind_nginx(tmp_path, NGINX) as running:
        yield running


def test_meeple_behind_the_documented_nginx_site(proxied: Proxied) -> None:
    public = proxied.public_url
    with httpx.Client(base_url=public, verify=proxied.tls, timeout=10, follow_redirects=False) as https:
        lobby = https.get("/")
        assert lobby.status_code == 200 and "lobby.js" in lobby.text
        assert https.get("/api/site").json() == {"share_url": f"{public}/", "public": True, "local_only": False}

        plain = httpx.get(f"{proxied.http_url}/api/games", timeout=10, follow_redirects=False)
        assert plain.status_code == 301 and plain.headers["location"] == f"{public}/api/games"

        moved = https.get("/api/tables/")
        assert moved.status_code == 307 and moved.headers["location"] == f"{public}/api/tables"

        body = {"game": "citadels", "players": 2, "seat": 0, "name": "Ada",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
        created = https.post("/api/tables", json=body, headers={"Origin": public})
        assert created.status_code == 201, created.text
        table_id = created.json()["table"]["id"]
        assert created.json()["invite_url"] == f"{public}/tables/{table_id}"
        cookies = created.headers.get_list("set-cookie")
        seat_cookie = next(cookie for cookie in cookies if cookie.startswith(f"meeple_seat_{table_id}="))
        assert all("secure" in (part.strip().lower() for part in cookie.split(";")) for cookie in cookies), cookies
        token = created.json()["token"]
        assert seat_cookie.split(";")[0] == f"meeple_seat_{table_id}={token}"

        foreign = https.post("/api/tables", json=body, headers={"Origin": "https://evil.example"})
        assert foreign.status_code == 403 and foreign.json()["code"] == "forbidden_origin"

        played = aio.run(play_one_move_over_wss(public, proxied.tls, table_id, token))
        state = https.get(f"/api/tables/{table_id}", headers={"X-Meeple-Token": token}).json()
        assert state["version"] >= played["version"]
        mine = [entry for entry in state["log"] if entry["index"] == played["index"]]
        assert len(mine) == 1 and mine[0]["seat"] == 0 and mine[0]["action"] == played["action"]
        assert mine[0]["event"] == "move"  # the platform's log entries are Events (meeple.core.events)
        assert mine[0]["kind"] and "args" in mine[0]  # the structured form of one's own move comes along


async def play_one_move_over_wss(public: str, tls: ssl.SSLContext, table_id: str, token: str) -> dict[str, Any]:
    """Through nginx: take the table's state on a ``wss://`` socket (as the seat's cookie, from the
    public origin, as the browser does), wait for seat 0's turn, send a legal move and read the update
    that applied it. Returns the move, its index in the game and the version after it."""
    import websockets

    url = public.replace("https://", "wss://") + f"/ws/tables/{table_id}"
    headers = {"Cookie": f"meeple_seat_{table_id}={token}", "Origin": public}
    async with websockets.connect(url, ssl=tls, additional_headers=headers) as socket_:
        state = json.loads(await asyncio.wait_for(socket_.recv(), 20))
        assert state["type"] == "state" and state["seat"] == 0, state
        assert state["table"]["id"] == table_id and state["view"] is not None
        version, legal = state["version"], state["legal"]
        deadline = time.monotonic() + 60
        while not legal:  # the bot moves first: wait for our turn, then read it as a fresh state
            assert time.monotonic() < deadline, "seat 0 never got a turn"
            update = json.loads(await asyncio.wait_for(socket_.recv(), 20))
            assert update["type"] == "update", update
            async with httpx.AsyncClient(verify=tls) as client:
                fresh = (await client.get(f"{public}/api/tables/{table_id}", headers={"X-Meeple-Token": token})).json()
            version, legal = fresh["version"], fresh["legal"]
        action = legal[0]
        await socket_.send(json.dumps({"type": "act", "action": action, "version": version}))
        while True:
            reply = json.loads(await asyncio.wait_for(socket_.recv(), 20))
            assert reply["type"] != "error", reply
            if reply["type"] == "update" and reply["version"] > version:
                return {"action": action, "index": version, "version": reply["version"]}


def test_the_documented_multi_host_block_sends_each_tables_requests_to_one_host(tmp_path: Path) -> None:
    """docs/deploy.md's block for several hosts (its ``map`` and ``upstream``, the hosts' addresses
    replaced by two local backends) in a real nginx: every request of one table, socket or API or
    page, reaches the same backend; different tables and the lobby use both."""
    import re
    import secrets
    import subprocess
    import sys

    from tests.nginx_proxy import free_port

    assert NGINX is not None
    page = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    section = page[page.index("## Several hosts behind one address"):]
    block = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert block is not None, "docs/deploy.md shows no nginx block for several hosts"
    backends = [free_port(), free_port()]
    text = block.group(1)
    for address, port in zip(("10.0.0.11:8000", "10.0.0.12:8000"), backends, strict=True):
        assert text.count(f"server {address};") == 1
        text = text.replace(f"server {address};", f"server 127.0.0.1:{port};")
    port = free_port()
    temp = "\n".join(f"{kind}_temp_path {tmp_path / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                       "scgi"))
    (tmp_path / "nginx.conf").write_text(f"""daemon off;
master_process off;
pid {tmp_path / 'nginx.pid'};
error_log {tmp_path / 'error.log'} info;
events {{ worker_connections 64; }}
http {{
    log_format upstream '$uri $upstream_addr';
    access_log {tmp_path / 'access.log'} upstream;
    {temp}
    {text}
    server {{
        listen 127.0.0.1:{port};
        location / {{ proxy_pass http://meeple; }}
    }}
}}
""")
    started = [subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(backend),
                                 "--directory", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for backend in backends]
    started.append(subprocess.Popen([NGINX, "-c", str(tmp_path / "nginx.conf"), "-e", str(tmp_path / "error.log")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if all(httpx.get(f"http://127.0.0.1:{backend}/", timeout=1).status_code == 200
                       for backend in [*backends, port]):
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "error.log").read_text()
            time.sleep(0.1)
        (tmp_path / "access.log").write_text("")
        tables = [secrets.token_urlsafe(9) for _ in range(12)]
        for table in tables:
            for path in (f"/ws/tables/{table}", f"/api/tables/{table}", f"/api/tables/{table}/actions",
                         f"/tables/{table}", f"/tables/{table}/replay"):
                httpx.get(f"http://127.0.0.1:{port}{path}", timeout=5)
        for _ in range(6):
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
        time.sleep(0.3)  # the access log is written as each request ends
        served: dict[str, set[str]] = {}
        for line in (tmp_path / "access.log").read_text().splitlines():
            uri, upstream = line.split()
            parts = uri.split("/")
            key = parts[parts.index("tables") + 1] if "tables" in parts else uri
            served.setdefault(key, set()).add(upstream)
    finally:
        for process in started:
            process.terminate()
            process.wait(10)
    assert all(len(served[table]) == 1 for table in tables), served
    assert len(set().union(*(served[table] for table in tables))) == 2, served
    assert len(served["/api/games"]) == 2, served
