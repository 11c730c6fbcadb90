"""The JSON form of a game's log for its views, converted once per entry instead of once per view.

Each entry is an ``Event`` (meeple/core/events.py) with a visibility beside it; who sees it follows
the one rule stated there. A game's log only grows, and every view shows all of it (the public log,
and the viewing seat's private log). Converting every entry on every ``view(seat)`` call made a
view's cost grow with the game's length; the server calls ``view`` for every seat after every
move. ``LogViews`` keeps the converted entries and converts only what was appended since.

A clone shares its original's ``LogViews`` (copying it would cost every clone, and bots clone
thousands of times a second). The two logs then diverge, so before it is used the cache is checked
against the log it is asked about: it must cover a prefix of that log, which holds when the log's
entry at the cache's last position is the very object the cache converted last (entries are
appended, never changed, and each is a new object). When the check fails, the state gets a cache of
its own, built from its whole log. A game whose entries are not each a new object (Citadels shares
its commonest ones) gives its clones no cache instead. Entries a view returns are shared with later
views of the same state: a view is for reading.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from meeple.core.events import PUBLIC, view_logs

E = TypeVar("E")


class LogViews(Generic[E]):
    """The converted entries of one log: the public ones, and each seat's private ones, in order."""

    __slots__ = ("done", "last", "private", "public")

    def __init__(self) -> None:
        self.done = 0
        self.last: object = None
        self.public: list[dict[str, Any]] = []
        self.private: dict[int, list[dict[str, Any]]] = {}

    def covers(self, log: Sequence[E]) -> bool:
        """Whether the entries converted so far are the first ``done`` entries of ``log``."""
        return self.done == 0 or (self.done <= len(log) and log[self.done - 1] is self.last)

    def extend(self, log: Sequence[E], visibility: Callable[[E], int],
               to_json: Callable[[E], dict[str, Any]]) -> None:
        """Convert the entries of ``log`` after the first ``done`` (which ``covers`` must have checked)."""
        public, private = self.public, self.private
        for index in range(self.done, len(log)):
            entry = log[index]
            seat = visibility(entry)
            if seat == PUBLIC:
                public.append(to_json(entry))
            else:
                private.setdefault(seat, []).append(to_json(entry))
        if len(log) > self.done:
            self.done = len(log)
            self.last = log[-1]

    def for_view(self, seat: int | None) -> dict[str, list[dict[str, Any]]]:
        """The ``"log"`` and ``"private_log"`` of ``seat``'s view (None: a spectator), by the one
        redaction rule of meeple.core.events."""
        return view_logs(self.public, self.private, seat)

    def for_views(self, seats: Sequence[int | None]) -> list[dict[str, list[dict[str, Any]]]]:
        """``for_view`` of each of ``seats``, their ``"log"`` one list shared by all (views are for reading)."""
        public = list(self.public)
        return [{**view_logs((), self.private, seat), "log": public} for seat in seats]


def log_views(cached: LogViews[E] | None, log: Sequence[E], visibility: Callable[[E], int],
              to_json: Callable[[E], dict[str, Any]]) -> LogViews[E]:
    """``cached`` brought up to date with ``log``, or a new cache when it does not cover ``log``.

    The caller keeps the result (``state._log_views``) for its next view."""
    views = cached if cached is not None and cached.covers(log) else LogViews()
    views.extend(log, visibility, to_json)
    return views


def public_only(_entry: object) -> int:
    """The visibility of every entry of a log that has only public entries."""
    return PUBLIC
