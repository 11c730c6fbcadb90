"""The outside services some tests use (PostgreSQL, Redis, chromium, nginx), found the same way by pytest alone and by
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
#: A Redis that answers here is used when ``MEEPLE_TEST_REDIS_URL`` is not set (its database 15,
#: which the tests may empty).
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


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


@cache
def redis_url() -> str | None:
    """``MEEPLE_TEST_REDIS_URL`` if set (``scripts/test.sh --system`` starts one and sets it), else a
    Redis on the default port if one answers within a second."""
    configured = os.environ.get("MEEPLE_TEST_REDIS_URL")
    if configured:
        return configured
    try:
        import redis
    except ImportError:
        return None
    try:
        redis.Redis.from_url(DEFAULT_REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return None
    return DEFAULT_REDIS_URL


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def nginx_path() -> str | None:
    """Debian's nginx (in /usr/sbin, which a non-root PATH may lack), for the deployment test."""
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(path, os.X_OK)), None)
