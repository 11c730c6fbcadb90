"""The Citadels encoding (docs/research.md): each seat's gold, hand size and city, the observer's hand,
the characters as far as the observer knows them, and the turn in progress, seats relative to the
observer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meeple.games.citadels.data import DISTRICT_TYPE, KIND_COUNT
from meeple.games.citadels.observation import CitadelsObservation
from meeple.research.encoding import Encoder, Field, Vector, dense, one_hot, per_seat

PHASES = ("pick", "discard", "turn", "keep", "redraw", "graveyard", "over")
D = KIND_COUNT  # district kinds
C = 8  # characters


class CitadelsEncoder(Encoder):
    game = "citadels"
    version = 1

    def _fields(self) -> Iterable[Field]:
        n = self.players
        return (
            Field("phase", (7,), 1, "pick / discard / turn / keep / redraw / graveyard / over"),
            Field("round", (1,), 12, "round number"),
            Field("current_player", (n,), 1, "the seat deciding now", "n"),
            Field("crown", (n,), 1, "the crown's holder", "n"),
            Field("complete_at", (1,), 8, "districts that complete a city"),
            Field("first_complete", (n,), 1, "the first seat to complete its city", "n"),
            Field("deck", (1,), 68, "cards in the deck"),
            Field("gold", (n,), 20, "gold", "n"),
            Field("hand_counts", (n,), 12, "cards in each hand", "n"),
            Field("city_sizes", (n,), 8, "districts in each city", "n"),
            Field("city_types", (n, 5), 4, "districts of each type (noble, religious, trade, military, unique)",
                  "n × 5"),
            Field("cities", (n, D), 1, "the districts each city holds", f"n × {D}"),
            Field("scores", (n,), 40, "running scores", "n"),
            Field("hand", (D,), 3, "the observer's districts by kind"),
            Field("face_up", (C,), 1, "face-up character discards"),
            Field("face_down_count", (1,), 3, "face-down characters"),
            Field("face_down_seen", (C,), 1, "face-down characters the observer saw"),
            Field("my_characters", (C,), 1, "the observer's characters this round"),
            Field("revealed", (C, n), 1, "each revealed character's holder", "8 × n"),
            Field("murdered", (C,), 1, "the murdered character"),
            Field("robbed", (C,), 1, "the robbed character"),
            Field("offered_count", (1,), 8, "characters offered to the seat picking"),
            Field("offered", (C,), 1, "those characters (the picker only)"),
            Field("character", (C,), 1, "the character whose turn it is"),
            Field("turn_seat", (n,), 1, "its holder", "n"),
            Field("turn_flags", (6,), 1, "gathered, tax / power / laboratory / smithy used, a build left"),
            Field("builds_left", (1,), 3, "builds left this turn"),
            Field("keep", (2,), 3, "cards drawn, cards still to keep"),
            Field("drawn", (D,), 3, "the drawn cards by kind (the drawer only)"),
            Field("marked", (D,), 3, "cards marked by the Magician by kind (the Magician only)"),
            Field("graveyard_card", (D,), 1, "the destroyed district offered to the Graveyard"),
        )

    def _fill(self, obs: Any, at: list[int], values: list[float], raw: Vector) -> None:
        o: CitadelsObservation = obs
        n = self.players
        rel = self.relative(o)
        order = self.order(o)
        off = self.offset
        one_hot(at, values, off["phase"], PHASES.index(o.phase))
        dense(at, values, off["round"], (o.round,))
        if o.current_player is not None:
            one_hot(at, values, off["current_player"], rel[o.current_player])
        one_hot(at, values, off["crown"], rel[o.crown])
        dense(at, values, off["complete_at"], (o.complete_at,))
        if o.first_complete >= 0:
            one_hot(at, values, off["first_complete"], rel[o.first_complete])
        dense(at, values, off["deck"], (o.deck_count,))
        for name, numbers in (("gold", o.gold), ("hand_counts", o.hand_counts), ("scores", o.scores)):
            per_seat(at, values, off[name], numbers, order)
        sizes, types, cities = off["city_sizes"], off["city_types"], off["cities"]
        for seat in range(n):
            city = o.cities[seat]
            if city:
                r = rel[seat]
                at.append(sizes + r)
                values.append(len(city))
                per_type = [0] * 5
                for d in city:
                    per_type[DISTRICT_TYPE[d]] += 1
                    at.append(cities + D * r + d)  # a city never holds a name twice
                    values.append(1.0)
                dense(at, values, types + 5 * r, per_type)
        for name, cards in (("hand", o.hand), ("drawn", o.drawn), ("marked", o.marked)):
            if cards:
                per_kind = [0] * D
                for d in cards:
                    per_kind[d] += 1
                dense(at, values, off[name], per_kind)
        for name, characters in (("face_up", o.face_up), ("face_down_seen", o.face_down_seen),
                                 ("my_characters", o.my_characters), ("offered", o.offered or ())):
            base = off[name]
            for c in characters:
                at.append(base + c)
                values.append(1.0)
        dense(at, values, off["face_down_count"], (o.face_down_count,))
        base = off["revealed"]
        for c, holder in enumerate(o.revealed):
            if holder >= 0:
                one_hot(at, values, base + n * c, rel[holder])
        one_hot(at, values, off["murdered"], o.murdered)
        one_hot(at, values, off["robbed"], o.robbed)
        dense(at, values, off["offered_count"], (o.offered_count,))
        one_hot(at, values, off["character"], o.character)
        if o.turn_seat >= 0:
            one_hot(at, values, off["turn_seat"], rel[o.turn_seat])
        dense(at, values, off["turn_flags"], (o.gathered, o.tax_used, o.power_used, o.laboratory_used,
                                             o.smithy_used, o.builds_left > 0))
        dense(at, values, off["builds_left"], (o.builds_left,))
        dense(at, values, off["keep"], (o.drawn_count, o.keeps_left))
        one_hot(at, values, off["graveyard_card"], o.graveyard_card)
