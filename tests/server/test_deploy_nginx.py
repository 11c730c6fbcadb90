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
        assert {"index": played["index"], "seat": 0, "action": played["action"]} in state["log"]


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
