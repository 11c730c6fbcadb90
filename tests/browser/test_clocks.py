"""Clocks in real Chromium: a turn-based table played in two browsers, a fast clock running out (a bot
takes the seat, the player reclaims it), and a server restart in the middle of a clock (downtime
counts: the clock afterwards is what it was less the time that passed, the downtime included)."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import Server
from tests.browser.helpers import create_table, fill_lobby, join_by_invite, take_seat


def clock_seconds(text: str) -> int:
    """The seconds an "m:ss" seat clock shows."""
    match = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


def api_table(context: BrowserContext, server: Server, seats: int = 2, **clock: Any) -> tuple[str, Page]:
    """A toy table made through the API in ``context`` (its cookies make Ada seat 0), open in a page."""
    created = context.request.post(f"{server.url}/api/tables", data={
        "game": "toy", "players": seats, "seat": 0, "name": "Ada", **clock}).json()
    page = context.new_page()
    page.goto(f"{server.url}/tables/{created['table']['id']}")
    return created["table"]["id"], page


def test_two_browsers_play_a_turn_based_table_with_clocks(browser: Browser, server: Server) -> None:
    ada = browser.new_context().new_page()
    fill_lobby(ada, server, "toy", players=2, name="Ada")
    ada.select_option("#seat-kind-1", "human")
    ada.select_option("#clock-mode", "turn-based")
    expect(ada.locator("#clock-speed option")).to_have_count(4)
    ada.select_option("#clock-speed", "24h")
    ada.select_option("#clock-rule", "vote")
    table_id = create_table(ada)
    bob = browser.new_context().new_page()
    join_by_invite(bob, ada.locator(".invite-link").first.input_value(), "Bob")

    for page in (ada, bob):
        expect(page.locator(".clock-settings")).to_contain_text("Turn-based · 1 day a move")
        expect(page.locator('.seat-chip[data-seat="0"] .seat-clock.running')).to_contain_text("23 h 59 min")
        expect(page.locator('.seat-chip[data-seat="1"] .seat-clock')).not_to_have_class(re.compile("running"))
    listed = next(t for t in ada.request.get(f"{server.url}/api/tables").json()["tables"] if t["id"] == table_id)
    assert (listed["mode"], listed["speed"], listed["clock"]["timeout_rule"]) == ("turn-based", "24h", "vote")

    ada.locator("#actions button.action").first.click()
    for page in (ada, bob):  # Bob's clock runs now; Ada's is back to the whole day
        expect(page.locator('.seat-chip[data-seat="1"] .seat-clock.running')).to_be_visible()
        expect(page.locator('.seat-chip[data-seat="0"] .seat-clock')).to_have_text("1 d 0 h")
    bob.locator("#actions button.action").first.click()
    expect(ada.locator('.seat-chip[data-seat="0"] .seat-clock.running')).to_be_visible()
    expect(bob.locator('.seat-chip[data-seat="1"] .seat-clock')).to_have_text("1 d 0 h")


def test_a_fast_clock_runs_out_a_bot_takes_the_seat_and_the_player_reclaims_it(
        browser: Browser, server: Server) -> None:
    ada_context = browser.new_context()
    table_id, ada = api_table(ada_context, server, mode="real-time", speed={"bank": 6, "bonus": 1},
                              timeout_level="easy")
    bob = browser.new_context().new_page()
    take_seat(bob, f"{server.url}/tables/{table_id}", "Bob", 'button.join-seat[data-seat="1"]')
    expect(ada.locator('.seat-chip[data-seat="0"] .seat-clock.running')).to_be_visible()
    first = clock_seconds(ada.locator('.seat-chip[data-seat="0"] .seat-clock').inner_text())
    assert 3 <= first <= 6
    ada.wait_for_timeout(1500)
    assert clock_seconds(ada.locator('.seat-chip[data-seat="0"] .seat-clock').inner_text()) < first  # counting down

    # the clock runs out: a bot (easy) takes Ada's seat and plays her move, and everyone reads why
    for page in (ada, bob):
        expect(page.locator(".clock-event.timeout_bot")).to_have_text(
            "Ada's time ran out: a bot (easy) took the seat.", timeout=15_000)
        expect(page.locator('.seat-chip[data-seat="0"]')).to_have_class(re.compile(r"\bbot\b"))
        expect(page.locator('.seat-chip[data-seat="0"]')).to_contain_text("Ada (bot: easy)")
        expect(page.locator(".clock-settings")).to_have_text("Real-time · Custom: 6 s + 1 s a move")
    expect(ada.locator("#reclaim")).to_be_visible()
    expect(bob.locator("#reclaim")).to_have_count(0)
    # the bot moved for her (and, should Bob's own 6 s run out meanwhile on a busy machine, for him too)
    expect(ada.locator("#board")).to_have_attribute("data-version", re.compile(r"^[1-9]\d*$"))

    ada.click("#reclaim")
    for page in (ada, bob):
        expect(page.locator(".clock-event.reclaim")).to_have_text("Ada reclaimed their seat.")
        expect(page.locator('.seat-chip[data-seat="0"]')).to_have_class(re.compile(r"\bhuman\b"))
    expect(ada.locator("#reclaim")).to_have_count(0)
    # her clock restarts at a quarter of the bank (6 s / 4), as she had nothing left
    table = ada.request.get(f"{server.url}/api/tables/{table_id}").json()["table"]
    assert table["clock"]["remaining"][0] == 1_500 or 0 in table["clock"]["running"]


def test_a_server_restart_in_the_middle_of_a_clock_counts_the_downtime(browser: Browser, server: Server) -> None:
    context = browser.new_context()
    table_id, page = api_table(context, server, mode="real-time", speed={"bank": 600, "bonus": 0})
    browser.new_context().request.post(f"{server.url}/api/tables/{table_id}/join", data={"seat": 1, "name": "Bob"})
    chip = page.locator('.seat-chip[data-seat="0"] .seat-clock.running')
    expect(chip).to_be_visible()
    before = clock_seconds(chip.inner_text())
    stopped = time.monotonic()
    server.stop()
    time.sleep(4)  # the server is down; the clock goes on
    server.start()
    expect(page.locator("#connection")).to_have_attribute("data-state", "online", timeout=15_000)
    page.reload()  # a fresh page: everything it shows comes from the restarted server
    expect(chip).to_be_visible()
    after = clock_seconds(chip.inner_text())
    passed = time.monotonic() - stopped
    assert passed >= 4
    assert abs((before - after) - passed) <= 2, (before, after, passed)


def test_the_others_vote_in_their_pages_to_skip_a_late_players_turn(browser: Browser, server: Server) -> None:
    table_id, ada = api_table(browser.new_context(), server, seats=3, mode="real-time",
                              speed={"bank": 6, "bonus": 1}, timeout_rule="vote")
    voters = []
    for seat, name in ((1, "Bob"), (2, "Cy")):
        page = browser.new_context().new_page()
        take_seat(page, f"{server.url}/tables/{table_id}", name, f'button.join-seat[data-seat="{seat}"]')
        voters.append(page)
    bob, cy = voters
    expect(bob.locator("#vote-skip")).to_be_visible(timeout=15_000)
    expect(bob.locator("#vote")).to_contain_text("Ada's time ran out. What should happen?")
    expect(ada.locator("#vote")).to_contain_text("Your time ran out: the others are voting. You may still move.")
    expect(ada.locator('.seat-chip .seat-clock.running')).to_have_count(0)  # every clock stands still
    bob.click("#vote-skip")
    expect(bob.locator("#vote")).to_contain_text("You voted: skip the turn. Waiting for the others.")
    cy.click("#vote-skip")
    # (Bob's own 6 s may run out soon after, opening a vote on him: only what stays true is checked)
    for page in (ada, bob, cy):
        expect(page.locator(".clock-event.vote_skip")).to_have_text("By vote, Ada's turn was skipped.")
        expect(page.locator('.seat-chip[data-seat="0"]')).to_have_class(re.compile(r"\bhuman\b"))
        expect(page.locator("#board")).to_have_attribute("data-version", "1")  # her turn was played
