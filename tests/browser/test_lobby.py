"""The lobby in real Chromium: a table created from a preset in another language, the table list's
filters (game, mode, free seats), and a finished table that says "finished" in the list and on its page.
``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/lobby-options.png.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ROOT, Server
from tests.browser.helpers import TABLE_URL

#: Text that must never reach a player: message keys, or the engines' rule-decision references.
RAW_TEXT = re.compile(r"\b(?:caylus|citadels|burgundy|palais_royal|lobby|bot)\.[a-z_]+\.|\bD-?\d+:|§")


def create_by_api(server: Server, **fields: Any) -> dict[str, Any]:
    body = {"game": "toy", "players": 2, "seat": 0, "name": "Ada"} | fields
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=10)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["table"]
    return data


def rows(page: Page, status: str) -> list[str]:
    ids: list[str] = page.locator(f"#tables-{status} .table-row").evaluate_all("els => els.map(e => e.dataset.table)")
    return ids


def test_a_table_is_created_from_a_preset_in_japanese(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(server.url + "/")
    page.select_option("#language", "ja")
    expect(page.locator("#create-button")).to_have_text("作成")
    page.select_option("#game", "caylus")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.fill("#name", "Ada")
    expect(page.locator("#seat-kind-1")).to_have_value("bot:medium")  # bots start at medium, explained
    expect(page.locator("#seat-about-1")).to_have_text("ゲームの定石に従ってすぐに指します。手ごろな相手です。")
    expect(page.locator("#seat-kind-1 option[value='bot:expert']")).to_have_text("ボット（達人）")

    expect(page.locator("#preset")).to_have_value("standard")  # the defaults are the standard preset
    page.locator("details.options-box summary").click()
    jeweller = page.locator("[data-option-row='jeweller']")
    expect(jeweller.locator(".option-name")).to_have_text("宝石商")
    expect(jeweller.locator(".option-about")).to_contain_text("既定：オフ。")
    expect(page.locator(".group-setup legend")).to_have_text("準備")
    page.select_option("#preset", "later_printing")
    expect(page.locator("#option-jeweller")).to_be_checked()
    expect(page.locator("#option-lawyer_pp option:checked")).to_have_text("3（後の版）")
    expect(page.locator("#preset-about")).to_have_text("宝石商あり、弁護士の威信は3。")

    page.locator("#option-pp_floor").uncheck()  # one more change: no preset matches any more
    expect(page.locator("#preset")).to_have_value("custom")
    expect(page.locator("[data-option-row='pp_floor']")).to_have_class(re.compile(r"\boption-changed\b"))
    page.locator("#option-pp_floor").check()  # back: the form shows the preset again
    expect(page.locator("#preset")).to_have_value("later_printing")

    page.locator("#option-turn_order").fill("9,9")  # not a turn order: refused, in Japanese, nothing made
    page.click("#create-button")
    expect(page.locator("#toast")).to_contain_text("このゲームではこのオプションは使えません。")
    assert httpx.get(f"{server.url}/api/tables", timeout=10).json()["tables"] == []
    page.locator("#option-turn_order").fill("")

    text = page.locator("#create-panel").inner_text()
    assert not RAW_TEXT.search(text), RAW_TEXT.search(text)
    page.click("#create-button")
    page.wait_for_url(TABLE_URL)
    table_id = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()["table"]
    assert table["options"]["jeweller"] is True and table["options"]["lawyer_pp"] == 3
    assert table["options"]["pp_floor"] is True
    assert table["seats"][1]["bot_level"] == "medium"


def test_the_create_form_keeps_its_choices_in_another_language_and_after_signing_in(browser: Browser,
                                                                                    server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "caylus")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.fill("#name", "Ada")
    page.select_option("#seat-kind-1", "bot:hard")
    page.select_option("#clock-mode", "turn-based")
    page.select_option("#clock-speed", "3d")
    page.locator("#watchers").uncheck()
    page.locator("details.options-box summary").click()
    page.locator("#option-pp_floor").uncheck()
    expect(page.locator("#preset")).to_have_value("custom")

    def kept() -> None:
        expect(page.locator("#game")).to_have_value("caylus")
        expect(page.locator("#players")).to_have_value("2")
        expect(page.locator(".seat-kind")).to_have_count(2)
        expect(page.locator("#seat-kind-1")).to_have_value("bot:hard")
        expect(page.locator("#clock-mode")).to_have_value("turn-based")
        expect(page.locator("#clock-speed")).to_have_value("3d")
        expect(page.locator("#watchers")).not_to_be_checked()
        expect(page.locator("details.options-box")).to_have_attribute("open", "")
        expect(page.locator("#option-pp_floor")).not_to_be_checked()
        expect(page.locator("#preset")).to_have_value("custom")
        expect(page.locator("[data-option-row='pp_floor']")).to_have_class(re.compile(r"\boption-changed\b"))

    page.select_option("#language", "ja")
    expect(page.locator("#create-button")).to_have_text("作成")  # drawn again, in Japanese
    expect(page.locator("#seat-about-1")).not_to_have_text("")
    kept()
    expect(page.locator("#name")).to_have_value("Ada")

    page.locator(".account-box summary").click()  # signing in: the account's name, the rest kept
    page.fill("#account-name", "Bea")
    page.fill("#account-password", "a long enough password")
    page.click("#register")
    expect(page.locator("#profile-link")).to_be_visible()
    expect(page.locator("#name")).to_have_value("Bea")
    kept()
    page.click("#create-button")
    page.wait_for_url(TABLE_URL)
    # a table without watchers shows itself to its players only: asked with the page's own cookies
    table = page.request.get(f"{server.url}/api/tables/{page.url.rsplit('/', 1)[1]}").json()["table"]
    assert (table["game"], table["players"], table["mode"], table["watchers"]) == ("caylus", 2, "turn-based", False)
    assert table["options"]["pp_floor"] is False and table["seats"][1]["bot_level"] == "hard"


def test_free_form_options_offer_their_usual_values_by_name_and_any_other(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "palais_royal")
    page.locator("details.options-box summary").click()
    expect(page.locator("#option-layout option:checked")).to_have_text("Rooms shuffled (standard)")
    expect(page.locator("#option-layout-other")).to_be_hidden()
    page.select_option("#preset", "first_game")
    expect(page.locator("#option-layout option:checked")).to_have_text("The rulebook's layout for a first game")

    page.select_option("#game", "burgundy")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.fill("#name", "Ada")
    page.select_option("#option-boards", "other")
    expect(page.locator("#option-boards-other")).to_be_visible()
    page.fill("#option-boards-other", "3,6")
    page.dispatch_event("#option-boards-other", "change")
    expect(page.locator("#preset")).to_have_value("custom")
    page.click("#create-button")
    page.wait_for_url(TABLE_URL)
    table = httpx.get(f"{server.url}/api/tables/{page.url.rsplit('/', 1)[1]}", timeout=10).json()["table"]
    assert table["options"]["boards"] == "3,6"
    page.goto(server.url + "/")  # the list says the table's rules are custom, and which options changed
    rules = page.locator(f"[data-table='{table['id']}'] .rules")
    expect(rules).to_have_text("Custom")
    expect(rules).to_have_attribute("title", "Estate boards: 3,6")


def test_the_table_list_filters_by_game_mode_and_free_seats(browser: Browser, server: Server) -> None:
    toy_waiting = create_by_api(server)["id"]
    toy_full = create_by_api(server, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])["id"]
    citadels = create_by_api(server, game="citadels", players=4,
                             seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])["id"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.url + "/")
    expect(page.locator("#tables-open .table-row")).to_have_count(2)
    # open tables closest to starting first: the toy table waits for one person, Citadels for two
    assert rows(page, "open") == [toy_waiting, citadels]
    assert rows(page, "running") == [toy_full]
    expect(page.locator(f"[data-table='{citadels}'] .status")).to_have_text("waiting for players")
    expect(page.locator(f"[data-table='{citadels}'] .free-seats")).to_have_text("2 free")
    expect(page.locator(f"[data-table='{toy_full}'] .status")).to_have_text("in play")
    expect(page.locator(f"[data-table='{citadels}'] .rules")).to_have_text("Classic")  # its preset
    expect(page.locator(f"[data-table='{toy_full}'] .rules")).to_have_count(0)  # the toy game has no words

    page.select_option("#filter-game", "citadels")
    expect(page.locator(".table-row")).to_have_count(1)
    assert rows(page, "open") == [citadels]
    page.select_option("#filter-game", "")
    page.check("#filter-open-seats")
    expect(page.locator(".table-row")).to_have_count(2)
    assert rows(page, "running") == []
    page.uncheck("#filter-open-seats")
    page.select_option("#filter-mode", "turn-based")  # every table so far is real-time
    expect(page.locator(".table-row")).to_have_count(0)
    expect(page.locator("#tables-open")).to_have_text("None right now.")
    turn_based = create_by_api(server, mode="turn-based", speed="24h")["id"]
    page.reload()
    expect(page.locator(".table-row")).to_have_count(1)
    expect(page.locator(f"[data-table='{turn_based}'] .mode")).to_have_text("Turn-based")
    page.select_option("#filter-mode", "real-time")
    expect(page.locator(".table-row")).to_have_count(3)
    expect(page.locator(f"[data-table='{toy_full}'] .mode")).to_have_text("Real-time")

    if os.environ.get("MEEPLE_SCREENSHOTS"):
        page.select_option("#filter-game", "citadels")  # the toy game is the tests' own
        expect(page.locator(".table-row")).to_have_count(1)
        page.select_option("#game", "citadels")
        page.select_option("#preset", "original")
        page.locator("details.options-box summary").click()
        page.set_viewport_size({"width": 1280, "height": 1500})
        page.screenshot(path=str(ROOT / "docs" / "screenshots" / "lobby-options.png"))
        page.select_option("#filter-game", "")
    page.select_option("#language", "zh-Hant")  # the filters keep their choice in another language
    expect(page.locator("#filter-mode option:checked")).to_have_text("即時")
    expect(page.locator(f"[data-table='{toy_full}'] .status")).to_have_text("進行中")


def test_a_finished_table_says_finished_in_the_list_and_on_its_page(browser: Browser, server: Server) -> None:
    finished = create_by_api(server, seat=None, seats=[{"kind": "bot", "level": "easy"}] * 2)["id"]
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.url}/api/tables/{finished}", timeout=10).json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish their table"
        time.sleep(0.1)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.url + "/")
    expect(page.locator(f"#tables-finished [data-table='{finished}'] .status")).to_have_text("finished")
    page.locator(f"#tables-finished [data-table='{finished}'] a").first.click()
    expect(page.locator("#final-scores")).to_be_visible()
    connection = page.locator("#connection")
    expect(connection).to_have_attribute("data-state", "finished")
    expect(connection).to_have_text("finished")
    page.select_option("#language", "ja")
    expect(connection).to_have_text("終了")


def test_the_options_of_every_game_fit_a_phone(browser: Browser, server: Server) -> None:
    create_by_api(server)  # a row in the table list too
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.url + "/")
    expect(page.locator('#game option[value="palais_royal"]')).to_be_attached()  # the list is filled in
    games = page.locator("#game option").evaluate_all("els => els.map(e => e.value)")
    assert {"citadels", "burgundy", "caylus", "palais_royal"} <= set(games)
    # Japanese first: the page is in English already, so its lang attribute changing is what says the
    # form was drawn again in the chosen language (waiting for "en" would go on before the redraw)
    for language in ("ja", "en"):
        page.select_option("#language", language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        for game in games:
            page.select_option("#game", game)
            # the form may be drawn again (language, game) after the box was opened: open it until shown
            page.wait_for_function("""() => {
              const box = document.querySelector('details.options-box');
              if (box) box.open = true;
              const group = document.querySelector('.option-group');
              return group !== null && group.offsetParent !== null;
            }""")
            expect(page.locator(".option-group").first).to_be_visible()
            fits = page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
            assert fits, f"the lobby scrolls sideways with {game}'s options in {language}"
