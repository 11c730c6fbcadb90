"""The Palais Royal game: metadata, options (one per DECISION of the rules reference §5) and factory.

>>> from meeple import load_game
>>> state = load_game("palais_royal").new_game(players=2, seed=1, options={"layout": "first_game"})
>>> state.view(None)["layout"][1]
['MIN', 'GAT', 'POM']
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from meeple.core.benefits import OptionalBenefits
from meeple.core.contract import JSON, Game
from meeple.core.errors import InvalidOptions
from meeple.core.options import Option, OptionSet, OptionValue
from meeple.games.palais_royal.data import GAT, ROOM_CODES, components
from meeple.games.palais_royal.rules import ROOM_INDEX, parse_layout
from meeple.games.palais_royal.state import PalaisRoyalState


@cache
def _shipped_overuse() -> tuple[str, ...]:
    """``privilege_overuse`` of the shipped data (loaded once), checked on every new game."""
    return tuple(components().privilege_overuse())


OPTIONS = OptionSet(
    (
        Option("layout", "random",
               "room layout (§1.2): 'random' (standard), 'first_game' (the rulebook's suggestion) or 9 "
               "comma-separated room codes in row-major order, row 0 next to the garden", kind=str, group="setup",
               suggestions=("random", "first_game")),
        Option("gate_fixed_centre", False, "D-19: keep the Gate in the centre and shuffle only the other 8 rooms",
               choices=(False, True), group="setup"),
        Option("initial_placement", "fixed_3_2",
               "D-20: 'fixed_3_2' (3 on STA + 2 on PAR, then 5 free each) or 'free_10' (10 free each)",
               choices=("fixed_3_2", "free_10"), group="setup"),
        Option("start_seat", 0, "start player (§1.5 step 6): a seat number or 'random'",
               choices=(0, 1, 2, 3, "random"), group="setup"),
        Option("cost_reduction", "orthogonal",
               "D-1: which empty garden neighbours reduce a noble's gold cost",
               choices=("orthogonal", "orthogonal_diagonal", "none")),
        Option("corner_edges", "both", "D-3: a corner servant counts for both of its edges, or for none",
               choices=("both", "none"), group="scoring"),
        Option("edge_tie", "split",
               "D-4: tied players on an edge 'split' the places' points (rounded down), 'demote' (take the "
               "next lower place's value) or 'full' (all take the full value)",
               choices=("split", "demote", "full"), group="scoring"),
        Option("bonus_servant_from_rooms", True,
               "D-8: with an empty pool, the King/Pompadour bonus servant may come from another room",
               choices=(True, False)),
        Option("privilege_activation", "next_turn",
               "D-14: noble privileges start at the owner's next turn, or 'immediate' (SUPPLY is always at once)",
               choices=("next_turn", "immediate")),
        Option("step3_order", "free", "D-24: mint, king and pomp in any order, or 'fixed' (mint, king, pomp)",
               choices=("free", "fixed")),
        Option("hand_score_cap", 6, "D-13: at most this many points for cards kept in hand", kind=int,
               minimum=0, maximum=36, group="scoring"),
        Option("end_trigger_nobles", 12,
               "§3.1: the last round starts when the garden holds this many nobles or fewer at the start "
               "player's turn", kind=int, minimum=0, maximum=36, group="scoring"),
        Option("round_limit", 40,
               "not a rule of the game but an engine safeguard: the round with this number is the last "
               "(positions exist where no one can ever recruit again, e.g. every servant stranded); "
               "0 = no limit", kind=int, minimum=0, maximum=10_000, group="research"),
        Option("gold_limited", False, "D-17: the gold supply is limited to the 57 gold of the coins",
               choices=(False, True)),
        Option("winner_tiebreak", "nobles_then_gold",
               "D-18: equal scores are broken by most nobles, then most gold; or 'shared'",
               choices=("nobles_then_gold", "shared"), group="scoring"),
        Option("discard_public", True, "D-21: the discard pile is face up (its contents in every view)",
               choices=(True, False)),
        Option("hide_face_down_nobles", False,
               "D-23: a hint to user interfaces to draw other players' face-down nobles as backs "
               "(the engine keeps them public: everyone saw them leave the garden)", choices=(False, True)),
        Option("allow_nonstandard_data", False,
               "§4.5: accept data files in which a privilege appears on more than 2 noble tiles",
               choices=(False, True), group="research"),
    ),
    presets={
        "first_game": {"layout": "first_game"},
    },
)


class PalaisRoyal(Game[PalaisRoyalState]):
    """Palais Royal for 2–4 players (rules reference: docs/rules/palais_royal.md)."""

    name = "palais_royal"
    title = "Palais Royal"
    min_players = 2
    max_players = 4
    option_set = OPTIONS
    state_class = PalaisRoyalState
    observation_module = "meeple.games.palais_royal.observation"
    # docs/rules/palais_royal.md §2.3 and §8: `end` closes step 3 with the Mint's income or a majority
    # bonus untaken.
    optional_benefits = OptionalBenefits(closing=frozenset({"end"}), benefits={
        "mint": "mint", "king": "king", "pomp": "pomp"})

    def components(self) -> JSON:
        from meeple.games.palais_royal.components import components

        return components()

    def resolve_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, OptionValue]:
        given = dict(options or {})
        layout = given.get("layout")
        if isinstance(layout, list | tuple) and all(isinstance(c, str) for c in layout):
            given["layout"] = ",".join(layout)
        resolved = super().resolve_options(given, players)
        try:
            explicit = parse_layout(resolved["layout"])
        except ValueError as error:
            raise InvalidOptions(str(error)) from None
        if resolved["layout"] != "random" and resolved["gate_fixed_centre"]:
            centre = explicit[4] if explicit is not None else ROOM_INDEX[components().first_game_layout[4]]
            if centre != GAT:
                raise InvalidOptions(
                    f"gate_fixed_centre needs GAT in the centre, but the layout puts {ROOM_CODES[centre]} there"
                )
        start = resolved["start_seat"]
        if isinstance(start, int) and start >= players:
            raise InvalidOptions(f"start_seat {start} does not exist with {players} players")
        overuse = _shipped_overuse()
        if overuse and not resolved["allow_nonstandard_data"]:
            raise InvalidOptions(
                "nobles.toml: " + "; ".join(overuse) + ". Set the option allow_nonstandard_data=true to play "
                "with this file anyway."
            )
        return resolved
