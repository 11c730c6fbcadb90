"""The fixed facts of one game: the room layout, the component numbers and the decoded options.

One per game (setup or load), shared by every clone, so the hot path reads plain tuples of ints
instead of dictionaries of strings; its parts are memoised across games (see ``Rules``).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, compress
from typing import TypeVar

from meeple.core.options import OptionValue
from meeple.games.palais_royal.actions import END_ACTION, MOVE_BETWEEN, PalaisAction
from meeple.games.palais_royal.data import (
    CARD_CODES,
    PRIVILEGE_CODES,
    ROOM_CODES,
    Components,
)

K = TypeVar("K")
V = TypeVar("V")

ROOM_INDEX = {code: i for i, code in enumerate(ROOM_CODES)}
CARD_INDEX = {code: i for i, code in enumerate(CARD_CODES)}
PRIVILEGE_INDEX = {code: i for i, code in enumerate(PRIVILEGE_CODES)}
WINDOW_STEP = {"any": 0, "step1": 1, "step2": 2, "step3": 3, "step4": 4}


def parse_layout(value: OptionValue) -> tuple[int, ...] | None:
    """The explicit room layout an option names, or ``None`` for ``random`` / ``first_game``."""
    if value in ("random", "first_game"):
        return None
    if not isinstance(value, str):
        raise ValueError(f"layout must be 'random', 'first_game' or 9 room codes, not {value!r}")
    codes = [c.strip() for c in value.split(",")]
    if len(codes) != 9 or sorted(codes) != sorted(ROOM_CODES):
        raise ValueError(
            f"layout {value!r} must name each of the 9 rooms {', '.join(ROOM_CODES)} once, "
            "comma-separated in row-major order (row 0 next to the garden)"
        )
    return tuple(ROOM_INDEX[c] for c in codes)


class Rules:
    """Everything fixed for a game; immutable by convention (never assigned after ``__init__``).

    Building it was a tenth of a short random game, so the facts that depend only on the components
    and the options are built once per option set and those of a layout once per layout (bounded
    memos, shared read-only); a layout's entry also memoises its step-2 move lists (``moves``).
    """

    def __init__(self, comps: Components, options: Mapping[str, OptionValue], layout: tuple[int, ...]) -> None:
        key = (id(comps), tuple(sorted(options.items())))
        prototype = _PROTOTYPES.get(key)
        if prototype is None or prototype.comps is not comps:
            prototype = object.__new__(Rules)
            prototype._build_fixed(comps, options)
            _remember(_PROTOTYPES, key, prototype)
        self.__dict__.update(prototype.__dict__)
        placed = _LAYOUTS.get(layout)
        if placed is None:
            placed = object.__new__(Rules)
            placed._build_layout(layout)
            _remember(_LAYOUTS, layout, placed)
        self.__dict__.update(placed.__dict__)

    def moves_then_end(self, rooms: list[int]) -> tuple[PalaisAction, ...]:
        """Every move of one seat's servants in ``rooms`` (step 2), in room then target order, then
        ``end`` (what step 2 offers when no card can be played)."""
        # the mask of the occupied rooms (a memo by servant counts missed nine times in ten)
        occupied = ((rooms[0] > 0) | (rooms[1] > 0) << 1 | (rooms[2] > 0) << 2 | (rooms[3] > 0) << 3
                    | (rooms[4] > 0) << 4 | (rooms[5] > 0) << 5 | (rooms[6] > 0) << 6
                    | (rooms[7] > 0) << 7 | (rooms[8] > 0) << 8)
        found = self.move_lists[occupied]
        if found is None:  # the moves from each occupied room, in room order
            found = self.move_lists[occupied] = (*chain.from_iterable(compress(self.moves_from, rooms)), END_ACTION)
        return found

    def _build_layout(self, layout: tuple[int, ...]) -> None:
        self.layout = layout  # cell (row-major) -> room
        cell_of = [0] * 9
        for cell, room in enumerate(layout):
            cell_of[room] = cell
        self.cell_of = tuple(cell_of)
        adjacent: list[tuple[int, ...]] = []
        for room in range(9):
            row, col = divmod(cell_of[room], 3)
            cells = [(row + dr) * 3 + col + dc for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                     if 0 <= row + dr < 3 and 0 <= col + dc < 3]
            adjacent.append(tuple(sorted(layout[c] for c in cells)))
        self.adjacent = tuple(adjacent)
        self.moves_from: tuple[tuple[PalaisAction, ...], ...] = tuple(
            tuple(MOVE_BETWEEN[(f, t)] for t in adjacent[f]) for f in range(9)
        )
        # The moves (then end) of each set of occupied rooms (a 9-bit mask), filled in as they are met.
        self.move_lists: list[tuple[PalaisAction, ...] | None] = [None] * 512

    def _build_fixed(self, comps: Components, options: Mapping[str, OptionValue]) -> None:
        self.comps = comps

        nobles = comps.nobles
        self.noble_gold = tuple(n.gold for n in nobles)
        self.noble_turquoise = tuple(n.turquoise for n in nobles)
        self.noble_violet = tuple(n.violet for n in nobles)
        self.noble_vp = tuple(n.vp for n in nobles)
        self.noble_privilege = tuple(PRIVILEGE_INDEX[n.privilege] if n.privilege else -1 for n in nobles)
        self.noble_param = tuple(n.param for n in nobles)
        self.noble_ids = tuple(n.id for n in nobles)
        # [turquoise][violet] seals at hand (at most ``most_seals`` of each counted) -> [noble] whether
        # that is enough for it, and False at index -1 (a garden square without a noble)
        self.most_seals = max(*self.noble_turquoise, *self.noble_violet)
        self.within_seals = tuple(
            tuple((*(self.noble_turquoise[t] <= turquoise and self.noble_violet[t] <= violet
                     for t in range(len(nobles))), False) for violet in range(self.most_seals + 1))
            for turquoise in range(self.most_seals + 1)
        )
        self.noble_index = {n.id: i for i, n in enumerate(nobles)}

        cards = comps.cards
        self.card_param = tuple(c.param for c in cards)
        self.card_vp = tuple(c.vp_if_played for c in cards)
        self.card_kept = tuple(c.after_play == "keep" for c in cards)
        windows = tuple(WINDOW_STEP[c.window] for c in cards)
        # Cards playable in step s (0 = none: during the edge decision); "any" cards in every step.
        self.playable: tuple[tuple[int, ...], ...] = tuple(
            tuple(k for k in range(9) if windows[k] == 0 or windows[k] == step) if step else ()
            for step in range(6)
        )
        self.playable_any = tuple(k for k in range(9) if windows[k] == 0)

        reduction = options["cost_reduction"]
        neighbours: list[tuple[int, ...]] = []
        for square in range(36):
            f, r = square % 6, square // 6
            if reduction == "none":
                offsets: tuple[tuple[int, int], ...] = ()
            elif reduction == "orthogonal_diagonal":
                offsets = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr)
            else:
                offsets = ((0, -1), (-1, 0), (1, 0), (0, 1))
            neighbours.append(tuple((r + dr) * 6 + f + df for df, dr in offsets
                                    if 0 <= f + df < 6 and 0 <= r + dr < 6))
        self.neighbours = tuple(neighbours)
        edge_sets = [set(e.squares) for e in comps.edges]
        in_edges = [sum(1 for s in edge_sets if q in s) for q in range(36)]
        self.is_edge = tuple(
            in_edges[q] > 0 or q % 6 in (0, 5) or q // 6 in (0, 5) for q in range(36)
        )
        both = options["corner_edges"] == "both"
        self.edges: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
            (tuple(q for q in e.squares if both or in_edges[q] == 1), e.points) for e in comps.edges
        )

        self.start_gold = (0, 1, 2, 3)
        self.gold_total = comps.gold_total
        self.servants_per_colour = comps.servants_per_colour
        self.trigger = int(options["end_trigger_nobles"])  # type: ignore[arg-type]
        self.round_limit = int(options["round_limit"])  # type: ignore[arg-type]
        self.hand_cap = int(options["hand_score_cap"])  # type: ignore[arg-type]
        self.gold_limited = bool(options["gold_limited"])
        self.bonus_from_rooms = bool(options["bonus_servant_from_rooms"])
        self.immediate = options["privilege_activation"] == "immediate"
        self.step3_fixed = options["step3_order"] == "fixed"
        self.shared_win = options["winner_tiebreak"] == "shared"
        self.discard_public = bool(options["discard_public"])
        self.edge_tie = str(options["edge_tie"])
        self.free_placement = options["initial_placement"] == "free_10"
        self.hide_face_down = bool(options["hide_face_down_nobles"])

    def edge_points(self, garden_servants: list[int], players: int) -> list[int]:
        """Points of the four garden edges (§3.2 step 4), with the ``edge_tie`` reading of ties."""
        totals = [0] * players
        for squares, points in self.edges:
            counts = [0] * players
            for q in squares:
                owner = garden_servants[q]
                if owner >= 0:
                    counts[owner] += 1
            place = 0
            for level in sorted({c for c in counts if c > 0}, reverse=True):
                tied = [p for p in range(players) if counts[p] == level]
                k = len(tied)
                if self.edge_tie == "full":
                    each = points[place] if place < len(points) else 0
                elif self.edge_tie == "demote":
                    each = points[place + 1] if k > 1 and place + 1 < len(points) else (
                        points[place] if k == 1 and place < len(points) else 0)
                else:
                    each = sum(points[place:place + k]) // k
                for p in tied:
                    totals[p] += each
                place += k
        return totals


_MEMO_LIMIT = 4096
_PROTOTYPES: dict[tuple[int, tuple[tuple[str, OptionValue], ...]], Rules] = {}
_LAYOUTS: dict[tuple[int, ...], Rules] = {}


def _remember(memo: dict[K, V], key: K, value: V, limit: int = _MEMO_LIMIT) -> None:
    """Store in a bounded memo (emptied when full: the keys in use come back at once)."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
