"""The hub's Redis client under a burst: more commands at once than it has connections wait for one
instead of failing (redis-py's default pool refuses the 101st at once, which turned moves forwarded
under load into "the server failed" refusals). Skipped where no test Redis answers, except in CI."""

from __future__ import annotations

import asyncio

import pytest

from meeple.server.hub import REDIS_CONNECTIONS, RedisHub
from tests import aio
from tests.services import IN_CI, redis_url

pytestmark = pytest.mark.xdist_group("redis")  # see pyproject.toml


def test_more_redis_commands_at_once_than_connections_wait_for_a_free_one() -> None:
    url = redis_url()
    if url is None:
        reason = "no test Redis answers (MEEPLE_TEST_REDIS_URL)"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)

    async def burst() -> list[object]:
        hub = RedisHub(url)
        await hub.start()
        try:
            answers: list[object] = await asyncio.gather(
                *(hub.redis.get(f"meeple:burst:{n}") for n in range(3 * REDIS_CONNECTIONS)))
            return answers
        finally:
            await hub.stop()

    assert aio.run(burst()) == [None] * (3 * REDIS_CONNECTIONS)
