"""Fixtures shared by several test folders."""

from __future__ import annotations

import threading
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


@pytest.fixture
def bystander() -> Iterator[threading.Thread]:
    """Another thread in this process for the length of one test, as a server's threads, or the ones
    earlier tests left behind, are beside a search or a worker pool."""
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    yield thread
    release.set()
    thread.join()
