"""The rules help on the table and replay pages, and the shared pages at phone width.

At a desktop size and at 390×844, on a Citadels table against bots: the help opens from the header,
shows the how-to-play and the whole reference in each of the four languages, filters the reference,
closes with Esc (or its button), and the game keeps playing underneath. The lobby and the table never
scroll sideways at 390 px. ``MEEPLE_SCREENSHOTS=1`` also writes docs/screenshots/citadels-phone.png,
lobby-phone.png and citadels-help.png.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from meeple.core.registry import game_names
from meeple.server.explain import explain
from tests.browser.conftest import ROOT, Server
from tests.browser.helpers import (
    click_action,
    create_table,
    drawn_version,
    fill_lobby,
    go_on_when_asked,
    wait_past_version,
)
from tests.browser.test_citadels_table import choose

HELP = ROOT / "meeple" / "web" / "help"
LANGUAGES = ("en", "zh-Hans", "zh-Hant", "ja")
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
NO_SIDE_SCROLL = "() => document.scrollingElement.scrollWidth <= window.innerWidth"

needs_citadels = pytest.mark.skipif("citadels" not in game_names(), reason="the Citadels engine is not installed")


def shots(tmp_path: Path) -> Path:
    return ROOT / "docs" / "screenshots" if os.environ.get("MEEPLE_SCREENSHOTS") else tmp_path


def help_doc(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HELP / "citadels" / f"{language}.json").read_text(encoding="utf-8"))
    return data


def create_citadels_table(page: Page, server: Server, players: int) -> str:
    fill_lobby(page, server, "citadels", players=players)
    table_id = create_table(page)
    expect(page.locator(".citadels")).to_be_visible()
    return table_id


def play(page: Page, clicks: int, *, through_help: bool = False) -> int:
    """Click `clicks` legal actions (waiting for the bots in between); returns how many were made.
    ``through_help`` clicks with a DOM event, for when the help drawer lies over the board."""
    made = 0
    for _ in range(clicks * 100):
        if made >= clicks or page.locator("#citadels-final").count():
            break
        actions = page.locator("#board [data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
        if not actions or page.locator("body.waiting-for-server").count():
            page.wait_for_timeout(30)
            continue
        before = drawn_version(page)
        target = page.locator(f'#board [data-action="{actions[choose(actions)]}"]').first
        if through_help:
            target.dispatch_event("click")
        else:
            target.click()
        go_on_when_asked(page)
        made += 1
        wait_past_version(page, before)
    return made


def reference_entries(language: str) -> list[dict[str, str]]:
    """The help's reference as the page shows it: each section's components (their names and effects,
    meeple/server/explain.py), then its own entries."""
    texts = explain("citadels", language)
    return [
        entry
        for section in help_doc(language)["sections"]
        for entry in [{"name": texts[c].name, "text": texts[c].effect} for c in section.get("components", [])]
        + section.get("entries", [])
    ]


def check_help(page: Page, language: str) -> None:
    """The open help shows this language's how-to-play and every reference entry, and filters them."""
    doc = help_doc(language)
    panel = page.locator("#help-panel")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-lang", language)
    expect(page.locator("#help-title")).to_have_text(doc["title"])
    expect(page.locator("#help-how")).to_contain_text(doc["how_to_play"][0])
    entries = reference_entries(language)
    expect(page.locator(".help-entry")).to_have_count(len(entries))
    expect(page.locator(".help-section h4")).to_have_text([section["heading"] for section in doc["sections"]])
    # search: a unique district's name and effect leave just that entry
    library_name = explain("citadels", language)["district.library"].name
    library = next(entry for entry in entries if entry["name"] == library_name)
    page.fill("#help-search", f"{library['name']} {library['text']}")
    visible = page.locator(".help-entry:not([hidden])")
    expect(visible).to_have_count(1)
    expect(visible.first).to_contain_text(library["text"])
    page.fill("#help-search", "zzzz-nothing")
    expect(page.locator(".help-none")).to_be_visible()
    page.fill("#help-search", "")
    expect(visible).to_have_count(len(entries))
    panel.evaluate("node => Promise.all(node.getAnimations().map((a) => a.finished))")  # slide-in done
    box = panel.bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


def open_help_by_keyboard(page: Page) -> None:
    page.focus("#help-button")
    page.keyboard.press("Enter")
    expect(page.locator("#help-panel")).to_be_visible()
    expect(page.locator("#help-close")).to_be_focused()


@needs_citadels
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_rules_help_in_four_languages_while_the_game_plays_on(
        browser: Browser, server: Server, viewport: ViewportSize, tmp_path: Path) -> None:
    page = browser.new_context(viewport=viewport).new_page()
    phone = viewport is PHONE
    if phone:
        page.goto(server.url + "/")
        page.select_option("#game", "citadels")
        expect(page.locator("#seat-kind-1")).to_be_visible()
        assert page.evaluate(NO_SIDE_SCROLL), "the lobby scrolls sideways at 390 px"
        page.screenshot(path=str(shots(tmp_path) / "lobby-phone.png"))
    create_citadels_table(page, server, players=3)
    assert play(page, 3) == 3

    # Open it by keyboard, in English; the game goes on underneath and the panel stays open.
    open_help_by_keyboard(page)
    check_help(page, "en")
    king = reference_entries("en")[3]
    page.fill("#help-search", f"{king['name']} {king['text']}")  # a typed filter survives updates
    before = drawn_version(page)
    assert play(page, 2, through_help=True) == 2
    assert drawn_version(page) > before
    expect(page.locator("#help-panel")).to_be_visible()
    expect(page.locator(".help-entry:not([hidden])")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#help-panel")).to_have_count(0)
    expect(page.locator("#help-button")).to_be_focused()
    expect(page.locator("#help-button")).to_have_attribute("aria-expanded", "false")

    # The other three languages: switch the page's language, open with a click, close with Esc or ×.
    for index, language in enumerate(LANGUAGES[1:]):
        page.select_option("#language", language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.click("#help-button")
        check_help(page, language)
        if index % 2:
            page.click("#help-close")
        else:
            page.keyboard.press("Escape")
        expect(page.locator("#help-panel")).to_have_count(0)

    # Switching language with the panel open redraws it in the new language.
    page.click("#help-button")
    page.select_option("#language", "en")
    check_help(page, "en")
    if not phone:
        page.evaluate("document.getElementById('help-reference').scrollIntoView({block: 'start'})")
        page.screenshot(path=str(shots(tmp_path) / "citadels-help.png"))
    page.keyboard.press("Escape")

    assert play(page, 4) == 4, "the game plays on after the help closed"
    if phone:
        assert page.evaluate(NO_SIDE_SCROLL), "the table scrolls sideways at 390 px"
        page.screenshot(path=str(shots(tmp_path) / "citadels-phone.png"))


@needs_citadels
def test_lobby_and_table_never_scroll_sideways_at_phone_width(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    expect(page.locator("#create-button")).to_be_visible()
    for language in LANGUAGES:
        page.select_option("#language", language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert page.evaluate(NO_SIDE_SCROLL), f"the lobby scrolls sideways in {language}"
    page.select_option("#language", "en")
    create_citadels_table(page, server, players=4)
    for _ in range(3):
        play(page, 4)
        assert page.evaluate(NO_SIDE_SCROLL), "the table scrolls sideways"
    # what can be tapped is at least 40 px high
    heights = page.locator("#board button.action").evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 40, heights
    page.select_option("#language", "ja")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert page.evaluate(NO_SIDE_SCROLL), "the table scrolls sideways in Japanese"


#: Holds the answer for English messages back 0.8 s once ``window.slowEnglish`` is set.
SLOW_ENGLISH = """
const fetchNow = window.fetch.bind(window);
window.fetch = async (path, options) => {
  if (window.slowEnglish && String(path).endsWith("/api/i18n/en")) await new Promise((done) => setTimeout(done, 800));
  return fetchNow(path, options);
};
"""


def test_two_quick_language_choices_end_in_the_second_even_when_the_first_answers_last(
        browser: Browser, server: Server) -> None:
    """Playwright's select fires ``change`` even for the value already chosen, so the phone-width test
    picked English then Chinese at once, and on a CI run the English answer came last and won."""
    page = browser.new_context().new_page()
    page.add_init_script(SLOW_ENGLISH)
    page.goto(server.url + "/")
    expect(page.locator("#create-button")).to_be_visible()
    page.evaluate("window.slowEnglish = true")
    page.select_option("#language", "en")
    page.select_option("#language", "zh-Hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    page.wait_for_timeout(1500)  # the English answer has come by now, and changed nothing
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("#language")).to_have_value("zh-Hans")
    assert page.evaluate("localStorage.getItem('meeple.language')") == "zh-Hans"
    create = page.locator("#create-button").inner_text()
    assert any("\u4e00" <= char <= "\u9fff" for char in create), create


def test_replay_page_has_the_help_button_and_arrows_wait_while_it_is_open(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    fill_lobby(page, server, "toy", players=2)
    create_table(page)
    for _ in range(200):
        if page.locator("#final-scores").count():
            break
        click_action(page)
        page.wait_for_timeout(30)
    page.click("#replay-link")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")
    assert page.evaluate(NO_SIDE_SCROLL), "the replay page scrolls sideways at 390 px"
    page.click("#help-button")
    expect(page.locator("#help-panel")).to_contain_text("No rules help for this game yet.")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")
    page.keyboard.press("Escape")
    expect(page.locator("#help-panel")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_contain_text("step 1 of")
    # Two steps on at once, the first answered last (0.8 s late): the page stays on the later step.
    page.evaluate("""() => {
      const fetchNow = window.fetch.bind(window);
      window.fetch = async (path, options) => {
        if (String(path).includes("step=2")) await new Promise((done) => setTimeout(done, 800));
        return fetchNow(path, options);
      };
    }""")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_contain_text("step 3 of")
    page.wait_for_timeout(1500)  # the answer for step 2 has come by now, and changed nothing
    expect(page.locator("#replay-position")).to_contain_text("step 3 of")
    expect(page.locator("#replay-step")).to_have_value("3")
