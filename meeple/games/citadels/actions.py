"""Citadels actions: interned values whose ``str()`` is the reference notation (§7).

Every distinct action is built once at import time, with its notation precomputed, so the engine's
hot path compares actions by identity and never formats a string.

>>> str(BUILD[1])  # district kind 1 is the Castle
'build:castle'
>>> action_from_notation("destroy:2:market") is DESTROY[2][8]
True
"""

from __future__ import annotations

from meeple.core.actions import InternedAction
from meeple.games.citadels.data import CHARACTER_SLUGS, DISTRICT_SLUGS

MAX_SEATS = 7

(K_PICK, K_DISCARD, K_GOLD, K_DRAW, K_KEEP, K_BUILD, K_TAX, K_KILL, K_ROB, K_SWAP, K_REDRAW, K_REDRAW_DONE,
 K_DESTROY, K_GRAVE_TAKE, K_GRAVE_PASS, K_LAB, K_SMITHY, K_END) = range(18)


class Act(InternedAction):
    """One atomic decision. ``kind`` is a ``K_*`` code; ``a``/``b`` are its arguments (card, seat, character).

    Instances exist only in the tables below, so equality is identity and hashing is by identity.
    """

    __slots__ = ()

    @classmethod
    def from_notation(cls, notation: str) -> Act:
        return action_from_notation(notation)


PICK: tuple[Act, ...] = tuple(Act(K_PICK, c, 0, f"pick:{s}") for c, s in enumerate(CHARACTER_SLUGS))
DISCARD: tuple[Act, ...] = tuple(Act(K_DISCARD, c, 0, f"discard:{s}") for c, s in enumerate(CHARACTER_SLUGS))
GOLD = Act(K_GOLD, 0, 0, "gold")
DRAW = Act(K_DRAW, 0, 0, "draw")
KEEP: tuple[Act, ...] = tuple(Act(K_KEEP, d, 0, f"keep:{s}") for d, s in enumerate(DISTRICT_SLUGS))
BUILD: tuple[Act, ...] = tuple(Act(K_BUILD, d, 0, f"build:{s}") for d, s in enumerate(DISTRICT_SLUGS))
TAX = Act(K_TAX, 0, 0, "tax")
KILL: tuple[Act, ...] = tuple(Act(K_KILL, c, 0, f"kill:{s}") for c, s in enumerate(CHARACTER_SLUGS))
ROB: tuple[Act, ...] = tuple(Act(K_ROB, c, 0, f"rob:{s}") for c, s in enumerate(CHARACTER_SLUGS))
SWAP: tuple[Act, ...] = tuple(Act(K_SWAP, seat, 0, f"swap:{seat}") for seat in range(MAX_SEATS))
REDRAW: tuple[Act, ...] = tuple(Act(K_REDRAW, d, 0, f"redraw:{s}") for d, s in enumerate(DISTRICT_SLUGS))
REDRAW_DONE = Act(K_REDRAW_DONE, 0, 0, "redraw:done")
DESTROY: tuple[tuple[Act, ...], ...] = tuple(
    tuple(Act(K_DESTROY, seat, d, f"destroy:{seat}:{s}") for d, s in enumerate(DISTRICT_SLUGS))
    for seat in range(MAX_SEATS)
)
GRAVE_TAKE = Act(K_GRAVE_TAKE, 0, 0, "graveyard:take")
GRAVE_PASS = Act(K_GRAVE_PASS, 0, 0, "graveyard:pass")
LAB: tuple[Act, ...] = tuple(Act(K_LAB, d, 0, f"lab:{s}") for d, s in enumerate(DISTRICT_SLUGS))
SMITHY = Act(K_SMITHY, 0, 0, "smithy")
END = Act(K_END, 0, 0, "end")
KEEP_ACTS = KEEP  # aliases for modules that also import the district constants KEEP and SMITHY
SMITHY_ACT = SMITHY

ALL_ACTIONS: dict[str, Act] = {
    a.notation: a
    for a in (
        *PICK, *DISCARD, GOLD, DRAW, *KEEP, *BUILD, TAX, *KILL, *ROB, *SWAP, *REDRAW, REDRAW_DONE,
        *(a for row in DESTROY for a in row), GRAVE_TAKE, GRAVE_PASS, *LAB, SMITHY, END,
    )
}


def action_from_notation(notation: str) -> Act:
    """The interned action written ``notation``; unknown text raises ``KeyError``."""
    return ALL_ACTIONS[notation]
