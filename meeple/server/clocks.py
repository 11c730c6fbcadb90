"""Clocks: the modes and speed profiles a table is created with, and the arithmetic of time banks.

Every timed seat has a bank of time. While a seat must act its bank runs down; a move adds the
profile's bonus to the mover's bank, capped at the initial bank. Real-time profiles are minutes of
bank and seconds of bonus; turn-based ones are a time per move (bank = bonus, so every move gives the
whole allowance back); ``unlimited`` has no clock at all. Several seats may have to act at once (a
simultaneous decision): all their banks run together and the earliest to run out sets the deadline.

Everything here is pure: the state of the clocks is a value (``ClockState``) that the runtime stores
in the database with each move, and every time left is computed from its stored timestamp, so a
server restart, or another process, sees exactly the same clocks. Downtime counts like any other
time: a clock is wall-clock time since its stored start.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from meeple.core.contract import JSON

REALTIME, TURNBASED = "real-time", "turn-based"
MODES = (REALTIME, TURNBASED)
UNLIMITED, CUSTOM = "unlimited", "custom"
RULE_BOT, RULE_VOTE = "bot", "vote"
TIMEOUT_RULES = (RULE_BOT, RULE_VOTE)
DEFAULT_TIMEOUT_LEVEL = "medium"

MINUTE, HOUR, DAY = 60, 3600, 86400
CUSTOM_BANK_RANGE = (5, 14 * DAY)
"""A custom real-time clock's bank, in seconds: from five seconds (bullet games, quick tests) to two weeks."""


class BadClock(ValueError):
    """A mode, speed or timeout rule the table cannot be created with; the message says why."""


@dataclass(frozen=True)
class Profile:
    """A speed: the initial bank and the bonus per move, in seconds (``bank`` ``None``: no limit)."""

    name: str
    mode: str
    bank: int | None
    bonus: int

    def to_json(self) -> JSON:
        return {"name": self.name, "mode": self.mode, "bank": self.bank, "bonus": self.bonus}


PROFILES: dict[str, dict[str, Profile]] = {
    REALTIME: {
        "fast": Profile("fast", REALTIME, 2 * MINUTE, 10),
        "normal": Profile("normal", REALTIME, 5 * MINUTE, 20),
        "slow": Profile("slow", REALTIME, 10 * MINUTE, 40),
        UNLIMITED: Profile(UNLIMITED, REALTIME, None, 0),
    },
    TURNBASED: {
        "12h": Profile("12h", TURNBASED, 12 * HOUR, 12 * HOUR),
        "24h": Profile("24h", TURNBASED, DAY, DAY),
        "3d": Profile("3d", TURNBASED, 3 * DAY, 3 * DAY),
        UNLIMITED: Profile(UNLIMITED, TURNBASED, None, 0),
    },
}
DEFAULT_SPEED = {REALTIME: "normal", TURNBASED: "24h"}


def profile_of(mode: Any, speed: Any) -> Profile:
    """The profile ``mode`` and ``speed`` name; ``speed`` may also be a custom real-time clock
    ``{"bank": seconds, "bonus": seconds}``. Neither: no limit; a mode alone: its default speed.
    ``BadClock`` says what is wrong."""
    if mode is None and speed is None:
        return PROFILES[REALTIME][UNLIMITED]  # what the API did before clocks (the lobby proposes one)
    if mode is None:
        mode = REALTIME
    if mode not in MODES:
        raise BadClock(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if speed is None:
        speed = DEFAULT_SPEED[mode]
    if isinstance(speed, Mapping):
        if mode != REALTIME:
            raise BadClock("a custom clock is for real-time tables; turn-based tables use a profile: "
                           + ", ".join(PROFILES[TURNBASED]))
        if set(speed) - {"bank", "bonus"}:
            raise BadClock("a custom clock has only a bank and a bonus, in seconds")
        bank, bonus = speed.get("bank"), speed.get("bonus", 0)
        low, high = CUSTOM_BANK_RANGE
        if type(bank) is not int or not low <= bank <= high:
            raise BadClock(f"a custom clock's bank must be a whole number of seconds from {low} to {high}")
        if type(bonus) is not int or not 0 <= bonus <= bank:
            raise BadClock("a custom clock's bonus must be a whole number of seconds from 0 to its bank")
        return Profile(CUSTOM, REALTIME, bank, bonus)
    if not isinstance(speed, str) or speed not in PROFILES[mode]:
        raise BadClock(f"a {mode} table's speed must be one of {', '.join(PROFILES[mode])}, not {speed!r}")
    return PROFILES[mode][speed]


def check_rule(rule: Any) -> str:
    if rule is None:
        return RULE_BOT
    if rule not in TIMEOUT_RULES:
        raise BadClock(f"the timeout rule must be one of {', '.join(TIMEOUT_RULES)}, not {rule!r}")
    return str(rule)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


@dataclass(frozen=True)
class ClockState:
    """Where a table's clocks stand: each seat's milliseconds left as of ``since``, and the seats whose
    clocks have run since then (``running``; empty while nobody's clock runs)."""

    bank_ms: int
    bonus_ms: int
    remaining: tuple[int, ...]
    since: datetime
    running: tuple[int, ...] = field(default=())
    earned_by: int | None = None
    """The seat of the last move, whose run of moves an undo may take back."""
    earned: tuple[int, ...] = field(default=())
    """The bonus each move of that run really earned, oldest first: less than ``bonus_ms`` where the
    bank capped it, 0 where its clock did not run, so an undo takes back exactly what was given."""

    @classmethod
    def start(cls, profile: Profile, players: int, now: datetime, running: Iterable[int]) -> ClockState:
        """Every seat with a full bank, the first actors' clocks running from ``now``."""
        assert profile.bank is not None
        bank = ms(profile.bank)
        return cls(bank, ms(profile.bonus), (bank,) * players, now, tuple(sorted(set(running))))

    def left(self, seat: int, now: datetime) -> int:
        """Milliseconds ``seat`` has at ``now`` (never below zero)."""
        spent = elapsed_ms(self.since, now) if seat in self.running else 0
        return max(0, self.remaining[seat] - spent)

    def charged(self, now: datetime) -> tuple[int, ...]:
        """Every seat's time left at ``now``: the running clocks charged with the time since ``since``."""
        return tuple(self.left(seat, now) for seat in range(len(self.remaining)))

    def after_move(self, mover: int, now: datetime, running: Iterable[int]) -> ClockState:
        """The clocks once ``mover`` has moved at ``now``: the running clocks are charged, the mover
        earns the bonus (capped at the bank) if its clock was running (a bot standing in earns
        nothing for the player), and the seats that must act next run from ``now``. A seat that acts
        again at once (or that still must act alongside others) keeps running."""
        left = list(self.charged(now))
        earned = 0
        if mover in self.running:
            earned = min(self.bank_ms, left[mover] + self.bonus_ms) - left[mover]
            left[mover] += earned
        run = self.earned if mover == self.earned_by else ()
        return ClockState(self.bank_ms, self.bonus_ms, tuple(left), now, tuple(sorted(set(running))),
                          mover, (*run, earned))

    def taken_back(self, seat: int, moves: int, now: datetime, running: Iterable[int]) -> ClockState:
        """The clocks once ``seat`` takes back its last ``moves`` moves at ``now``: charged up to now (an
        undo gives no time back), less the bonus those moves earned, with ``running`` from now. A move
        whose bonus was not recorded (a clock saved before bonuses were) counts as a full bonus."""
        run = self.earned if seat == self.earned_by else ()
        kept = max(0, len(run) - moves)
        given = sum(run[kept:]) + (moves - (len(run) - kept)) * self.bonus_ms
        clock = self.rerun(now, running)
        clock = clock.with_time(seat, clock.remaining[seat] - given)
        return replace(clock, earned=run[:kept])

    def rerun(self, now: datetime, running: Iterable[int]) -> ClockState:
        """The same banks charged up to ``now``, with another set of seats running from then on (a
        seat handed to a bot stops; a vote stops every clock; a reclaimed seat starts)."""
        return replace(self, remaining=self.charged(now), since=now, running=tuple(sorted(set(running))))

    def with_time(self, seat: int, milliseconds: int) -> ClockState:
        remaining = list(self.remaining)
        remaining[seat] = max(0, min(self.bank_ms, milliseconds))
        return replace(self, remaining=tuple(remaining))

    def deadline(self) -> datetime | None:
        """When the first running clock runs out; ``None`` while none runs."""
        if not self.running:
            return None
        return self.since + timedelta(milliseconds=min(self.remaining[seat] for seat in self.running))

    def expired(self, now: datetime) -> list[int]:
        """The running seats whose time is up at ``now``."""
        return [seat for seat in self.running if self.left(seat, now) <= 0]

    def to_json(self, now: datetime) -> JSON:
        """What clients are sent (beside the settings' bank and bonus, in seconds): the milliseconds left
        as of ``since`` and who runs, plus the server's ``now`` so a page can count down from its own
        clock without trusting it to match the server's."""
        return {"remaining": list(self.remaining),
                "since": self.since.isoformat(), "running": list(self.running), "now": now.isoformat(),
                "deadline": deadline.isoformat() if (deadline := self.deadline()) else None}


def elapsed_ms(since: datetime, now: datetime) -> int:
    return max(0, round((now - since).total_seconds() * 1000))


def reclaimed_time(state: ClockState, seat: int, now: datetime) -> int:
    """The bank of a player who gets their seat back after their clock ran out (they reclaim it from
    the bot, or the others voted to skip their turn): what they had left, but at least a quarter of
    the initial bank and at least one bonus, so they can make a move; never more than the bank."""
    return min(state.bank_ms, max(state.left(seat, now), state.bonus_ms, state.bank_ms // 4))


@dataclass(frozen=True)
class ClockSettings:
    """What a table was created with: its mode and speed (and the bank and bonus they stood for then,
    so a profile changed later never changes a running table), and its timeout rule."""

    mode: str = REALTIME
    speed: str = UNLIMITED
    bank: int | None = None
    bonus: int = 0
    rule: str = RULE_BOT
    level: str = DEFAULT_TIMEOUT_LEVEL

    @property
    def timed(self) -> bool:
        return self.bank is not None

    @property
    def profile(self) -> Profile:
        return Profile(self.speed, self.mode, self.bank, self.bonus)

    def to_json(self) -> JSON:
        return {"mode": self.mode, "speed": self.speed, "bank": self.bank, "bonus": self.bonus,
                "timeout_rule": self.rule, "timeout_level": self.level}


def catalogue() -> JSON:
    """Every mode's profiles and the timeout rules, as ``/api/games`` offers them to the lobby."""
    return {"modes": {mode: [p.to_json() for p in profiles.values()] for mode, profiles in PROFILES.items()},
            "default_speed": dict(DEFAULT_SPEED), "timeout_rules": list(TIMEOUT_RULES),
            "default_timeout_level": DEFAULT_TIMEOUT_LEVEL}
