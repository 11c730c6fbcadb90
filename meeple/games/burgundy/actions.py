"""Burgundy actions: interned values whose text is the notation of reference §7.

Every distinct action is built once at import (``ALL_ACTIONS``); the engine only looks them up in
tables, so the hot path never formats a string. Because each action exists exactly once, equality
and hashing are by identity (C-speed membership tests in ``apply``); copying or unpickling returns
the same interned object, so value semantics hold as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from types import MappingProxyType
from typing import Final

from meeple.core.actions import InternedAction
from meeple.games.burgundy.data import BOARD_IDS, SPACES, TILE_KINDS, TILE_NAMES

# action kinds
DIE: Final = 0
TAKE: Final = 1
PLACE: Final = 2
SELL: Final = 3
WORKERS: Final = 4
BUY: Final = 5
DISCARD: Final = 6
SHIP: Final = 7
KEEP: Final = 8
SKIP: Final = 9
PASS: Final = 10
BOARD: Final = 11
START: Final = 12

_REGISTRY: dict[str, BAction] = {}


class BAction(InternedAction):
    """One action: its ``notation`` (reference §7) plus the decoded fields ``kind``, ``a``, ``b``, ``c``."""

    __slots__ = ("c",)

    c: int

    def __init__(self, text: str, kind: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        if text in _REGISTRY:
            raise ValueError(f"action {text!r} already exists; use from_notation")
        super().__init__(kind, a, b, text)
        object.__setattr__(self, "c", c)
        _REGISTRY[text] = self

    @classmethod
    def from_notation(cls, notation: str) -> BAction:
        return from_notation(notation)


def from_notation(text: str) -> BAction:
    """The interned action with this notation (KeyError if there is none)."""
    return _REGISTRY[text]


def _die() -> tuple[BAction, ...]:
    return tuple(BAction(f"die:{r}", DIE, r) for r in range(7))


DIE_ACTIONS = _die()  # index = die value (0 unused)
#: TAKE_ACTIONS[depot][tile]
TAKE_ACTIONS: tuple[tuple[BAction, ...], ...] = tuple(
    tuple(BAction(f"take:{d}:{TILE_NAMES[t]}", TAKE, d, t) for t in range(TILE_KINDS)) for d in range(7)
)
#: PLACE_ACTIONS[tile][space]
PLACE_ACTIONS: tuple[tuple[BAction, ...], ...] = tuple(
    tuple(BAction(f"place:{TILE_NAMES[t]}@{s}", PLACE, t, s) for s in range(SPACES + 1)) for t in range(TILE_KINDS)
)
SELL_ACTIONS = tuple(BAction(f"sell:{g}", SELL, g) for g in range(7))
WORKERS_ACTION = BAction("workers", WORKERS)
#: BUY_ACTIONS[paid_workers][depot][tile]; workers only with the 2019-style K06 option.
BUY_ACTIONS: tuple[tuple[tuple[BAction, ...], ...], ...] = tuple(
    tuple(
        tuple(
            BAction(f"buy:{d}:{TILE_NAMES[t]}" + (f"~w{w}" if w else ""), BUY, d, t, w) for t in range(TILE_KINDS)
        )
        for d in range(7)
    )
    for w in range(3)
)
DISCARD_ACTIONS = tuple(BAction(f"discard:{TILE_NAMES[t]}", DISCARD, t) for t in range(TILE_KINDS))
#: SHIP_ACTIONS[d] = ship:d; SHIP_PAIR_ACTIONS[d] = ship:d+(d%6+1) (K05). ``a`` is the depot bit mask.
SHIP_ACTIONS = tuple(BAction(f"ship:{d}", SHIP, 1 << d) for d in range(7))
SHIP_PAIR_ACTIONS = tuple(BAction(f"ship:{d}+{d % 6 + 1}", SHIP, (1 << d) | (1 << (d % 6 + 1))) for d in range(7))
#: KEEP_ACTIONS[mask of goods kinds]
KEEP_ACTIONS: Mapping[int, BAction] = MappingProxyType(
    {
        sum(1 << g for g in combo): BAction("keep:" + ",".join(map(str, combo)), KEEP, sum(1 << g for g in combo))
        for size in (1, 2, 3)
        for combo in combinations(range(1, 7), size)
    }
)
SKIP_ACTION = BAction("skip", SKIP)
PASS_ACTION = BAction("pass", PASS)
BOARD_ACTIONS = tuple(BAction(f"board:{b}", BOARD, b) for b in (0, *BOARD_IDS))
START_ACTIONS = tuple(BAction(f"start:{s}", START, s) for s in range(SPACES + 1))

#: every action, by notation (read-only after import)
ALL_ACTIONS: Mapping[str, BAction] = MappingProxyType(_REGISTRY)
