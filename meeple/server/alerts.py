"""Turn e-mails: a player of a turn-based table whose account asked for it gets one mail when it
becomes their turn while they have no socket open on that table, and no other until they have moved
or opened the table again.

The runtime tells ``TurnAlerts.turn_changed`` of every move and every start (the process that
committed the move, so once per move across processes); the check that needs the database, and the
mail itself, run in tasks of their own, so a move never waits for either. Which tables are
turn-based is decided by ``is_turn_based`` alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from email.message import EmailMessage
from typing import Any

from meeple.server.clocks import TURNBASED
from meeple.server.i18n import LANGUAGES, load_messages
from meeple.server.mail import Mailer, compose
from meeple.server.runtime import LiveTable, TableRuntime
from meeple.server.store import HUMAN, Store, TurnMail

log = logging.getLogger("meeple.server.alerts")


def is_turn_based(table: LiveTable) -> bool:
    """Whether players of ``table`` may be mailed when it is their turn: the one rule of it (the table
    was created in the turn-based mode, ``meeple.server.clocks``)."""
    return table.settings.mode == TURNBASED


class TurnAlerts:
    """Decides who to mail when turns change, and mails them through ``mailer`` (``None``: no SMTP
    server is configured, and nothing is done)."""

    def __init__(self, runtime: TableRuntime, store: Store, mailer: Mailer | None,
                 public_url: str | None = None) -> None:
        self.runtime = runtime
        self.store = store
        self.mailer = mailer
        self.public_url = public_url.rstrip("/") if public_url else None
        self.base_urls: dict[int, str] = {}
        """The address each account last reached this server at (its own signed-in requests), for
        links when no public URL is set; ``latest_base`` is the latest of them."""
        self.latest_base: str | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        runtime.turn_watchers.append(self.turn_changed)

    def remember_base(self, account_id: int, base_url: str) -> None:
        base = base_url.rstrip("/")
        self.base_urls[account_id] = base
        self.latest_base = base

    def link(self, path: str, account_id: int | None) -> str:
        """``path`` on the public URL, else where this account (else anyone signed in) last reached us."""
        base = self.public_url or (self.base_urls.get(account_id) if account_id is not None else None) \
            or self.latest_base or ""
        return f"{base}{path}"

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def turn_changed(self, table: LiveTable, mover: int | None, before: int | None, after: int | None) -> None:
        """A move by ``mover`` (``None``: the game started) passed the turn from ``before`` to ``after``."""
        if self.mailer is None or not is_turn_based(table):
            return
        moved = mover is not None and table.seats[mover].account_id is not None
        owed: int | None = None
        if after is not None and after != before and table.state is not None and not table.state.is_over:
            seat = table.seats[after]
            if seat.kind == HUMAN and seat.account_id is not None and after not in self.runtime.hub.online(table.id):
                owed = after
        if moved or owed is not None:
            self._spawn(self._after_move(table, mover if moved else None, owed))

    async def _after_move(self, table: LiveTable, mover: int | None, owed: int | None) -> None:
        try:
            if mover is not None:
                await asyncio.to_thread(self.store.clear_turn_mail, table.id, mover)
            if owed is None:
                return
            if owed in await self.runtime.hub.online_anywhere(table.id):  # at the table through another process
                return
            mail = await asyncio.to_thread(self.store.claim_turn_mail, table.id, owed)
            if mail is not None and self.mailer is not None:
                self.mailer.send_later(self.turn_mail(table, owed, mail))
        except Exception:  # a database hiccup must not go unnoticed, nor reach the move that caused it
            log.exception("turn alert for table %s failed", table.id)

    def visited(self, table: LiveTable, seat: int | None) -> None:
        """``seat``'s player opened the table: their next turn may be mailed again."""
        if self.mailer is None or seat is None or not is_turn_based(table) or table.seats[seat].account_id is None:
            return
        self._spawn(self._clear(table.id, seat))

    async def _clear(self, table_id: str, seat: int) -> None:
        try:
            await asyncio.to_thread(self.store.clear_turn_mail, table_id, seat)
        except Exception:
            log.exception("clearing the turn mail of table %s seat %d failed", table_id, seat)

    def turn_mail(self, table: LiveTable, seat: int, mail: TurnMail) -> EmailMessage:
        """The mail, in the player's language, with the table's link."""
        assert self.mailer is not None
        language = mail.language if mail.language in LANGUAGES else "en"
        words = load_messages(language)
        game = words.get(f"game.{table.game.name}.title", table.game.title)
        account_id = table.seats[seat].account_id
        params = {"name": mail.name, "game": game, "table": table.id,
                  "link": self.link(f"/tables/{table.id}", account_id), "my_games": self.link("/my", account_id)}
        return compose(self.mailer.settings, mail.email, words["mail.turn.subject"].format(**params),
                       words["mail.turn.body"].format(**params))

    async def stop(self) -> None:
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=5)
        if self.mailer is not None:
            await self.mailer.stop()
