"""docs/deploy/nginx-meeple.conf works: Debian's nginx runs that very file (only its ports and
certificate paths changed, inside a minimal main configuration like Debian's whose logs and temporary
files go to a temporary folder), with TLS on a self-signed certificate made here, in front of a real
``meeple serve --public-url https://localhost:<port>``. Through it: the lobby loads over https, plain
http is sent to https, a table's creation answers an https ``invite_url`` and Secure cookies, a
redirect points at the public address, a foreign origin is still refused, and a WebSocket over
``wss://`` gets the table's state and applies a move.

Skipped with the reason where nginx is not installed, except in CI (``CI=true``), where it must run
(``scripts/test.sh --system`` installs Debian's nginx).
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import os
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest

from tests import aio
from tests.services import IN_CI, nginx_path

ROOT = Path(__file__).resolve().parents[2]
SITE_FILE = ROOT / "docs" / "deploy" / "nginx-meeple.conf"
NGINX = nginx_path()

if NGINX is None:
    if IN_CI:
        pytest.fail("nginx is required in CI (bash scripts/test.sh --system installs it)", pytrace=False)
    pytest.skip("nginx is not installed (apt-get install nginx); the nginx deployment test is skipped",
                allow_module_level=True)


class Proxied(NamedTuple):
    public_url: str  # https://localhost:<nginx https port>
    http_url: str  # http://localhost:<nginx http port>
    tls: ssl.SSLContext  # trusts the test's certificate


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def ipv6_loopback_works() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for ``localhost`` and 127.0.0.1, valid for a day, and its key (PEM files)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                    x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                       critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "fullchain.pem", folder / "privkey.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def templated_site(cert: Path, key: Path, http_port: int, https_port: int, meeple_port: int) -> str:
    """The documented site file with its ports and certificate paths replaced, each exactly where the
    file has it (a test that silently stopped replacing would test another configuration)."""
    text = SITE_FILE.read_text()
    ipv6 = ipv6_loopback_works()
    replacements = {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": f"listen [::1]:{http_port};" if ipv6 else "",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "listen [::]:443 ssl;": f"listen [::1]:{https_port} ssl;" if ipv6 else "",
        "return 301 https://$host$request_uri;": f"return 301 https://$host:{https_port}$request_uri;",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{meeple_port};",
        "/etc/letsencrypt/live/games.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/games.example.org/privkey.pem": str(key),
    }
    for old, new in replacements.items():
        assert text.count(old) == 1, f"{SITE_FILE.name} should contain {old!r} once"
        text = text.replace(old, new)
    return text


def main_configuration(folder: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf gives a site (its http context, mime types), with logs,
    pid and temporary files in ``folder``, one process in the foreground as the test's own user."""
    mime = "include /etc/nginx/mime.types;" if Path("/etc/nginx/mime.types").exists() else ""
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                          "scgi"))
    return f"""daemon off;
master_process off;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} info;
events {{ worker_connections 64; }}
http {{
    {mime}
    default_type application/octet-stream;
    access_log {folder / 'access.log'};
{temp}
    include {site};
}}
"""


def wait_until_answers(url: str, tls: ssl.SSLContext | bool, process: subprocess.Popen[bytes], what: str,
                       log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(url, verify=tls, timeout=2)
            return
        except httpx.HTTPError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    raise AssertionError(f"{what} did not answer at {url}:\n{log.read_text() if log.exists() else ''}")


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Proxied]:
    """``meeple serve`` on a loopback port, nginx with the documented site in front of it."""
    assert NGINX is not None
    meeple_port, http_port, https_port = free_port(), free_port(), free_port()
    public_url = f"https://localhost:{https_port}"
    cert, key = self_signed_certificate(tmp_path)
    tls = ssl.create_default_context(cafile=str(cert))

    env = {name: value for name, value in os.environ.items() if not name.startswith("MEEPLE_")}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"))
    meeple_log = tmp_path / "meeple.log"
    with meeple_log.open("wb") as log:
        meeple = subprocess.Popen(
            [sys.executable, "-m", "meeple.cli", "serve", "--host", "127.0.0.1", "--port", str(meeple_port),
             "--public-url", public_url, "--bot-delay", "0", "--bot-processes", "0"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    site = tmp_path / "meeple.conf"
    site.write_text(templated_site(cert, key, http_port, https_port, meeple_port))
    conf = tmp_path / "nginx.conf"
    conf.write_text(main_configuration(tmp_path, site))
    nginx_command = [NGINX, "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")]
    checked = subprocess.run([*nginx_command, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, f"nginx -t refused the documented site:\n{checked.stderr}"
    nginx = subprocess.Popen(nginx_command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_answers(f"http://127.0.0.1:{meeple_port}/api/games", False, meeple, "meeple serve", meeple_log)
        wait_until_answers(f"{public_url}/api/games", tls, nginx, "nginx", tmp_path / "error.log")
        yield Proxied(public_url, f"http://localhost:{http_port}", tls)
    finally:
        for process in (nginx, meeple):
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


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
