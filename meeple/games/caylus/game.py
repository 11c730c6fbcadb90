"""Caylus's metadata and options (rules/caylus.md §4.2): one option per DECISION marked as such."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.benefits import OptionalBenefits
from meeple.core.contract import JSON, Game
from meeple.core.errors import InvalidOptions
from meeple.core.options import Option, OptionSet, OptionValue
from meeple.games.caylus.data import NEUTRAL_IDS, TILES
from meeple.games.caylus.state import CaylusState

NEUTRAL_SLUGS = tuple(TILES[t].slug for t in NEUTRAL_IDS)

OPTIONS = OptionSet(
    (
        Option("jeweller", False, "D1: add the later printings' Jeweller stone tile", choices=(False, True),
               group="setup"),
        Option("lawyer_pp", 4, "D2: prestige for building the Lawyer (4 first edition, 3 later)", choices=(4, 3)),
        Option(
            "lawyer_targets",
            "wood_only",
            "D5: besides neutral tiles, a lawyer converts the user's own wood tiles ('wood_only', the seed "
            "guide's lawyer paragraph, default) or his own wood or stone tiles ('wood_stone', the reference)",
            choices=("wood_only", "wood_stone"),
        ),
        Option("pp_floor", True, "D10: prestige never goes below 0", choices=(True, False)),
        Option(
            "tower_full_penalty",
            "if_no_batch",
            "D11: a castle worker with no room left escapes the -2 only if he could have given a batch "
            "(the seed guide's reading, default) or always ('none', the reference's reading)",
            choices=("if_no_batch", "none"),
        ),
        Option("simplified_favours", False, "§3.4, D24: every royal favour is simply 3 PP", choices=(False, True)),
        Option(
            "turn_order",
            None,
            "tests: the first turn order as comma-separated seats, e.g. '2,0,3,1' (default random)",
            kind=str,
            group="research",
        ),
        Option(
            "neutral_order",
            None,
            "tests: the neutral tiles on spaces 1-6, comma-separated slugs (default random)",
            kind=str,
            group="research",
        ),
    ),
    presets={
        "standard": {},
        "later_printing": {"jeweller": True, "lawyer_pp": 3},
        "beginner": {"simplified_favours": True},
    },
)


class Caylus(Game[CaylusState]):
    """Caylus: worker placement along a road of buildings, a castle, and the royal favour table."""

    name = "caylus"
    title = "Caylus"
    min_players = 2
    max_players = 5
    option_set = OPTIONS
    state_class = CaylusState
    observation_module = "meeple.games.caylus.observation"
    # docs/rules/caylus.md §2.6 and §7.2: every phase-5 effect but production (and the favour `bld`) may be
    # declined with `skip`; `castle:done` stops handing in batches while one could still be built.
    optional_benefits = OptionalBenefits(closing=frozenset({"skip", "castle_done"}), benefits={
        **dict.fromkeys(("sell", "buy", "church", "tailor", "bank", "alch", "jewel", "build", "lawyer"), "effect"),
        "castle": "castle"})

    def components(self) -> JSON:
        from meeple.games.caylus.components import components

        return components()

    def resolve_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, OptionValue]:
        resolved = self.option_set.resolve(options)
        order = resolved["turn_order"]
        if order is not None:
            seats = str(order).split(",")
            if sorted(seats) != [str(p) for p in range(players)]:
                raise InvalidOptions(f"turn_order must list each of the {players} seats once, not {order!r}")
        neutral = resolved["neutral_order"]
        if neutral is not None and sorted(str(neutral).split(",")) != sorted(NEUTRAL_SLUGS):
            raise InvalidOptions(f"neutral_order must list the six neutral tiles once: {', '.join(NEUTRAL_SLUGS)}")
        return resolved
