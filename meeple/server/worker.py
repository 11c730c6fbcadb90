"""``meeple bots``: a standalone bot worker. It claims bot jobs from the database's queue, has the
bots think in its worker processes and plays their moves; the web processes hear of them over Redis.
Start as many as the bots need, on any host that reaches the database and Redis. Turn e-mails a bot's
move calls for are sent from here, through the SMTP server of ``MEEPLE_SMTP_*``."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from meeple.server.alerts import TurnAlerts
from meeple.server.botrunner import BotRunner
from meeple.server.config import Settings
from meeple.server.db import make_engine, migrate
from meeple.server.hub import RedisHub
from meeple.server.lobby import LobbyFeed
from meeple.server.mail import Mailer
from meeple.server.runtime import TableRuntime
from meeple.server.store import Store
from meeple.server.writer import DatabaseWriter


async def run_bot_worker(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Play bot jobs until ``stop`` is set (or SIGINT/SIGTERM)."""
    if not settings.redis_url:
        raise ValueError("a bot worker tells the web processes of its moves over Redis: give --redis-url")
    engine = make_engine(settings.database_url)
    migrate(engine)
    store = Store(engine)
    writer = DatabaseWriter(store.sessions)
    hub = RedisHub(settings.redis_url, owns_tables=False)
    runtime = TableRuntime(store, writer, hub, settings.bot_delay)
    runner = BotRunner(runtime, store, processes=settings.bot_processes, lease=settings.bot_lease,
                       delay=settings.bot_delay)
    # A bot's move may make it a person's turn: the worker mails them as a web process would.
    alerts = TurnAlerts(runtime, store, Mailer(settings.smtp) if settings.smtp else None, settings.public_url)
    lobby = LobbyFeed(runtime)  # a bot's move that the lobby shows (a game over) is published from here
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    await hub.start()
    await lobby.start()
    await runner.start()
    try:
        await stop.wait()
    finally:
        await runner.stop()
        await alerts.stop()
        await lobby.stop()
        await hub.stop()
        writer.close()
        engine.dispose()
