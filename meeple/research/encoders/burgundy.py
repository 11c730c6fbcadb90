"""The Castles of Burgundy encoding (docs/research.md): every estate space by space (board colour,
filled, building, animals), storage, goods, dice, knowledge, the depots and the track, seats relative
to the observer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from meeple.games.burgundy.data import (
    ANIMAL_COUNT,
    ANIMAL_KIND,
    BOARDS,
    BUILDINGS,
    FIRST_BUILDING,
    SPACES,
    TILE_KINDS,
    TYPE_LETTERS,
)
from meeple.games.burgundy.observation import BurgundyObservation
from meeple.games.burgundy.state import PENDING_NAMES
from meeple.research.encoding import Encoder, Field, Vector, dense, one_hot, rows

#: Per estate space: 6 board colours, filled, 8 buildings, 4 animal kinds, the animals on it.
SPACE_WIDTH = 6 + 1 + len(BUILDINGS) + 4 + 1
_ANIMALS_AT = 6 + 1 + len(BUILDINGS) + 4
TILES = TILE_KINDS
_BUILDING = tuple(t - FIRST_BUILDING if FIRST_BUILDING <= t < FIRST_BUILDING + len(BUILDINGS) else -1
                  for t in range(TILES))
_BOARD_TYPES = {key: np.array(board.types[1:]) for key, board in BOARDS.items()}


class BurgundyEncoder(Encoder):
    game = "burgundy"
    version = 1

    def _fields(self) -> Iterable[Field]:
        n = self.players
        return (
            Field("phase", (5,), 1, "phase A–E"),
            Field("round", (5,), 1, "round 1–5"),
            Field("current_player", (n,), 1, "the seat deciding now", "n"),
            Field("turn_seat", (n,), 1, "the seat whose turn it is", "n"),
            Field("dice_left", (6,), 2, "its unused dice by value"),
            Field("bought", (1,), 1, "its purchase is used"),
            Field("pending", (len(PENDING_NAMES),), 1, "the top decision: " + " / ".join(PENDING_NAMES)),
            Field("pending_depth", (1,), 6, "open decisions"),
            Field("pending_die", (6,), 1, "die: the value used"),
            Field("pending_building", (3,), 1, "building_take: carpenter / church / market"),
            Field("pending_incoming", (TILES,), 1, "discard: the tile arriving in a full storage"),
            Field("pending_keep", (7,), 3, "ship_keep: the depots 1–6 taken, then the free goods slots"),
            Field("estates", (n, SPACES, SPACE_WIDTH), 4,
                  "per seat and space 1–37: board colour (A B C K M S), filled, building (warehouse … cityhall), "
                  "animal kind (cow pig sheep chicken), animals (cap 4); zero while hidden",
                  f"n × {SPACES} × {SPACE_WIDTH}"),
            Field("seat_numbers", (n, 6), 40,
                  "empty spaces, VP/5, silverlings, workers, track position, position in the track order",
                  "n × 6"),
            Field("goods", (n, 6), 8, "goods tiles held per kind 1–6", "n × 6"),
            Field("sold", (n, 6), 8, "goods tiles sold per kind", "n × 6"),
            Field("storage", (n, TILES), 3, "stored tiles per tile code", f"n × {TILES}"),
            Field("dice", (n, 6), 2, "this round's dice by value", "n × 6"),
            Field("knowledge", (n, 26), 1, "knowledge tiles K01–K26 placed", "n × 26"),
            Field("bonus_tiles", (6, 2, n), 1, "per colour the large and small bonus tile's holder", "6 × 2 × n"),
            Field("depots", (7, TILES), 4, "tiles on each depot (0 = black) per tile code", f"7 × {TILES}"),
            Field("depot_goods", (6, 6), 4, "goods on depots 1–6 per kind", "6 × 6"),
            Field("round_goods", (6,), 5, "goods still on the round's spaces per kind"),
            Field("white_die", (6,), 1, "the white die"),
            Field("supply", (14,), 40,
                  "future goods stacks (5), goods in the box, face-down white piles per colour (6), black pile, "
                  "tiles removed"),
        )

    def _fill(self, obs: Any, at: list[int], values: list[float], raw: Vector) -> None:
        o: BurgundyObservation = obs
        n = self.players
        rel = self.relative(o)
        order = self.order(o)
        off = self.offset
        one_hot(at, values, off["phase"], o.phase)
        one_hot(at, values, off["round"], o.round - 1)
        if o.current_player is not None:
            one_hot(at, values, off["current_player"], rel[o.current_player])
        if o.turn_seat >= 0:
            one_hot(at, values, off["turn_seat"], rel[o.turn_seat])
        dense(at, values, off["dice_left"], _die_counts(o.dice_left))
        dense(at, values, off["bought"], (o.bought,))
        if o.pending:
            one_hot(at, values, off["pending"], PENDING_NAMES.index(o.pending))
        dense(at, values, off["pending_depth"], (len(o.pending_stack),))
        one_hot(at, values, off["pending_die"], o.pending_die - 1)
        if o.pending_building:
            one_hot(at, values, off["pending_building"], ("carpenter", "church", "market").index(o.pending_building))
        one_hot(at, values, off["pending_incoming"], o.pending_incoming)
        keep = off["pending_keep"]
        for d in o.pending_depots:
            at.append(keep + d - 1)
            values.append(1.0)
        dense(at, values, keep + 6, (o.pending_free_slots,))
        estates = off["estates"]
        track = o.track_order
        for r, seat in enumerate(order):
            start = estates + r * SPACES * SPACE_WIDTH
            spaces = raw[start:start + SPACES * SPACE_WIDTH].reshape(SPACES, SPACE_WIDTH)
            board = o.boards[seat]
            if board:
                spaces[_SPACE_ROWS, _BOARD_TYPES[board]] = 1.0
            spaces[:, 6:] = _TILE_FEATURES[np.array(o.estates[seat])]  # -1 (empty) reads the zero row
            dense(at, values, off["seat_numbers"] + 6 * r, (
                max(o.empty_spaces[seat], 0), o.vp[seat] / 5, o.silverlings[seat], o.workers[seat],
                o.track_position[seat], track.index(seat) + 1))
            stored = [0] * TILES
            for tile in o.storage[seat]:
                stored[tile] += 1
            dense(at, values, off["storage"] + TILES * r, stored)
            dense(at, values, off["dice"] + 6 * r, _die_counts(o.dice[seat]))
            base = off["knowledge"] + 26 * r - 1
            at.extend([base + k for k in o.knowledge[seat]])
            values.extend([1.0] * len(o.knowledge[seat]))
        rows(at, values, off["goods"], o.goods, order)
        rows(at, values, off["sold"], o.sold, order)
        base = off["bonus_tiles"]
        for colour in range(len(TYPE_LETTERS)):
            for size, holder in enumerate((o.bonus_large[colour], o.bonus_small[colour])):
                if holder >= 0:
                    at.append(base + n * (2 * colour + size) + rel[holder])
                    values.append(1.0)
        base = off["depots"]
        for depot, tiles in enumerate(o.depots):
            for tile in set(tiles):
                at.append(base + TILES * depot + tile)
                values.append(tiles.count(tile))
        dense(at, values, off["depot_goods"], [g for goods in o.depot_goods for g in goods])
        round_goods = [0] * 6
        for g in o.round_goods:
            round_goods[g - 1] += 1
        dense(at, values, off["round_goods"], round_goods)
        one_hot(at, values, off["white_die"], o.white_die - 1)
        dense(at, values, off["supply"], (*o.future_goods_stacks, o.box_goods, *o.white_piles, o.black_pile,
                                          len(o.removed)))


def _die_counts(dice: tuple[int, ...]) -> list[int]:
    counts = [0] * 6
    for die in dice:
        if die:
            counts[die - 1] += 1
    return counts


def _tile_features() -> Vector:
    """Row ``t``: a filled space holding tile ``t`` (filled, building one-hot, animal kind one-hot, animals);
    the last row, read for -1, is zero."""
    table = np.zeros((TILES + 1, SPACE_WIDTH - 6), np.float32)
    for tile in range(TILES):
        table[tile, 0] = 1.0
        if _BUILDING[tile] >= 0:
            table[tile, 1 + _BUILDING[tile]] = 1.0
        if ANIMAL_KIND[tile] >= 0:
            table[tile, 1 + len(BUILDINGS) + ANIMAL_KIND[tile]] = 1.0
            table[tile, _ANIMALS_AT - 6] = ANIMAL_COUNT[tile]
    return table


_TILE_FEATURES = _tile_features()
_SPACE_ROWS = np.arange(SPACES)
