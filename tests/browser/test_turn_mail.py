"""A turn e-mail end to end, in real Chromium against a real server process: Ada signs up, asks on
her My games page to be mailed when it is her turn at a turn-based table, leaves the table's page
closed; Bob joins in another browser and the game starts on her turn. The mail reaches a local SMTP
server (aiosmtpd), and the link it carries opens her table on her turn."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Server
from tests.smtp import SmtpServer


@pytest.fixture
def mailing_server(tmp_path: Path, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("MEEPLE_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("MEEPLE_SMTP_PORT", str(smtp.port))
    monkeypatch.setenv("MEEPLE_SMTP_FROM", "meeple@example.org")
    running = Server(tmp_path)
    running.start()
    yield running
    running.stop()


def test_a_turn_mail_set_up_on_my_games_reaches_the_smtp_server_and_its_link_opens_the_table(
        browser: Browser, mailing_server: Server, smtp: SmtpServer) -> None:
    url = mailing_server.url
    ada = browser.new_context().new_page()
    ada.goto(f"{url}/")
    signed_up = ada.request.post(f"{url}/api/accounts", data={"name": "Ada", "password": "a long passphrase"})
    assert signed_up.status == 200, signed_up.text()

    ada.goto(f"{url}/my")
    expect(ada.locator("#alert-email")).to_be_visible()
    expect(ada.locator("#mail-not-configured")).to_have_count(0)  # the server has an SMTP server
    ada.fill("#alert-email", "ada@example.org")
    ada.check("#alert-email-turns")
    ada.click("#alert-save")
    expect(ada.locator("#mail-saved")).not_to_be_empty()

    created = ada.request.post(f"{url}/api/tables", data={
        "game": "toy", "players": 2, "seat": 0, "mode": "turn-based", "speed": "24h",
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert created.status == 201, created.text()
    table_id = created.json()["table"]["id"]
    assert not smtp.inbox.mails  # nobody to play against yet: no turn, no mail

    bob = browser.new_context().new_page()
    bob.goto(f"{url}/tables/{table_id}")
    joined = bob.request.post(f"{url}/api/tables/{table_id}/join", data={"seat": 1, "name": "Bob"})
    assert joined.status == 200, joined.text()

    deadline = time.monotonic() + 30
    while not smtp.inbox.mails and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(smtp.inbox.mails) == 1, "no turn mail reached the SMTP server"
    assert smtp.inbox.recipients == [["ada@example.org"]]
    mail = smtp.inbox.mails[0]
    assert mail["From"] == "meeple@example.org" and "your turn" in mail["Subject"]
    link = re.search(r"https?://\S+/tables/" + re.escape(table_id), mail.get_content())
    assert link is not None, mail.get_content()

    ada.goto(link.group(0).replace("localhost", "127.0.0.1"))
    expect(ada).to_have_title(re.compile(r"^● "))  # her turn, said by the tab's title
    expect(ada.locator("#actions button.action").first).to_be_visible()
