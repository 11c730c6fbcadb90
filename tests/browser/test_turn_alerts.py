"""Knowing when it is your turn, in real Chromium: the tab's title and favicon follow the turn as a
bot or another browser moves; with the tab hidden, the sound and the notification (asked for only
after a click on the bell); and the My games page, linked from the lobby, polling its tables."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import Server, screenshot_dir

SHOTS = screenshot_dir()  # docs/screenshots/ only with MEEPLE_SCREENSHOTS=1

GAME = "Toy high card"  # the toy game's title (no translation of its own)
YOUR_TURN = f"● Your turn — {GAME} · meeple"
NOT_YOUR_TURN = f"meeple — {GAME}"

#: Before any page script: record every title the page gets, a hidden/visible switch the test
#: controls, a Notification that records what it is asked, and a count of the chime's oscillators.
INSTRUMENT = """
window.__titles = [];
const titleProperty = Object.getOwnPropertyDescriptor(Document.prototype, "title");
Object.defineProperty(document, "title", {
  get() { return titleProperty.get.call(this); },
  set(value) { window.__titles.push(value); titleProperty.set.call(this, value); },
});
window.__hidden = false;
Object.defineProperty(document, "hidden", {get: () => window.__hidden});
window.__notices = [];
window.__asked = 0;
class RecordingNotification {
  constructor(title, options) { window.__notices.push({title, body: options.body}); }
  close() {}
  static get permission() { return window.__asked ? "granted" : "default"; }
  static async requestPermission() { window.__asked += 1; return "granted"; }
}
window.Notification = RecordingNotification;
window.__tones = 0;
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones += 1; return createOscillator.call(this); };
"""


def context(browser: Browser) -> BrowserContext:
    made = browser.new_context()
    made.add_init_script(INSTRUMENT)
    return made


def new_table(page: Page, server: Server, **fields: Any) -> str:
    body = {"game": "toy", "players": 2, "seat": 0, "name": "Ada"} | fields
    response = page.request.post(f"{server.url}/api/tables", data=body)
    assert response.status == 201, response.text()
    table_id: str = response.json()["table"]["id"]
    return table_id


def favicon(page: Page) -> str:
    href: str = page.evaluate("document.querySelector(\"link[rel='icon']\").getAttribute('href')")
    return href


def click_first_action(page: Page) -> None:
    expect(page.locator("#actions button.action").first).to_be_visible()
    version = page.evaluate("Number(document.getElementById('board').dataset.version)")
    page.locator("#actions button.action").first.click()
    page.wait_for_function(f"Number(document.getElementById('board').dataset.version) > {version}")


def test_the_title_and_favicon_follow_the_turn_as_a_bot_moves(browser: Browser, server: Server) -> None:
    ada = context(browser).new_page()
    table_id = new_table(ada, server, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    ada.goto(f"{server.url}/tables/{table_id}")
    expect(ada).to_have_title(YOUR_TURN)
    assert favicon(ada).startswith("data:image/svg+xml,") and "circle" in favicon(ada)
    ada.evaluate("window.__titles = []")
    click_first_action(ada)  # the bot's turn: the plain title, then (it moves) Ada's turn again
    expect(ada.locator("body")).to_have_attribute("data-my-turn", "yes")
    expect(ada).to_have_title(YOUR_TURN)
    titles = ada.evaluate("window.__titles")
    assert NOT_YOUR_TURN in titles and titles[-1] == YOUR_TURN, titles
    assert "circle" in favicon(ada)


def test_another_browser_moving_brings_the_title_favicon_sound_and_notification(
        browser: Browser, server: Server) -> None:
    ada = context(browser).new_page()
    table_id = new_table(ada, server)
    bob = context(browser).new_page()
    join = bob.request.post(f"{server.url}/api/tables/{table_id}/join", data={"seat": 1, "name": "Bob"})
    assert join.status == 200, join.text()
    ada.goto(f"{server.url}/tables/{table_id}")
    bob.goto(f"{server.url}/tables/{table_id}")
    expect(ada).to_have_title(YOUR_TURN)
    expect(bob).to_have_title(NOT_YOUR_TURN)
    assert favicon(bob) == "/static/favicon.svg"

    # Notifications are asked for only after a click on the bell; the sound is a toggle too.
    assert ada.evaluate("window.__asked") == 0
    ada.click("#alert-notify")
    expect(ada.locator("#alert-notify")).to_have_attribute("aria-pressed", "true")
    assert ada.evaluate("window.__asked") == 1
    ada.click("#alert-sound")
    expect(ada.locator("#alert-sound")).to_have_attribute("aria-pressed", "true")
    assert ada.evaluate("JSON.parse(localStorage.getItem('meeple.alerts'))") == {"sound": True, "notify": True}
    preview_tones = ada.evaluate("window.__tones")
    assert preview_tones == 2  # the toggle plays the chime once

    click_first_action(ada)
    expect(ada).to_have_title(NOT_YOUR_TURN)
    assert favicon(ada) == "/static/favicon.svg"
    expect(bob).to_have_title(YOUR_TURN)
    assert ada.evaluate("window.__notices") == []  # visible tab: no notification, no sound

    ada.evaluate("window.__hidden = true")  # Ada switches to another tab; Bob moves
    click_first_action(bob)
    expect(ada).to_have_title(YOUR_TURN)
    assert "circle" in favicon(ada)
    assert ada.evaluate("window.__notices") == [{"title": f"Your turn — {GAME}", "body": f"It is your turn at {GAME}."}]
    assert ada.evaluate("window.__tones") == preview_tones + 2
    # The preferences survive a reload.
    ada.reload()
    expect(ada.locator("#alert-sound")).to_have_attribute("aria-pressed", "true")


def test_my_games_lists_the_tables_waiting_for_me_first_and_follows_their_turns(
        browser: Browser, server: Server) -> None:
    ada = context(browser).new_page()
    waiting_for_bob = new_table(ada, server, mode="turn-based", speed="12h")
    bob = context(browser).new_page()
    assert bob.request.post(f"{server.url}/api/tables/{waiting_for_bob}/join",
                            data={"seat": 1, "name": "Bob"}).status == 200
    bob.goto(f"{server.url}/tables/{waiting_for_bob}")
    ada.goto(f"{server.url}/tables/{waiting_for_bob}")
    click_first_action(ada)  # now Bob's turn there
    mine = new_table(ada, server, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])  # Ada to move

    ada.goto(f"{server.url}/")
    ada.click("#my-games-link")
    ada.wait_for_url(f"{server.url}/my")
    rows = ada.locator(".my-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-table", mine)
    expect(rows.nth(0)).to_contain_text("Your turn")
    expect(rows.nth(1)).to_have_attribute("data-table", waiting_for_bob)
    expect(rows.nth(1)).to_contain_text("Waiting for Bob")
    # Bob's 12 hours less the moments since Ada's move, in whole seconds: under half a second shows the 12 hours.
    expect(rows.nth(1).locator(".time-left")).to_have_text(re.compile(r"^Bob: (11 hr \d+ min|12 hr) left$"))
    expect(rows.nth(1).locator(".last-move")).to_contain_text("Last move by Ada")
    expect(ada).to_have_title("● Your turn (1) — My games · meeple")
    assert "circle" in favicon(ada)
    expect(ada.locator("#mail-settings")).to_contain_text("Sign in")

    ada.evaluate("window.__hidden = true")
    ada.click("#alert-notify")
    click_first_action(bob)  # the other table now waits for Ada too: its row is pushed to the page
    expect(ada).to_have_title("● Your turn (2) — My games · meeple", timeout=20_000)
    expect(ada.locator('.my-group[data-group="waiting"] .my-row')).to_have_count(2)
    expect(ada.locator(f'.my-row[data-table="{waiting_for_bob}"] .last-move')).to_contain_text("Last move by Bob")
    assert ada.evaluate("window.__notices.length") == 1
    ada.set_viewport_size({"width": 1200, "height": 560})
    ada.screenshot(path=str(SHOTS / "my-games.png"))
    ada.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing scrolls sideways
    assert ada.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")

    ada.locator(f'.my-row[data-table="{mine}"] a.button').click()
    ada.wait_for_url(f"{server.url}/tables/{mine}")
    expect(ada).to_have_title(YOUR_TURN)
