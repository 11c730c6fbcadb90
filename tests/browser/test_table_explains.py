"""The table page explains what happened: what a bot's move changed is outlined on the board (and
animated once), hovering that move's log line outlines where it happened, and ending a step with an
optional benefit unused asks first, unless this browser turned the question off."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from meeple.core.registry import game_names
from tests.browser.conftest import Server, record_frames
from tests.browser.helpers import create_table, drawn_version, fill_lobby, wait_past_version

DESKTOP: ViewportSize = {"width": 1400, "height": 1000}
CHANGED = re.compile(r"\bchanged\b")
LOG_FOCUS = re.compile(r"\blog-focus\b")
ANIMATION = "() => getComputedStyle(document.querySelector('#board .changed-now, #log .changed-now')).animationName"

#: The actions the page offers and whether it waits for the server.
OFFERED = """() => ({
  version: Number(document.getElementById('board').dataset.version),
  actions: [...document.querySelectorAll('#board [data-action]')].map((e) => e.dataset.action),
  waiting: document.body.classList.contains('waiting-for-server'),
})"""


def patch_paths(before: Any, patch: dict[str, Any], prefix: str = "") -> list[str]:
    """The view paths a patch changes (a list that grew: one path per new item), as js/changes.js reads them."""
    join = (lambda key: f"{prefix}.{key}") if prefix else str
    paths = [join(key) for key in patch.get("del", [])] + [join(key) for key in patch.get("set", {})]
    for key, items in patch.get("add", {}).items():
        start = len(before[int(key) if isinstance(before, list) else key])
        paths += [join(f"{key}.{start + offset}") for offset in range(len(items))]
    for key, sub in patch.get("sub", {}).items():
        paths += patch_paths(before[int(key) if isinstance(before, list) else key], sub, join(key))
    return paths


def my_turn(page: Page, timeout: float = 60) -> list[str]:
    """Wait until the page offers actions (and waits for nothing); returns them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = page.evaluate(OFFERED)
        if shown["actions"] and not shown["waiting"]:
            return list(shown["actions"])
        page.wait_for_timeout(30)
    raise AssertionError("the page never offered a move")


needs = pytest.mark.skipif(not {"caylus", "palais_royal"} <= set(game_names()),
                           reason="Caylus and Palais Royal are needed")


@needs
def test_a_bot_move_is_highlighted_and_its_log_line_shows_where(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    raw: list[dict[str, Any]] = []
    frames = record_frames(page, raw)
    fill_lobby(page, server, "caylus", players=3)
    create_table(page)
    actions = my_turn(page)
    placing = next(a for a in actions if a.startswith("place:"))
    before = drawn_version(page)
    page.locator(f'#board [data-action="{placing}"]').first.click()
    wait_past_version(page, before + 1)  # my move and at least one bot's
    my_turn(page)

    # the last update of a bot's move that changed the road or a player's deniers, and the elements showing them
    states = {f["version"]: f for f in frames if f["type"] == "state"}
    touched: list[tuple[dict[str, Any], list[str], list[str]]] = []
    for update in raw:
        if update["type"] != "update" or not update["log"] or update["log"][-1]["seat"] == 0 \
                or update["from"] not in states or "patch" not in update:
            continue
        paths = patch_paths(states[update["from"]]["view"], update["patch"])
        shown = sorted({".".join(p.split(".")[:2]) for p in paths if p.startswith("road.")}
                       | {p for p in paths if re.fullmatch(r"players_state\.\d\.deniers", p)})
        if shown:
            touched.append((update, paths, shown))
    assert touched, "a bot moved after mine, placing a worker or paying"
    # a worker on the road stays there for the rest of the phase: the best witness, when a bot placed one
    update, paths, shown = next((t for t in reversed(touched) if any(p.startswith("road.") for p in t[2])), touched[-1])
    for path in shown:
        expect(page.locator(f'#board [data-path="{path}"]')).to_have_class(CHANGED)
    # the newest change pulses once, and not at all for a reader who asked for reduced motion
    assert page.evaluate(ANIMATION) == "changed-pulse"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(ANIMATION) == "none"
    page.emulate_media(reduced_motion="no-preference")

    # hovering that move's log line outlines where it happened, and leaving it clears the outline
    log_path = next(p for p in paths if p.startswith("log."))
    page.locator(f'#log li[data-path="{log_path}"]').hover()
    for path in shown:
        expect(page.locator(f'#board [data-path="{path}"]')).to_have_class(LOG_FOCUS)
    page.mouse.move(5, 5)
    expect(page.locator("#board .log-focus")).to_have_count(0)

    # the highlight goes once this seat moves (unless a later move changed the same thing again)
    actions = my_turn(page)
    sent_before = len(raw)
    version = drawn_version(page)
    page.locator(f'#board [data-action="{actions[0]}"]').first.click()
    wait_past_version(page, version)
    page.wait_for_timeout(300)
    states = {f["version"]: f for f in frames if f["type"] == "state"}
    later = [p for u in raw[sent_before:] if u["type"] == "update" and "patch" in u and u["from"] in states
             for p in patch_paths(states[u["from"]]["view"], u["patch"])]
    quiet = [path for path in shown if not any(p == path or p.startswith(f"{path}.") for p in later)]
    assert quiet, "some of the bot's changes were not changed again"
    for path in quiet:
        expect(page.locator(f'#board [data-path="{path}"]')).not_to_have_class(CHANGED)


BENEFITS = {"mint": "palais_royal.unused.mint", "king": "palais_royal.unused.king", "pomp": "palais_royal.unused.pomp"}


def until_step_three_benefit(page: Page, deadline: float) -> list[str]:
    """Play Palais Royal (servants set up in the Mint, King's and Pompadour's rooms, reinforcements taken,
    every other step ended) until the page offers `end` with the Mint's gold or a majority bonus still to
    take; returns those benefits' message keys."""
    while True:
        assert time.monotonic() < deadline, "step 3 never offered an unused benefit"
        actions = my_turn(page)
        open_benefits = sorted({BENEFITS[a.split(":")[0]] for a in actions if a.split(":")[0] in BENEFITS})
        if "end" in actions and open_benefits:
            return open_benefits
        choice = next((a for a in ("place:MIN", "place:KIN", "place:POM", "gate", "end") if a in actions), actions[0])
        before = drawn_version(page)
        page.locator(f'#board [data-action="{choice}"]').first.click()
        wait_past_version(page, before)


@needs
def test_ending_a_step_with_a_benefit_unused_asks_first_unless_turned_off(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    fill_lobby(page, server, "palais_royal", players=2)
    create_table(page)
    deadline = time.monotonic() + 120
    unused = until_step_three_benefit(page, deadline)
    expect(page.locator("#confirm-unused-pref")).to_be_checked()

    # `end` asks, naming exactly the benefits the legal actions still offer; going back changes nothing
    version = drawn_version(page)
    page.locator('#board [data-action="end"]').click()
    dialog = page.locator("#unused-dialog")
    expect(dialog).to_be_visible()
    assert sorted(dialog.locator("li").evaluate_all("els => els.map(e => e.dataset.key)")) == unused
    expect(dialog.locator("li").first).not_to_have_text(re.compile(r"^palais_royal\."))  # a sentence, not a key
    page.click("#unused-back")
    expect(dialog).to_have_count(0)
    page.wait_for_timeout(300)
    assert drawn_version(page) == version
    assert "end" in my_turn(page)

    # again, and this time go on and stop asking: the step ends and the preference is off in this browser
    page.locator('#board [data-action="end"]').click()
    expect(dialog).to_be_visible()
    page.uncheck("#unused-keep-asking")
    page.click("#unused-go-on")
    wait_past_version(page, version)
    expect(page.locator("#confirm-unused-pref")).not_to_be_checked()
    assert page.evaluate("() => localStorage.getItem('meeple.confirmUnusedBenefits')") == "off"

    # the next such moment ends without a question
    until_step_three_benefit(page, deadline)
    version = drawn_version(page)
    page.locator('#board [data-action="end"]').click()
    wait_past_version(page, version)
    expect(dialog).to_have_count(0)

    # the toggle on the page turns the question back on, and it is remembered across a reload
    page.check("#confirm-unused-pref")
    page.reload()
    expect(page.locator("#confirm-unused-pref")).to_be_checked()
    until_step_three_benefit(page, deadline)
    page.locator('#board [data-action="end"]').click()
    expect(dialog).to_be_visible()


PHONE: ViewportSize = {"width": 390, "height": 844}
#: Each game's own hand or board, which a phone shows in its first screen.
OWN = {"citadels": "#hand", "burgundy": ".bg-player.me", "caylus": ".cy-player.me", "palais_royal": "#hand"}
#: Where the page is, read at the top of the page: the boxes (top and bottom) of the action bar, of
#: this seat's hand or board, of its first line and first card, and of every other player's board.
LAYOUT = """(own) => {
  const box = (node) => {
    const b = node.getBoundingClientRect();
    return {top: b.top + scrollY, bottom: b.bottom + scrollY};
  };
  const mine = document.querySelector(own);
  return {
    bar: box(document.getElementById('actions')),
    own: box(mine), ownFirstLine: box(mine.firstElementChild),
    ownFirstCard: box(mine.querySelector('.district, .pcard') || mine),
    others: [...document.querySelectorAll('#board [data-board-seat]')].filter((n) => n.dataset.boardSeat !== '0')
      .map((n) => ({seat: n.dataset.boardSeat, folded: n.classList.contains('folded'), ...box(n)})),
    sideways: document.scrollingElement.scrollWidth > innerWidth,
  };
}"""


def until_action_bar(page: Page, deadline: float) -> None:
    """Play (anything but ending a turn, when there is a choice) until this seat's turn offers an action
    bar; then scroll to the top."""
    while True:
        assert time.monotonic() < deadline, "no turn offered an action bar"
        actions = my_turn(page)
        if page.locator("#actions [data-action]").count():
            break
        choice = next((a for a in actions if not a.startswith(("end", "pass"))), actions[0])
        before = drawn_version(page)
        page.locator(f'#board [data-action="{choice}"]').first.dispatch_event("click")
        wait_past_version(page, before)
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("game", sorted(OWN))
def test_a_phone_shows_the_essentials_first_and_folds_the_other_boards(browser: Browser, server: Server,
                                                                        game: str) -> None:
    if game not in game_names():
        pytest.skip(f"{game} is not installed")
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    fill_lobby(page, server, game, players=4)
    create_table(page)
    until_action_bar(page, time.monotonic() + 90)

    layout = page.evaluate(LAYOUT, OWN[game])
    screen = PHONE["height"]
    assert not layout["sideways"]
    assert layout["bar"]["bottom"] <= screen, f"the action bar is in the first screen: {layout}"
    assert layout["ownFirstLine"]["bottom"] <= screen, f"this seat's hand or board starts in the first screen: {layout}"
    if game in ("citadels", "palais_royal"):
        assert layout["ownFirstCard"]["bottom"] <= screen, f"the hand's first row is in the first screen: {layout}"
    others = layout["others"]
    assert len(others) == 3 and all(board["folded"] for board in others), others
    assert all(board["top"] >= layout["own"]["top"] for board in others), "no other board comes before this seat's"
    assert all(board["bottom"] - board["top"] < 130 for board in others), f"a folded board is its header line: {others}"

    # a tap unfolds a board and another folds it again; the choice survives the next update
    toggle = page.locator('#board [data-board-seat="1"] .board-toggle')
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.tap()
    board = page.locator('#board [data-board-seat="1"]')
    expect(board).not_to_have_class(re.compile(r"\bfolded\b"))
    expect(toggle).to_have_attribute("aria-expanded", "true")
    unfolded = board.bounding_box()
    assert unfolded is not None and unfolded["height"] > others[0]["bottom"] - others[0]["top"] + 20
    before = drawn_version(page)
    page.locator("#actions [data-action]").first.dispatch_event("click")
    wait_past_version(page, before)
    expect(page.locator('#board [data-board-seat="1"]')).not_to_have_class(re.compile(r"\bfolded\b"))
    page.locator('#board [data-board-seat="1"] .board-toggle').tap()
    expect(page.locator('#board [data-board-seat="1"]')).to_have_class(re.compile(r"\bfolded\b"))


def test_a_phone_sees_the_game_only_once_its_stylesheet_has_arrived(browser: Browser, server: Server) -> None:
    """The game's own stylesheet is loaded with its drawing; a slow one holds the drawing back rather than
    showing a phone the page unstyled (boards unfolded, the action bar below them: a CI failure of
    2026-11-28 measured exactly that layout)."""
    if "caylus" not in game_names():
        pytest.skip("caylus is not installed")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    held: list[Route] = []
    context.route("**/static/css/caylus.css", lambda route: held.append(route))
    page = context.new_page()
    fill_lobby(page, server, "caylus", players=4)
    create_table(page)
    deadline = time.monotonic() + 20
    while not held:
        assert time.monotonic() < deadline, "the table page never asked for the game's stylesheet"
        page.wait_for_timeout(50)
    page.wait_for_timeout(1500)
    assert len(held) == 1, "the page asked for the stylesheet once"
    assert page.locator("#board [data-board-seat]").count() == 0, "nothing is drawn while the stylesheet is on its way"

    held[0].continue_()
    until_action_bar(page, time.monotonic() + 90)
    layout = page.evaluate(LAYOUT, OWN["caylus"])
    assert layout["bar"]["bottom"] <= PHONE["height"], layout
    assert all(board["folded"] and board["bottom"] - board["top"] < 130 for board in layout["others"]), layout
