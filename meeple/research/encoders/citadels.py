"""The Citadels encoding (docs/research.md): each seat's gold, hand size and city, the observer's hand,
the characters as far as the observer knows them, and the turn in progress, seats relative to the
observer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from meeple.games.citadels.data import DISTRICT_TYPE, KIND_COUNT
from meeple.games.citadels.observation import CitadelsObservation
from meeple.research.encoding import Encoder, Field, Vector, dense, one_hot, per_seat

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState

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

    def encode_state(self, state: Any, seat: int) -> Vector:
        """The fast path: ``_fill`` written straight from the state, reading exactly the facts that
        ``observe(state, seat)`` reads (and the same way), as flat positions and raw values (each
        position once). tests/research/test_fast_paths.py proves it equal to
        ``encode(state.observation(seat))``."""
        from meeple.games.citadels.state import P_DISCARD, P_GRAVE, P_KEEP, P_OVER, P_PICK, P_REDRAW

        s: CitadelsState = state
        s._check_seat(seat)
        n = self.players
        if s.players != n:
            raise ValueError(f"a {s.players}-player citadels state given to the {n}-player citadels encoder")
        off = self.offset
        at: list[int] = []
        values: list[float] = []
        put, value = at.append, values.append
        rel = [(other - seat) % n for other in range(n)]
        phase = s.phase
        over = phase == P_OVER
        holder = s.holder
        deciding = seat == s.cur
        selecting = phase in (P_PICK, P_DISCARD)
        in_turn = not selecting and not over
        put(off["phase"] + phase)  # the engine's phase numbers are PHASES' order
        value(1.0)
        if not over:
            put(off["current_player"] + rel[s.cur])
            value(1.0)
        put(off["crown"] + rel[s.crown])
        value(1.0)
        if s.first_complete >= 0:
            put(off["first_complete"] + rel[s.first_complete])
            value(1.0)
        at.extend((off["round"], off["complete_at"], off["deck"],
                   off["face_down_count"], off["offered_count"], off["builds_left"]))
        values.extend((s.round_no, s.rules.cap, len(s.deck), len(s.facedown) + (1 if s.reserved >= 0 else 0),
                       len(s.pool) if selecting else 0, s.builds_left if in_turn else 0))
        gold, hands, scores = s.gold, s.hands, s.scores()
        order = [(seat + r) % n for r in range(n)]
        for name, numbers in (("gold", gold), ("hand_counts", [len(h) for h in hands]), ("scores", scores)):
            start = off[name]
            at.extend(range(start, start + n))
            values.extend([numbers[other] for other in order])
        sizes, types, cities = off["city_sizes"], off["city_types"], off["cities"]
        for other, city in enumerate(s.cities):
            if city:
                r = rel[other]
                put(sizes + r)
                value(len(city))
                per_type = [0] * 5
                city_base = cities + D * r
                for d in city:
                    per_type[DISTRICT_TYPE[d]] += 1
                    put(city_base + d)  # a city never holds a name twice
                    value(1.0)
                at.extend(range(types + 5 * r, types + 5 * r + 5))
                values.extend(per_type)
        for name, cards in (("hand", hands[seat]),
                            ("drawn", s.drawn if deciding and phase == P_KEEP else ()),
                            ("marked", s.marked if deciding and phase == P_REDRAW else ())):
            if cards:
                per_kind: dict[int, int] = {}
                for d in cards:
                    per_kind[d] = per_kind.get(d, 0) + 1
                start = off[name]
                at.extend([start + d for d in per_kind])
                values.extend(per_kind.values())
        for name, characters in (("face_up", s.faceup), ("face_down_seen", s.seen_face_down(seat)),
                                 ("my_characters", [c for c in range(C) if holder[c] == seat]),
                                 ("offered", s.pool if selecting and deciding else ())):
            start = off[name]
            for c in characters:
                put(start + c)
                value(1.0)
        revealed_bits = 0xFF if over else s.revealed
        start = off["revealed"]
        for c in range(C):
            if revealed_bits >> c & 1 and holder[c] >= 0:
                put(start + n * c + rel[holder[c]])
                value(1.0)
        if s.killed >= 0:
            put(off["murdered"] + s.killed)
            value(1.0)
        if s.robbed >= 0:
            put(off["robbed"] + s.robbed)
            value(1.0)
        if in_turn:
            if s.rank >= 0:
                put(off["character"] + s.rank)
                value(1.0)
            if s.turn_seat >= 0:
                put(off["turn_seat"] + rel[s.turn_seat])
                value(1.0)
            start = off["turn_flags"]
            at.extend(range(start, start + 6))
            values.extend((s.gathered, s.tax_used, s.power_used, s.lab_used, s.smithy_used, s.builds_left > 0))
        if phase == P_KEEP:
            at.extend((off["keep"], off["keep"] + 1))
            values.extend((len(s.drawn), s.keeps_left))
        if phase == P_GRAVE and s.grave_card >= 0:
            put(off["graveyard_card"] + s.grave_card)
            value(1.0)
        return self._scatter(at, values)
