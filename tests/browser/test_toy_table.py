"""Two people play the toy game in two browsers: lobby, invite link, clicks, reload, languages, replay."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page, expect

from meeple.server.config import DEFAULT_BOT_LEASE as BOT_LEASE_SECONDS
from tests.browser.conftest import Server
from tests.browser.helpers import click_action, create_table, fill_lobby, join_by_invite


def create_toy_table(page: Page, server: Server, name: str, second_seat: str) -> str:
    fill_lobby(page, server, "toy", players=2, name=name)
    page.select_option("#seat-kind-1", second_seat)
    return create_table(page)


def own_hand(page: Page) -> list[str]:
    return page.locator('.view-panel[data-key="hand"] .chip').all_inner_texts()


def test_two_browsers_play_the_toy_game_by_clicking(browser: Browser, server: Server) -> None:
    ada = browser.new_context().new_page()
    table_id = create_toy_table(ada, server, "Ada", "human")
    expect(ada.locator("#banner")).to_contain_text("Waiting for players")
    invite = ada.locator(".invite-link").first.input_value()
    assert invite.endswith(f"/tables/{table_id}?seat=1")

    bob = browser.new_context().new_page()
    join_by_invite(bob, invite, "Bob")
    expect(bob.locator(".seat-chip.me")).to_contain_text("Bob")
    expect(ada.locator("#banner")).to_have_text("Your turn!")

    spectator = browser.new_context().new_page()
    spectator.goto(f"{server.url}/tables/{table_id}")
    expect(spectator.locator("#table-panel")).to_contain_text("You are watching")

    pages = {0: ada, 1: bob}
    hands = {0: own_hand(ada), 1: own_hand(bob)}
    reloaded = False
    for _ in range(20):
        if ada.locator("#final-scores").count():
            break
        mover = next((s for s, p in pages.items() if p.locator("#actions button.action").count()), None)
        if mover is None:
            ada.wait_for_timeout(50)
            continue
        page = pages[mover]
        click_action(page)
        if not reloaded:  # a reload keeps the seat (cookie) and restores the table
            bob.reload()
            expect(bob.locator(".seat-chip.me")).to_contain_text("Bob")
            reloaded = True
        # nobody's page ever shows another seat's cards in hand
        for seat, other in pages.items():
            expect(other.locator(".view-panel[data-key='hand']")).to_be_visible()
            shown = own_hand(other)
            assert all(card in hands[seat] for card in shown), (seat, shown)
        ada.wait_for_timeout(100)
    expect(ada.locator("#final-scores")).to_be_visible()
    expect(bob.locator("#final-scores")).to_be_visible()
    expect(spectator.locator("#final-scores")).to_be_visible()

    ada.click("#replay-link")
    expect(ada.locator("#replay-position")).to_contain_text("step 0")
    ada.click("#replay-last")
    expect(ada.locator("#replay-position")).not_to_contain_text("step 0 ")


def test_the_page_switches_between_the_four_languages(browser: Browser, server: Server) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    expect(page.locator("#create-button")).to_have_text("Create table")
    for code, text in (("zh-Hans", "创建"), ("zh-Hant", "建立"), ("ja", "作成"), ("en", "Create table")):
        page.select_option("#language", code)
        expect(page.locator("#create-button")).to_have_text(text)
    page.select_option("#language", "ja")
    page.reload()  # the choice is remembered
    expect(page.locator("#create-button")).to_have_text("作成")


def test_a_table_with_a_bot_continues_after_the_server_is_killed(browser: Browser, server: Server) -> None:
    page = browser.new_context().new_page()
    create_toy_table(page, server, "Ada", "bot:easy")
    expect(page.locator("#banner")).to_have_text("Your turn!")
    page.locator("#actions button.action").first.click()
    expect(page.locator("#log li")).not_to_have_count(0)
    server.restart(hard=True)
    expect(page.locator("#connection")).to_have_attribute("data-state", "online", timeout=15000)
    # Played until a deadline, not for a number of clicks: when the kill caught the bot's job claimed
    # but not yet played, the new process claims it only once the dead runner's lease (5 s) runs out,
    # and a CI run's twenty clicks were over before the bot moved.
    deadline = time.monotonic() + BOT_LEASE_SECONDS + 25
    while not page.locator("#final-scores").count() and time.monotonic() < deadline:
        click_action(page, "last")
        page.wait_for_timeout(100)
    expect(page.locator("#final-scores")).to_be_visible()
