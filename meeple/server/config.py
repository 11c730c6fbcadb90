"""Server settings: where the database is and how long bots pause before moving."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_BOT_DELAY = 0.8


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/meeple`` (``~/.local/share/meeple`` by default), or ``%APPDATA%\\meeple``."""
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "meeple"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "meeple"


def default_database_url() -> str:
    """``MEEPLE_DATABASE_URL`` if set, else an SQLite file in the user data directory."""
    url = os.environ.get("MEEPLE_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{user_data_dir() / 'meeple.sqlite3'}"


@dataclass(frozen=True)
class Settings:
    """What ``create_app`` needs; ``from_env`` reads ``MEEPLE_DATABASE_URL`` and ``MEEPLE_BOT_DELAY``."""

    database_url: str
    bot_delay: float = DEFAULT_BOT_DELAY

    @classmethod
    def from_env(cls, database_url: str | None = None, bot_delay: float | None = None) -> Settings:
        if bot_delay is None:
            text = os.environ.get("MEEPLE_BOT_DELAY")
            bot_delay = float(text) if text else DEFAULT_BOT_DELAY
        return cls(database_url=database_url or default_database_url(), bot_delay=max(0.0, bot_delay))
