"""A local SMTP server for the turn e-mail tests (aiosmtpd): it keeps every mail it is given."""

from __future__ import annotations

import socket
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Inbox:
    """An aiosmtpd handler keeping every mail it is given."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[arg-type]
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.inbox = Inbox()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=port)

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
