"""Which optional benefits an action would leave unused: a game's rule, stated once, for every client.

A move that closes a turn or a step (Citadels' ``end``, Burgundy's ``pass``...) forgoes whatever
optional benefit is still legal at that moment (a tax not collected, a Mint's gold untaken). Which
action kinds close and which are optional benefits is part of a game's rules, so the game declares it
(``Game.optional_benefits``) and the engine's ``action_hints`` gives each closing action the benefits it
forgoes; a page only shows them (``js/benefits.js``), it classifies nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OptionalBenefits:
    """A game's closing action kinds and its optional benefits, by the action kinds that take them."""

    closing: frozenset[str]
    """Kinds of action that end a turn, a step or an effect, leaving any benefit still legal unused."""
    benefits: Mapping[str, str]
    """Action kind -> the benefit it takes (several kinds may take one: the Magician's ``swap`` and
    ``redraw``); the benefit's message is ``<game>.unused.<benefit>`` in every UI language."""

    def __post_init__(self) -> None:
        both = self.closing & self.benefits.keys()
        if both:
            raise ValueError(f"an action kind cannot both close and be a benefit: {sorted(both)}")

    def forgone(self, kinds: Sequence[str]) -> list[list[str]] | None:
        """For legal actions of these ``kinds`` (in order), the benefits each would leave unused: the
        benefits still legal, in the order first offered, for a closing action; ``[]`` for any other.
        None when no action forgoes anything (the common case: nothing to tell a client)."""
        available: list[str] = []
        closes = False
        for kind in kinds:
            benefit = self.benefits.get(kind)
            if benefit is not None:
                if benefit not in available:
                    available.append(benefit)
            elif kind in self.closing:
                closes = True
        if not (closes and available):
            return None
        return [available if kind in self.closing else [] for kind in kinds]
