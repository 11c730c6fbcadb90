"""Steps the browser tests share: creating a table from the lobby, joining one by its invite link,
waiting until a page offers a move (and until the test has the frame of the version drawn), waiting
for the drawn version to move on, and checking that a page was only ever sent its own seat's view."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import Server, views_by_version

#: The address of a table page, which the lobby goes to once a table is created.
TABLE_URL = re.compile(r".*/tables/[0-9a-f]+$")

#: The version of the game the page has drawn last.
DRAWN_VERSION = "Number(document.getElementById('board').dataset.version)"

#: How often (ms) a page is read while waiting for it.
POLL_MS = 20
WHOLE_GAME_SECONDS = 600
"""How long a whole game played by clicking may take. On a quiet machine one takes 1-2 minutes; on a
loaded 2-core CI machine four times that. A page that stops advancing fails sooner (``STALL_SECONDS``)."""
STALL_SECONDS = 90
"""How long a page may go without offering the next turn before the test calls it stuck."""

#: Resolves when ``final`` is drawn (``{over: true}``) or when one reading by the test's ``SHOWN``
#: function (spliced in) offers actions and is not waiting for the server (``{over: false, shown}``).
#: ``SHOWN`` runs on every poll, so a check it throws still fails the test while a bot is moving.
TURN = """({arg, final}) => {
  if (document.querySelector(final)) return {over: true};
  const shown = (SHOWN)(arg);
  return shown.actions.length && !shown.waiting ? {over: false, shown} : null;
}"""


def fill_lobby(page: Page, server: Server, game: str, *, players: int | None = None, name: str = "Ada") -> None:
    """Open the lobby and fill in the new table's game, player count (when given) and own name."""
    page.goto(server.url + "/")
    page.select_option("#game", game)
    if players is not None:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    page.fill("#name", name)


def create_table(page: Page) -> str:
    """Press the lobby's create button and wait for the table page; returns the table's id."""
    page.click("#create-button")
    page.wait_for_url(TABLE_URL)
    return page.url.rsplit("/", 1)[1]


def take_seat(page: Page, url: str, name: str, button: str = "button.join-seat.invited") -> None:
    """Open a table page at ``url`` and take a seat under ``name`` with ``button``; returns once the
    page shows the seat as this browser's. The page is first let finish drawing (its socket online),
    since a click on a seat button that a redraw replaces is lost."""
    page.goto(url)
    expect(page.locator("#connection")).to_have_attribute("data-state", "online", timeout=20_000)
    page.fill("#join-name", name)
    page.click(button)
    expect(page.locator(".seat-chip.me")).to_contain_text(name, timeout=20_000)


def join_by_invite(page: Page, invite: str, name: str) -> None:
    """Follow an invite link and take the seat it offers under ``name``."""
    take_seat(page, invite, name)


#: How long (ms) ``click_action`` waits for the button it saw to take a click.
ACTION_CLICK_MS = 3000


def click_action(page: Page, which: Literal["first", "last"] = "first") -> bool:
    """Click the first (or last) move the page offers now; False if it offers none, or redrew without
    one while the click waited (its own move's answer came, the other seat moved, the game ended):
    a loop playing a game just looks again. A plain click there waited for a button that never came."""
    buttons = page.locator("#actions button.action")
    if page.locator("body.waiting-for-server").count() or not buttons.count():
        return False
    try:
        (buttons.last if which == "last" else buttons.first).click(timeout=ACTION_CLICK_MS)
    except PlaywrightTimeoutError:
        return False
    return True


def first_preferred(actions: Sequence[str], preference: Sequence[str]) -> str:
    """The first action starting with the earliest prefix of ``preference``; else the first action."""
    for prefix in preference:
        for action in actions:
            if action.startswith(prefix):
                return action
    return actions[0]


def drawn_version(page: Page) -> int:
    """The version the page has drawn (0 before it drew any)."""
    return int(page.locator("#board").get_attribute("data-version") or "0")


def wait_past_version(page: Page, version: int) -> None:
    """Wait until the page draws a version after ``version`` (an action was applied, a bot moved)."""
    page.wait_for_function(f"() => {DRAWN_VERSION} > {version}")


class Turn(NamedTuple):
    shown: dict[str, Any]  # one reading of the page by the test's SHOWN function
    frame: dict[str, Any]  # the last state frame the page received for the version it drew


def latest_state(frames: Sequence[dict[str, Any]], version: int) -> dict[str, Any] | None:
    """The last state frame received for ``version``, if its event has reached the test yet."""
    matching = [f for f in frames if f["type"] == "state" and f["version"] == version]
    return matching[-1] if matching else None


def next_turn(page: Page, frames: Sequence[dict[str, Any]], shown: str, arg: Any = None, *,
              final: str, deadline: float, message: str) -> Turn | None:
    """Wait until the page offers actions and is not waiting for the server, and the frame of the drawn
    version has reached the test; returns that reading and frame, or None once ``final`` is drawn.

    ``shown`` is a JavaScript function of ``arg`` reading the page into a dict with at least
    ``version``, ``actions`` and ``waiting``. Past ``deadline`` (``time.monotonic()``), or when no turn
    comes for ``STALL_SECONDS``, the test fails with ``message``."""
    script = TURN.replace("SHOWN", shown)
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, message
        waited = min(remaining, STALL_SECONDS)
        try:
            ready = page.wait_for_function(script, arg={"arg": arg, "final": final}, polling=POLL_MS,
                                           timeout=waited * 1000).json_value()
        except PlaywrightTimeoutError:
            raise AssertionError(f"{message}; the page offered no turn for {waited:.0f} s") from None
        if ready["over"]:
            return None
        frame = latest_state(frames, ready["shown"]["version"])
        if frame is not None:
            return Turn(ready["shown"], frame)
        page.wait_for_timeout(POLL_MS)  # the frame's event has not reached the test yet: read again


def check_own_views(
    frames: Sequence[dict[str, Any]], server: Server, table_id: str, seat: int = 0
) -> list[dict[str, Any]]:
    """Everything a page was sent during a whole game is ``seat``'s own view of that moment (no other
    seat's moves in the log, no history, generator or body), no error, and the last frame is the
    game's end; returns ``seat``'s view at every version."""
    views = views_by_version(server, table_id, seat)
    states = [f for f in frames if f["type"] == "state"]
    assert states and not [f for f in frames if f["type"] == "error"]
    for frame in states:
        assert frame["seat"] == seat
        if frame["view"] is not None:
            assert frame["view"] == views[frame["version"]]
        assert all("action" not in entry for entry in frame["log"] if entry["seat"] != seat)
        assert not {"history", "rng", "body"} & set(frame) and '"rng"' not in json.dumps(frame["view"])
    assert states[-1]["is_over"] and states[-1]["version"] == len(views) - 1
    return views


def check_replay(page: Page, board: str, piece: str, count: int, final: str) -> None:
    """The finished table's replay opens at step 0 with ``count`` of ``piece`` drawn in ``board``, and
    its last step draws ``final`` and offers nothing to click."""
    page.click("#replay-link")
    expect(page.locator("#replay-position")).to_contain_text("step 0 of")
    expect(page.locator(f"{board} {piece}")).to_have_count(count)
    page.click("#replay-last")
    expect(page.locator(final)).to_be_visible()
    expect(page.locator(f"{board} [data-action]")).to_have_count(0)


def go_on_when_asked(page: Page) -> None:
    """After a click: when the page asks first because the move leaves an optional benefit unused
    (js/benefits.js), go on, as a player who meant that move does."""
    if page.locator("#unused-dialog").count():
        page.click("#unused-go-on")
