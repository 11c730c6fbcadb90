"""The address to share, in a real browser: the lobby shows it with a copy button (and says when only
this machine can open it), and a table's invite links are built on it, the public URL when one is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Server
from tests.browser.helpers import create_table, fill_lobby


def test_the_lobby_shows_the_address_and_copies_it(browser: Browser, server: Server) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#share-url")).to_have_value(f"{server.url}/")
    expect(page.locator("#share")).to_contain_text("Only this computer can open this address")
    page.click("#share-copy")
    expect(page.locator("#toast")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server.url}/"
    page.select_option("#language", "ja")
    expect(page.locator("#share h3")).to_have_text("友達を招待")
    context.close()


def test_invite_links_use_the_public_url(browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    public = "http://games.example.org:8080"
    monkeypatch.setenv("MEEPLE_PUBLIC_URL", public)
    server = Server(tmp_path)
    server.start()
    try:
        page = browser.new_context().new_page()
        page.goto(server.url + "/")
        expect(page.locator("#share-url")).to_have_value(f"{public}/")
        expect(page.locator("#share")).to_contain_text("Friends open this address to join your tables")
        fill_lobby(page, server, "toy", players=2, name="Ada")
        page.select_option("#seat-kind-1", "human")
        table_id = create_table(page)
        expect(page.locator(".invite-link").first).to_have_value(f"{public}/tables/{table_id}?seat=1")
    finally:
        server.stop()
