"""What a component does, on the tables, in real Chromium: hovering a card, tile, building or noble of
each game shows its name and full effect in the page's language (the texts of meeple/server/explain.py),
every component a table marks is one the server can explain, and on a phone (390×844, touch) a tap on
a component without an action opens the popover, a second tap or a tap elsewhere closes it, and a long
press on a component's action button explains it without making the move. ``MEEPLE_SCREENSHOTS=1``
also writes docs/screenshots/palais_royal-explain.png and palais_royal-explain-phone.png."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from meeple.core.registry import game_names
from meeple.server.explain import explain
from tests.browser.conftest import Server, screenshot_dir
from tests.browser.helpers import create_table, drawn_version, fill_lobby

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
POP = "#explain-pop"
SHOTS = screenshot_dir()  # docs/screenshots/ only with MEEPLE_SCREENSHOTS=1

#: game -> (the page's language, a component on the table at the start that the test hovers)
HOVERED = {
    "citadels": ("zh-Hant", "#hand .district[data-explain]"),
    "burgundy": ("ja", ".bg-depot-tile [data-explain]"),
    "caylus": ("zh-Hans", ".space[data-explain]"),
    "palais_royal": ("en", "#garden .noble[data-explain]"),  # English: the screenshot's machine may lack CJK fonts
}


def open_table(browser: Browser, server: Server, game: str, language: str, viewport: ViewportSize,
               *, touch: bool = False) -> Page:
    """A new table of ``game`` against a bot, seen by a new browser (a phone with ``touch``)."""
    page = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch).new_page()
    page.add_init_script(f"localStorage.setItem('meeple.language', '{language}')")
    fill_lobby(page, server, game, players=2 if game != "citadels" else None)
    create_table(page)
    return page


def centre_of(locator: Locator) -> dict[str, float]:
    """The centre of what ``locator`` shows: a late message can draw the board again between finding
    the element and measuring it (the old one, detached, has no box), so it is found and measured again."""
    for _ in range(50):
        box = locator.bounding_box()
        if box is not None:
            return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        locator.page.wait_for_timeout(100)
    raise AssertionError(f"{locator} never had a box on the page")


def marked_components(page: Page) -> set[str]:
    values = page.locator("#board [data-explain]").evaluate_all("els => els.map(e => e.dataset.explain)")
    return set(values)


@pytest.mark.parametrize("game", sorted(HOVERED))
def test_hover_shows_the_full_effect(browser: Browser, server: Server, game: str) -> None:
    if game not in game_names():
        pytest.skip(f"the {game} engine is not installed")
    language, selector = HOVERED[game]
    page = open_table(browser, server, game, language, DESKTOP)
    component = page.locator(selector).first
    expect(component).to_be_visible(timeout=15_000)
    texts = explain(game, language)
    marked = marked_components(page)
    assert marked, "the table marks no component"
    unknown = {value for value in marked if value.split(":", 1)[0] != game or value.split(":", 1)[1] not in texts}
    assert not unknown, f"marked components the server cannot explain: {sorted(unknown)}"

    key = component.get_attribute("data-explain") or ""
    expected = texts[key.split(":", 1)[1]]
    expect(page.locator(POP)).to_be_hidden()
    component.hover()
    expect(page.locator(POP)).to_be_visible()
    expect(page.locator(f"{POP} .explain-name")).to_have_text(expected.name)
    expect(page.locator(f"{POP} .explain-effect")).to_have_text(expected.effect)
    if expected.code:
        expect(page.locator(f"{POP} .explain-code")).to_have_text(expected.code)
    if game == "palais_royal":
        page.screenshot(path=str(SHOTS / "palais_royal-explain.png"))
    page.mouse.move(2, 2)  # the page's corner, away from every component
    expect(page.locator(POP)).to_be_hidden()
    page.context.close()


@pytest.mark.skipif("palais_royal" not in game_names(), reason="the Palais Royal engine is not installed")
def test_tap_opens_and_closes_the_popover_on_a_phone(browser: Browser, server: Server) -> None:
    page = open_table(browser, server, "palais_royal", "en", PHONE, touch=True)
    noble = page.locator("#garden .noble[data-explain]").first
    expect(noble).to_be_visible(timeout=15_000)
    expected = explain("palais_royal", "en")[(noble.get_attribute("data-explain") or "").split(":", 1)[1]]
    version = drawn_version(page)

    noble.tap()
    expect(page.locator(POP)).to_be_visible()
    expect(page.locator(f"{POP} .explain-name")).to_have_text(expected.name)
    expect(page.locator(f"{POP} .explain-effect")).to_have_text(expected.effect)
    box = page.locator(POP).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    page.screenshot(path=str(SHOTS / "palais_royal-explain-phone.png"))

    noble.tap()  # the second tap closes it
    expect(page.locator(POP)).to_be_hidden()
    noble.tap()
    expect(page.locator(POP)).to_be_visible()
    # a tap elsewhere closes it: on the table's title, plain text (a tap on the bar's corner lands, by
    # Chromium's touch adjustment, on the nearby "meeple" link and leaves the page)
    page.locator("#table-title").tap()
    expect(page.locator(POP)).to_be_hidden()
    assert drawn_version(page) == version, "explaining made a move"
    page.context.close()


@pytest.mark.skipif("citadels" not in game_names(), reason="the Citadels engine is not installed")
def test_long_press_explains_without_acting(browser: Browser, server: Server) -> None:
    page = open_table(browser, server, "citadels", "ja", PHONE, touch=True)
    pick = page.locator(".offer .character button[data-action^='pick:']").first
    expect(pick).to_be_visible(timeout=30_000)
    character = pick.locator("xpath=ancestor::*[@data-explain][1]")
    expected = explain("citadels", "ja")[(character.get_attribute("data-explain") or "").split(":", 1)[1]]
    version = drawn_version(page)
    point = centre_of(pick)
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    time.sleep(0.9)
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    expect(page.locator(POP)).to_be_visible()
    expect(page.locator(f"{POP} .explain-name")).to_have_text(expected.name)
    expect(page.locator(f"{POP} .explain-effect")).to_have_text(expected.effect)
    page.wait_for_timeout(500)
    assert drawn_version(page) == version, "a long press made the move"
    expect(pick).to_be_visible()

    pick.tap()  # a plain tap on the button still acts
    page.wait_for_function(f"() => Number(document.getElementById('board').dataset.version) > {version}")
    page.context.close()
