"""One scenario per building (rules §1.5, §2.6): what a worker on it may do, and what it yields."""

from __future__ import annotations

import pytest

from meeple.games.caylus.data import TILE_ID, TILES, cube_text
from tests.games.caylus.scenario import (
    give,
    hold_in_castle,
    legal,
    new_game,
    pending_field,
    play,
    put_worker,
    set_tile,
    to_phase5,
)

# E1 road: 1 n_sawmill, 2 n_quarry, 3 n_carpenter, 4 n_farm, 5 n_market, 6 n_forest; 7, 8, 16 fixed.
ROAD = {"n_sawmill": 1, "n_quarry": 2, "n_carpenter": 3, "n_farm": 4, "n_market": 5, "n_forest": 6,
        "f_peddler": 7, "f_carpenter": 8, "gold_mine": 16}
WOOD_FW = {"build:w_farm_food", "build:w_farm_cloth", "build:w_sawmill", "build:w_quarry", "build:mason",
           "build:w_market:f", "build:w_peddler:f", "skip"}

# slug, cubes held, deniers, legal options (None: the effect is automatic), action, cubes after, deniers after,
# prestige after.
CASES = [
    ("n_farm", "", 0, {"produce:f", "produce:c"}, "produce:c", "c", 0, 0),
    ("n_forest", "", 0, {"produce:w", "produce:f"}, "produce:w", "w", 0, 0),
    ("n_sawmill", "", 0, None, None, "w", 0, 0),
    ("n_quarry", "", 0, None, None, "s", 0, 0),
    ("gold_mine", "", 0, None, None, "g", 0, 0),
    ("n_market", "fw", 0, {"sell:f", "sell:w", "skip"}, "sell:w", "f", 4, 0),
    ("n_carpenter", "fw", 0, WOOD_FW, "build:mason", "", 0, 4),
    ("f_carpenter", "fw", 0, WOOD_FW, "build:w_peddler:f", "", 0, 4),
    ("f_peddler", "", 3, {"buy:f", "buy:w", "buy:s", "buy:c", "skip"}, "buy:c", "c", 1, 0),
    ("w_farm_food", "", 0, {"produce:ff", "produce:c"}, "produce:ff", "ff", 0, 0),
    ("w_farm_cloth", "", 0, {"produce:cc", "produce:f"}, "produce:cc", "cc", 0, 0),
    ("w_sawmill", "", 0, None, None, "ww", 0, 0),
    ("w_quarry", "", 0, None, None, "ss", 0, 0),
    ("w_market", "g", 0, {"sell:g", "skip"}, "sell:g", "", 6, 0),
    ("w_peddler", "", 1, {"buy:f", "buy:w", "buy:s", "buy:c", "skip"}, "buy:f", "f", 0, 0),
    ("w_peddler", "", 2, None, "buy:wc", "wc", 0, 0),
    ("mason", "fs", 0, {"build:s_farm", "build:park", "build:workshop", "build:architect", "build:alchemist",
                        "skip"}, "build:architect", "", 0, 6),
    ("mason", "wss", 0, None, "build:bank", "s", 0, 6),
    ("s_farm", "", 0, None, None, "ffc", 0, 0),
    ("park", "", 0, None, None, "fww", 0, 0),
    ("workshop", "", 0, None, None, "ssc", 0, 0),
    ("church", "", 4, {"church:2", "church:4", "skip"}, "church:2", "", 2, 3),
    ("tailor", "ccc", 0, {"tailor:2", "tailor:3", "skip"}, "tailor:2", "c", 0, 4),
    ("bank", "", 2, {"bank:2", "skip"}, "bank:2", "g", 0, 0),
    ("alchemist", "fw", 0, {"alch:fw", "skip"}, "alch:fw", "g", 0, 0),
    ("alchemist", "ffsc", 0, None, "alch:ffsc", "gg", 0, 0),
    ("jeweller", "gg", 0, {"jewel:1", "jewel:2", "skip"}, "jewel:2", "", 0, 9),
]


@pytest.mark.parametrize(("slug", "held", "deniers", "options", "action", "after", "money", "pp"), CASES)
def test_worker_effect_of_each_building(
    slug: str, held: str, deniers: int, options: set[str] | None, action: str | None, after: str, money: int,
    pp: int,
) -> None:
    """§2.6.1–§2.6.2: the worker's owner (seat 0, who owns the building) resolves its effect."""
    state = new_game(4, jeweller=True)
    space = ROAD.get(slug, 9)
    if space == 9:
        set_tile(state, 9, slug, 0)
    give(state, 0, held, deniers=deniers, pp=0)
    put_worker(state, 0, space)
    hold_in_castle(state, 3)
    to_phase5(state, provost=space)
    if options is None and action is None:
        assert pending_field(state, "kind") == "castle"
    else:
        if options is not None:
            assert legal(state) == options
        assert action is not None
        play(state, action)
    assert cube_text(state.cubes[0]) == after
    assert state.money[0] == money
    assert state.pp[0] == pp
    assert state.worker[space] == -1 and state.avail[0] == 6


@pytest.mark.parametrize(("slug", "pair"), [("s_farm", ("f", "c")), ("park", ("w", "f")), ("workshop", ("s", "c"))])
def test_stone_production_pays_its_owner_a_bracketed_cube(slug: str, pair: tuple[str, str]) -> None:
    """§2.6.1, D7: another player's worker triggers the owner's choice from the bracketed pair."""
    state = new_game(4)
    set_tile(state, 9, slug, 1)
    give(state, 1, "")
    put_worker(state, 0, 9)
    hold_in_castle(state, 3)
    to_phase5(state, provost=9)
    assert state.current_player == 1
    assert legal(state) == {f"bonus:{pair[0]}", f"bonus:{pair[1]}"}
    play(state, f"bonus:{pair[1]}")
    assert cube_text(state.cubes[1]) == pair[1]


@pytest.mark.parametrize("slug", ["residence", "statue", "hotel"])
def test_no_worker_on_residences_or_prestige_buildings(slug: str) -> None:
    """§2.3: residences and prestige buildings never take workers."""
    state = new_game(4)
    set_tile(state, 9, slug, 1)
    state.settle()
    assert "place:9" not in legal(state)
    assert "place:10" not in legal(state)  # an empty lot


def test_income_from_residences_library_and_hotel() -> None:
    """§2.2: 2 d, +1 per residence, +1 library, +2 hotel."""
    state = new_game(4)
    set_tile(state, 9, "residence", 0)
    set_tile(state, 10, "residence", 0)
    set_tile(state, 11, "library", 0)
    set_tile(state, 12, "hotel", 0)
    set_tile(state, 1, "residence", 1)
    state.phase = 1
    before = state.money[:]
    state.settle()
    assert state.money[0] - before[0] == 2 + 2 + 1 + 2
    assert state.money[1] - before[1] == 3
    assert state.money[2] - before[2] == 2


@pytest.mark.parametrize("slug", ["statue", "granary", "library", "weaver", "theater", "college", "monument",
                                  "hotel", "cathedral"])
def test_each_prestige_building_prestige_and_favours(slug: str) -> None:
    """§1.5 prestige table: the architect builds it on the builder's residence for PP and favours."""
    tile = TILES[TILE_ID[slug]]
    state = new_game(4)
    set_tile(state, 9, "architect", 0)
    set_tile(state, 10, "residence", 0)
    give(state, 0, cube_text(tile.cost), pp=0)
    put_worker(state, 0, 9)
    hold_in_castle(state, 3)
    to_phase5(state, provost=9)
    play(state, f"build:{slug}:10")
    assert state.pp[0] == tile.prestige
    assert state.tile[10] == TILE_ID[slug] and state.owner[10] == 0
    assert state.cubes[0] == [0, 0, 0, 0, 0]
    if tile.favours:
        assert state.pending() == {"kind": "favour_row", "seat": 0, "favours": tile.favours}
    else:
        assert pending_field(state, "kind") == "castle"


def test_lawyer_pp_option_and_later_printing_preset() -> None:
    """D2 (`lawyer_pp`) and the `later_printing` preset (jeweller + lawyer 3 PP)."""
    for options, expected in (({}, 4), ({"preset": "later_printing"}, 3)):
        state = new_game(4, **options)
        give(state, 0, "wc", pp=0)
        put_worker(state, 0, 8)
        hold_in_castle(state, 3)
        to_phase5(state, provost=8)
        play(state, "build:lawyer")
        assert state.pp[0] == expected


def test_the_jeweller_is_out_by_default() -> None:
    """D1: first edition, no Jeweller in the stock."""
    state = new_game(4)
    give(state, 0, "fscc")
    set_tile(state, 9, "mason", 0)
    put_worker(state, 0, 9)
    hold_in_castle(state, 3)
    to_phase5(state, provost=9)
    assert "build:jeweller" not in legal(state) and "build:church" in legal(state)
    assert new_game(4, jeweller=True).stock[TILE_ID["jeweller"]] == 1


def test_no_construction_when_the_road_is_full() -> None:
    """D20: without an empty lot, carpenters and masons build nothing (skip by itself)."""
    state = new_game(4)
    slugs = ["w_farm_food", "w_farm_cloth", "w_sawmill", "w_quarry", "w_market", "w_peddler", "mason",
             "lawyer", "s_farm", "park", "workshop", "architect", "architect", "church", "tailor", "bank",
             "alchemist"]
    lots = [9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28]
    for space, slug in zip(lots, [*slugs, "residence", "residence"], strict=True):
        set_tile(state, space, slug, 1)
    give(state, 0, "ffwwsscc")
    put_worker(state, 0, 8)
    hold_in_castle(state, 3)
    to_phase5(state, provost=8)
    assert pending_field(state, "kind") == "castle"
    assert state.avail[0] == 6 and state.cubes[0] == [2, 2, 2, 2, 0]
