"""A person plays a whole game of Citadels against three bots by clicking, reloads mid-game, and the
browser never receives (nor draws) anything but seat 0's own view."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from meeple.core.registry import game_names
from tests.browser.conftest import Server, record_frames, reload_and_check, views_by_version
from tests.browser.helpers import (
    WHOLE_GAME_SECONDS,
    check_own_views,
    create_table,
    fill_lobby,
    first_preferred,
    go_on_when_asked,
    join_by_invite,
    next_turn,
)

pytestmark = pytest.mark.skipif("citadels" not in game_names(), reason="the Citadels engine is not installed")

#: Which clickable action a test player prefers, so games end in a reasonable number of clicks.
PREFERENCE = ("build:", "keep:", "pick:", "gold", "tax", "graveyard:take", "kill:", "rob:", "end")


def choose(actions: list[str]) -> int:
    """The index of the action the test player clicks."""
    return actions.index(first_preferred(actions, PREFERENCE))


#: One consistent reading of the page: the version drawn, its clickable actions and the hand on show
#: (only one hand panel, seat 0's; no other seat's cards are ever drawn as a hand).
SHOWN = """(seat) => {
  const hands = [...document.querySelectorAll('.cz-hand')];
  if (hands.length !== 1 || hands[0].dataset.seat !== String(seat)) throw new Error('another seat hand is drawn');
  return {
    version: Number(document.getElementById('board').dataset.version),
    actions: [...document.querySelectorAll('[data-action]')].map((e) => e.dataset.action),
    hand: [...hands[0].querySelectorAll('.district')].map((e) => e.dataset.card),
    waiting: document.body.classList.contains('waiting-for-server'),
  };
}"""


def test_a_whole_citadels_game_against_three_bots_by_clicking(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    frames = record_frames(page)
    fill_lobby(page, server, "citadels")
    for seat in (1, 2, 3):
        expect(page.locator(f"#seat-kind-{seat}")).to_have_value("bot:medium")
    table_id = create_table(page)
    expect(page.locator(".citadels")).to_be_visible()

    clicks = 0
    reloaded = False
    deadline = time.monotonic() + WHOLE_GAME_SECONDS
    while (turn := next_turn(page, frames, SHOWN, 0, final="#citadels-final", deadline=deadline,
                             message=f"the game did not finish ({clicks} clicks)")) is not None:
        shown, latest = turn
        actions = shown["actions"]
        assert sorted(actions) == sorted(set(latest["legal"])), "every legal action is clickable, nothing else"
        assert sorted(shown["hand"]) == sorted(latest["view"]["hand"])
        page.locator(f'[data-action="{actions[choose(actions)]}"]').first.click()
        go_on_when_asked(page)
        clicks += 1
        if clicks == 12 and not reloaded:
            reload_and_check(page, server, table_id)
            reloaded = True

    expect(page.locator("#final-scores")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("Game over")
    assert reloaded and clicks > 10

    # Everything the page was ever sent is seat 0's own view of that moment, and nothing else.
    check_own_views(frames, server, table_id, 0)

    # Each district is drawn with the cost and type of the engine's data (served as component data).
    from meeple.games.citadels import data

    printed = {slug: (cost, data.TYPE_SLUGS[type_]) for slug, _name, type_, cost, _points, _copies in data.DISTRICTS}
    drawn = page.evaluate("""() => [...document.querySelectorAll('.district')].map((d) =>
      [d.dataset.card, d.querySelector('.cost').textContent, [...d.classList]])""")
    assert len(drawn) > 10
    for slug, cost, classes in drawn:
        assert cost == str(printed[slug][0]) and printed[slug][1] in classes, (slug, cost, classes)

    page.click("#replay-link")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")
    page.select_option("#replay-seat", "1")
    page.click("#replay-next")
    expect(page.locator("#replay-position")).to_contain_text("step 1 of")
    expect(page.locator(".cz-hand")).to_have_attribute("data-seat", "1")
    page.click("#replay-last")
    expect(page.locator("#citadels-final")).to_be_visible()


def test_two_people_and_two_bots_play_citadels_in_two_browsers(browser: Browser, server: Server) -> None:
    ada = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    frames = {0: record_frames(ada), 1: record_frames(bob)}
    fill_lobby(ada, server, "citadels")
    ada.select_option("#seat-kind-1", "human")
    table_id = create_table(ada)
    join_by_invite(bob, ada.locator(".invite-link").first.input_value(), "Bob")
    expect(bob.locator(".cz-hand")).to_have_attribute("data-seat", "1")

    # Both play the first two rounds; then Bob leaves, a bot takes his seat, and Ada plays on to the end.
    pages = {0: ada, 1: bob}
    players = dict(pages)
    deadline = time.monotonic() + WHOLE_GAME_SECONDS
    while not ada.locator("#citadels-final").count():
        assert time.monotonic() < deadline, "the game did not finish"
        if 1 in players and ada.locator(".cz-status").inner_text().startswith("Round 3"):
            bob.once("dialog", lambda dialog: dialog.accept())
            bob.click("#leave")
            expect(bob.locator("#table-panel")).to_contain_text("You are watching")
            expect(ada.locator('.seat-chip[data-seat="1"]')).to_contain_text("Bot 2")
            del players[1]
        moved = False
        for seat, page in players.items():
            shown = page.evaluate(SHOWN, seat)
            if shown["actions"] and not shown["waiting"]:
                page.locator(f'[data-action="{shown["actions"][choose(shown["actions"])]}"]').first.click()
                go_on_when_asked(page)
                moved = True
        if not moved:
            ada.wait_for_timeout(30)
    assert 1 not in players, "Bob left during the game"
    expect(bob.locator("#citadels-final")).to_be_visible()

    # Bob watched as a spectator before he sat down and after he left; otherwise each browser only
    # ever got its own seat's view.
    views = {who: views_by_version(server, table_id, who) for who in (None, 0, 1)}
    for seat in pages:
        states = [f for f in frames[seat] if f["type"] == "state" and f["view"] is not None]
        assert states and states[-1]["is_over"]
        for frame in states:
            assert frame["seat"] in (seat, None)
            assert frame["view"] == views[frame["seat"]][frame["version"]]
    assert [f["seat"] for f in frames[0] if f["type"] == "state"] == [0] * len(
        [f for f in frames[0] if f["type"] == "state"])
