"""Fixtures shared by several test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.smtp import SmtpServer, free_port


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A local SMTP server on a free port, for the length of one test."""
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()
