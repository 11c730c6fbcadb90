"""Turn e-mails: one mail, through a local SMTP server (aiosmtpd) started here, when it becomes the
turn of a player who asked for it at a turn-based table and has no socket open there; none while
connected or opted out; and an SMTP server that is down never costs a move."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from meeple.server import mail
from meeple.server.alerts import TurnAlerts, is_turn_based
from meeple.server.hub import RedisHub, Subscriber, Update
from meeple.server.mail import SmtpSettings
from tests.server.conftest import create_table, guest
from tests.server.test_api import live_table, wait_until
from tests.services import redis_url
from tests.smtp import Inbox, SmtpServer, free_port

TURN_BASED = {"mode": "turn-based", "speed": "24h"}


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail, "RETRY_DELAYS", (0.3, 0.3, 0.3))
    monkeypatch.setattr(mail, "SMTP_TIMEOUT", 10.0)  # 2 s timed out after the data was accepted on a loaded machine


def alerts_of(client: TestClient) -> TurnAlerts:
    alerts: TurnAlerts = client.app.state.alerts  # type: ignore[attr-defined]
    return alerts


def signed_up(client: TestClient, name: str, email: str | None, opted_in: bool, language: str = "en") -> None:
    assert client.post("/api/accounts", json={"name": name, "password": "a secret"}).status_code == 200
    response = client.post("/api/me/alerts", json={"email": email, "email_turns": opted_in, "language": language})
    assert response.status_code == 200, response.text


def turn_based_table(client: TestClient) -> tuple[str, TestClient]:
    """Ada (signed in, seat 0) opens a two-seat turn-based toy table (a day a move), Bob joins: the
    game starts with Ada to move, and she has no socket open."""
    table_id = create_table(client, **TURN_BASED)["table"]["id"]
    assert is_turn_based(live_table(client, table_id))
    bob = guest(client)
    assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
    return table_id, bob


def play(client: TestClient, table_id: str) -> None:
    """One legal move over HTTP (no socket)."""
    state = client.get(f"/api/tables/{table_id}").json()
    response = client.post(f"/api/tables/{table_id}/actions",
                           json={"action": state["legal"][0], "version": state["version"]})
    assert response.status_code == 200, response.text


def quiet_for(seconds: float, inbox: Inbox, count: int) -> None:
    """Nothing more arrives for ``seconds``: the mail that must not be sent is not."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert len(inbox.mails) == count
        time.sleep(0.05)


def with_smtp(make_client: Callable[..., TestClient], port: int) -> TestClient:
    return make_client(smtp=SmtpSettings(host="127.0.0.1", port=port, sender="meeple@example.org"))


def test_one_mail_in_the_players_language_reaches_the_smtp_server_until_she_moves_or_visits(
        make_client: Callable[..., TestClient], smtp: SmtpServer) -> None:
    client = with_smtp(make_client, smtp.port)
    signed_up(client, "Ada", "ada@example.org", True, language="ja")
    table_id, bob = turn_based_table(client)
    wait_until(lambda: len(smtp.inbox.mails) == 1)
    sent = smtp.inbox.mails[0]
    assert smtp.inbox.recipients == [["ada@example.org"]]
    assert sent["From"] == "meeple@example.org" and sent["To"] == "ada@example.org"
    assert "あなたの手番です" in sent["Subject"]
    body = sent.get_content()
    assert f"http://testserver/tables/{table_id}" in body and "http://testserver/my" in body
    assert "Ada さん" in body

    # The turn comes back to her (as a timeout might hand it) before she moved or looked: no new mail.
    table = live_table(client, table_id)
    client.portal.call(lambda: alerts_of(client).turn_changed(table, 1, 1, 0))  # type: ignore[attr-defined]
    quiet_for(0.5, smtp.inbox, 1)
    # She opens the table: her next turn is mailed again.
    assert client.get(f"/api/tables/{table_id}").status_code == 200
    wait_until(lambda: not client.app.state.store.turn_mailed(table_id, 0))  # type: ignore[attr-defined]
    client.portal.call(lambda: alerts_of(client).turn_changed(table, 1, 1, 0))  # type: ignore[attr-defined]
    wait_until(lambda: len(smtp.inbox.mails) == 2)

    # She moves (over HTTP, no socket), Bob moves: her turn again, a third mail.
    play(client, table_id)
    play(bob, table_id)
    wait_until(lambda: len(smtp.inbox.mails) == 3)
    assert bob.get("/api/my/tables").json()["tables"][0]["turn_based"] is True


def test_no_mail_while_her_socket_is_open_nor_for_bobs_turns(
        make_client: Callable[..., TestClient], smtp: SmtpServer) -> None:
    client = with_smtp(make_client, smtp.port)
    signed_up(client, "Ada", "ada@example.org", True)
    table_id = create_table(client, **TURN_BASED)["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket_:
        assert socket_.receive_json()["type"] == "state"
        bob = guest(client)
        assert bob.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200
        play(client, table_id)
        play(bob, table_id)  # her turn again, but she is at the table
        wait_until(lambda: live_table(client, table_id).version == 2)
        quiet_for(0.6, smtp.inbox, 0)
    assert not client.app.state.store.turn_mailed(table_id, 0)  # type: ignore[attr-defined]


def test_no_mail_when_opted_out_without_an_address_or_at_a_real_time_table(
        make_client: Callable[..., TestClient], smtp: SmtpServer) -> None:
    client = with_smtp(make_client, smtp.port)
    signed_up(client, "Ada", "ada@example.org", False)
    turn_based_table(client)  # her turn at once, but she did not opt in
    quiet_for(0.5, smtp.inbox, 0)
    # Opting in afterwards counts from her next turn; a real-time table never mails.
    assert client.post("/api/me/alerts", json={"email": "ada@example.org", "email_turns": True}).status_code == 200
    real_time = create_table(client)["table"]["id"]
    assert not is_turn_based(live_table(client, real_time))
    assert guest(client).post(f"/api/tables/{real_time}/join", json={"seat": 1, "name": "Cy"}).status_code == 200
    quiet_for(0.5, smtp.inbox, 0)
    # A guest (no account) at a turn-based table has no address to mail.
    carol = guest(client)
    other = create_table(carol, name="Carol", **TURN_BASED)["table"]["id"]
    assert guest(client).post(f"/api/tables/{other}/join", json={"seat": 1, "name": "Dan"}).status_code == 200
    quiet_for(0.5, smtp.inbox, 0)


def test_bad_alert_settings_are_refused_and_change_nothing(client: TestClient) -> None:
    assert client.get("/api/me/alerts").status_code == 401
    assert client.post("/api/me/alerts", json={"email": "a@b.org", "email_turns": True}).status_code == 401
    signed_up(client, "Ada", "ada@example.org", True, language="zh-Hant")
    for body, code in [({"email": "not an address", "email_turns": True}, "bad_email"),
                       ({"email": "a@b.org\nBcc: x@y.org", "email_turns": True}, "bad_email"),
                       ({"email": None, "email_turns": True}, "bad_email"),
                       ({"email": "a@b.org", "email_turns": "yes"}, "bad_alerts"),
                       ({"email": 5}, "bad_email"),
                       ({"email": "a@b.org", "email_turns": True, "language": "xx"}, "unknown_language")]:
        response = client.post("/api/me/alerts", json=body)
        assert (response.status_code, response.json()["code"]) == (400, code), body
    settings = client.get("/api/me/alerts").json()
    assert (settings["email"], settings["email_turns"], settings["language"]) == ("ada@example.org", True, "zh-Hant")
    assert settings["mail_configured"] is False


def test_an_smtp_server_that_is_down_costs_no_move_and_the_mail_is_retried(
        make_client: Callable[..., TestClient], fast_retries: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail, "RETRY_DELAYS", (0.5,) * 40)  # time enough to bring the server back
    port = free_port()  # nothing listens there yet
    client = with_smtp(make_client, port)
    signed_up(client, "Ada", "ada@example.org", True)
    started = time.monotonic()
    table_id, bob = turn_based_table(client)
    play(client, table_id)
    play(bob, table_id)
    assert time.monotonic() - started < 5
    mailer = alerts_of(client).mailer
    assert mailer is not None
    wait_until(lambda: mailer.attempts >= 1)
    late = SmtpServer(port)  # the SMTP server comes back while the mail is being retried
    late.start()
    try:
        wait_until(lambda: mailer.sent == 1)
        assert len(late.inbox.mails) == 1 and mailer.attempts >= 2 and mailer.failed == 0
    finally:
        late.stop()
    assert live_table(client, table_id).version == 2


def test_a_mail_that_keeps_failing_is_given_up_and_logged(
        make_client: Callable[..., TestClient], fast_retries: None, caplog: pytest.LogCaptureFixture) -> None:
    client = with_smtp(make_client, free_port())
    signed_up(client, "Ada", "ada@example.org", True)
    table_id, _bob = turn_based_table(client)
    mailer = alerts_of(client).mailer
    assert mailer is not None
    wait_until(lambda: mailer.failed == 1)
    assert mailer.attempts == 4 and mailer.sent == 0
    assert "giving up" in caplog.text
    assert live_table(client, table_id).status == "running"


def test_smtp_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEEPLE_SMTP_HOST", raising=False)
    assert SmtpSettings.from_env() is None
    monkeypatch.setenv("MEEPLE_SMTP_HOST", "mail.example.org")
    monkeypatch.setenv("MEEPLE_SMTP_STARTTLS", "1")
    monkeypatch.setenv("MEEPLE_SMTP_USER", "meeple")
    monkeypatch.setenv("MEEPLE_SMTP_PASSWORD", "secret")
    monkeypatch.setenv("MEEPLE_SMTP_FROM", "games@example.org")
    settings = SmtpSettings.from_env()
    assert settings == SmtpSettings("mail.example.org", 587, "meeple", "secret", "games@example.org", True)
    assert "secret" not in settings.describe()
    assert SmtpSettings.from_env(port=2525, starttls=False) == SmtpSettings(
        "mail.example.org", 2525, "meeple", "secret", "games@example.org", False)
    monkeypatch.setenv("MEEPLE_SMTP_PORT", "many")
    with pytest.raises(ValueError, match="MEEPLE_SMTP_PORT"):
        SmtpSettings.from_env()
    with pytest.raises(ValueError, match="not an e-mail address"):
        SmtpSettings("mail.example.org", sender="nobody")




@pytest.mark.xdist_group("redis")  # one Redis: see pyproject.toml
def test_a_process_that_does_not_follow_a_table_still_knows_who_is_at_it() -> None:
    """With several processes, the move that makes it Ada's turn may be made in one (or a bot worker)
    that holds none of the table's sockets: ``online_anywhere`` reads the table's presence in Redis."""
    url = redis_url()
    if url is None:
        pytest.skip("no test Redis answers (MEEPLE_TEST_REDIS_URL)")

    async def scenario() -> None:
        mover, host = RedisHub(url), RedisHub(url)  # two processes: Ada's socket is on ``host``
        await mover.start()
        await host.start()
        table_id = f"alerts-{time.monotonic_ns()}"

        async def ignore(_text: str) -> None:
            return None

        try:
            assert await mover.online_anywhere(table_id) == set()
            ada = Subscriber(0, ignore)
            await host.subscribe(table_id, ada)
            await host.publish(Update(table_id, 0, 0, {}))  # tells Redis who is online there
            for _ in range(500):  # up to 10 s on a busy machine
                if await mover.online_anywhere(table_id) == {0}:
                    break
                await asyncio.sleep(0.02)
            assert await mover.online_anywhere(table_id) == {0}
            assert mover.online(table_id) == set()  # what it heard itself: nothing, it does not follow the table
            await host.unsubscribe(table_id, ada)
            await host.publish(Update(table_id, 0, 0, {}))
            for _ in range(500):  # up to 10 s on a busy machine
                if await mover.online_anywhere(table_id) == set():
                    break
                await asyncio.sleep(0.02)
            assert await mover.online_anywhere(table_id) == set()
        finally:
            await host.stop()
            await mover.stop()

    asyncio.run(scenario())
