"""Citadels (Classic edition), 2–7 players: the ``Game`` with its options and presets (reference §4.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.benefits import OptionalBenefits
from meeple.core.contract import JSON, Game
from meeple.core.errors import InvalidOptions
from meeple.core.options import Option, OptionSet, OptionValue
from meeple.games.citadels.state import CitadelsState

OPTIONS = OptionSet(
    (
        Option("deck", "classic68", "D1: which unique districts are in the deck (68, 66 or 65 cards)",
               choices=("classic68", "ffg66", "original65"), group="setup"),
        Option("complete_at", None, "§3.1: districts that complete a city; None = 7 with 4–7 players, 8 with 2–3",
               choices=(None, 7, 8), group="scoring"),
        Option("classic_variant", False, "§3.1: the classic variant, cities complete at 8 districts with 4–7 players",
               choices=(False, True), group="scoring"),
        Option("overbuild", False, "D11: allow building beyond the completion size (FFG)", choices=(False, True),
               group="scoring"),
        Option("observatory_cost", 4, "D2: the Observatory's cost (5 in older printings)", choices=(4, 5)),
        Option("laboratory_gold", 1, "D3: gold the Laboratory pays for a discarded card", choices=(1, 2)),
        Option("smithy", "3:2", "D4: the Smithy's price and cards drawn, 'pay:draw'", choices=("3:2", "2:3")),
        Option("library", "plus_one", "D5: the Library keeps one extra drawn card, or all of them",
               choices=("plus_one", "keep_all")),
        Option("haunted_last_round", True, "D6: a Haunted Quarter built in the final round may still count as any type",
               choices=(True, False)),
        Option("great_wall_self", False, "D7: the Great Wall's surcharge also protects the Great Wall itself",
               choices=(False, True)),
        Option("bonus_timing", "start", "D13: Merchant +1 gold and Architect +2 cards at the start of the turn or "
               "right after gathering", choices=("start", "after_gather")),
        Option("tie_break", "rank", "D22: ties go to the highest character chosen in the final round, or (FFG) to "
               "district points, then gold, then a shared win", choices=("rank", "ffg"), group="scoring"),
        Option("first_crown", "seat0", "D18: who holds the crown first", choices=("seat0", "random"), group="setup"),
        Option("max_rounds", None, "D31: stop and score after this many rounds (research only)", kind=int,
               minimum=1, group="research"),
    ),
    presets={
        "classic": {},
        "classic_cards": {"laboratory_gold": 2, "smithy": "2:3", "library": "keep_all"},
        "original": {"deck": "original65", "observatory_cost": 5, "complete_at": 8},
    },
)


class Citadels(Game[CitadelsState]):
    """Citadels Classic: draft secret characters, then build a city of districts."""

    name = "citadels"
    title = "Citadels"
    min_players = 2
    max_players = 7
    option_set = OPTIONS
    state_class = CitadelsState
    observation_module = "meeple.games.citadels.observation"
    # docs/rules/citadels.md §7.2: `end` closes the turn; taxes and every character or district ability
    # are optional (building is a choice, not a benefit left lying).
    optional_benefits = OptionalBenefits(closing=frozenset({"end"}), benefits={
        "tax": "tax", "kill": "kill", "rob": "rob", "swap": "magician", "redraw": "magician",
        "destroy": "destroy", "lab": "lab", "smithy": "smithy"})

    def components(self) -> JSON:
        from meeple.games.citadels.components import components

        return components()

    def resolve_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, OptionValue]:
        resolved = self.option_set.resolve(options)
        if resolved["classic_variant"] and resolved["complete_at"] == 7:
            raise InvalidOptions("classic_variant means cities complete at 8; it contradicts complete_at=7")
        return resolved
