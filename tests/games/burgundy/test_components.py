"""Component totals and boards checked against the rulebook (reference §1, §2) and the setup (§3.1)."""

from __future__ import annotations

from collections import Counter

import pytest

from meeple.games.burgundy.data import (
    ANIMAL_COUNT,
    ANIMAL_KIND,
    BOARDS,
    BUILDINGS,
    DEPOT_SPACES,
    DIE,
    NEIGHBOURS,
    PHASE_BONUS,
    REGION_VP,
    TILE_COUNTS,
    TILE_NAMES,
    TILE_TYPE,
    TYPE_LETTERS,
    depot_space_type,
)
from meeple.games.burgundy.state import EMPTY
from tests.games.burgundy.scenario import new


def _by_type(back: int) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for code, counts in enumerate(TILE_COUNTS):
        totals[TYPE_LETTERS[TILE_TYPE[code]]] += counts[back]
    return dict(totals)


def test_164_hex_tiles_with_124_white_and_40_black_backs() -> None:
    assert sum(w + b for w, b in TILE_COUNTS) == 164
    assert _by_type(0) == {"B": 40, "A": 20, "K": 20, "C": 14, "M": 10, "S": 20}
    assert _by_type(1) == {"B": 16, "A": 8, "K": 6, "C": 2, "M": 2, "S": 6}


def test_eight_building_types_of_five_white_and_two_black() -> None:
    assert len(BUILDINGS) == 8
    for name in BUILDINGS:
        assert TILE_COUNTS[TILE_NAMES.index(f"B.{name}")] == (5, 2)


def test_animals_by_kind_and_count() -> None:
    per_count = {2: (2, 0), 3: (2, 1), 4: (1, 1)}
    for code in range(len(TILE_NAMES)):
        if ANIMAL_KIND[code] >= 0:
            assert TILE_COUNTS[code] == per_count[ANIMAL_COUNT[code]]
    animals = [c for c in range(len(TILE_NAMES)) if ANIMAL_KIND[c] >= 0]
    assert len(animals) == 12 and sum(sum(TILE_COUNTS[c]) for c in animals) == 28


def test_26_unique_knowledge_tiles_six_black() -> None:
    knowledge = [n for n in TILE_NAMES if n.startswith("K")]
    assert knowledge == [f"K{k:02d}" for k in range(1, 27)]
    black = [n for n in knowledge if TILE_COUNTS[TILE_NAMES.index(n)] == (0, 1)]
    assert black == ["K07", "K12", "K14", "K15", "K24", "K25"]
    assert all(sum(TILE_COUNTS[TILE_NAMES.index(n)]) == 1 for n in knowledge)


def test_scoring_tables() -> None:
    assert REGION_VP[1:] == (1, 3, 6, 10, 15, 21, 28, 36)
    assert all(REGION_VP[s] == s * (s + 1) // 2 for s in range(9))
    assert PHASE_BONUS == (10, 8, 6, 4, 2)


def test_estate_geometry_and_die_numbers() -> None:
    assert sum(len(n) for n in NEIGHBOURS) // 2 == 90
    assert NEIGHBOURS[19] == (12, 13, 18, 20, 25, 26)
    assert Counter(DIE) == {"1": 7, "2": 6, "3": 6, "4": 6, "5": 6, "6": 6}


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_every_board_has_the_standard_colour_counts(key: str) -> None:
    board = BOARDS[key]
    assert dict(zip(TYPE_LETTERS, board.colour_total, strict=True)) == {"A": 6, "B": 12, "C": 4, "K": 6, "M": 3,
                                                                        "S": 6}
    assert sum(len(r) for r in board.regions) == 37
    assert max(len(r) for r in board.regions) <= 8


def test_board_1_regions_match_the_reference_table() -> None:
    board = BOARDS["1"]
    regions = {(TYPE_LETTERS[board.region_type[i]], r) for i, r in enumerate(board.regions)}
    assert regions == {
        ("A", (1, 5, 6, 10, 11)), ("A", (28,)), ("B", (9, 14, 15)), ("B", (12,)), ("B", (23, 24, 29)),
        ("B", (26, 27, 32, 33, 37)), ("C", (2, 3, 7)), ("C", (19,)), ("K", (4, 8, 13)), ("K", (31, 35, 36)),
        ("M", (25, 30, 34)), ("S", (16, 17, 18)), ("S", (20, 21, 22)),
    }


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, {"S": 2, "B": 4, "C": 1, "K": 2, "A": 2, "M": 1}),
        (3, {"S": 3, "B": 6, "C": 2, "K": 3, "A": 3, "M": 1}),
        (4, {"S": 4, "B": 8, "C": 2, "K": 4, "A": 4, "M": 2}),
    ],
)
def test_depot_spaces_by_player_count(players: int, expected: dict[str, int]) -> None:
    spaces = Counter(
        TYPE_LETTERS[depot_space_type(d, i, players, 0)]
        for d in range(1, 7)
        for i, (_, least) in enumerate(DEPOT_SPACES[d])
        if least <= players
    )
    assert dict(spaces) == expected


def test_three_player_depot_6_holds_a_mine_in_phases_b_and_d() -> None:
    assert [TYPE_LETTERS[depot_space_type(6, 2, 3, p)] for p in range(5)] == list("CMCMC")
    assert [TYPE_LETTERS[depot_space_type(6, 2, 4, p)] for p in range(5)] == list("CCCCC")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_each_player_the_rulebook_start(players: int) -> None:
    state = new(players=players, first_seat=players - 1)
    order = [(players - 1 + i) % players for i in range(players)]
    assert state.order == order
    assert [state.workers[s] for s in order] == list(range(1, players + 1))
    assert state.silver == [1] * players and state.vp == [0] * players
    assert all(sum(g) == 3 and sum(1 for x in g if x) <= 3 for g in state.goods)
    assert all(s == [] for s in state.storage)
    for seat in range(players):
        occupied = [s for s in range(1, 38) if state.estate[seat][s] != EMPTY]
        assert occupied == [19]
    assert len(state.piles[2]) == 14 - players - sum(
        1 for d in range(1, 7) for t in state.depots[d] if t != EMPTY and TILE_TYPE[t] == 2
    )
    assert sum(1 for t in state.depots[0] if t != EMPTY) == 2 * players
    assert [len(s) for s in state.stacks] == [0, 5, 5, 5, 5]
    assert len(state.box) == 17 - 3 * players
    assert sum(state.tile_census()) == 164
    assert state.goods_census()[1:] == [7] * 6


def test_four_players_use_every_tile_exactly() -> None:
    state = new(players=4, preset="reference")
    while not state.is_over:
        for value in list(state.dice_left):
            state.apply(f"die:{value}")
            state.apply("workers")
        state.apply("pass")
    assert all(len(p) == 0 for p in state.piles) and state.black_pile == []
