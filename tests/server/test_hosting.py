"""Reachable from other machines: the public URL and the listen address from flags or environment
(flags win, bad values refused with a clear message), invite links built on the public URL (or on the
address the browser used, never loopback when a LAN address exists), forwarded headers believed only
from trusted proxies, redirects to the public URL, ``Secure`` cookies over https, the public origin
allowed by the origin guard, and the start-up message listing LAN addresses.

TestClient talks to ``http://testserver`` from the client address ``testclient`` (not a trusted proxy)
unless told otherwise.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from meeple import cli
from meeple.server import hosting
from meeple.server.config import DEFAULT_FORWARDED_ALLOW_IPS, Settings
from tests.server.conftest import create_table

PUBLIC = "https://games.example.org"
FORWARDED_HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("MEEPLE_HOST", "MEEPLE_PUBLIC_URL", "MEEPLE_FORWARDED_ALLOW_IPS", "MEEPLE_ALLOWED_ORIGINS"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def from_client(client: TestClient, address: str, base_url: str = "http://testserver") -> TestClient:
    """Another browser (or proxy) on the same running app, connecting from ``address``."""
    other = TestClient(client.app, base_url=base_url, client=(address, 40000), follow_redirects=False)
    other.portal = client.portal
    return other


def set_cookies(response: Any) -> list[str]:
    cookies: list[str] = response.headers.get_list("set-cookie")
    assert cookies, "the answer should set cookies"
    return cookies


def is_secure(cookie: str) -> bool:
    return "secure" in (part.strip().lower() for part in cookie.split(";"))


# --- settings -------------------------------------------------------------------------------------

def test_the_environment_sets_host_public_url_and_trusted_proxies(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("MEEPLE_HOST", "0.0.0.0")
    clean_env.setenv("MEEPLE_PUBLIC_URL", "HTTPS://Games.Example.org:443/")
    clean_env.setenv("MEEPLE_FORWARDED_ALLOW_IPS", "10.0.0.0/8, 192.168.1.2")
    settings = Settings.from_env(database_url="sqlite://")
    assert settings.host == "0.0.0.0"
    assert settings.public_url == PUBLIC
    assert settings.forwarded_allow_ips == ("10.0.0.0/8", "192.168.1.2")


def test_flags_beat_the_environment(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("MEEPLE_HOST", "0.0.0.0")
    clean_env.setenv("MEEPLE_PUBLIC_URL", "https://from-env.example.org")
    clean_env.setenv("MEEPLE_FORWARDED_ALLOW_IPS", "10.0.0.0/8")
    settings = Settings.from_env(database_url="sqlite://", host="127.0.0.1", public_url="http://lan-box:8000",
                                 forwarded_allow_ips=["172.16.0.1"])
    assert (settings.host, settings.public_url, settings.forwarded_allow_ips) == (
        "127.0.0.1", "http://lan-box:8000", ("172.16.0.1",))


def test_without_settings_the_server_listens_locally_and_trusts_only_loopback(clean_env: pytest.MonkeyPatch) -> None:
    settings = Settings.from_env(database_url="sqlite://")
    assert (settings.host, settings.public_url) == ("127.0.0.1", None)
    assert settings.forwarded_allow_ips == DEFAULT_FORWARDED_ALLOW_IPS == ("127.0.0.1", "::1")


@pytest.mark.parametrize("bad", ["games.example.org", "ftp://games.example.org", "https://games.example.org/meeple",
                                 "https://games.example.org?x=1", "https://user@games.example.org", "https://x:port"])
def test_a_bad_public_url_is_refused_naming_where_it_came_from(clean_env: pytest.MonkeyPatch, bad: str) -> None:
    with pytest.raises(ValueError, match=r"--public-url: .* is not a URL like https://games.example.org"):
        Settings.from_env(database_url="sqlite://", public_url=bad)
    clean_env.setenv("MEEPLE_PUBLIC_URL", bad)
    with pytest.raises(ValueError, match=r"MEEPLE_PUBLIC_URL: .* no path"):
        Settings.from_env(database_url="sqlite://")


def test_a_bad_trusted_proxy_is_refused(clean_env: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"--forwarded-allow-ips: 'proxy\.lan' is not an IP address"):
        Settings.from_env(database_url="sqlite://", forwarded_allow_ips=["127.0.0.1", "proxy.lan"])
    clean_env.setenv("MEEPLE_FORWARDED_ALLOW_IPS", "10.0.0.300")
    with pytest.raises(ValueError, match=r"MEEPLE_FORWARDED_ALLOW_IPS: '10\.0\.0\.300'"):
        Settings.from_env(database_url="sqlite://")


# --- the command ----------------------------------------------------------------------------------

@pytest.fixture
def captured_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, clean_env: pytest.MonkeyPatch,
                 ) -> Iterator[list[dict[str, Any]]]:
    """``meeple serve`` up to the point where uvicorn would start: what it would have been given."""
    import uvicorn

    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: runs.append({"app": app, **kwargs}))
    monkeypatch.setenv("MEEPLE_DATABASE_URL", f"sqlite:///{tmp_path / 'meeple.sqlite3'}")
    width = cli.console.width
    cli.console.width = 200
    yield runs
    cli.console.width = width


def test_serve_takes_the_public_url_from_the_flag_over_the_environment(captured_run: list[dict[str, Any]],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_PUBLIC_URL", "https://from-env.example.org")
    result = CliRunner().invoke(cli.app, ["serve", "--public-url", PUBLIC, "--forwarded-allow-ips", "10.1.2.3"])
    assert result.exit_code == 0, result.output
    app: FastAPI = captured_run[0]["app"]
    assert app.state.settings.public_url == PUBLIC
    assert app.state.settings.forwarded_allow_ips == ("10.1.2.3",)
    assert captured_run[0]["proxy_headers"] is False, "forwarded headers are read by the app, from trusted proxies"
    assert f"public address: {PUBLIC}" in result.output

    result = CliRunner().invoke(cli.app, ["serve"])
    assert captured_run[1]["app"].state.settings.public_url == "https://from-env.example.org", result.output


def test_serve_refuses_a_bad_public_url_clearly_and_starts_nothing(captured_run: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(cli.app, ["serve", "--public-url", "https://games.example.org/meeple"])
    assert result.exit_code == 2
    text = " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())  # the error panel, unwrapped
    assert "--public-url: 'https://games.example.org/meeple' is not a URL like https://games.example.org" in text
    assert "no path: meeple is served from the root of its address" in text
    assert captured_run == []


def test_serve_on_all_addresses_lists_the_lan_addresses(captured_run: list[dict[str, Any]],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosting, "lan_addresses", lambda ipv6=False: ["192.168.1.20", "10.8.0.3"])
    result = CliRunner().invoke(cli.app, ["serve", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "friends on your network can open: http://192.168.1.20:8123, http://10.8.0.3:8123" in result.output
    assert captured_run[0]["host"] == "0.0.0.0"
    result = CliRunner().invoke(cli.app, ["serve", "--port", "8123"])
    assert "friends on your network" not in result.output, "a server on loopback only has nothing to share"


def test_several_workers_get_the_same_hosting_settings(captured_run: list[dict[str, Any]],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers N`` hands its settings to each worker through the environment: the worker's app
    (``app_from_env``) has the public URL, listen address and trusted proxies the command was given."""
    from meeple.server import app as app_module
    from meeple.server import db

    monkeypatch.setattr(db, "migrate", lambda engine: None)  # no PostgreSQL needed to check the hand-over
    monkeypatch.setenv("MEEPLE_DATABASE_URL", "postgresql+psycopg://meeple@127.0.0.1:1/meeple")
    environment = dict(os.environ)
    try:  # the command writes the workers' settings into this process's environment: put it back after
        result = CliRunner().invoke(cli.app, ["serve", "--workers", "2", "--redis-url", "redis://127.0.0.1:1/0",
                                              "--host", "0.0.0.0", "--public-url", PUBLIC,
                                              "--forwarded-allow-ips", "10.0.0.0/8"])
        assert result.exit_code == 0, result.output
        worker = app_module.app_from_env().state.settings
    finally:
        os.environ.clear()
        os.environ.update(environment)
    assert captured_run[0]["app"] == "meeple.server.app:app_from_env" and captured_run[0]["proxy_headers"] is False
    assert (worker.host, worker.public_url, worker.forwarded_allow_ips) == ("0.0.0.0", PUBLIC, ("10.0.0.0/8",))


def test_lan_addresses_are_never_loopback_or_link_local() -> None:
    for address in hosting.lan_addresses(ipv6=True):
        assert not hosting.is_loopback(address), address
        assert not address.startswith("[fe80:"), address
    assert hosting.is_loopback("127.0.0.1") and hosting.is_loopback("[::1]") and hosting.is_loopback("localhost")
    assert not hosting.is_loopback("192.168.1.20") and not hosting.is_loopback("games.example.org")


def test_the_default_routes_address_comes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with a container bridge, a LAN card and a link-local IPv6: the LAN card's address (the
    default route's) is the one the lobby offers, loopback and link-local are never offered."""
    import ifaddr

    adapters = [ifaddr.Adapter("lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo"), ifaddr.IP(("::1", 0, 0), 128, "lo")]),
                ifaddr.Adapter("docker0", "docker0", [ifaddr.IP("172.17.0.1", 16, "docker0")]),
                ifaddr.Adapter("wlan0", "wlan0", [ifaddr.IP("192.168.1.20", 24, "wlan0"),
                                                  ifaddr.IP(("fd00::20", 0, 0), 64, "wlan0"),
                                                  ifaddr.IP(("fe80::1", 0, 3), 64, "wlan0")])]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    monkeypatch.setattr(hosting, "primary_address", lambda: "192.168.1.20")
    assert hosting.lan_addresses() == ["192.168.1.20", "172.17.0.1"]
    assert hosting.lan_addresses(ipv6=True) == ["192.168.1.20", "172.17.0.1", "[fd00::20]"]
    monkeypatch.setattr(hosting, "primary_address", lambda: None)  # no default route
    assert hosting.lan_addresses() == ["172.17.0.1", "192.168.1.20"]


def test_the_start_up_addresses_follow_the_listen_address(monkeypatch: pytest.MonkeyPatch) -> None:
    adapters = {False: ["192.168.1.20"], True: ["192.168.1.20", "[fd00::20]"]}
    monkeypatch.setattr(hosting, "lan_addresses", lambda ipv6=False: adapters[ipv6])
    assert hosting.site_urls("0.0.0.0", 8000) == ["http://192.168.1.20:8000"]
    assert hosting.site_urls("::", 8000) == ["http://192.168.1.20:8000", "http://[fd00::20]:8000"]
    assert hosting.site_urls("192.168.1.20", 8000) == ["http://192.168.1.20:8000"]
    assert hosting.site_urls("fd00::20", 8000) == ["http://[fd00::20]:8000"]


# --- invite links ---------------------------------------------------------------------------------

def test_invite_url_uses_the_address_the_browser_used_without_a_public_url(client: TestClient) -> None:
    created = create_table(client)
    assert created["invite_url"] == f"http://testserver/tables/{created['table']['id']}"
    assert client.get("/api/site").json() == {"share_url": "http://testserver/", "public": False,
                                              "local_only": False}
    lan_browser = from_client(client, "192.168.1.30", base_url="http://192.168.1.20:8000")
    created = create_table(lan_browser)
    assert created["invite_url"] == f"http://192.168.1.20:8000/tables/{created['table']['id']}"


def test_invite_url_uses_the_public_url_when_set(make_client: Callable[..., TestClient]) -> None:
    client = make_client(public_url=PUBLIC)
    created = create_table(client)
    assert created["invite_url"] == f"{PUBLIC}/tables/{created['table']['id']}"
    assert client.get("/api/site").json() == {"share_url": f"{PUBLIC}/", "public": True, "local_only": False}


def test_a_page_opened_through_loopback_shares_a_lan_address(make_client: Callable[..., TestClient]) -> None:
    client = make_client(host="0.0.0.0")
    client.app.state.lan_addresses = ["192.168.1.20"]  # type: ignore[attr-defined]  # this machine's, made fixed
    local = from_client(client, "127.0.0.1", base_url="http://127.0.0.1:8000")
    assert local.get("/api/site").json()["share_url"] == "http://192.168.1.20:8000/"
    created = create_table(local)
    assert created["invite_url"] == f"http://192.168.1.20:8000/tables/{created['table']['id']}"
    via_name = from_client(client, "127.0.0.1", base_url="http://localhost:8000")
    assert via_name.get("/api/site").json()["share_url"] == "http://192.168.1.20:8000/"
    other = from_client(client, "10.8.0.9", base_url="http://10.8.0.3:8000")
    assert other.get("/api/site").json()["share_url"] == "http://10.8.0.3:8000/", "the address it came through"


def test_a_server_on_loopback_only_shares_loopback(make_client: Callable[..., TestClient]) -> None:
    """Listening on 127.0.0.1, nobody else can reach it: no LAN address is offered."""
    client = make_client()
    assert client.app.state.lan_addresses == []  # type: ignore[attr-defined]
    local = from_client(client, "127.0.0.1", base_url="http://127.0.0.1:8000")
    assert local.get("/api/site").json() == {"share_url": "http://127.0.0.1:8000/", "public": False,
                                             "local_only": True}


# --- proxies, redirects, cookies, origins ---------------------------------------------------------

def test_forwarded_headers_are_believed_only_from_trusted_proxies(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    body = {"game": "toy", "players": 2, "seat": 0, "name": "Ada"}
    proxy = from_client(client, "127.0.0.1")
    answer = proxy.post("/api/tables", json=body, headers=FORWARDED_HTTPS | {"Origin": "https://testserver"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["invite_url"].startswith("https://testserver/tables/")
    assert all(is_secure(cookie) for cookie in set_cookies(answer))

    stranger = from_client(client, "198.51.100.4")
    forged = stranger.post("/api/tables", json=body, headers=FORWARDED_HTTPS)
    assert forged.status_code == 201
    assert forged.json()["invite_url"].startswith("http://testserver/tables/")
    assert not any(is_secure(cookie) for cookie in set_cookies(forged))
    refused = stranger.post("/api/tables", json=body, headers=FORWARDED_HTTPS | {"Origin": "https://testserver"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden_origin"


def test_a_proxy_network_can_be_trusted(make_client: Callable[..., TestClient]) -> None:
    client = make_client(forwarded_allow_ips=("10.0.0.0/8",))
    inside = from_client(client, "10.20.30.40")
    assert inside.get("/api/site", headers=FORWARDED_HTTPS).json()["share_url"] == "https://testserver/"
    loopback = from_client(client, "127.0.0.1")
    assert loopback.get("/api/site", headers=FORWARDED_HTTPS).json()["share_url"] == "http://testserver/"


def test_redirects_point_at_the_public_url(make_client: Callable[..., TestClient]) -> None:
    client = make_client(public_url=PUBLIC)
    browser = from_client(client, "127.0.0.1")
    moved = browser.get("/api/tables/?status=open")
    assert moved.status_code == 307
    assert moved.headers["location"] == f"{PUBLIC}/api/tables?status=open"
    plain = from_client(make_client(), "127.0.0.1").get("/api/tables/")
    assert plain.headers["location"] == "http://testserver/api/tables"


def test_cookies_are_secure_when_the_public_url_is_https(make_client: Callable[..., TestClient]) -> None:
    secure = make_client(public_url=PUBLIC)
    answer = secure.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"})
    cookies = set_cookies(answer)
    assert {cookie.split("=")[0] for cookie in cookies} == {
        f"meeple_host_{answer.json()['table']['id']}", f"meeple_seat_{answer.json()['table']['id']}"}
    assert all(is_secure(cookie) and "httponly" in cookie.lower() for cookie in cookies)
    login = secure.post("/api/accounts", json={"name": "Grace", "password": "correct horse"})
    assert login.status_code == 200 and all(is_secure(cookie) for cookie in set_cookies(login))

    plain = make_client(public_url="http://192.168.1.20:8000")
    answer = plain.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"})
    assert not any(is_secure(cookie) for cookie in set_cookies(answer))


def test_the_public_origin_may_play(make_client: Callable[..., TestClient]) -> None:
    """Behind a proxy that sends its own ``Host`` (nginx's ``$host`` drops the port), the page's
    origin is the public URL's, and it is allowed; another origin still is not."""
    client = make_client(public_url=PUBLIC)
    created = client.post("/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"},
                          headers={"Origin": PUBLIC})
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"Origin": PUBLIC}) as socket:
        assert socket.receive_json()["type"] == "state"
    foreign = client.post("/api/tables", json={"game": "toy", "players": 2}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403


def test_docs_deploy_shows_the_tested_files_as_they_are() -> None:
    """docs/deploy.md shows the nginx site and the systemd unit; the nginx one is the file the
    deployment test runs, so the page must show it exactly."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "deploy.md").read_text()
    for name, language in (("nginx-meeple.conf", "nginx"), ("meeple.service", "ini")):
        shown = (root / "docs" / "deploy" / name).read_text()
        assert f"```{language}\n{shown}```" in page, f"docs/deploy.md does not show docs/deploy/{name} as it is"


def test_the_systemd_unit_is_valid() -> None:
    """``systemd-analyze verify`` knows every section and directive of docs/deploy/meeple.service; the
    only complaint allowed is the missing program (meeple is not installed at /srv/meeple here)."""
    import shutil
    import subprocess

    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    unit = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "meeple.service"
    checked = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (checked.stdout + checked.stderr).splitlines()
                  if line.strip() and "/srv/meeple/meeple/.venv/bin/meeple" not in line]
    assert complaints == [], complaints
