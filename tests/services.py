"""The outside services some tests use (PostgreSQL, chromium), found the same way by pytest alone and by
``scripts/test.sh``: a test run is the same wherever the services exist.

Where one is missing its tests are skipped with the reason, except in CI (``CI=true``), where they
must run, so a green CI never hides a skipped database or browser.
"""

from __future__ import annotations

import os
import shutil
from functools import cache

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

#: Where ``scripts/test.sh --system`` puts the throwaway test database on Debian's first cluster.
DEFAULT_POSTGRES_URL = "postgresql+psycopg://meeple_test:meeple_test@127.0.0.1:5432/meeple_test"


@cache
def postgres_url() -> str | None:
    """``MEEPLE_TEST_POSTGRES_URL`` if set, else the default test database if it answers within a second."""
    configured = os.environ.get("MEEPLE_TEST_POSTGRES_URL")
    if configured:
        return configured
    try:
        import psycopg
    except ImportError:
        return None
    try:
        psycopg.connect(DEFAULT_POSTGRES_URL.replace("+psycopg", ""), connect_timeout=1).close()
    except psycopg.Error:
        return None
    return DEFAULT_POSTGRES_URL


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")
