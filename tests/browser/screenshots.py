"""Take the screenshots in docs/screenshots/: ``python -m tests.browser.screenshots``.

Starts a real server on a temporary database, plays part of a Citadels game against three bots by
clicking, and photographs the lobby, the table (in English, 繁體中文 and 日本語), the final scores,
a replay, and a table's clocks (turn-based, and a seat a bot took when its clock ran out); then what
the bots' moves changed on a Caylus table, the question before a Palais Royal step ends with a benefit
unused, and each game's table at 390×844.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser.conftest import CHROMIUM, ROOT, Server
from tests.browser.helpers import create_table, fill_lobby, go_on_when_asked
from tests.browser.test_citadels_table import choose
from tests.browser.test_table_explains import my_turn, until_action_bar, until_step_three_benefit

OUT = ROOT / "docs" / "screenshots"
#: Each game's table at phone width.
PHONE_SHOTS = {"citadels": "citadels-phone.png", "burgundy": "burgundy-table-phone.png",
               "caylus": "caylus-table-phone.png", "palais_royal": "palais_royal-table-phone.png"}


def click_some(page: Page, count: int) -> None:
    for _ in range(count * 50):
        if count <= 0 or page.locator("#citadels-final").count():
            return
        actions = page.locator("[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
        if actions and not page.locator("body.waiting-for-server").count():
            page.locator(f'[data-action="{actions[choose(actions)]}"]').first.click()
            go_on_when_asked(page)
            count -= 1
        page.wait_for_timeout(40)


def clock_shots(browser: Browser, server: Server) -> None:
    """A turn-based table's clocks, and the reclaim button after a 6-second clock ran out."""
    ada = browser.new_context(viewport={"width": 1400, "height": 800})
    for speed, name in (("24h", "clock-turn-based.png"), ({"bank": 6, "bonus": 1}, "clock-reclaim.png")):
        mode = "turn-based" if speed == "24h" else "real-time"
        created = ada.request.post(f"{server.url}/api/tables", data={
            "game": "toy", "players": 2, "seat": 0, "name": "Ada", "mode": mode, "speed": speed,
            "timeout_level": "easy"}).json()
        table_id = created["table"]["id"]
        browser.new_context().request.post(f"{server.url}/api/tables/{table_id}/join",
                                           data={"seat": 1, "name": "Bob"})
        page = ada.new_page()
        page.goto(f"{server.url}/tables/{table_id}")
        page.wait_for_selector(".seat-clock.running")
        if mode == "real-time":
            page.wait_for_selector("#reclaim", timeout=20_000)
        page.wait_for_timeout(500)
        page.screenshot(path=str(OUT / name))


def table_explains_shots(browser: Browser, server: Server) -> None:
    """What the bots' moves changed (Caylus), the question before an unused benefit (Palais Royal), and
    each game's table at 390×844 with the other boards folded."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    fill_lobby(page, server, "caylus", players=3)
    create_table(page)
    for _ in range(2):  # two placements; the bots' placements come after each
        placing = next(a for a in my_turn(page) if a.startswith("place:"))
        page.locator(f'#board [data-action="{placing}"]').first.click()
        page.wait_for_timeout(300)
    my_turn(page)
    page.wait_for_timeout(1300)  # the pulse is over, the outline stays
    page.screenshot(path=str(OUT / "caylus-changed.png"))

    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    fill_lobby(page, server, "palais_royal", players=2)
    create_table(page)
    until_step_three_benefit(page, time.monotonic() + 120)
    page.locator('#board [data-action="end"]').click()
    page.wait_for_selector("#unused-dialog")
    page.screenshot(path=str(OUT / "palais_royal-unused.png"))

    for game, name in PHONE_SHOTS.items():
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
        fill_lobby(page, server, game, players=4)
        create_table(page)
        until_action_bar(page, time.monotonic() + 120)
        page.wait_for_timeout(1300)
        page.screenshot(path=str(OUT / name))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
                page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                # a finished toy game and a finished Citadels game fill the lobby's lists
                page.goto(server.url + "/")
                page.fill("#name", "Ada")
                page.click("#create-button")
                page.wait_for_url("**/tables/*")
                click_some(page, 400)
                page.screenshot(path=str(OUT / "citadels-final.png"))
                page.click("#replay-link")
                page.wait_for_selector(".citadels")
                page.select_option("#replay-seat", "2")
                for _ in range(25):
                    page.click("#replay-next")
                page.wait_for_timeout(300)
                page.screenshot(path=str(OUT / "citadels-replay.png"))

                page.goto(server.url + "/")
                page.fill("#name", "Ada")
                page.select_option("#seat-kind-3", "human")
                page.click("#create-button")
                page.wait_for_url("**/tables/*")
                page.goto(server.url + "/")
                page.fill("#name", "Ada")
                page.click("#create-button")
                page.wait_for_url("**/tables/*")
                click_some(page, 14)
                page.wait_for_timeout(300)
                page.screenshot(path=str(OUT / "citadels-table.png"))
                for code, name in (("zh-Hant", "zh-hant"), ("ja", "ja")):
                    page.select_option("#language", code)
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(OUT / f"citadels-table-{name}.png"))
                page.select_option("#language", "en")
                page.goto(server.url + "/")
                page.wait_for_selector(".table-row")
                page.wait_for_timeout(300)
                page.screenshot(path=str(OUT / "lobby.png"))
                clock_shots(browser, server)
                table_explains_shots(browser, server)
                browser.close()
        finally:
            server.stop()
    print(f"screenshots written to {OUT}: {', '.join(sorted(p.name for p in OUT.glob('*.png')))}")


if __name__ == "__main__":
    if not CHROMIUM or not shutil.which(CHROMIUM):
        raise SystemExit("chromium is needed (apt-get install chromium)")
    main()
