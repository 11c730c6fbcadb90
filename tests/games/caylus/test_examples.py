"""The worked examples of rules/caylus.md §5 (E1–E26), one test each, as scenario tests."""

from __future__ import annotations

from typing import Any

import pytest

from meeple import IllegalAction
from meeple.games.caylus.data import PRESTIGE_IDS, STONE_IDS, TILE_ID, TILES, WOOD_IDS
from meeple.games.caylus.state import OVER, CaylusState
from tests.games.caylus.scenario import (
    give,
    hold_in_castle,
    legal,
    new_game,
    pass_all,
    pending_field,
    play,
    put_worker,
    set_tile,
    to_phase5,
    to_phase6,
    to_phase7,
)


def test_e1_setup_and_first_income() -> None:
    """§1.7, E1: start deniers by turn-order position, 2f 1w each, income paid in turn 1 (D22)."""
    state = new_game(4, order="2,0,3,1")
    assert state.turn_order == [2, 0, 3, 1]
    assert [TILES[t].slug for t in state.tile[1:7]] == [
        "n_sawmill", "n_quarry", "n_carpenter", "n_farm", "n_market", "n_forest"]
    assert state.money == [8, 9, 7, 8]  # P2 5+2, P0 6+2, P3 6+2, P1 7+2
    incomes = [e for e in state.view(None)["log"] if e["event"] == "income"]
    assert [e["deniers"] for e in incomes] == [2, 2, 2, 2]
    assert all(c == [2, 1, 0, 0, 0] for c in state.cubes)
    assert state.pp == [0, 0, 0, 0] and all(f == [0, 0, 0, 0] for f in state.fav)
    assert state.bailiff == state.provost == 6
    assert all(state.tile[s] == -1 for s in (*range(9, 16), *range(17, 29)))
    assert sum(state.stock[t] for t in WOOD_IDS) == 8
    assert sum(state.stock[t] for t in STONE_IDS) == 9
    assert sum(state.stock[t] for t in PRESTIGE_IDS) == 9
    assert state.current_player == 2
    five = new_game(5, order="0,1,2,3,4")
    assert five.money == [7, 8, 8, 9, 9]


def test_e2_bridge_price_and_first_passer_bonus() -> None:
    """§2.3, E2: the price is the lowest free bridge number; only the first passer gets +1 d."""
    state = new_game(4)
    state.money = [8, 8, 8, 8]
    play(state, "place:1")
    assert state.money[0] == 7
    play(state, "pass")
    assert state.money[1] == 9
    play(state, "place:castle")
    assert state.money[2] == 6 and state.castle == [2]
    play(state, "pass")
    assert state.money[3] == 8
    play(state, "place:trading_post")
    assert state.money[0] == 4
    play(state, "place:8")
    assert state.money[2] == 3
    play(state, "pass")  # P0; then P2 cannot pay 4 and owns nothing: he passes by himself (D27)
    assert state.bridge == [1, 3, 0, 2]
    assert state.money[2] == 3
    assert state.money[0] == 4 + 3  # the trading post paid in phase 3
    assert state.phase == 4 and state.current_player == 1  # phase 4 goes in passing order


def test_e3_own_building_other_building_and_inn_holder() -> None:
    """§2.3 price table, E3: own building 1 d, inn holder 1 d for everything, owner +1 PP."""
    state = new_game(4)
    state.bridge = [1, 2]
    state.money = [10, 10, 10, 10]
    set_tile(state, 9, "w_quarry", 1)
    set_tile(state, 10, "park", 2)
    set_tile(state, 11, "w_sawmill", 0)
    state.inn_right = 3
    state.avail[3] -= 1
    state.p2i = 0
    state.settle()
    play(state, "place:9")
    assert state.money[0] == 7 and state.pp[1] == 1
    play(state, "place:10")
    assert state.money[3] == 9 and state.pp[2] == 1
    play(state, "place:11")
    assert state.money[0] == 6 and state.pp[0] == 0
    play(state, "place:castle")
    assert state.money[3] == 8
    assert state.avail[3] == 3  # inn, 10 and castle
    play(state, "pass")
    assert state.bridge == [1, 2, 0]
    play(state, "pass")
    assert state.bridge == [1, 2, 0, 3]
    assert state.money == [6, 10, 10, 8]
    assert state.pending() == {"kind": "inn", "seat": 3}  # nobody on the left circle: stay or leave


def test_e4_inn_eviction_price_and_leaving() -> None:
    """§2.4 inn, E4: the newcomer moves right and evicts; the holder pays 1 d; inn:leave."""
    state = new_game(4)
    state.money = [10, 10, 10, 10]
    state.inn_right = 3
    state.avail[3] -= 1
    state.bridge = [0, 2]
    state.p2i = 1  # P1 to act
    state.settle()
    play(state, "place:inn")
    assert state.money[1] == 7  # bridge price 3
    play(state, "place:2")
    assert state.money[3] == 9  # 1 d while holding the right circle
    play(state, "pass", "pass")
    # Phase 3: P1's worker moved to the right circle, P3's went home.
    assert state.inn_right == 1 and state.inn_left == -1
    assert state.avail[3] == 5  # only the worker on space 2 is out
    assert state.avail[1] == 5

    # Turn 6: P1 holds the right circle and pays 1 for everything; P3 pays the bridge price.
    turn6 = new_game(4)
    turn6.inn_right = 1
    turn6.avail[1] = 5
    turn6.bridge = [0]
    turn6.p2i = 1
    turn6.settle()
    assert turn6.price(1, 5) == 1 and turn6.price(1, 36 - 1) == 1
    assert turn6.price(3, 5) == 2
    pass_all(turn6)
    assert turn6.pending() == {"kind": "inn", "seat": 1}
    play(turn6, "inn:leave")
    assert turn6.inn_right == -1 and turn6.avail[1] == 6
    assert turn6.price(1, 5) == len(turn6.bridge) + 1  # turn 7: the bridge price again

    # Variant: the holder places on the inn's left again (legal); he keeps the right circle.
    variant = new_game(4)
    variant.inn_right = 1
    variant.avail[1] = 5
    variant.p2i = 1
    variant.settle()
    play(variant, "place:inn")
    assert variant.money[1] == 8 - 1
    pass_all(variant)
    assert variant.inn_right == 1 and variant.inn_left == -1
    assert variant.avail[1] == 5


def _gate_position(players: int = 4) -> CaylusState:
    state = new_game(players)
    state.phase = 3
    state.cur = 0
    state.gate = 0
    state.avail[0] -= 1
    set_tile(state, 9, "w_sawmill", 1)
    set_tile(state, 10, "workshop", 2)
    state.provost = 12
    return state


def test_e5_gate_moves_a_worker() -> None:
    """§2.4 gate, D16, E5: free move to any open target, owner +1 PP; later specials still resolve."""
    state = _gate_position()
    hold_in_castle(state, 3)
    state.settle()
    assert state.pending() == {"kind": "gate", "seat": 0}
    play(state, "gate:10")
    assert state.pp[2] == 1 and state.worker[10] == 0
    # Phase 5: workshop output, then the owner's bonus.
    assert pending_field(state, "kind") == "bonus"
    assert state.current_player == 2
    assert state.cubes[0] == [2, 1, 2, 1, 0]
    assert legal(state) == {"bonus:s", "bonus:c"}
    play(state, "bonus:c")
    assert state.cubes[2][3] == 1

    b = _gate_position()
    hold_in_castle(b, 3)
    b.settle()
    money = b.money[0]
    play(b, "gate:trading_post")
    assert b.money[0] == money + 3

    c = _gate_position()
    c.castle = [1, 2]
    c.avail[1] -= 1
    c.avail[2] -= 1
    give(c, 1, "fws")
    c.settle()
    play(c, "gate:castle")
    assert c.phase == 6 and c.castle == [1, 2, 0]  # P0 arrives last

    d = _gate_position()
    hold_in_castle(d, 3)
    d.settle()
    play(d, "gate:back")
    assert d.avail[0] == 6


def test_e5_gate_illegal_targets() -> None:
    """E5: not the gate itself, an occupied inn, a second castle worker, lots, residences, prestige."""
    state = _gate_position()
    state.inn_left = 1
    state.avail[1] -= 1
    state.castle = [0]
    state.avail[0] -= 1
    set_tile(state, 11, "residence", 0)
    set_tile(state, 12, "statue", 0)
    put_worker(state, 1, 9)
    state.settle()
    options = legal(state)
    for refused in ("gate:gate", "gate:inn", "gate:castle", "gate:13", "gate:11", "gate:12", "gate:9"):
        assert refused not in options
        with pytest.raises(IllegalAction):
            state.apply(refused)
    assert {"gate:10", "gate:stables", "gate:trading_post", "gate:back"} <= options
    two = _gate_position(players=2)
    two.settle()
    assert "gate:stables" not in legal(two)


def test_e6_guild_and_provost_bids() -> None:
    """§2.4 guild, §2.5, E6: free guild move, then paid bids in passing order."""
    state = new_game(4)
    state.money = [10, 10, 10, 10]
    state.phase = 3
    state.cur = 0
    state.guild = 1
    state.avail[1] -= 1
    state.bridge = [2, 0, 3, 1]
    put_worker(state, 3, 8)
    put_worker(state, 1, 16)
    state.settle()
    play(state, "guild:+3")
    assert state.provost == 9
    play(state, "provost:-2")
    assert state.provost == 7 and state.money[2] == 8
    play(state, "provost:+3")
    assert state.provost == 10 and state.money[0] == 7
    play(state, "provost:0")
    assert state.money[3] == 10
    play(state, "provost:-1")
    assert state.provost == 9 and state.money[1] == 9
    # Spaces 1–9 activate: the carpenter on 8 waits for P3; the gold mine worker went home for nothing.
    assert state.pending() == {"kind": "activate", "seat": 3, "space": 8, "building": "f_carpenter",
                               "worker": 3}
    assert state.worker[16] == -1 and state.cubes[1][4] == 0


def test_e6_provost_bounds() -> None:
    """§2.5, D18: 1 ≤ provost ≤ 28 and |k| ≤ deniers."""
    state = new_game(4)
    state.phase = 4
    state.cur = 0
    state.bridge = [0, 1, 2, 3]
    state.money = [10, 1, 10, 10]
    state.provost = 2
    state.settle()
    assert "provost:-2" not in legal(state) and "provost:-1" in legal(state)
    state.provost = 27
    state.settle()
    assert "provost:+2" not in legal(state) and "provost:+1" in legal(state)
    state.provost = 10
    play(state, "provost:0")
    assert legal(state) == {"provost:-1", "provost:0", "provost:+1"}


def test_e7_cut_off_keeps_the_owners_prestige() -> None:
    """§2.6.1, D19, E7: workers beyond the provost go home unused; the owner keeps his +1 PP."""
    state = new_game(4)
    state.money = [10, 10, 10, 10]
    set_tile(state, 9, "w_quarry", 1)
    play(state, "place:2", "place:16", "place:9", "place:4")
    assert state.pp[1] == 1
    pass_all(state)
    play(state, "provost:+2")  # P0 first on the bridge: 6 -> 8
    while state.phase == 4:
        play(state, "provost:0")
    assert state.worker[9] == -1 and state.worker[16] == -1
    assert state.cubes[2] == [2, 1, 0, 0, 0] and state.cubes[1][4] == 0
    assert state.cubes[0][2] == 1  # n_quarry on 2, auto
    assert pending_field(state, "space") == 4
    assert legal(state) == {"produce:f", "produce:c"}
    play(state, "produce:c")
    assert state.cubes[3][3] == 1
    assert state.pp[1] == 1


def _lots_built_with_stone(state: CaylusState) -> None:
    for space, slug in zip(range(9, 16), ["s_farm", "park", "workshop", "architect", "architect", "church",
                                          "tailor"], strict=True):
        set_tile(state, space, slug, 1)


def test_e8_carpenter_builds_on_the_lowest_empty_lot() -> None:
    """§2.6.3, D20, D31, E8: the gold mine is skipped; 'any cube' may be gold."""
    state = new_game(4)
    _lots_built_with_stone(state)
    give(state, 0, "fwwg")
    put_worker(state, 0, 8)
    hold_in_castle(state, 3)
    to_phase5(state, provost=8)
    assert legal(state) == {
        "build:w_farm_food", "build:w_farm_cloth", "build:w_sawmill", "build:w_quarry", "build:mason",
        "build:w_market:f", "build:w_market:w", "build:w_market:g",
        "build:w_peddler:f", "build:w_peddler:w", "build:w_peddler:g", "skip"}
    play(state, "build:w_market:g")
    assert state.cubes[0] == [1, 1, 0, 0, 0]
    assert state.tile[17] == TILE_ID["w_market"] and state.owner[17] == 0
    assert state.pp[0] == 4
    assert state.built_lots == 8  # the next building goes on 18


def test_e9_mason_church_and_a_capped_favour() -> None:
    """§2.6.3, §2.9, E9: the church's favour, money row 1 -> 2 (cap 2)."""
    def position() -> CaylusState:
        state = new_game(4)
        set_tile(state, 9, "mason", 0)
        set_tile(state, 10, "w_sawmill", 0)
        set_tile(state, 11, "w_quarry", 2)
        give(state, 1, "sc", deniers=5, pp=4)
        state.fav[1] = [0, 1, 0, 0]
        put_worker(state, 1, 9)
        hold_in_castle(state, 3)
        to_phase5(state, provost=9)
        play(state, "build:church")
        return state

    state = position()
    assert state.cubes[1] == [0, 0, 0, 0, 0]
    assert state.tile[12] == TILE_ID["church"] and state.owner[12] == 1
    assert state.pp[1] == 7
    assert state.pending() == {"kind": "favour_row", "seat": 1, "favours": 1}
    play(state, "favour:money")
    assert state.fav[1][1] == 2 and state.money[1] == 9

    bld = position()
    play(bld, "favour:bld")
    assert bld.fav[1][3] == 1 and pending_field(bld, "kind") == "castle"
    pp = position()
    play(pp, "favour:pp")
    assert pp.pp[1] == 8


def _lawyer_position(**options: Any) -> CaylusState:
    state = new_game(4, **options)
    set_tile(state, 9, "lawyer", 0)
    set_tile(state, 10, "w_farm_food", 2)
    set_tile(state, 11, "park", 2)
    set_tile(state, 12, "w_sawmill", 1)
    give(state, 2, "c", deniers=2, pp=10)
    put_worker(state, 2, 9)
    put_worker(state, 3, 10)
    hold_in_castle(state, 1)
    to_phase5(state, provost=12)
    return state


def test_e10_lawyer_delayed_conversion() -> None:
    """§2.6.4, D19, D21, E10: pay and score now, convert once the worker on the target leaves."""
    state = _lawyer_position()
    play(state, "lawyer:10")
    assert state.money[2] == 1 and state.cubes[2][3] == 0 and state.pp[2] == 12
    assert state.conv[10] == 2 and state.tile[10] == TILE_ID["w_farm_food"]
    assert legal(state) == {"produce:ff", "produce:c"}
    play(state, "produce:ff")
    assert state.cubes[3][0] == 2 + 2
    assert state.tile[10] == TILE_ID["residence"] and state.owner[10] == 2
    assert state.stock[TILE_ID["w_farm_food"]] == 1
    # Next phase 1: 2 + 1 for the residence.
    play(state, "castle:fws")
    while state.phase != 2:
        state.apply(state.legal_actions()[0])
    incomes = [e for e in state.view(None)["log"] if e["event"] == "income" and e["seat"] == 2]
    assert incomes[-1]["deniers"] == 3


def test_e10_lawyer_immediate_conversion_and_targets() -> None:
    """E10 variant and illegal targets; D5 (`lawyer_targets`) for stone tiles."""
    state = _lawyer_position()
    options = legal(state)
    assert {"lawyer:1", "lawyer:3", "lawyer:10", "skip"} <= options
    for refused in ("lawyer:9", "lawyer:7", "lawyer:8", "lawyer:16", "lawyer:12", "lawyer:11"):
        assert refused not in options  # lawyer, fixed, another's, stone under the default wood_only
    play(state, "lawyer:3")
    assert state.tile[3] == TILE_ID["residence"] and state.owner[3] == 2
    assert TILE_ID["n_carpenter"] in state.removed
    wide = _lawyer_position(lawyer_targets="wood_stone")
    assert "lawyer:11" in legal(wide)
    set_tile(wide, 13, "residence", 2)
    set_tile(wide, 14, "statue", 2)
    wide.settle()
    assert "lawyer:13" not in legal(wide) and "lawyer:14" not in legal(wide)


def test_e11_architect_monument_two_favours_on_different_rows() -> None:
    """§2.6.3, §2.9, E11: prestige on one's residence; the Monument's 2 favours need 2 rows."""
    state = new_game(4)
    state.scored = 1
    state.cap = 4
    for space, slug in zip(range(9, 13), ["w_sawmill", "w_quarry", "park", "bank"], strict=True):
        set_tile(state, space, slug, 1)
    set_tile(state, 13, "architect", 0)
    set_tile(state, 5, "residence", 0)
    give(state, 0, "ssssgg", deniers=0, pp=20)
    state.fav[0] = [2, 0, 0, 0]
    put_worker(state, 0, 13)
    hold_in_castle(state, 3)
    to_phase5(state, provost=13)
    assert "build:monument:7" not in legal(state)
    assert "build:monument:5" in legal(state)
    play(state, "build:monument:5")
    assert state.pp[0] == 34 and state.cubes[0] == [0, 0, 0, 0, 0]
    assert state.tile[5] == TILE_ID["monument"] and state.owner[5] == 0
    play(state, "favour:pp")
    assert state.pp[0] == 37 and state.fav[0][0] == 3
    assert "favour:pp" not in legal(state)
    with pytest.raises(IllegalAction):
        state.apply("favour:pp")
    play(state, "favour:money")
    assert state.fav[0][1] == 1 and state.money[0] == 3
    # Next phase 1: the residence is gone, so P0's income drops from 3 to 2.
    play(state, "castle:fws", "favour:pp")  # P3's batch, then his best-builder favour
    assert state.turn == 2 and state.phase == 2
    incomes = [e["deniers"] for e in state.view(None)["log"] if e["event"] == "income" and e["seat"] == 0]
    assert incomes[-1] == 2


def test_e12_trade_buildings_in_road_order() -> None:
    """§2.6.2, E12: church, tailor, bank, alchemist used one after the other."""
    state = new_game(4)
    set_tile(state, 9, "church", 0)
    set_tile(state, 10, "tailor", 1)
    set_tile(state, 11, "bank", 2)
    set_tile(state, 12, "alchemist", 1)
    give(state, 1, "ffffwccc", deniers=10, pp=0)
    for space in (9, 10, 11, 12):
        put_worker(state, 1, space)
    hold_in_castle(state, 3)
    to_phase5(state, provost=12)
    play(state, "church:4")
    assert state.money[1] == 6 and state.pp[1] == 5
    play(state, "tailor:3")
    assert state.cubes[1][3] == 0 and state.pp[1] == 11
    play(state, "bank:5")
    assert state.money[1] == 1 and state.cubes[1][4] == 2
    assert "alch:fw" in legal(state)
    play(state, "alch:ffff")
    assert state.money[1] == 1 and state.cubes[1] == [0, 1, 0, 0, 4] and state.pp[1] == 11

    poor = new_game(4)
    set_tile(poor, 9, "church", 0)
    give(poor, 1, "", deniers=3)
    put_worker(poor, 1, 9)
    hold_in_castle(poor, 3)
    to_phase5(poor, provost=9)
    assert legal(poor) == {"church:2", "skip"}


def test_e13_castle_overflow_penalty_best_builder_dungeon_scoring() -> None:
    """§2.7, §2.8, D10, D12, D29, E13."""
    state = new_game(4)
    state.houses[0] = [2, 2, 0, 0]
    state.castle_count = [4, 0, 0]
    give(state, 0, "fsg", pp=10)
    give(state, 1, "", pp=8)
    give(state, 2, "fffwwssc", pp=5)
    give(state, 3, "", pp=1)
    state.bailiff = state.provost = 9
    to_phase6(state, [2, 0, 3])
    assert pending_field(state, "seat") == 2
    play(state, "castle:fws", "castle:fws")
    assert state.pp[2] == 15 and state.castle_count[0] == 6
    assert state.cubes[2] == [1, 0, 0, 1, 0]
    assert state.current_player == 0  # P2 could give no third batch: done by itself
    play(state, "castle:fsg")
    assert state.houses[1][0] == 1 and state.pp[0] == 14  # overflow into the Walls
    assert state.pp[3] == 0  # no batch: -2, floored at 0
    assert state.pending() == {"kind": "favour_row", "seat": 2, "favours": 1}  # best builder
    play(state, "favour:pp")
    assert state.pp[2] == 16 and state.fav[2][0] == 1
    # Phase 7: bailiff 9 -> 10; the full Dungeon is scored with cap 2, in turn order.
    assert state.bailiff == 10 and state.provost == 10
    assert state.current_player == 0
    play(state, "favour:money")  # P0
    play(state, "favour:money")  # P1
    assert state.current_player == 2
    assert "favour:pp" in legal(state)  # a new phase: the row is free again
    play(state, "favour:pp")
    assert state.fav[2][0] == 2 and state.pp[2] == 18
    assert state.pp[3] == 0
    assert state.scored == 1 and state.cap == 4
    assert state.castle_count == [6, 1, 0]


@pytest.mark.parametrize(
    ("bailiff", "provost", "scored", "after", "now_scored"),
    [
        (10, 11, 0, 12, 1),
        (10, 10, 0, 11, 0),
        (10, 4, 0, 11, 0),
        (11, 20, 0, 13, 1),
        (17, 17, 1, 18, 2),
        (23, 28, 2, 25, 3),
        (11, 20, 1, 13, 1),  # the Dungeon was scored early: passing 12 triggers nothing
    ],
)
def test_e14_bailiff_moves_and_scoring_triggers(
    bailiff: int, provost: int, scored: int, after: int, now_scored: int
) -> None:
    """§2.8, D13, E14: +2 if the provost is ahead, else +1; marks reached or passed trigger scoring."""
    state = new_game(4)
    state.scored = scored
    state.cap = (2, 4, 5)[scored]
    to_phase7(state, bailiff, provost)
    assert state.bailiff == after
    assert state.scored == now_scored
    assert state.is_over == (now_scored == 3)


@pytest.mark.parametrize(
    ("scored", "row", "marker", "extra"),
    [(0, "money", 2, 4), (0, "res", 2, None), (0, "bld", 1, None), (1, "money", 3, 5)],
)
def test_e15_column_cap_before_and_after_the_dungeon(scored: int, row: str, marker: int, extra: int | None) -> None:
    """§2.9 column cap, E15."""
    state = new_game(4)
    state.scored = scored
    state.cap = (2, 4)[scored]
    state.fav[0] = [0, 2, 1, 0]
    give(state, 0, "", deniers=0)
    state.fstack = [(0, 1)]
    to_phase6(state, [3])
    hold_in_castle(state, 3)
    state.castle = [3]
    state.settle()
    assert state.current_player == 0
    play(state, f"favour:{row}")
    index = ("pp", "money", "res", "bld").index(row)
    assert state.fav[0][index] == marker
    if extra is not None:
        assert state.money[0] == extra
    if row == "res":
        assert legal(state) == {"res:f", "res:w", "res:s"}
    if row == "bld":
        assert pending_field(state, "kind") == "castle"


def test_e16_walls_scoring_with_several_favours() -> None:
    """§2.8, D14, E16: three favours on three rows; -3 for no house; column 5 opens afterwards."""
    state = new_game(4)
    state.scored = 1
    state.cap = 4
    state.houses[1] = [5, 3, 1, 0]
    state.castle_count = [0, 9, 0]
    give(state, 0, "", deniers=0, pp=0)
    give(state, 3, "", pp=7)
    state.fav[0] = [2, 2, 1, 0]
    to_phase7(state, 17, 17)
    assert state.pp[3] == 4
    assert state.pending() == {"kind": "favour_row", "seat": 0, "favours": 3}
    play(state, "favour:pp")
    assert state.pp[0] == 3 and state.fav[0][0] == 3
    assert "favour:pp" not in legal(state)
    play(state, "favour:money")
    assert state.money[0] == 5 and state.fav[0][1] == 3
    play(state, "favour:res")
    assert state.fav[0][2] == 2
    play(state, "res:s")
    assert state.cubes[0][2] == 1
    assert state.pending() == {"kind": "favour_row", "seat": 1, "favours": 2}
    play(state, "favour:pp", "favour:money")
    assert state.cap == 5 and state.scored == 2


def test_e17_resource_trade() -> None:
    """§2.9 row res column 4, D15, E17."""
    state = new_game(4)
    state.scored = 1
    state.cap = 4
    state.fav[1] = [0, 0, 3, 0]
    give(state, 1, "ff")
    state.fstack = [(1, 1)]
    to_phase6(state, [3])
    hold_in_castle(state, 3)
    state.castle = [3]
    state.settle()
    play(state, "favour:res")
    assert state.fav[1][2] == 4
    options = legal(state)
    assert {"res:f", "res:w", "res:s", "res:c", "res:trade:f:ss", "res:trade:f:fc"} <= options
    assert "res:g" not in options
    assert not any(o.startswith("res:trade:g") for o in options)
    play(state, "res:trade:f:ss")
    assert state.cubes[1] == [1, 0, 2, 0, 0]


def test_e18_final_scoring_and_shared_victory() -> None:
    """§3.2, D25, E18: gold 3, plain cubes per 3, deniers per 4; ties share the win."""
    state = new_game(3)
    state.scored = 2
    state.cap = 5
    state.houses[2] = [1, 1, 1]
    state.castle_count = [0, 0, 3]
    give(state, 0, "ffwwwscc" + "ggg", deniers=11, pp=40)
    give(state, 1, "fffww" + "gg", deniers=8, pp=44)
    give(state, 2, "ff", deniers=3, pp=50)
    to_phase7(state, 23, 28)
    assert state.phase == OVER and state.is_over and state.current_player is None
    assert state.scores() == [53, 53, 50]
    assert state.winners() == [0, 1]
    assert state.legal_actions() == ()


def test_e19_two_players() -> None:
    """§3.3, D23, E19: 5 d each, 3 d after the opponent passed, no stables, order swaps."""
    state = new_game(2)
    assert state.money == [7, 7]
    assert "place:stables" not in legal(state)
    play(state, "place:1")
    assert state.money[0] == 6
    play(state, "place:2")
    assert state.money[1] == 6
    play(state, "pass")
    assert state.money[0] == 7
    assert "place:stables" not in legal(state)
    assert state.price(1, 35) == 3
    play(state, "place:castle")
    assert state.money[1] == 3
    play(state, "place:3")
    assert state.money[1] == 0 and state.bridge == [0, 1]  # then passed by himself
    holder = new_game(2)
    holder.inn_right = 1
    holder.bridge = [0]
    assert holder.price(1, 35) == 1
    # Play the turn out: order P1, P0 next turn.
    play(state, "provost:-3")  # P0; P1 has no deniers and stays put by himself
    assert state.provost == 3
    play(state, "skip")  # P1's carpenter on 3
    play(state, "castle:fws")
    assert state.pending() == {"kind": "favour_row", "seat": 1, "favours": 1}  # best builder
    play(state, "favour:pp")
    assert state.turn == 2 and state.turn_order == [1, 0] and state.current_player == 1


def test_e20_simplified_favours() -> None:
    """§3.4, D24, E20: every favour is 3 PP and no favour:* action exists."""
    state = new_game(4, simplified_favours=True)
    state.houses[0] = [2, 0, 0, 0]
    state.castle_count = [2, 0, 0]
    give(state, 0, "", pp=0)
    give(state, 1, "", pp=10)
    to_phase7(state, 11, 11)  # bailiff 12: Dungeon scored
    assert state.pp[0] == 3 and state.pp[1] == 8
    assert not any(e.get("action", "").startswith("favour") for e in state.view(None)["log"])

    walls = new_game(4, simplified_favours=True)
    walls.scored = 1
    walls.houses[1] = [5, 0, 0, 0]
    walls.castle_count = [0, 5, 0]
    give(walls, 0, "", pp=0)
    to_phase7(walls, 17, 17)
    assert walls.pp[0] == 9

    joust = new_game(4, simplified_favours=True)
    joust.phase = 3
    joust.cur = 0
    joust.joust = 0
    joust.avail[0] -= 1
    give(joust, 0, "c", deniers=1, pp=0)
    hold_in_castle(joust, 3)
    joust.settle()
    play(joust, "joust:yes")
    assert joust.pp[0] == 3

    builder = new_game(4, simplified_favours=True)
    give(builder, 0, "fws", pp=0)
    to_phase6(builder, [0])
    hold_in_castle(builder, 3)
    builder.castle = [0, 3]
    builder.settle()
    play(builder, "castle:fws")
    assert builder.pp[0] == 5
    play(builder, "castle:fws")  # P3 gives one batch too: a tie goes to the first arrival
    assert builder.pp[0] == 5 + 3

    monument = new_game(4, simplified_favours=True)
    for space, slug in zip(range(9, 13), ["w_sawmill", "w_quarry", "park", "bank"], strict=True):
        set_tile(monument, space, slug, 1)
    set_tile(monument, 13, "architect", 0)
    set_tile(monument, 5, "residence", 0)
    give(monument, 0, "ssssgg", pp=0)
    put_worker(monument, 0, 13)
    hold_in_castle(monument, 3)
    to_phase5(monument, provost=13)
    play(monument, "build:monument:5")
    assert monument.pp[0] == 14 + 6


def test_e21_towers_filled_in_phase_6_ends_the_game() -> None:
    """§2.7 D11, §3.1, E21: no room means no penalty for a player who could build; the game ends."""
    state = new_game(5)
    state.scored = 2
    state.cap = 5
    state.houses[2] = [6, 4, 2, 1, 0]
    state.castle_count = [0, 0, 13]
    give(state, 2, "ffwwss", pp=10)
    give(state, 0, "fws", pp=10)
    give(state, 4, "", pp=10)
    give(state, 3, "", pp=10)
    state.bailiff = state.provost = 20
    to_phase6(state, [2, 0])
    play(state, "castle:fws")
    assert state.castle_count[2] == 14 and state.pp[2] == 13
    assert state.pp[0] == 10  # no room: done by himself, no penalty
    assert state.pending() == {"kind": "favour_row", "seat": 2, "favours": 1}
    play(state, "favour:pp")
    assert state.bailiff == 21
    counts: dict[int, int] = {}
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if pending_field(state, "kind") == "favour_row":
            counts[seat] = counts.get(seat, 0) + 1
        state.apply(state.legal_actions()[0])
    assert counts.get(0, 0) == 3 and counts.get(1, 0) == 2 and 3 not in counts and 4 not in counts
    assert state.pp[4] == 6 and state.pp[3] == 10


@pytest.mark.parametrize(("mode", "penalised"), [("if_no_batch", True), ("none", False)])
def test_e21_tower_full_penalty_option(mode: str, penalised: bool) -> None:
    """D11 (`tower_full_penalty`): a castle worker with no room and no batch."""
    state = new_game(4, tower_full_penalty=mode)
    state.scored = 2
    state.cap = 5
    state.houses[2] = [14, 0, 0, 0]
    state.castle_count = [0, 0, 14]
    give(state, 1, "", pp=10)
    state.bailiff = state.provost = 9
    to_phase6(state, [1])
    penalties = [e for e in state.view(None)["log"] if e["event"] == "castle_penalty"]
    assert penalties == ([{"event": "castle_penalty", "seat": 1, "prestige": -2}] if penalised else [])


def test_e22_stables_change_the_turn_order() -> None:
    """§2.4 stables, D34, E22."""
    state = new_game(5)
    play(state, "pass", "place:1", "pass", "place:stables", "pass", "place:stables")
    assert state.stables == [3, 1]
    pass_all(state)
    assert state.turn_order == [3, 1, 0, 2, 4]
    assert "place:stables" not in legal(new_game(2))


def test_e23_owners_bonus() -> None:
    """§2.6.1, D7, E23: only stone production buildings used by someone else pay the owner."""
    state = new_game(4)
    set_tile(state, 9, "park", 0)
    set_tile(state, 10, "workshop", 0)
    set_tile(state, 11, "w_quarry", 1)
    put_worker(state, 2, 9)
    put_worker(state, 0, 10)
    put_worker(state, 0, 11)
    hold_in_castle(state, 3)
    to_phase5(state, provost=11)
    assert state.cubes[2] == [3, 3, 0, 0, 0]
    assert state.current_player == 0 and legal(state) == {"bonus:w", "bonus:f"}
    play(state, "bonus:w")
    assert state.cubes[0] == [2, 2, 2 + 2, 1, 0]  # +1 w bonus, own workshop +2 s +1 c, w_quarry +2 s
    assert state.cubes[1] == [2, 1, 0, 0, 0]


def test_e24_joust_paid_with_trading_post_money() -> None:
    """§2.4, D32, E24."""
    state = new_game(4)
    state.phase = 3
    state.cur = 0
    state.tpost = 1
    state.joust = 1
    state.avail[1] -= 2
    give(state, 1, "c", deniers=0, pp=0)
    hold_in_castle(state, 3)
    state.settle()
    assert state.money[1] == 3
    play(state, "joust:yes")
    assert state.money[1] == 2 and state.cubes[1][3] == 0
    play(state, "favour:pp")
    assert state.pp[1] == 1

    no_cloth = new_game(4)
    no_cloth.phase = 3
    no_cloth.cur = 0
    no_cloth.joust = 1
    no_cloth.avail[1] -= 1
    give(no_cloth, 1, "", deniers=5)
    hold_in_castle(no_cloth, 3)
    no_cloth.settle()
    assert no_cloth.joust == -1 and no_cloth.money[1] == 5  # joust:no, by itself


def test_e25_market_and_peddlers() -> None:
    """§2.6.2, D8, E25."""
    state = new_game(4)
    for space, slug in zip(range(9, 12), ["w_sawmill", "w_quarry", "w_peddler"], strict=True):
        set_tile(state, space, slug, 0)
    give(state, 2, "g", deniers=5)
    put_worker(state, 2, 5)
    put_worker(state, 2, 7)
    put_worker(state, 2, 11)
    hold_in_castle(state, 3)
    to_phase5(state, provost=11)
    assert legal(state) == {"sell:g", "skip"}
    play(state, "sell:g")
    assert state.money[2] == 9
    assert legal(state) == {"buy:f", "buy:w", "buy:s", "buy:c", "skip"}
    play(state, "buy:s")
    assert state.money[2] == 7 and state.cubes[2][2] == 1
    assert "buy:sc" in legal(state) and "buy:g" not in legal(state)
    play(state, "buy:sc")
    assert state.money[2] == 5 and state.cubes[2] == [0, 0, 2, 1, 0]


def test_e26_two_sections_scored_in_one_phase_7() -> None:
    """§2.8, D13, D14, E26: Dungeon with cap 2, then Walls with cap 4, rows never repeat."""
    state = new_game(3)
    state.houses[0] = [2, 2, 2]
    state.houses[1] = [3, 5, 2]
    state.castle_count = [6, 10, 0]
    state.fav[0] = [2, 2, 0, 0]
    give(state, 0, "", deniers=0, pp=0)
    to_phase7(state, 11, 15)
    assert state.bailiff == 13
    assert state.pending() == {"kind": "favour_row", "seat": 0, "favours": 1}
    play(state, "favour:pp")
    assert state.fav[0][0] == 2 and state.pp[0] == 2  # cap 2 during the Dungeon scoring
    play(state, "favour:pp")  # P1
    play(state, "favour:pp")  # P2
    assert state.scored == 2  # the full Walls are scored next, in the same phase 7
    assert state.pending() == {"kind": "favour_row", "seat": 0, "favours": 2}  # Walls: 3 houses
    assert "favour:pp" not in legal(state)
    play(state, "favour:money")
    assert state.fav[0][1] == 3 and state.money[0] == 5  # cap 4 now
    play(state, "favour:bld")
    assert state.fav[0][3] == 1
    assert state.current_player == 1
    assert state.pending() == {"kind": "favour_row", "seat": 1, "favours": 3}
