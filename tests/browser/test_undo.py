"""Undo in two browsers (issue 19): at Citadels, Ada takes gold, clicks Undo, and Bob's page shows the
log line and his board as it was before her move (docs/rules/citadels.md §2.3: gold is public and can
be taken back; a draw cannot)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIRequestContext, Browser, Page, expect

from tests.browser.conftest import Server
from tests.browser.helpers import take_seat


def state(request: APIRequestContext, server: Server, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = request.get(f"{server.url}/api/tables/{table_id}").json()
    return data


def ada_and_bob_play_until(browser: Browser, server: Server, game: str,
                           ready: Callable[[dict[str, Any]], bool]) -> tuple[Page, Page, str]:
    """A two-player table of ``game`` for Ada and Bob, both playing their first legal action until what
    Ada's seat sees is ``ready``: her page, his, the table's id."""
    ada = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    created = ada.request.post(f"{server.url}/api/tables", data={
        "game": game, "players": 2, "seat": 0, "name": "Ada", "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert created.ok, created.text()
    table_id = created.json()["table"]["id"]
    take_seat(bob, f"{server.url}/tables/{table_id}", "Bob", button="button.join-seat")
    for _ in range(200):
        if ready(state(ada.request, server, table_id)):
            return ada, bob, table_id
        for player in (ada, bob):
            seen = state(player.request, server, table_id)
            if seen["legal"]:
                player.request.post(f"{server.url}/api/tables/{table_id}/actions",
                                    data={"action": seen["legal"][0], "version": seen["version"]})
                break
    raise AssertionError(f"200 moves of {game} never reached what the test needs")


def test_a_player_takes_back_a_move_and_the_other_sees_it(browser: Browser, server: Server) -> None:
    ada, bob, table_id = ada_and_bob_play_until(browser, server, "citadels", lambda seen: "gold" in seen["legal"])
    version = state(ada.request, server, table_id)["version"]
    ada.goto(f"{server.url}/tables/{table_id}")
    bob.reload()
    for page in (ada, bob):
        expect(page.locator("#board")).to_have_attribute("data-version", str(version), timeout=20_000)
    expect(ada.locator("#undo")).to_have_count(0)
    board_before = bob.locator("#board").inner_text()

    ada.locator('[data-action="gold"]').first.click()
    expect(bob.locator("#board")).to_have_attribute("data-version", str(version + 1), timeout=20_000)
    expect(ada.locator("#undo")).to_be_visible()
    expect(ada.locator("#undo-all")).to_have_count(0)  # one move: the one button
    expect(bob.locator("#undo")).to_have_count(0)
    assert bob.locator("#board").inner_text() != board_before  # Ada's 2 gold show

    ada.click("#undo")
    expect(bob.locator("#board")).to_have_attribute("data-version", str(version + 2), timeout=20_000)
    expect(bob.locator("#undo-log")).to_contain_text("Ada took back a move")
    expect(ada.locator("#undo-log")).to_contain_text("Ada took back a move")
    assert bob.locator("#board").inner_text() == board_before
    expect(ada.locator("#undo")).to_have_count(0)
    expect(ada.locator('[data-action="gold"]').first).to_be_visible()  # her turn is as it was


def test_undo_all_takes_back_the_whole_turn_so_far_in_one_click(browser: Browser, server: Server) -> None:
    # Burgundy: a turn holds several moves (a die, its action, the next die...) that draw nothing
    ada, _, table_id = ada_and_bob_play_until(browser, server, "burgundy", lambda seen: seen["can_undo"] >= 2)
    seen = state(ada.request, server, table_id)
    moves, version = seen["can_undo"], seen["version"]
    ada.goto(f"{server.url}/tables/{table_id}")
    expect(ada.locator("#board")).to_have_attribute("data-version", str(version), timeout=20_000)
    expect(ada.locator("#undo")).to_be_visible()
    expect(ada.locator("#undo-all")).to_have_text(f"Undo all {moves}")

    ada.click("#undo-all")
    expect(ada.locator("#board")).to_have_attribute("data-version", str(version + 1), timeout=20_000)
    expect(ada.locator("#undo-log")).to_contain_text(f"Ada took back {moves} moves")
    after = state(ada.request, server, table_id)
    assert after["can_undo"] == 0 and after["current_player"] == 0  # her turn, as it began
    expect(ada.locator("#undo")).to_have_count(0)
    expect(ada.locator("#undo-all")).to_have_count(0)
