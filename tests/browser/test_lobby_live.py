"""The live lobby in real Chromium: what one browser does (a table created, a lobby line said, a move
that makes it your turn) shows in another browser's lobby and "My games" within seconds, with no
reload and without the page fetching the lists again."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, Request, expect

from tests.browser.conftest import Server
from tests.browser.helpers import create_table, fill_lobby

LIVE_MS = 2500
"""How soon a change must show in the other browser (~2 s, and a little for a busy machine)."""
LISTS = ("/api/tables", "/api/lobby/chat", "/api/my/tables")


def fetched_lists(page: Page) -> list[str]:
    """The GETs of the lobby's lists this page makes from now on (it should make none: they are pushed)."""
    fetched: list[str] = []

    def note(request: Request) -> None:
        if request.method == "GET" and any(request.url.split("?")[0].endswith(path) for path in LISTS):
            fetched.append(request.url)

    page.on("request", note)
    return fetched


def test_a_table_and_a_lobby_line_show_in_another_lobby_at_once(browser: Browser, server: Server) -> None:
    bob = browser.new_context().new_page()
    fetched = fetched_lists(bob)
    bob.goto(server.url + "/")
    expect(bob.locator("#connection")).to_have_attribute("data-state", "online", timeout=20_000)
    expect(bob.locator("#connection")).to_have_text("live")
    expect(bob.locator("#tables-open")).to_have_text("None right now.")

    ada = browser.new_context().new_page()
    fill_lobby(ada, server, "toy", players=2)
    ada.select_option("#seat-kind-1", "human")
    ada.fill("#lobby-chat .chat-input", "a quick game, anyone?")
    ada.press("#lobby-chat .chat-input", "Enter")
    expect(bob.locator("#lobby-chat .chat-line").last).to_contain_text("a quick game, anyone?", timeout=LIVE_MS)
    expect(bob.locator("#lobby-chat .chat-line .chat-who").last).to_have_text("Ada")

    table_id = create_table(ada)
    row = bob.locator(f"#tables-open .table-row[data-table='{table_id}']")
    expect(row).to_be_visible(timeout=LIVE_MS)
    expect(row.locator(".free-seats")).to_have_text("1 free")

    # Another table: its row is added, the rows already shown are left as they are (not drawn again).
    row.evaluate("element => { element.dataset.kept = 'yes'; }")
    other = httpx.post(f"{server.url}/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Cy"},
                       timeout=10).json()["table"]["id"]
    expect(bob.locator(f"#tables-open .table-row[data-table='{other}']")).to_be_visible(timeout=LIVE_MS)
    expect(row).to_have_attribute("data-kept", "yes")

    # Bob's language changes: the list is drawn again from what was pushed, in his language.
    bob.select_option("#language", "ja")
    expect(bob.locator("#connection")).to_have_text("接続済み")
    expect(bob.locator(f"#tables-open .table-row[data-table='{table_id}'] .status")).to_have_text("参加者募集中")
    assert fetched == []


def test_my_games_shows_your_turn_as_soon_as_it_is_yours(browser: Browser, server: Server) -> None:
    created = httpx.post(f"{server.url}/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"},
                         timeout=10).json()
    table_id, ada_token = created["table"]["id"], created["token"]
    bob = browser.new_context().new_page()
    assert bob.request.post(f"{server.url}/api/tables/{table_id}/join", data={"seat": 1, "name": "Bob"}).status == 200
    fetched = fetched_lists(bob)
    bob.goto(server.url + "/my")
    row = bob.locator(f".my-row[data-table='{table_id}']")
    expect(row).to_contain_text("Waiting for Ada", timeout=20_000)

    state = httpx.get(f"{server.url}/api/tables/{table_id}", headers={"X-Meeple-Token": ada_token}, timeout=10).json()
    moved = httpx.post(f"{server.url}/api/tables/{table_id}/actions", headers={"X-Meeple-Token": ada_token},
                       json={"action": state["legal"][0], "version": state["version"]}, timeout=10)
    assert moved.status_code == 200, moved.text
    expect(row).to_contain_text("Your turn", timeout=LIVE_MS)
    expect(row).to_have_attribute("data-my-turn", "yes")
    expect(bob).to_have_title("● Your turn (1) — My games · meeple")
    assert fetched == []


def test_the_lobby_reconnects_after_the_server_restarts_and_catches_up(browser: Browser, server: Server) -> None:
    bob = browser.new_context().new_page()
    bob.goto(server.url + "/")
    connection = bob.locator("#connection")
    expect(connection).to_have_attribute("data-state", "online", timeout=20_000)
    server.stop()
    expect(connection).to_have_text("reconnecting…", timeout=10_000)
    server.start()
    expect(connection).to_have_attribute("data-state", "online", timeout=30_000)
    table_id = httpx.post(f"{server.url}/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Ada"},
                          timeout=10).json()["table"]["id"]
    expect(bob.locator(f"#tables-open .table-row[data-table='{table_id}']")).to_be_visible(timeout=LIVE_MS)


#: No lobby socket (it closes as soon as it is made, as behind a proxy that refuses upgrades), and the list
#: of Citadels tables answered 0.8 s late: the page falls back to fetching its lists.
NO_SOCKET_SLOW_CITADELS = """
window.WebSocket = class {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  readyState = 3;
  constructor() { setTimeout(() => this.onclose?.({ code: 1006 }), 0); }
  send() { throw new Error("closed"); }
  close() {}
};
const fetchNow = window.fetch.bind(window);
window.fetch = async (path, options) => {
  if (String(path).includes("/api/tables?game=citadels")) await new Promise((done) => setTimeout(done, 800));
  return fetchNow(path, options);
};
"""


def test_two_quick_filter_changes_without_a_socket_show_the_second_filters_tables(
        browser: Browser, server: Server) -> None:
    """Without the socket each filter change fetches the list; the answer for the first filter comes last
    and must not replace the second's list."""
    toy = httpx.post(f"{server.url}/api/tables", json={"game": "toy", "players": 2, "seat": 0, "name": "Cy"},
                     timeout=10).json()["table"]["id"]
    page = browser.new_context().new_page()
    page.add_init_script(NO_SOCKET_SLOW_CITADELS)
    page.goto(server.url + "/")
    row = page.locator(f"#tables-open .table-row[data-table='{toy}']")
    expect(row).to_be_visible()
    page.select_option("#filter-game", "citadels")
    page.select_option("#filter-game", "toy")
    expect(page.locator("#filter-game")).to_have_value("toy")
    page.wait_for_timeout(1500)  # the Citadels list (none) has come by now, and changed nothing
    expect(row).to_be_visible()
