"""Server settings: where the database is (and Redis, for several processes), how long bots pause
before moving and where they think, which other origins may drive the server from a browser, how
large a request body may be, and how the site is reached (its public URL, the proxies it trusts)."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from meeple.server.mail import SmtpSettings

DEFAULT_BOT_DELAY = 0.8
DEFAULT_BOT_LEASE = 5.0
DEFAULT_MAX_BODY_BYTES = 64 * 1024
"""Request bodies here are a few hundred bytes (a table's options, a move, a name and a password of
at most 1,024 characters); 64 KiB leaves ample room and keeps every body read into memory small."""
DEFAULT_PORTS = {"http": 80, "https": 443}
DEFAULT_HOST = "127.0.0.1"
DEFAULT_FORWARDED_ALLOW_IPS = ("127.0.0.1", "::1")
"""A reverse proxy on this machine is trusted by default: uvicorn's own default, and IPv6 loopback."""


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


def normalize_origin(text: str) -> str | None:
    """``text`` as one canonical ``scheme://host[:port]`` (lower case, no default port, no trailing
    slash), so an ``Origin`` header and a configured origin compare equal however they are spelled;
    ``None`` for anything that is not an http(s) origin, such as the ``null`` origin of sandboxed or
    file pages, which must never match."""
    text = text.strip()
    if text.endswith("/"):
        text = text[:-1]
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:  # a port that is not a number, an unbalanced IPv6 bracket
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if (scheme not in DEFAULT_PORTS or not host or parts.path or "@" in parts.netloc or text.endswith(":")
            or any(char in text for char in "?#\\ \t")):
        return None
    if ":" in host:  # IPv6 literal: urlsplit drops the brackets
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def parse_origins(origins: Iterable[str], source: str = "allowed origins") -> tuple[str, ...]:
    """Normalised origins (empty entries skipped); a mistyped one is an error at start-up rather than
    an allow-list that silently lets nobody in."""
    parsed: list[str] = []
    for origin in origins:
        if not origin.strip():
            continue
        normal = normalize_origin(origin)
        if normal is None:
            raise ValueError(f"{source}: {origin!r} is not an origin like https://games.example.org")
        if normal not in parsed:
            parsed.append(normal)
    return tuple(parsed)


def parse_public_url(text: str | None, source: str = "the public URL") -> str | None:
    """``scheme://host[:port]`` as ``normalize_origin`` spells it, or ``None`` when not given; a path
    is refused because every page and the API are served from the root of the address."""
    if text is None or not text.strip():
        return None
    normal = normalize_origin(text)
    if normal is None:
        raise ValueError(f"{source}: {text.strip()!r} is not a URL like https://games.example.org (http or https, "
                         "a host, an optional port, no path: meeple is served from the root of its address)")
    return normal


def parse_forwarded_allow_ips(entries: Iterable[str], source: str = "the trusted proxies") -> tuple[str, ...]:
    """The addresses whose ``X-Forwarded-Proto``/``X-Forwarded-For`` are believed: IP addresses,
    networks (``10.0.0.0/8``) or ``*`` (any, only where nothing but the proxy can reach the port)."""
    parsed: list[str] = []
    for entry in entries:
        entry = entry.strip()
        if not entry:
            continue
        if entry != "*":
            try:
                entry = str(ipaddress.ip_network(entry, strict=False) if "/" in entry else ipaddress.ip_address(entry))
            except ValueError:
                raise ValueError(f"{source}: {entry!r} is not an IP address, a network like 10.0.0.0/8, or *") from None
        if entry not in parsed:
            parsed.append(entry)
    return tuple(parsed)


@dataclass(frozen=True)
class Settings:
    """What ``create_app`` needs; ``from_env`` reads ``MEEPLE_DATABASE_URL``, ``MEEPLE_BOT_DELAY``,
    ``MEEPLE_ALLOWED_ORIGINS``, ``MEEPLE_MAX_BODY_BYTES``, ``MEEPLE_HOST``, ``MEEPLE_PUBLIC_URL`` and
    ``MEEPLE_FORWARDED_ALLOW_IPS``.

    ``host``: the address the server listens on; on all addresses (``0.0.0.0``, ``::``) a page opened
    through loopback is given a LAN address to share. ``public_url``: the address people use (a
    reverse proxy's, ``https://games.example.org``): invite links and redirects are built on it, its
    origin is allowed, and cookies are ``Secure`` when it is https. ``forwarded_allow_ips``: the proxies
    whose forwarded headers (the client's scheme and address) are trusted.

    ``allowed_origins``: origins besides the server's own whose pages may change things (POST, ...) or
    open table WebSockets, e.g. the public origin of a reverse proxy that rewrites ``Host``.
    ``max_body_bytes``: the largest HTTP request body accepted; larger ones are refused with 413.
    ``redis_url``: Redis whose pub/sub carries table updates between processes (``None``: one process).
    ``run_bots``: whether this process claims and plays bot jobs; ``bot_processes``: worker processes
    its bots think in (0: threads of this process, as tests and embedding want); ``bot_lease``:
    seconds a claimed bot job is held before another worker may claim it again (a live worker renews
    its leases every third of that, so only a dead worker's jobs come back).
    ``smtp``: the SMTP server turn e-mails go through (``None``: no mail is sent).
    """

    database_url: str
    bot_delay: float = DEFAULT_BOT_DELAY
    allowed_origins: tuple[str, ...] = field(default=())
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    redis_url: str | None = None
    run_bots: bool = True
    bot_processes: int = 0
    bot_lease: float = DEFAULT_BOT_LEASE
    host: str = DEFAULT_HOST
    public_url: str | None = None
    forwarded_allow_ips: tuple[str, ...] = DEFAULT_FORWARDED_ALLOW_IPS
    smtp: SmtpSettings | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed_origins", parse_origins(self.allowed_origins))
        object.__setattr__(self, "public_url", parse_public_url(self.public_url))
        object.__setattr__(self, "forwarded_allow_ips", parse_forwarded_allow_ips(self.forwarded_allow_ips))
        if type(self.max_body_bytes) is not int or self.max_body_bytes < 1:
            raise ValueError(f"the request body limit must be a positive number of bytes, not {self.max_body_bytes!r}")

    @classmethod
    def from_env(cls, database_url: str | None = None, bot_delay: float | None = None,
                 allowed_origins: Iterable[str] | None = None, max_body_bytes: int | None = None,
                 redis_url: str | None = None, run_bots: bool | None = None,
                 bot_processes: int | None = None, host: str | None = None, public_url: str | None = None,
                 forwarded_allow_ips: Iterable[str] | None = None, smtp: SmtpSettings | None = None) -> Settings:
        """Explicit arguments (the command's flags) win over the environment (``MEEPLE_REDIS_URL``,
        ``MEEPLE_RUN_BOTS`` 0/1, ``MEEPLE_BOT_PROCESSES``, ``MEEPLE_BOT_LEASE`` besides the above, and
        ``MEEPLE_SMTP_*``, see ``SmtpSettings.from_env``)."""
        if public_url is None:
            public = parse_public_url(os.environ.get("MEEPLE_PUBLIC_URL"), "MEEPLE_PUBLIC_URL")
        else:
            public = parse_public_url(public_url, "--public-url")
        if forwarded_allow_ips is None:
            trusted = os.environ.get("MEEPLE_FORWARDED_ALLOW_IPS", "").strip()
            proxies = (parse_forwarded_allow_ips(trusted.split(","), "MEEPLE_FORWARDED_ALLOW_IPS") if trusted
                       else DEFAULT_FORWARDED_ALLOW_IPS)
        else:
            proxies = parse_forwarded_allow_ips(forwarded_allow_ips, "--forwarded-allow-ips")
        if bot_delay is None:
            text = os.environ.get("MEEPLE_BOT_DELAY")
            bot_delay = float(text) if text else DEFAULT_BOT_DELAY
        if allowed_origins is None:
            allowed = parse_origins(os.environ.get("MEEPLE_ALLOWED_ORIGINS", "").split(","),
                                    "MEEPLE_ALLOWED_ORIGINS")
        else:
            allowed = parse_origins(allowed_origins, "--allowed-origin")
        if max_body_bytes is None:
            text = os.environ.get("MEEPLE_MAX_BODY_BYTES", "").strip()
            if text and not text.isdigit():
                raise ValueError(f"MEEPLE_MAX_BODY_BYTES: {text!r} is not a number of bytes")
            max_body_bytes = int(text) if text else DEFAULT_MAX_BODY_BYTES
        if run_bots is None:
            run_bots = os.environ.get("MEEPLE_RUN_BOTS", "1").strip() not in {"0", "false", "no"}
        if bot_processes is None:
            bot_processes = _int_env("MEEPLE_BOT_PROCESSES", 0)
        lease = os.environ.get("MEEPLE_BOT_LEASE", "").strip()
        return cls(database_url=database_url or default_database_url(), bot_delay=max(0.0, bot_delay),
                   allowed_origins=allowed, max_body_bytes=max_body_bytes,
                   redis_url=redis_url or os.environ.get("MEEPLE_REDIS_URL") or None, run_bots=run_bots,
                   bot_processes=max(0, bot_processes), bot_lease=float(lease) if lease else DEFAULT_BOT_LEASE,
                   host=host or os.environ.get("MEEPLE_HOST") or DEFAULT_HOST, public_url=public,
                   forwarded_allow_ips=proxies, smtp=smtp or SmtpSettings.from_env())


def _int_env(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if text and not text.isdigit():
        raise ValueError(f"{name}: {text!r} is not a whole number")
    return int(text) if text else default
