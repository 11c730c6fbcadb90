"""A profile page in Chromium: Ada signs up in the lobby, beats (or loses to) an easy bot at a rated
toy table, and her profile shows the game, her rating with its SVG history chart, and a replay link
that opens the game's replay."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Server
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
        buttons = page.locator("#actions button.action")
        if buttons.count():
            buttons.last.click()
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
    low, high = sorted([toy["history"][0]["before"], toy["rating"]])
    expect(chart.locator("text.tick")).to_have_text([str(high), str(low)])
    box = chart.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50
    expect(page.locator("#player-recent .recent-game")).to_have_count(1)
    expect(page.locator("#player-recent .recent-game")).to_contain_text("against bots")

    page.click(f'#player-recent li[data-table="{table_id}"] a.replay-link')
    page.wait_for_url(f"**/tables/{table_id}/replay")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")

    page.goto(f"{server.url}/leaderboard?game=toy")
    expect(page.locator("#board-empty")).to_be_visible()  # one rated game: below the leaderboard's minimum
    expect(page.locator("#board-game")).to_have_value("toy")
