"""What the four terminal renderings share: the web's English words, seat names and small Rich pieces.

The words are the ones the browser shows (``meeple/server/i18n/en.json`` and ``<game>/en.json``), read
here from the same files, so a card, a building or a log sentence reads the same in both places and is
corrected in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from meeple.server.i18n import load_messages

_PLACEHOLDER = re.compile(r"\{(\w+)\}")

#: One colour per seat (Caylus' and the web's order), bold so a name stands out in a sentence.
SEAT_STYLES = ("bold blue", "bold red", "bold green", "bold dark_orange", "bold magenta", "bold cyan", "bold yellow")


@cache
def _english() -> dict[str, str]:
    return load_messages("en")


def plain(value: Any) -> str:
    """A value as the web's ``String(value)`` writes it inside a sentence (lists joined with commas)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(plain(item) for item in value)
    if value is None:
        return ""
    return str(value)


def phrase_or_none(key: str, params: Mapping[str, Any] | None = None) -> str | None:
    """The web's English text for ``key`` with its ``{placeholders}`` filled (common.js ``tMaybe``), or
    None when there is no such text."""
    template = _english().get(key)
    if template is None:
        return None
    values = params or {}
    return _PLACEHOLDER.sub(lambda m: plain(values[m[1]]) if m[1] in values else m[0], template)


def phrase(key: str, params: Mapping[str, Any] | None = None) -> str:
    """Like :func:`phrase_or_none`, but the key itself when the text is missing (common.js ``t``)."""
    found = phrase_or_none(key, params)
    return key if found is None else found


def name_or_code(prefix: str, code: str) -> str:
    """A thing's English name (``caylus.b.`` + ``n_forest`` -> "Forest"), or its code if it has none."""
    return phrase_or_none(prefix + code) or code


class SeatNames:
    """Who sits where, as sentences and tables call them ("Player 1", "Bot 2"); ``me`` is the viewer."""

    def __init__(self, names: Sequence[str], me: int | None = None) -> None:
        self.names = list(names)
        self.me = me

    @classmethod
    def numbered(cls, players: int, me: int | None = None) -> SeatNames:
        """Plain names for a view drawn outside ``meeple play``: "Seat 1", "Seat 2", …"""
        return cls([f"Seat {seat + 1}" for seat in range(players)], me)

    def __call__(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def __len__(self) -> int:
        return len(self.names)

    def style(self, seat: int) -> str:
        return SEAT_STYLES[seat % len(SEAT_STYLES)] + (" underline" if seat == self.me else "")

    def styled(self, seat: int | None, mark: str = "") -> Text:
        """The seat's name in its colour (underlined for the viewer); a dim dot for nobody."""
        if seat is None:
            return Text("·", style="dim")
        return Text(self(seat) + mark, style=self.style(seat))

    def joined(self, seats: Iterable[int], separator: str = ", ") -> Text:
        """Several seats' names in their colours, e.g. a turn order."""
        text = Text()
        for index, seat in enumerate(seats):
            if index:
                text.append(separator)
            text.append_text(self.styled(seat))
        return text or Text("—", style="dim")


def headed_table(*headings: str, title: str | None = None, **options: Any) -> Table:
    """A table whose column headings are all different (a reader must never wonder which "pp" is which)."""
    if len(set(headings)) != len(headings):
        raise ValueError(f"two columns share a heading: {headings}")
    table = Table(title=title, **options)
    for heading in headings:
        table.add_column(heading)
    return table


def facts(rows: Iterable[tuple[str, RenderableType | str]]) -> Table:
    """A two-column grid of labelled facts ("Silverlings  3"), labels in bold."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold")
    grid.add_column()
    for label, value in rows:
        grid.add_row(label, value)
    return grid


def yes_no(value: bool) -> str:
    return "yes" if value else "no"
