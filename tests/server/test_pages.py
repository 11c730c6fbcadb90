"""The HTML pages as the server sends them: one shared frame (meeple/web/pages/_base.html), each page's own
stylesheets, body and script."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.server.conftest import create_table

FRAME = ('<link rel="stylesheet" href="/static/css/meeple.css">', '<a class="brand" href="/">meeple</a>',
         '<span id="language-slot"></span>', '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">')


def test_every_page_is_served_in_the_shared_frame_with_its_own_script(client: TestClient) -> None:
    table = create_table(client)["table"]["id"]
    pages = {"/": "lobby", f"/tables/{table}": "table", f"/tables/{table}/replay": "replay", "/my": "mygames",
             "/leaderboard": "leaderboard", "/players/Ada": "player"}
    for path, script in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html")
        html = response.text
        assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
        for part in FRAME:
            assert html.count(part) == 1, (path, part)
        assert re.findall(r'<script type="module" src="/static/js/(\w+)\.js">', html) == [script], path
        assert "{%" not in html and "{{" not in html, path
    # The two ratings pages share a template and differ in their heading's key.
    assert 'data-i18n="ratings.player"' in client.get("/players/Ada").text
    assert 'data-i18n="ratings.leaderboard"></span>' in client.get("/leaderboard").text
    # The help stylesheet keeps the id help.js looks for (to add it only once).
    assert '<link rel="stylesheet" href="/static/css/help.css" id="help-css">' in client.get(f"/tables/{table}").text


def test_a_page_of_an_unknown_table_is_refused(client: TestClient) -> None:
    assert client.get("/tables/nope").status_code == 404
    assert client.get("/tables/nope/replay").status_code == 404
