"""Chat between two browsers at a toy table (a script arrives as text, muting hides a sender), a
spectator's page without chat or hand, and the lobby's chat."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.conftest import Server
from tests.browser.helpers import create_table, fill_lobby, join_by_invite

ATTACK = '<script>window.hacked = 1</script><img src=x onerror="window.hacked = 2"><b>bold?</b>'


def test_two_browsers_chat_at_a_table_and_one_mutes_the_other(browser: Browser, server: Server) -> None:
    ada = browser.new_context().new_page()
    fill_lobby(ada, server, "toy", players=2, name="Ada")
    ada.select_option("#seat-kind-1", "human")
    table_id = create_table(ada)
    bob = browser.new_context().new_page()
    join_by_invite(bob, ada.locator(".invite-link").first.input_value(), "Bob")
    expect(bob.locator("#table-chat")).to_be_visible()

    ada.fill("#table-chat .chat-input", ATTACK)
    ada.press("#table-chat .chat-input", "Enter")
    bob_line = bob.locator("#table-chat .chat-line").last
    expect(bob_line.locator(".chat-text")).to_have_text(ATTACK)
    expect(bob_line.locator(".chat-who")).to_have_text("Ada")
    assert bob_line.locator("b, img, script").count() == 0
    assert bob.evaluate("() => window.hacked") is None and ada.evaluate("() => window.hacked") is None

    bob.fill("#table-chat .chat-input", "hello Ada")
    bob.click("#table-chat button[type=submit]")
    expect(ada.locator("#table-chat .chat-line").last.locator(".chat-text")).to_have_text("hello Ada")
    expect(bob.locator("#table-chat .chat-input")).to_have_value("")

    ada.locator("#table-chat .chat-line", has_text="hello Ada").locator(".chat-mute").click()
    expect(ada.locator("#table-chat .chat-line", has_text="hello Ada")).to_have_count(0)
    bob.fill("#table-chat .chat-input", "are you there?")
    bob.press("#table-chat .chat-input", "Enter")
    expect(bob.locator("#table-chat .chat-line").last.locator(".chat-text")).to_have_text("are you there?")
    ada.reload()  # muting is kept by the browser
    expect(ada.locator("#table-chat .chat-line")).to_have_count(1)
    expect(ada.locator("#table-chat .chat-unmute")).to_have_text("Unmute Bob")
    ada.click("#table-chat .chat-unmute")
    expect(ada.locator("#table-chat .chat-line")).to_have_count(3)

    spectator = browser.new_context().new_page()
    spectator.goto(f"{server.url}/tables/{table_id}")
    expect(spectator.locator("#table-panel")).to_contain_text("You are watching")
    expect(ada.locator("#spectators")).to_have_text("Spectators: 1")
    assert spectator.locator("#table-chat").count() == 0
    assert spectator.locator('.view-panel[data-key="hand"] .chip').count() == 0
    assert ada.locator('.view-panel[data-key="hand"] .chip').count() > 0


def test_the_lobby_chat_shows_guests_lines_as_text(browser: Browser, server: Server) -> None:
    kim = browser.new_context().new_page()
    kim.goto(server.url + "/")
    kim.fill("#name", "Kim")
    kim.fill("#lobby-chat .chat-input", "<i>anyone?</i>")
    kim.press("#lobby-chat .chat-input", "Enter")
    expect(kim.locator("#lobby-chat .chat-line .chat-text")).to_have_text("<i>anyone?</i>")
    lee = browser.new_context().new_page()
    lee.goto(server.url + "/")
    expect(lee.locator("#lobby-chat .chat-line .chat-who")).to_have_text("Kim")
    lee.fill("#name", "Lee")
    lee.fill("#lobby-chat .chat-input", "me!")
    lee.press("#lobby-chat .chat-input", "Enter")
    expect(kim.locator("#lobby-chat .chat-line").last).to_contain_text("me!", timeout=10000)
    assert kim.locator("#lobby-chat i").count() == 0
