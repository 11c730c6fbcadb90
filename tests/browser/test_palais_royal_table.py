"""A person plays a whole game of Palais Royal against a heuristic bot by clicking on the garden, the
palace rooms (Stairway moves click-click: a room, then where to), the cards and the step bar; reloads
mid-game; and the browser never receives (nor draws) anything but seat 0's own view: no frame differs
from the server's view(0), the bot's hand and its Back door draw never appear in the DOM. The test also
photographs the table at desktop and phone width into docs/screenshots/ (palais_royal-table.png,
palais_royal-table-phone.png, palais_royal-final.png)."""

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
    go_on_when_asked,
    next_turn,
    wait_past_version,
)

pytestmark = pytest.mark.skipif("palais_royal" not in game_names(), reason="the Palais Royal engine is not installed")

SHOTS = screenshot_dir()  # docs/screenshots/ only with MEEPLE_SCREENSHOTS=1
SEAL_ROOMS = ("MIN", "OFF", "KIN", "POM")
NO_SIDE_SCROLL = "() => document.scrollingElement.scrollWidth <= window.innerWidth"


def choose(actions: list[str], view: dict[str, Any], seat: int) -> str:
    """The test player's move, from what its page shows: balanced setup, every income taken, the best
    noble recruited, a few Stairway moves towards the Mint, Office and seal rooms, then `end`."""
    rooms = view["rooms"]

    def first(prefix: str) -> str | None:
        return next((a for a in actions if a == prefix or a.startswith(prefix)), None)

    if any(a.startswith("place:") for a in actions):
        if rooms["BAC"][seat] == 0 and "place:BAC" in actions:
            return "place:BAC"
        for code in sorted(SEAL_ROOMS, key=lambda r: rooms[r][seat]):
            if f"place:{code}" in actions:
                return f"place:{code}"
        return actions[0]
    if any(a.startswith("edge:") for a in actions):
        return "edge:pool" if "edge:pool" in actions else actions[0]
    recruits = [a for a in actions if a.startswith("recruit:")]
    if recruits:
        garden = {g["square"]: g for g in view["garden"]}
        return max(recruits, key=lambda a: view["noble_data"][garden[a[8:]]["noble"]]["vp"])
    for prefix in ("play:FAVOUR", "gate", "mint", "king", "pomp", "draw", "keep:"):
        found = first(prefix)
        if found:
            return found
    move = stairway_move(actions, view, seat)
    if move:
        return move
    return "end" if "end" in actions else actions[0]


def stairway_move(actions: list[str], view: dict[str, Any], seat: int) -> str | None:
    """A servant from a room with some to spare, one step along a shortest path towards a room that
    wants more (the Mint, Office, King, Pompadour up to 3, the Back door up to 1)."""
    rooms = view["rooms"]
    spare = {"GAT": 0, "CAR": 0, "BAC": 1, "PAR": 2, "STA": 2, "MIN": 3}
    wanted = {**{code: 3 for code in SEAL_ROOMS}, "BAC": 1}
    targets = [code for code, most in wanted.items() if rooms[code][seat] < most]
    distance = {code: 0 for code in targets}
    frontier = list(targets)
    while frontier:  # breadth-first distances to the nearest room that wants a servant
        code = frontier.pop(0)
        for other in view["adjacent"][code]:
            if other not in distance:
                distance[other] = distance[code] + 1
                frontier.append(other)
    best: tuple[int, str] | None = None
    for action in actions:
        if not action.startswith("move:"):
            continue
        source, target = action[5:8], action[9:]
        if source in targets or source not in spare or rooms[source][seat] <= spare[source]:
            continue
        if target in distance and distance[target] < distance.get(source, 99):
            key = (distance[target], action)
            best = key if best is None or key < best else best
    return best[1] if best else None


#: One reading of the page: the version drawn, every clickable action (moves as the rooms they start
#: from carry them), the hand on show (only seat 0's), the palace and the garden as drawn.
SHOWN = """(seat) => {
  const hands = [...document.querySelectorAll('.pr-hand')];
  if (hands.length > 1 || (hands.length && hands[0].dataset.seat !== String(seat))) {
    throw new Error('another seat hand is drawn');
  }
  if (document.querySelector('.pr-seat:not(.me) .pcard')) throw new Error('a card is drawn in another seat');
  return {
    version: Number(document.getElementById('board').dataset.version),
    actions: [...document.querySelectorAll('[data-action]')].map((e) => e.dataset.action),
    moves: [...document.querySelectorAll('.room[data-moves]')].flatMap((e) => e.dataset.moves.split(' ')),
    hand: hands.length ? Object.fromEntries([...hands[0].querySelectorAll('.pcard')].map((c) =>
      [c.dataset.card, Number((c.querySelector('.ccount')?.textContent || 'x1').slice(1))])) : null,
    drawn: [...document.querySelectorAll('#drawn .pcard')].map((c) => c.dataset.card),
    rooms: Object.fromEntries([...document.querySelectorAll('.room')].map((r) => [r.dataset.room,
      Object.fromEntries([...r.querySelectorAll('.count')].map((c) => [c.dataset.seat, Number(c.dataset.n)]))])),
    garden: Object.fromEntries([...document.querySelectorAll('.square')].map((s) => [s.dataset.square,
      [s.querySelector('.noble')?.dataset.noble || null, s.querySelector('.cost-now')?.textContent ?? null,
       s.querySelector('.garden-servant')?.dataset.seat ?? null]])),
    gold: [...document.querySelectorAll('.pr-seat')].map((p) =>
      [Number(p.dataset.seat), Number(p.querySelector('[data-stat=gold] b').textContent)]),
    waiting: document.body.classList.contains('waiting-for-server'),
  };
}"""


def shoot(page: Page, name: str, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))
    assert page.evaluate(NO_SIDE_SCROLL), f"{name}: the page scrolls sideways"
    page.set_viewport_size({"width": 1400, "height": 1000})


def check_drawing(shown: dict[str, Any], view: dict[str, Any]) -> None:
    """What the page draws is the view it was sent: rooms, garden (nobles, costs now, edge servants),
    gold, this seat's hand and draw."""
    for code, counts in view["rooms"].items():
        assert shown["rooms"][code] == {str(s): n for s, n in enumerate(counts) if n}, code
    for square in view["garden"]:
        cost = square.get("cost")
        servant = square["servant"]
        assert shown["garden"][square["square"]] == [square["noble"], None if cost is None else str(cost),
                                                     None if servant is None else str(servant)], square
    assert dict(shown["gold"]) == dict(enumerate(view["gold"]))
    assert shown["hand"] == view["hand"]
    pending = view["pending"] or {}
    assert shown["drawn"] == (pending.get("cards") or [])


def test_a_whole_palais_royal_game_against_a_bot_by_clicking(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    frames = record_frames(page)
    fill_lobby(page, server, "palais_royal", players=2)
    expect(page.locator("#seat-kind-1")).to_have_value(re.compile(r"^bot:"))
    page.select_option("#seat-kind-1", "bot:medium")
    expect(page.locator("#seat-kind-2")).to_have_count(0)
    table_id = create_table(page)
    expect(page.locator(".palais-royal")).to_be_visible()
    expect(page.locator(".square")).to_have_count(36)
    expect(page.locator(".room")).to_have_count(9)

    clicks = 0
    reloaded = False
    shot = False
    dragged = False
    kinds: set[str] = set()
    deadline = time.monotonic() + WHOLE_GAME_SECONDS
    while (turn := next_turn(page, frames, SHOWN, 0, final="#palais-royal-final", deadline=deadline,
                             message=f"the game did not finish ({clicks} clicks)")) is not None:
        shown, latest = turn
        actions, version = shown["actions"], shown["version"]
        view = latest["view"]
        assert sorted(actions + shown["moves"]) == sorted(latest["legal"]), "every legal action is clickable once"
        check_drawing(shown, view)
        kinds.add(latest["legal"][0].split(":")[0])
        choice = choose(latest["legal"], view, 0)
        if clicks >= 25 and not (shot and dragged) and not choice.startswith("move:"):
            # make sure a Stairway move is photographed half done and one is dragged
            choice = next((a for a in latest["legal"] if a.startswith("move:")), choice)
        kinds.add(choice.split(":")[0])
        if choice.startswith("move:") and not dragged and clicks >= 40:
            # one Stairway move by dragging a servant onto the destination room
            page.drag_and_drop(f'.room[data-room="{choice[5:8]}"] .drag-servant', f'.room[data-room="{choice[9:]}"]')
            wait_past_version(page, version)
            dragged = True
            clicks += 1
            continue
        if choice.startswith("move:"):
            source = choice[5:8]
            page.locator(f'.room[data-room="{source}"]').click()
            expect(page.locator(f'.room[data-room="{source}"]')).to_have_class(re.compile(r"\bselected\b"))
            if not shot and clicks >= 25:
                # a Stairway move half done: the picked-up room and its destinations are highlighted
                shoot(page, "palais_royal-table.png", 1400, 1000)
                shoot(page, "palais_royal-table-phone.png", 390, 844)
                shot = True
        page.locator(f'[data-action="{choice}"]').click()
        go_on_when_asked(page)
        clicks += 1
        if clicks == 60 and not reloaded:
            reload_and_check(page, server, table_id, ".palais-royal")
            reloaded = True

    expect(page.locator("#final-scores")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("Game over")
    assert reloaded and shot and dragged and clicks > 60, (reloaded, shot, dragged, clicks, kinds)
    assert {"place", "gate", "move", "mint", "recruit", "draw", "keep", "end"} <= kinds, kinds
    page.locator("#palais-royal-final").scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "palais_royal-final.png"))

    # Everything the page was ever sent is seat 0's own view of that moment, and nothing else: no card
    # drawn by the bot (its Back door draw) is ever in a frame.
    check_own_views(frames, server, table_id, 0)
    for frame in frames:
        if frame["type"] == "state" and frame["view"] is not None:
            assert "cards" not in (frame["view"]["pending"] or {}) or frame["view"]["pending"]["seat"] == 0
    # the bot's cards were really secret: the spectator's views hold no hand
    assert all(v["hand"] is None for v in views_by_version(server, table_id, None))

    check_replay(page, ".palais-royal", ".room", 9, "#palais-royal-final")
