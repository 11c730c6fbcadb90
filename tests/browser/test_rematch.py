"""A rematch in two browsers: Ada offers it at the finished table and is taken to the new one, Bob
accepts with one click at the old table, and the new table starts with both in their old seats."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.conftest import Server
from tests.browser.helpers import click_action, join_by_invite
from tests.browser.test_toy_table import create_toy_table


def test_two_players_rematch_by_clicking(browser: Browser, server: Server) -> None:
    ada = browser.new_context().new_page()
    old_id = create_toy_table(ada, server, "Ada", "human")
    bob = browser.new_context().new_page()
    join_by_invite(bob, ada.locator(".invite-link").first.input_value(), "Bob")
    pages = (ada, bob)
    for _ in range(40):
        if ada.locator("#final-scores").count():
            break
        mover = next((page for page in pages if page.locator("#actions button.action").count()), None)
        if mover is None:
            ada.wait_for_timeout(50)
            continue
        click_action(mover, "last")
        ada.wait_for_timeout(100)
    expect(bob.locator("#final-scores")).to_be_visible()
    expect(bob.locator("#rematch-accept")).to_have_count(0)

    ada.click("#rematch")
    ada.wait_for_url(lambda url: "/tables/" in url and old_id not in url)
    new_id = ada.url.split("/tables/")[1].split("?")[0]
    expect(ada.locator("#banner")).to_contain_text("Waiting for players")
    expect(ada.locator(".join-seat")).to_have_count(0)  # Bob's seat is held for him, not offered

    expect(bob.locator(".rematch-offer")).to_be_visible()  # heard over the old table's socket
    bob.click("#rematch-accept")
    bob.wait_for_url(f"**/tables/{new_id}")
    expect(bob.locator(".seat-chip.me")).to_contain_text("Bob")
    expect(ada.locator(".seat-chip.me")).to_contain_text("Ada")
    expect(ada.locator("#banner")).to_have_text("Your turn!")
    expect(bob.locator("#banner")).to_contain_text("Waiting for Ada")
