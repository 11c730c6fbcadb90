"""The Caylus encoding (docs/research.md): the road space by space, the special buildings, the castle,
each seat's holdings and the decision waiting, seats relative to the observer (Caylus hides nothing)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from meeple.games.caylus.data import CUBES, LAST_SPACE, PENDING_NAMES, ROWS, STABLES_SPOTS, TILES
from meeple.games.caylus.observation import CaylusObservation
from meeple.research.encoding import Encoder, Field, Vector, dense, one_hot, rows

T = len(TILES)
_ROAD_ROWS = T * np.arange(LAST_SPACE)  # flat offset of each road space's tile one-hot
PENDING = PENDING_NAMES[1:]  # "none" never waits for a decision


class CaylusEncoder(Encoder):
    game = "caylus"
    version = 1

    def _fields(self) -> Iterable[Field]:
        n = self.players
        return (
            Field("turn", (1,), 18, "turn number"),
            Field("phase", (7,), 1, "phase 1–7 (all zero once over)"),
            Field("pending", (len(PENDING),), 1, "the decision waiting: " + " / ".join(PENDING)),
            Field("current_player", (n,), 1, "the seat deciding now", "n"),
            Field("pending_space", (LAST_SPACE,), 1, "activate / bonus: the road space"),
            Field("pending_worker", (n,), 1, "activate / bonus: the worker's owner", "n"),
            Field("pending_numbers", (4,), 6,
                  "favours still to take, favour column reached, castle batches given, price of a special building"),
            Field("pending_section", (3,), 1, "castle: the section the next house goes to"),
            Field("turn_order", (n, n), 1, "each seat's position in the turn order", "n × n"),
            Field("passing_order", (n, n), 1, "each seat's position on the bridge (passed)", "n × n"),
            Field("bailiff_provost", (2,), LAST_SPACE, "bailiff and provost spaces"),
            Field("road_tiles", (LAST_SPACE, T), 1, "each road space's building (all zero: an empty lot)",
                  f"{LAST_SPACE} × {T}"),
            Field("road_owners", (LAST_SPACE, n), 1, "each road building's owner", f"{LAST_SPACE} × n"),
            Field("road_workers", (LAST_SPACE, n), 1, "the worker on each road space", f"{LAST_SPACE} × n"),
            Field("road_residence_of", (LAST_SPACE, n), 1, "a lawyer's pending conversion: the future owner",
                  f"{LAST_SPACE} × n"),
            Field("specials", (4, n), 1, "the worker on the gate, trading post, merchants' guild, joust", "4 × n"),
            Field("stables", (STABLES_SPOTS, n), 1, "the workers in the stables, in order", "3 × n"),
            Field("inn", (2, n), 1, "the workers in the inn's left and right circles", "2 × n"),
            Field("castle_workers", (n,), 6, "each seat's workers in the castle", "n"),
            Field("houses", (3, n), 8, "houses per section and seat", "3 × n"),
            Field("castle", (5,), 14, "houses built in the dungeon, walls, towers; sections scored; favour column cap"),
            Field("deniers", (n,), 40, "deniers", "n"),
            Field("cubes", (n, 5), 12, "cubes (" + " ".join(CUBES) + ")", "n × 5"),
            Field("prestige", (n,), 100, "prestige points", "n"),
            Field("favours", (n, 4), 5, "favour column reached per row (" + ", ".join(ROWS) + ")", "n × 4"),
            Field("favour_rows_used", (n, 4), 1, "favour rows used in this scoring", "n × 4"),
            Field("workers", (n, 3), 6, "workers available, placed, castle batches given this turn", "n × 3"),
            Field("stock", (T,), 2, "tiles left in the stock"),
            Field("removed", (T,), 1, "neutral tiles turned into residences"),
            Field("favour_queue", (n,), 6, "favours each seat still has to take", "n"),
            Field("scores", (n, 2), 120, "prestige now, score were the game to end now", "n × 2"),
        )

    def _fill(self, obs: Any, at: list[int], values: list[float], raw: Vector) -> None:
        o: CaylusObservation = obs
        n = self.players
        rel = self.relative(o)
        order = self.order(o)
        off = self.offset
        dense(at, values, off["turn"], (o.turn,))
        one_hot(at, values, off["phase"], o.phase - 1)
        if o.pending:
            one_hot(at, values, off["pending"], PENDING.index(o.pending))
        if o.current_player is not None:
            one_hot(at, values, off["current_player"], rel[o.current_player])
        one_hot(at, values, off["pending_space"], o.pending_space - 1)
        if o.pending_worker >= 0:
            one_hot(at, values, off["pending_worker"], rel[o.pending_worker])
        dense(at, values, off["pending_numbers"], (o.pending_favours, o.pending_column, o.pending_batches,
                                                  o.place_price))
        one_hot(at, values, off["pending_section"], o.pending_section)
        for name, sequence in (("turn_order", o.turn_order), ("passing_order", o.passing_order)):
            base = off[name]
            for position, seat in enumerate(sequence):
                at.append(base + n * rel[seat] + position)
                values.append(1.0)
        dense(at, values, off["bailiff_provost"], (o.bailiff, o.provost))
        tiles = np.array(o.road_tiles)
        built = tiles >= 0
        raw[off["road_tiles"] + _ROAD_ROWS[built] + tiles[built]] = 1.0
        for name, seats in (("road_owners", o.road_owners), ("road_workers", o.road_workers),
                            ("road_residence_of", o.road_residence_of)):
            base = off[name]
            for space, seat in enumerate(seats):
                if seat >= 0:
                    at.append(base + n * space + rel[seat])
                    values.append(1.0)
        base = off["specials"]
        for i, seat in enumerate((o.gate, o.trading_post, o.guild, o.joust)):
            if seat >= 0:
                one_hot(at, values, base + n * i, rel[seat])
        base = off["stables"]
        for i, seat in enumerate(o.stables):
            one_hot(at, values, base + n * i, rel[seat])
        base = off["inn"]
        for i, seat in enumerate((o.inn_left, o.inn_right)):
            if seat >= 0:
                one_hot(at, values, base + n * i, rel[seat])
        in_castle = [0] * n
        for seat in o.castle_workers:
            in_castle[rel[seat]] += 1
        dense(at, values, off["castle_workers"], in_castle)
        base = off["houses"]
        for section in range(3):
            for seat in range(n):
                if o.houses[section][seat]:
                    at.append(base + n * section + rel[seat])
                    values.append(o.houses[section][seat])
        dense(at, values, off["castle"], (*o.castle_filled, o.sections_scored, o.favour_cap))
        queue = [0] * n
        for seat, favours in o.favour_queue:
            queue[rel[seat]] += favours
        dense(at, values, off["favour_queue"], queue)
        for r, seat in enumerate(order):
            at.append(off["deniers"] + r)
            values.append(o.deniers[seat])
            at.append(off["prestige"] + r)
            values.append(o.prestige[seat])
            dense(at, values, off["workers"] + 3 * r, (o.workers_available[seat], o.workers_placed[seat],
                                                       o.batches[seat]))
            dense(at, values, off["scores"] + 2 * r, (o.prestige[seat], o.final_scores[seat]))
        rows(at, values, off["cubes"], o.cubes, order)
        rows(at, values, off["favours"], o.favours, order)
        rows(at, values, off["favour_rows_used"], o.favour_rows_used, order)
        dense(at, values, off["stock"], o.stock)
        base = off["removed"]
        for t in o.removed_neutral:
            at.append(base + t)
            values.append(1.0)
