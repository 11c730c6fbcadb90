"""A profile page in Chromium: Ada signs up in the lobby, beats (or loses to) an easy bot at a rated
toy table, and her profile shows the game, her rating with its SVG history chart, and a replay link
that opens the game's replay. And whether a table is rated, as its page, the lobby, My games and the
replay show it."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, expect

from meeple.server.ratings import MIN_MOVES_RATED
from tests.browser.conftest import Server
from tests.browser.helpers import click_action, create_table, fill_lobby, take_seat
from tests.browser.test_toy_table import create_toy_table


def test_a_profile_shows_the_rating_chart_and_a_replay_link_after_a_finished_game(
        browser: Browser, server: Server) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    page.click("#account summary")
    page.fill("#account-name", "Ada")
    page.fill("#account-password", "secret words")
    page.click("#register")
    expect(page.locator("#profile-link")).to_have_attribute("href", "/players/Ada")
    expect(page.locator("#rated")).to_be_checked()  # a table is rated unless its creator unticks it

    table_id = create_toy_table(page, server, "Ada", "bot:easy")
    for _ in range(60):
        if page.locator("#final-scores").count():
            break
        click_action(page, "last")
        page.wait_for_timeout(100)
    expect(page.locator("#final-scores")).to_be_visible()

    profile = httpx.get(f"{server.url}/api/players/Ada").json()
    [toy] = profile["games"]
    assert toy["played"] == 1 and toy["rated_games"] == 1 and len(toy["history"]) == 1
    page.goto(f"{server.url}/players/Ada")
    expect(page.locator("#player-name")).to_have_text("Ada")
    row = page.locator('#player-games tr[data-game="toy"]')
    expect(row.locator("td.played")).to_have_text("1")
    expect(row.locator("td.won")).to_have_text(str(toy["won"]))
    expect(row.locator("td.rating")).to_have_text(str(toy["rating"]))
    chart = row.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("data-points", "2")  # the start and after the one game
    expect(chart.locator("polyline.line")).to_have_count(1)
    expect(chart.locator("circle.dot")).to_have_count(1)
    expect(chart.locator("circle.dot.vs-bots title")).to_have_text(re.compile(r"\(against bots\)$"))
    low, high = sorted([toy["history"][0]["before"], toy["rating"]])
    expect(chart.locator("text.tick")).to_have_text([str(high), str(low)])
    box = chart.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50
    expect(page.locator("#player-recent .recent-game")).to_have_count(1)
    expect(page.locator("#player-recent .recent-game")).to_contain_text("against bots")

    page.click(f'#player-recent li[data-table="{table_id}"] a.replay-link')
    page.wait_for_url(f"**/tables/{table_id}/replay")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")
    expect(page.locator("#table-rated .rated-badge")).to_have_text("Rated")
    expect(page.locator("#table-rated .rated-badge")).to_have_attribute("title", re.compile("marked as against bots"))

    page.goto(f"{server.url}/leaderboard?game=toy")
    expect(page.locator("#board-empty")).to_be_visible()  # one rated game: below the leaderboard's minimum
    expect(page.locator("#board-game")).to_have_value("toy")


def test_a_rated_table_says_rated_and_an_unrated_one_unrated(browser: Browser, server: Server) -> None:
    ada = browser.new_context().new_page()
    rated = create_toy_table(ada, server, "Ada", "human")
    badge = ada.locator("#table-rated .rated-badge")
    expect(badge).to_have_text("Rated")
    expect(badge).to_have_attribute("title", re.compile(f"before move {MIN_MOVES_RATED},"))
    invite = ada.locator(".invite-link").first.input_value()
    bob = browser.new_context().new_page()
    take_seat(bob, invite, "Bob")
    expect(bob.locator("#table-rated .rated-badge")).to_have_text("Rated")

    fill_lobby(ada, server, "toy", players=2, name="Ada")
    ada.select_option("#seat-kind-1", "human")
    ada.uncheck("#rated")
    unrated = create_table(ada)
    expect(badge).to_have_text("Unrated")
    expect(badge).to_have_attribute("title", re.compile("changes nobody's rating"))
    take_seat(bob, f"{server.url}/tables/{unrated}", "Bob", "button.join-seat")
    expect(bob.locator("#table-rated .rated-badge")).to_have_text("Unrated")
    expect(bob.locator("#table-rated .rated-badge")).to_have_attribute("data-rated", "no")

    for page, address in ((ada, "/"), (bob, "/my")):  # the lobby's list and My games: a marker on the rated one only
        page.goto(server.url + address)
        expect(page.locator(f'.table-row[data-table="{rated}"] .rated-badge')).to_have_text("Rated")
        expect(page.locator(f'.table-row[data-table="{unrated}"]')).to_be_visible()
        expect(page.locator(f'.table-row[data-table="{unrated}"] .rated-badge')).to_have_count(0)


def test_two_quick_leaderboard_choices_end_on_the_second_even_when_the_first_answers_last(
        browser: Browser, server: Server) -> None:
    page = browser.new_context().new_page()
    page.add_init_script("""
      const fetchNow = window.fetch.bind(window);
      window.fetch = async (path, options) => {
        if (String(path).includes("/api/leaderboard") && String(path).endsWith("players=2")) {
          await new Promise((done) => setTimeout(done, 800));
        }
        return fetchNow(path, options);
      };
    """)
    page.goto(f"{server.url}/leaderboard?game=toy")
    expect(page.locator("#board-players")).to_have_value("0")
    page.select_option("#board-players", "2")
    page.select_option("#board-players", "0")
    page.wait_for_timeout(1500)  # the two-player board has come by now, and changed nothing
    expect(page.locator("#board-players")).to_have_value("0")
    assert page.evaluate("location.search").endswith("players=0")
