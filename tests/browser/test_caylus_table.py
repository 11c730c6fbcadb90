"""A person plays a whole game of Caylus against a bot by clicking on the board, reloads mid-game, and the
browser never receives anything but seat 0's own view (Caylus has no secrets, so that view is the
public state, the same for every seat). The test also photographs the table at desktop and phone width
into docs/screenshots/ (caylus-table.png, caylus-table-phone.png, caylus-final.png)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from meeple.core.registry import game_names
from tests.browser.conftest import Server, record_frames, reload_and_check, screenshot_dir, views_by_version
from tests.browser.helpers import (
    WHOLE_GAME_SECONDS,
    check_own_views,
    check_replay,
    create_table,
    fill_lobby,
    first_preferred,
    go_on_when_asked,
    next_turn,
)

pytestmark = pytest.mark.skipif("caylus" not in game_names(), reason="the Caylus engine is not installed")

SHOTS = screenshot_dir()  # docs/screenshots/ only with MEEPLE_SCREENSHOTS=1
#: Workers the test player puts out per turn before passing (keeps the game to a few hundred clicks).
WORKERS_PER_TURN = 3
PREFERENCE = ("castle:f", "build:", "favour:", "res:", "lawyer:", "produce:", "bonus:", "sell:", "buy:", "church:",
              "tailor:", "bank:", "alch:", "jewel:", "joust:yes", "inn:", "gate:", "guild:0", "provost:0")


def choose(actions: list[str], view: dict[str, Any], seat: int) -> str:
    """The test player's move: a few workers per turn (the castle first when it holds a batch), then
    pass; otherwise the first preferred action."""
    if any(a.startswith("place:") for a in actions):
        me = view["players_state"][seat]
        cubes = me["cubes"]
        can_give = cubes["f"] >= 1 and sum(1 for c in "wscg" if cubes[c]) >= 2
        if me["workers_placed"] < WORKERS_PER_TURN:
            for wanted in (("place:castle",) if can_give else ()) + ("place:1", "place:", "place:castle"):
                found = [a for a in actions if a.startswith(wanted) and a != "place:inn"]
                if found:
                    return found[0]
        if "pass" in actions:
            return "pass"
    return first_preferred(actions, PREFERENCE)


#: One reading of the page: the version drawn, every clickable action, and what the player panels show.
SHOWN = """() => ({
  version: Number(document.getElementById('board').dataset.version),
  actions: [...document.querySelectorAll('[data-action]')].map((e) => e.dataset.action),
  waiting: document.body.classList.contains('waiting-for-server'),
  players: [...document.querySelectorAll('.cy-player')].map((p) => ({
    seat: Number(p.dataset.seat),
    cubes: Object.fromEntries([...p.querySelectorAll('.res')].map((r) => [r.dataset.cube, Number(r.textContent)])),
  })),
  road: [...document.querySelectorAll('.space')].map((s) => s.dataset.building || null),
})"""


#: The board's content width and its box width: the board must never need a horizontal scroll bar.
FITS = "(() => { const b = document.getElementById('board'); return [b.scrollWidth, b.clientWidth]; })()"


def shoot(page: Page, name: str, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)
    fits = page.evaluate(FITS)
    assert fits[0] <= fits[1] + 1, f"the board is wider than the page at {width} px: {fits}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_a_whole_caylus_game_against_a_bot_by_clicking(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    frames = record_frames(page)
    fill_lobby(page, server, "caylus", players=2)
    expect(page.locator("#seat-kind-1")).to_have_value(re.compile(r"^bot:"))
    expect(page.locator("#seat-kind-2")).to_have_count(0)
    table_id = create_table(page)
    expect(page.locator(".caylus")).to_be_visible()
    expect(page.locator(".space")).to_have_count(28)

    clicks = 0
    reloaded = False
    shot = False
    kinds: set[str] = set()
    deadline = time.monotonic() + WHOLE_GAME_SECONDS
    while (turn := next_turn(page, frames, SHOWN, final="#caylus-final", deadline=deadline,
                             message=f"the game did not finish ({clicks} clicks)")) is not None:
        shown, latest = turn
        actions = shown["actions"]
        view = latest["view"]
        assert sorted(actions) == sorted(latest["legal"]), "every legal action is clickable once, nothing else"
        # what the page draws is the view it was sent
        for drawn in shown["players"]:
            assert drawn["cubes"] == view["players_state"][drawn["seat"]]["cubes"]
        assert shown["road"] == [space["building"] for space in view["road"]]
        kinds.add(view["pending"]["kind"])
        choice = choose(actions, view, 0)
        page.locator(f'[data-action="{choice}"]').click()
        go_on_when_asked(page)
        clicks += 1
        if clicks == 40 and not reloaded:
            reload_and_check(page, server, table_id, ".caylus")
            reloaded = True
        if clicks >= 25 and not shot and view["phase"] == 2:  # early enough for the shortest games
            shoot(page, "caylus-table.png", 1400, 1000)
            shoot(page, "caylus-table-phone.png", 390, 844)
            shot = True
            for language in ("zh-Hans", "zh-Hant", "ja", "en"):  # every word of the board is translated
                page.select_option("#language", language)
                expect(page.locator("html")).to_have_attribute("lang", language)
                board = page.locator("#board").inner_text() + page.locator("#log").inner_text()
                assert "caylus." not in board, f"an untranslated key in {language}"

    expect(page.locator("#final-scores")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("Game over")
    assert reloaded and shot and clicks > 30
    assert {"place", "provost"} <= kinds and kinds & {"activate", "castle", "favour_row"}, kinds
    page.locator("#caylus-final").scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "caylus-final.png"))

    # Everything the page was ever sent is seat 0's own view of that moment (which in Caylus is the
    # public view every seat and spectator gets), and nothing else.
    views = views_by_version(server, table_id, 0)
    spectator = views_by_version(server, table_id, None)
    assert views == spectator, "Caylus has no secrets: every view is the same"
    rows = page.locator("#caylus-final tbody tr")  # the final table shows the engine's end bonuses as sent
    for seat, bonuses in enumerate(views[-1]["end_bonuses"]):
        for held, prestige in bonuses.values():
            expect(rows.nth(seat)).to_contain_text(f"{held} → {prestige}")
    check_own_views(frames, server, table_id, 0)

    check_replay(page, ".caylus", ".space", 28, "#caylus-final")
