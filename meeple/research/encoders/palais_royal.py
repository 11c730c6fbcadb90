"""The Palais Royal encoding (docs/research.md): rooms, majorities, the garden with each noble's
printed numbers, hands, cards and the turn's counters, seats relative to the observer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from meeple.games.palais_royal.data import PRIVILEGE_CODES, components
from meeple.games.palais_royal.observation import PalaisObservation
from meeple.research.encoding import Encoder, Field, Vector, dense, one_hot, per_seat, rows

PHASES = ("setup", "play", "over")
PENDING = ("place", "step", "edge", "keep")
#: Per garden square: present, cost now, printed gold, turquoise, violet, VP, then one flag per
#: privilege, then the garden servant's seat (relative).
SQUARE_NUMBERS = 6
_NOBLES = components().nobles
_PRIVILEGE = {code: i for i, code in enumerate(PRIVILEGE_CODES)}
#: Per noble: (gold, turquoise, violet, VP, privilege index or -1).
NOBLE_STATS = tuple((n.gold, n.turquoise, n.violet, n.vp, _PRIVILEGE.get(n.privilege, -1)) for n in _NOBLES)
_NOBLE_COLUMNS = SQUARE_NUMBERS + len(PRIVILEGE_CODES)


def _noble_table() -> Vector:
    """Row ``t``: noble ``t``'s square columns (present, cost placeholder, printed numbers, privilege flag);
    the last row, read for -1, is zero."""
    table = np.zeros((len(NOBLE_STATS) + 1, _NOBLE_COLUMNS), np.float32)
    for t, (gold, turquoise, violet, vp, privilege) in enumerate(NOBLE_STATS):
        table[t, :SQUARE_NUMBERS] = (1, 0, gold, turquoise, violet, vp)
        if privilege >= 0:
            table[t, SQUARE_NUMBERS + privilege] = 1
    return table


_NOBLE_TABLE = _noble_table()
_ONES_9 = (1.0,) * 9


class PalaisRoyalEncoder(Encoder):
    game = "palais_royal"
    version = 1

    def _fields(self) -> Iterable[Field]:
        n = self.players
        square = SQUARE_NUMBERS + len(PRIVILEGE_CODES) + n
        return (
            Field("phase", (3,), 1, "setup / play / over"),
            Field("round", (1,), 40, "round number"),
            Field("final_round", (1,), 1, "this round is the last"),
            Field("start_seat", (n,), 1, "the start player", "n"),
            Field("current_player", (n,), 1, "the seat deciding now", "n"),
            Field("layout", (9, 9), 1, "each cell's room (row-major, row 0 next to the garden), one-hot by room"),
            Field("rooms", (n, 9), 12, "servants per seat and room", "n × 9"),
            Field("majority", (9, n), 1, "each room's majority holder", "9 × n"),
            Field("cardinal_strength", (n,), 12, "servants in CAR + CARDINAL nobles", "n"),
            Field("pool", (n,), 25, "servants in each pool", "n"),
            Field("general_supply", (n,), 7, "servants in each general supply", "n"),
            Field("gold", (n,), 40, "gold", "n"),
            Field("gold_supply", (1,), 57, "gold left in a limited supply (0 when unlimited)"),
            Field("garden", (36, square), 12,
                  "per square a1…f6: noble present, its cost for the player on turn, printed gold, turquoise and "
                  "violet seals, VP, a flag per privilege, then the garden servant's seat",
                  f"36 × ({SQUARE_NUMBERS} + {len(PRIVILEGE_CODES)} + n)"),
            Field("garden_nobles_left", (1,), 36, "nobles left in the garden"),
            Field("nobles", (n, 2), 36, "per seat: nobles recruited, their VP", "n × 2"),
            Field("active_privileges", (n, 10), 4, "privilege tallies in effect", "n × 10"),
            Field("waiting_privileges", (n, 10), 4, "privilege tallies from the owner's next turn", "n × 10"),
            Field("hand_counts", (n,), 12, "cards in each hand", "n"),
            Field("hand", (9,), 4, "the observer's cards by kind"),
            Field("played_cards", (n, 9), 4, "played cards kept in front (FAVOUR)", "n × 9"),
            Field("deck", (2,), 36, "cards in the deck, in the discard pile"),
            Field("discard", (9,), 4, "the discard pile by kind (zeros when it is face down)"),
            Field("step", (5,), 1, "the turn's step 1–5"),
            Field("turn_numbers", (7,), 12,
                  "gate allowance, movement points, virtual slots, turquoise and violet seals, patron discount, "
                  "Back door units left"),
            Field("turn_flags", (7,), 1, "gate locked, movement locked, mint / king / pomp done, TIE card, drew"),
            Field("pending", (4,), 1, "place / step / edge / keep"),
            Field("setup_left", (1,), 10, "servants still to place in setup"),
            Field("edge_square", (36,), 1, "the square whose garden servant is placed now"),
            Field("drawn_count", (1,), 6, "cards drawn at the Back door"),
            Field("drawn", (9,), 4, "those cards by kind (the drawer only)"),
            Field("scores", (n,), 60, "running scores", "n"),
        )

    def _fill(self, obs: Any, at: list[int], values: list[float], raw: Vector) -> None:
        o: PalaisObservation = obs
        n = self.players
        rel = self.relative(o)
        order = self.order(o)
        off = self.offset
        one_hot(at, values, off["phase"], PHASES.index(o.phase))
        dense(at, values, off["round"], (o.round,))
        dense(at, values, off["final_round"], (o.final_round,))
        one_hot(at, values, off["start_seat"], rel[o.start_seat])
        if o.current_player is not None:
            one_hot(at, values, off["current_player"], rel[o.current_player])
        base = off["layout"]
        at.extend([base + 9 * cell + room for cell, room in enumerate(o.layout)])
        values.extend(_ONES_9)
        rows(at, values, off["rooms"], o.rooms, order)
        base = off["majority"]
        for room, holder in enumerate(o.majority):
            if holder >= 0:
                at.append(base + n * room + rel[holder])
                values.append(1.0)
        for name, numbers in (("cardinal_strength", o.cardinal_strength), ("pool", o.pool),
                              ("general_supply", o.general_supply), ("gold", o.gold),
                              ("hand_counts", o.hand_counts), ("scores", o.scores)):
            per_seat(at, values, off[name], numbers, order)
        if o.gold_supply > 0:
            dense(at, values, off["gold_supply"], (o.gold_supply,))
        self._garden(o, rel, at, values, raw)
        dense(at, values, off["garden_nobles_left"], (o.garden_nobles_left,))
        base = off["nobles"]
        for r, seat in enumerate(order):
            owned = o.nobles[seat]
            if owned:
                dense(at, values, base + 2 * r, (len(owned), sum([NOBLE_STATS[t][3] for t in owned])))
        rows(at, values, off["active_privileges"], o.active_privileges, order)
        rows(at, values, off["waiting_privileges"], o.waiting_privileges, order)
        rows(at, values, off["played_cards"], o.played_cards, order)
        if o.hand is not None:
            dense(at, values, off["hand"], o.hand)
        dense(at, values, off["deck"], (o.deck_size, o.discard_size))
        if o.discard is not None:
            dense(at, values, off["discard"], o.discard)
        turn = o.turn
        if turn is not None:
            one_hot(at, values, off["step"], turn.step - 1)
            dense(at, values, off["turn_numbers"], (
                max(turn.gate_allowance, 0), max(turn.movement_points, 0), turn.virtual_slots, turn.virtual_turquoise,
                turn.virtual_violet, turn.patron_discount, turn.backdoor_virtual_left))
            dense(at, values, off["turn_flags"], (
                turn.gate_locked, turn.movement_locked, turn.mint_done, turn.king_done, turn.pomp_done, turn.tie_card,
                turn.drew))
        if o.pending:
            one_hot(at, values, off["pending"], PENDING.index(o.pending))
        dense(at, values, off["setup_left"], (o.setup_left,))
        one_hot(at, values, off["edge_square"], o.edge_square)
        dense(at, values, off["drawn_count"], (o.drawn_count,))
        if o.drawn is not None:
            dense(at, values, off["drawn"], o.drawn)

    def _garden(self, o: PalaisObservation, rel: list[int], at: list[int], values: list[float], raw: Vector) -> None:
        """Each square's noble from the table of printed numbers (numpy), its cost, its garden servant."""
        base = self.offset["garden"]
        width = SQUARE_NUMBERS + len(PRIVILEGE_CODES) + self.players
        square = raw[base:base + 36 * width].reshape(36, width)
        square[:, :_NOBLE_COLUMNS] = _NOBLE_TABLE[np.array(o.garden)]  # -1 (no noble) reads the zero row
        square[:, 1] = np.maximum(np.array(o.garden_costs), 0)
        servant_at = base + SQUARE_NUMBERS + len(PRIVILEGE_CODES)
        for q, seat in enumerate(o.garden_servants):
            if seat >= 0:
                at.append(servant_at + width * q + rel[seat])
                values.append(1.0)
