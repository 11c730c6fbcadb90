"""A person plays a whole game of The Castles of Burgundy against a bot by clicking (dice, depot tiles,
lit estate spaces, goods, ships, building effects), reloads mid-game, and the browser never receives
anything but seat 0's own view. The test also photographs the table on a desktop and at phone width
(docs/screenshots/burgundy-table.png and burgundy-table-phone.png)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from meeple.core.registry import game_names
from tests.browser.conftest import Server, record_frames, reload_and_check, screenshot_dir, views_by_version
from tests.browser.helpers import (
    WHOLE_GAME_SECONDS,
    check_own_views,
    create_table,
    fill_lobby,
    first_preferred,
    go_on_when_asked,
    next_turn,
)

pytestmark = pytest.mark.skipif("burgundy" not in game_names(), reason="the Burgundy engine is not installed")

SHOTS = screenshot_dir()  # docs/screenshots/ only with MEEPLE_SCREENSHOTS=1

#: Which clickable action the test player prefers: placing tiles exercises the estate and its chains.
PREFERENCE = ("place:", "keep:", "ship:", "take:", "sell:", "discard:", "die:", "workers", "skip", "pass")


def choose(actions: list[str]) -> str:
    return first_preferred(actions, PREFERENCE)


#: One reading of the page: the version drawn, its clickable actions, the stored tile being placed,
#: and every tile drawn on the main board and in storage (to compare with the view).
SHOWN = """() => ({
  version: Number(document.getElementById('board').dataset.version),
  actions: [...document.querySelectorAll('[data-action]')].map((e) => e.dataset.action),
  costs: Object.fromEntries([...document.querySelectorAll('[data-action]')].map((e) =>
    [e.dataset.action, Number(e.querySelector('.cost-badge, .cost-text')?.textContent || 0)])),
  selected: document.querySelector('.bg-stored.selected')?.dataset.tile ?? null,
  selectable: [...document.querySelectorAll('[data-select]')].map((e) => e.dataset.select),
  depots: Object.fromEntries([...document.querySelectorAll('.bg-depot')].map((d) =>
    [d.dataset.depot, [...d.querySelectorAll('.bg-depot-tile')].map((e) => e.dataset.tile)])),
  storage: Object.fromEntries([...document.querySelectorAll('.bg-player')].map((p) =>
    [p.dataset.seat, [...p.querySelectorAll('.bg-stored')].map((e) => e.dataset.tile)])),
  waiting: document.body.classList.contains('waiting-for-server'),
})"""


def check_drawing(shown: dict[str, Any], frame: dict[str, Any]) -> None:
    """The page offers exactly the legal actions (placements: those of the chosen stored tile), marks
    each with the worker cost the server sent for it, and draws exactly the tiles of the view."""
    legal = set(frame["legal"])
    actions = set(shown["actions"])
    assert actions <= legal, f"not legal: {actions - legal}"
    others = {a for a in legal if not a.startswith("place:")}
    assert others <= actions, f"not clickable: {others - actions}"
    placements = {a for a in legal if a.startswith("place:")}
    if placements:
        assert shown["selected"] in {a[6:].split("@")[0] for a in placements}
        assert {a for a in placements if a[6:].split("@")[0] == shown["selected"]} <= actions
    hints = dict(zip(frame["legal"], frame.get("hints") or [{}] * len(frame["legal"]), strict=True))
    for action, cost in shown["costs"].items():  # the worker cost drawn is the engine's, as sent
        assert cost == hints[action].get("workers", 0), (action, cost, hints[action])
    view = frame["view"]
    for depot, tiles in shown["depots"].items():
        assert set(tiles) == set(view["depots"][depot])
    for seat, tiles in shown["storage"].items():
        assert set(tiles) == set(view["players"][int(seat)]["storage"])


def test_a_whole_burgundy_game_against_a_bot_by_clicking(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    frames = record_frames(page)
    fill_lobby(page, server, "burgundy", players=2)
    expect(page.locator("#seat-kind-1")).to_have_value(re.compile(r"^bot:"))
    table_id = create_table(page)
    expect(page.locator(".burgundy")).to_be_visible()
    expect(page.locator(".bg-estate")).to_have_count(2)

    clicks = costs_shown = 0
    reloaded = switched = photographed = False
    deadline = time.monotonic() + WHOLE_GAME_SECONDS
    while (turn := next_turn(page, frames, SHOWN, final="#burgundy-final", deadline=deadline,
                             message=f"the game did not finish ({clicks} clicks)")) is not None:
        shown, frame = turn
        check_drawing(shown, frame)
        costs_shown += sum(1 for cost in shown["costs"].values() if cost)
        others = [tile for tile in shown["selectable"] if tile != shown["selected"]]
        if others and not switched:  # choose another stored tile: its own spaces light up
            page.locator(f'.bg-stored[data-select="{others[0]}"]').click()
            switched = True
            continue
        page.locator(f'[data-action="{choose(shown["actions"])}"]').first.click()
        go_on_when_asked(page)
        clicks += 1
        if clicks == 15 and not reloaded:
            reload_and_check(page, server, table_id, ".burgundy")
            reloaded = True
        if clicks >= 40 and not photographed and page.locator(".bg-space.legal").count():
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "burgundy-table.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(150)
            assert page.evaluate("document.documentElement.scrollWidth") <= 400, "the table must fit a phone"
            page.screenshot(path=str(SHOTS / "burgundy-table-phone.png"))
            page.set_viewport_size({"width": 1400, "height": 1000})
            photographed = True

    expect(page.locator("#final-scores")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("Game over")
    assert reloaded and switched and photographed and clicks > 60 and costs_shown

    # Everything the page was ever sent is seat 0's own view of that moment, and nothing else.
    check_own_views(frames, server, table_id, 0)

    page.click("#replay-link")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")
    page.click("#replay-last")
    expect(page.locator("#burgundy-final")).to_be_visible()
    assert not page.locator("[data-action]").count()


def test_secret_board_choices_stay_hidden_until_revealed(browser: Browser, server: Server) -> None:
    """Variant setup with secret choices: the page lets the player pick a board and a start castle by
    clicking, and never receives nor draws the bot's choices before they are revealed together."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    frames = record_frames(page)
    page.goto(server.url + "/")
    created = page.request.post(f"{server.url}/api/tables", data={
        "game": "burgundy", "players": 2, "seat": 0, "name": "Ada",
        "options": {"boards": "choose", "start_castle": "choose", "secret_setup": True},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()
    table_id = created["table"]["id"]
    page.goto(f"{server.url}/tables/{table_id}")
    expect(page.locator(".burgundy")).to_be_visible()
    deadline = time.monotonic() + 40
    clicked: list[str] = []
    while True:
        turn = next_turn(page, frames, SHOWN, final="#burgundy-final", deadline=deadline,
                         message=f"setup did not finish ({clicked})")
        assert turn is not None, f"the game ended during setup ({clicked})"
        shown, frame = turn
        if any(a.startswith("die:") for a in shown["actions"]):
            break
        view = frame["view"]
        check_drawing(shown, frame)
        if view["players"][1]["board_types"] is None:  # the bot's board is secret: nothing of it is drawn
            assert not page.locator('.bg-estate[data-seat="1"]').count()
        action = next(a for a in shown["actions"] if a.startswith(("board:", "start:")))
        page.locator(f'[data-action="{action}"]').first.click()
        go_on_when_asked(page)
        clicked.append(action)
    assert [a.split(":")[0] for a in clicked] == ["board", "start"]
    expect(page.locator('.bg-estate[data-seat="1"]')).to_be_visible()
    views = views_by_version(server, table_id, 0)
    for frame in (f for f in frames if f["type"] == "state"):
        assert frame["seat"] == 0 and frame["view"] == views[frame["version"]]
