"""Outgoing e-mail through a configured SMTP server, off the event loop.

A mail is handed to ``Mailer.send_later`` and forgotten by the caller: it is sent by a task of its
own in a worker thread (``smtplib`` blocks), retried a few times when the SMTP server is down or
refuses it, and only logged when it finally fails. So a move that causes a mail is never slowed,
blocked or lost by the mail server. Nothing is queued on disk: a mail still being retried when the
process stops is dropped (and logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import smtplib
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage

log = logging.getLogger("meeple.server.mail")

RETRY_DELAYS = (2.0, 10.0, 60.0)
"""Seconds to wait before each new try of a mail that failed; after the last, it is given up."""
MAX_SENDING = 4
"""Mails sent at once at most (each holds a worker thread while it talks to the SMTP server)."""
SMTP_TIMEOUT = 20.0


@dataclass(frozen=True)
class SmtpSettings:
    """Where mail goes: ``host`` and ``port``, an optional login (``user``, ``password``), the
    ``sender`` address (the From header) and whether to upgrade the connection with STARTTLS."""

    host: str
    port: int = 25
    user: str | None = None
    password: str | None = None
    sender: str = "meeple@localhost"
    starttls: bool = False

    def __post_init__(self) -> None:
        if not self.host.strip():
            raise ValueError("the SMTP host is empty")
        if not 0 < self.port < 65536:
            raise ValueError(f"the SMTP port must be between 1 and 65535, not {self.port}")
        if "@" not in self.sender:
            raise ValueError(f"the mail sender {self.sender!r} is not an e-mail address")
        if self.user and self.password is None:
            raise ValueError("an SMTP user needs a password (MEEPLE_SMTP_PASSWORD)")

    @classmethod
    def from_env(cls, host: str | None = None, port: int | None = None, user: str | None = None,
                 password: str | None = None, sender: str | None = None,
                 starttls: bool | None = None) -> SmtpSettings | None:
        """Explicit arguments (``meeple serve``'s flags) win over ``MEEPLE_SMTP_HOST``, ``_PORT``,
        ``_USER``, ``_PASSWORD``, ``_FROM`` and ``_STARTTLS`` (0/1); no host means no mail (``None``).
        The port defaults to 587 with STARTTLS, else 25."""
        host = host or os.environ.get("MEEPLE_SMTP_HOST", "").strip() or None
        if host is None:
            return None
        if starttls is None:
            starttls = os.environ.get("MEEPLE_SMTP_STARTTLS", "0").strip().lower() in {"1", "true", "yes"}
        if port is None:
            text = os.environ.get("MEEPLE_SMTP_PORT", "").strip()
            if text and not text.isdigit():
                raise ValueError(f"MEEPLE_SMTP_PORT: {text!r} is not a port number")
            port = int(text) if text else (587 if starttls else 25)
        return cls(host=host, port=port, user=user or os.environ.get("MEEPLE_SMTP_USER") or None,
                   password=password if password is not None else os.environ.get("MEEPLE_SMTP_PASSWORD"),
                   sender=sender or os.environ.get("MEEPLE_SMTP_FROM") or "meeple@localhost", starttls=starttls)

    def describe(self) -> str:
        """Where mail goes, without the password (for the start-up log)."""
        login = f"{self.user}@" if self.user else ""
        return f"smtp://{login}{self.host}:{self.port}{' (STARTTLS)' if self.starttls else ''} from {self.sender}"


def compose(settings: SmtpSettings, to: str, subject: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    return message


class Mailer:
    """Sends mails in the background with retries; ``stop`` lets the ones being sent finish briefly."""

    def __init__(self, settings: SmtpSettings, retry_delays: Sequence[float] | None = None) -> None:
        self.settings = settings
        self.retry_delays = tuple(RETRY_DELAYS if retry_delays is None else retry_delays)
        self.sending: set[asyncio.Task[bool]] = set()
        self.limit = asyncio.Semaphore(MAX_SENDING)
        self.attempts = 0
        self.sent = 0
        self.failed = 0

    def send_later(self, message: EmailMessage) -> asyncio.Task[bool]:
        """Send ``message`` in the background (the caller never waits for the SMTP server)."""
        task = asyncio.get_running_loop().create_task(self._deliver(message))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)
        return task

    async def _deliver(self, message: EmailMessage) -> bool:
        for attempt in range(len(self.retry_delays) + 1):
            try:
                async with self.limit:
                    await asyncio.to_thread(self._send, message)
                self.sent += 1
                return True
            except (OSError, smtplib.SMTPException) as error:
                if attempt == len(self.retry_delays):
                    self.failed += 1
                    log.error("could not mail %s after %d tries, giving up: %s", message["To"], attempt + 1, error)
                    return False
                delay = self.retry_delays[attempt]
                log.warning("could not mail %s (%s); trying again in %.0f s", message["To"], error, delay)
                await asyncio.sleep(delay)
        return False

    def _send(self, message: EmailMessage) -> None:
        settings = self.settings
        self.attempts += 1
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT)
        try:
            if settings.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if settings.user:
                smtp.login(settings.user, settings.password or "")
            smtp.send_message(message)
        except BaseException:
            smtp.close()
            raise
        # Accepted: a slow or failed goodbye must not make the mail count as unsent (and be sent twice).
        with contextlib.suppress(OSError, smtplib.SMTPException):
            smtp.quit()
        smtp.close()

    async def stop(self, grace: float = 5.0) -> None:
        """Give the mails being sent ``grace`` seconds, then drop the rest (logged)."""
        if not self.sending:
            return
        _done, pending = await asyncio.wait(set(self.sending), timeout=grace)
        for task in pending:
            task.cancel()
        if pending:
            log.warning("stopping: %d mail(s) not sent", len(pending))
