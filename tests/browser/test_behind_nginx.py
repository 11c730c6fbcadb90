"""Chromium through the documented nginx site (``tests/nginx_proxy.py``) at an https public URL: the
lobby shares the public address, the lobby's and the table page's sockets are ``wss://`` (the table's
online), the seat cookie is Secure and kept, and a friend who follows the invite link sits down and
the game starts for both."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import TABLE_URL, take_seat
from tests.nginx_proxy import meeple_behind_nginx
from tests.services import IN_CI, nginx_path

NGINX = nginx_path()


def test_two_friends_play_through_nginx_over_https(browser: Browser, tmp_path: Path) -> None:
    if NGINX is None:
        if IN_CI:
            pytest.fail("nginx is required in CI (bash scripts/test.sh --system installs it)")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    with meeple_behind_nginx(tmp_path, NGINX) as proxied:
        public = proxied.public_url
        ada_context = browser.new_context(ignore_https_errors=True)
        ada = ada_context.new_page()
        sockets: list[str] = []
        ada.on("websocket", lambda socket: sockets.append(socket.url))
        ada.goto(f"{public}/")
        expect(ada.locator("#share-url")).to_have_value(f"{public}/")
        ada.select_option("#game", "citadels")
        ada.fill("#players", "2")
        ada.dispatch_event("#players", "change")
        ada.fill("#name", "Ada")
        ada.select_option("#seat-kind-1", "human")
        ada.click("#create-button")
        ada.wait_for_url(TABLE_URL)
        table_id = ada.url.rsplit("/", 1)[1]
        expect(ada.locator("#connection")).to_have_attribute("data-state", "online")
        # the lobby's socket, then the table's: both wss:// through nginx
        origin = f"wss://localhost:{public.rsplit(':', 1)[1]}"
        assert [url.split("?")[0] for url in sockets] == [f"{origin}/ws/lobby", f"{origin}/ws/tables/{table_id}"], \
            sockets
        seat_cookie = next(c for c in ada_context.cookies() if c["name"] == f"meeple_seat_{table_id}")
        assert seat_cookie["secure"] and seat_cookie["httpOnly"]
        invite = ada.locator(".invite-link").first
        expect(invite).to_have_value(f"{public}/tables/{table_id}?seat=1")

        bob_context = browser.new_context(ignore_https_errors=True)
        bob = bob_context.new_page()
        take_seat(bob, invite.input_value(), "Bob")
        expect(bob.locator("#connection")).to_have_attribute("data-state", "online")
        state = ada.request.get(f"{public}/api/tables/{table_id}").json()
        assert state["table"]["status"] == "running" and state["current_player"] in (0, 1), state
        expect((ada, bob)[state["current_player"]].locator("#banner")).to_have_text("Your turn!")
        ada.reload()  # the Secure seat cookie is sent back over https: still Ada's seat
        expect(ada.locator(".seat-chip.me")).to_contain_text("Ada")
        ada_context.close()
        bob_context.close()
