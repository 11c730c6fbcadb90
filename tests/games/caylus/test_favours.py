"""The royal favour table (rules §2.9): every row and column, the cap, and the per-phase row rule."""

from __future__ import annotations

import pytest

from meeple.games.caylus.data import TILE_ID, cube_text
from meeple.games.caylus.state import CaylusState
from tests.games.caylus.scenario import give, hold_in_castle, legal, new_game, pending_field, play, set_tile

ROW = {"pp": 0, "money": 1, "res": 2, "bld": 3}


def favour_position(column: int, row: str, favours: int = 1, held: str = "", deniers: int = 0) -> CaylusState:
    """Seat 0 holds ``favours`` pending favours, with the ``row`` marker one step before ``column``.

    The Walls are scored (cap 5); phase 6 waits for seat 3 afterwards, so the turn does not end.
    """
    state = new_game(4)
    state.scored = 2
    state.cap = 5
    state.fav[0][ROW[row]] = column - 1
    give(state, 0, held, deniers=deniers, pp=0)
    state.phase = 6
    state.cur = 0
    state.sub = 0
    hold_in_castle(state, 3)
    state.fstack = [(0, favours)]
    state.settle()
    return state


@pytest.mark.parametrize("column", [1, 2, 3, 4, 5])
def test_prestige_row_gives_the_column_in_pp(column: int) -> None:
    state = favour_position(column, "pp")
    play(state, "favour:pp")
    assert state.fav[0][0] == column and state.pp[0] == column


@pytest.mark.parametrize("column", [1, 2, 3, 4, 5])
def test_money_row_gives_column_plus_two_deniers(column: int) -> None:
    state = favour_position(column, "money")
    play(state, "favour:money")
    assert state.fav[0][1] == column and state.money[0] == column + 2


@pytest.mark.parametrize(
    ("column", "options"),
    [
        (1, None),
        (2, {"res:f", "res:w", "res:s"}),
        (3, {"res:f", "res:w", "res:s", "res:c"}),
        (4, {"res:f", "res:w", "res:s", "res:c"} | {f"res:trade:w:{p}" for p in
                                                     ("ff", "fw", "fs", "fc", "ww", "ws", "wc", "ss", "sc", "cc")}),
        (5, {"res:f", "res:w", "res:s", "res:c", "res:g"} | {f"res:trade:w:{p}" for p in
                                                              ("ff", "fw", "fs", "fc", "ww", "ws", "wc", "ss",
                                                               "sc", "cc")}),
    ],
)
def test_resource_row_offers_every_column_up_to_the_marker(column: int, options: set[str] | None) -> None:
    state = favour_position(column, "res", held="w")
    play(state, "favour:res")
    if options is None:  # column 1: one food, by itself
        assert cube_text(state.cubes[0]) == "fw"
    else:
        assert legal(state) == options


def test_resource_row_gold_at_column_5() -> None:
    state = favour_position(5, "res")
    play(state, "favour:res", "res:g")
    assert cube_text(state.cubes[0]) == "g"


def test_building_row_column_1_gives_nothing() -> None:
    state = favour_position(1, "bld", held="fw")
    play(state, "favour:bld")
    assert state.fav[0][3] == 1 and pending_field(state, "kind") == "castle"


def test_building_row_column_2_carpenter_one_wood_less() -> None:
    """Column 2: a wood tile for its cost minus 1 w (here 1 f for a farm)."""
    state = favour_position(2, "bld", held="f")
    play(state, "favour:bld")
    options = legal(state)
    assert {"build:w_farm_food", "build:w_sawmill", "build:mason", "build:w_market:f", "skip"} <= options
    assert "build:s_farm" not in options
    play(state, "build:w_sawmill")
    assert state.cubes[0] == [0, 0, 0, 0, 0] and state.tile[9] == TILE_ID["w_sawmill"] and state.pp[0] == 2


def test_building_row_column_3_mason_one_stone_less() -> None:
    """Column 3, D6: a stone tile for its cost minus 1 s (here the tailor for 1 w)."""
    state = favour_position(3, "bld", held="w")
    play(state, "favour:bld")
    assert "build:tailor" in legal(state) and "build:bank" in legal(state)
    play(state, "build:tailor")
    assert state.cubes[0] == [0, 0, 0, 0, 0] and state.tile[9] == TILE_ID["tailor"] and state.pp[0] == 6


def test_building_row_column_4_lawyer_for_one_cloth() -> None:
    """Column 4: a conversion paying 1 c and no denier, +2 PP."""
    state = favour_position(4, "bld", held="c", deniers=0)
    play(state, "favour:bld")
    assert "lawyer:4" in legal(state)
    play(state, "lawyer:4")
    assert state.tile[4] == TILE_ID["residence"] and state.owner[4] == 0
    assert state.cubes[0] == [0, 0, 0, 0, 0] and state.money[0] == 0 and state.pp[0] == 2


def test_building_row_column_5_architect_full_cost() -> None:
    state = favour_position(5, "bld", held="ssg")
    set_tile(state, 9, "residence", 0)
    state.settle()
    play(state, "favour:bld")
    assert "build:statue:9" in legal(state)
    play(state, "build:statue:9")
    assert state.tile[9] == TILE_ID["statue"] and state.pp[0] == 7
    assert state.pending() == {"kind": "favour_row", "seat": 0, "favours": 1}  # the statue's favour
    assert "favour:bld" not in legal(state)


def test_a_capped_row_can_still_be_chosen() -> None:
    """D14: the marker stays at the cap but the row still pays its column."""
    state = favour_position(3, "pp")
    state.cap = 2
    state.settle()
    play(state, "favour:pp")
    assert state.fav[0][0] == 2 and state.pp[0] == 2


def test_favours_beyond_four_in_one_phase_are_lost() -> None:
    """D14: one row per favour within a phase; a fifth favour is lost."""
    state = favour_position(1, "pp", favours=5, held="fws")
    play(state, "favour:pp", "favour:money", "favour:bld")
    # The fourth favour has one row left (res): taken by itself; the fifth is lost.
    assert state.fav[0] == [1, 1, 1, 1]
    assert [e["event"] for e in state.view(None)["log"]].count("favour_lost") == 1
    assert state.fstack == []


def test_a_favour_gained_during_a_favour_goes_on_another_row() -> None:
    """§2.9 step 4: the favour mason builds a church, whose favour needs a third row."""
    state = favour_position(1, "pp", favours=2, held="c")
    state.fav[0][3] = 2
    play(state, "favour:pp", "favour:bld", "build:church")
    assert state.tile[9] == TILE_ID["church"]
    assert legal(state) == {"favour:money", "favour:res"}


def test_the_rows_are_free_again_in_a_new_phase() -> None:
    """D14: the row limit is per phase, cleared when the phase changes."""
    state = favour_position(1, "pp")
    play(state, "favour:pp")
    assert state.fav_used[0] == 1
    play(state, "castle:fws")  # P3's batch; P3 is the best builder, still in phase 6
    assert state.pending() == {"kind": "favour_row", "seat": 3, "favours": 1}
    assert state.fav_used[0] == 1
    play(state, "favour:pp")
    assert state.phase == 2 and state.fav_used == [0, 0, 0, 0]
