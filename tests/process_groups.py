"""Checks that a command run in its own process group left nothing of its own running."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

import pytest


def assert_group_ends(process: subprocess.Popen[str], within: float = 5.0) -> None:
    """Neither the command nor anything it started is left in its process group ``within`` seconds after
    it ended: helpers that end on their own once it has (multiprocessing's resource tracker of spawned
    workers, Ray's raylet and GCS) get that long; anything still there is killed and fails the test."""
    deadline = time.monotonic() + within
    try:
        while True:
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            if time.monotonic() >= deadline:
                pytest.fail(f"processes of the run are left behind {within:.0f} s after it ended")
            time.sleep(0.1)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
