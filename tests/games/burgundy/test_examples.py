"""The worked examples of the reference (§5 E1–E21), each built as a position and played through."""

from __future__ import annotations

import pytest

from meeple.games.burgundy.data import BOARDS, SPACE_DIE, TILE_BY_NAME, TILE_TYPE, TYPE_LETTERS, A, C, M
from meeple.games.burgundy.state import EMPTY, BurgundyState
from tests.games.burgundy.scenario import (
    clear_depots,
    goods,
    legal,
    new,
    occupy,
    pass_turn,
    pending_kind,
    play,
    position,
    set_depot,
    storage,
)

# --- E1: worker cost (§3.5) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "action", "estate", "tile", "knowledge", "workers"),
    [
        (1, "sell:6", {}, None, (), 1),
        (3, "sell:6", {}, None, (), 3),
        (3, "sell:6", {}, None, (8,), 2),
        (2, "place:B.bank@9", {8: "K16"}, "B.bank", (9,), 1),
        (2, "place:B.bank@9", {8: "K16"}, "B.bank", (9, 8), 1),
        (1, "place:K17@35", {25: "M", 30: "M"}, "K17", (11, 8), 1),
        (6, "place:S@22", {20: "S", 21: "S"}, "S", (10,), 0),
        (5, "take:4:S", {}, None, (12,), 0),
        (5, "sell:4", {}, None, (12,), 1),
        (4, "workers", {}, None, (), 0),
    ],
)
def test_e1_worker_cost_is_the_minimum_with_wrap_and_knowledge(
    die: int, action: str, estate: dict[int, str], tile: str | None, knowledge: tuple[int, ...], workers: int
) -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 4, ["S"])
    stored = (tile,) if tile else ()
    position(state, dice=(die, die), storage=stored, goods={4: 1, 6: 1}, workers=workers, estate=estate,
             knowledge=knowledge)
    play(state, f"die:{die}")
    assert action in legal(state)
    if workers:
        poorer = state.clone()
        poorer.workers[0] = workers - 1
        poorer.rebuild_derived()
        for k in knowledge:
            poorer.kmask[0] |= 1 << k
        assert action not in legal(poorer)
    play(state, action)
    assert state.workers[0] == (2 if action == "workers" else 0)


def test_e1_worker_suffix_must_match_the_cost() -> None:
    state = new()
    position(state, dice=(3, 3), goods={6: 1}, workers=3)
    play(state, "die:3")
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply("sell:6~w2")
    state.apply("sell:6~w3")
    assert state.history[-1] == "sell:6"
    assert state.workers[0] == 0


# --- E2: first placement ---------------------------------------------------------------------------------


def _placements(workers: int) -> set[str]:
    state = new()
    position(state, dice=(3, 5), storage=("B.bank", "K05", "S"), workers=workers)
    found = set()
    for die in (3, 5):
        trial = state.clone()
        play(trial, f"die:{die}")
        found |= {f"die:{die} {a}" for a in legal(trial) if a.startswith("place:")}
    return found


def test_e2_first_placement_must_touch_the_start_castle() -> None:
    zero = {"die:3 place:B.bank@12", "die:3 place:B.bank@26", "die:5 place:S@20"}
    assert _placements(0) == zero
    assert _placements(1) == zero | {"die:3 place:S@18"}
    assert _placements(2) == zero | {
        "die:3 place:S@18", "die:3 place:K05@13", "die:5 place:K05@13", "die:3 place:S@20",
        "die:5 place:B.bank@12", "die:5 place:B.bank@26",
    }
    assert "die:5 place:S@18" not in _placements(2)
    assert "die:5 place:S@18" in _placements(3)


# --- E3: bank completing a one-space city ------------------------------------------------------------------


def test_e3_bank_completing_a_one_space_city_scores_11_and_pays_2() -> None:
    state = new()
    position(state, dice=(3, 5), storage=("B.bank",), silver=1)
    play(state, "die:3", "place:B.bank@12")
    assert state.vp[0] == 11
    assert state.silver[0] == 3
    assert state.bonus_large[1] == EMPTY


# --- E4: animals (seed example 4+3=7, 4+4+3=11) -------------------------------------------------------------


def _place_animal(state: BurgundyState, tile: str, space: int, phase: int = 0) -> int:
    die = SPACE_DIE[space]
    position(state, dice=(die, die), storage=(tile,), phase=phase)
    before = state.vp[0]
    play(state, f"die:{die}", f"place:{tile}@{space}")
    return state.vp[0] - before


def test_e4_animals_score_same_kind_in_the_same_pasture() -> None:
    state = new()
    occupy(state, 0, {12: "B.bank"})
    assert _place_animal(state, "A.cow3", 11) == 3
    assert _place_animal(state, "A.pig2", 6) == 2
    assert _place_animal(state, "A.cow4", 10) == 7
    assert _place_animal(state, "A.cow4", 5) == 11
    assert _place_animal(state, "A.pig3", 1, phase=2) == 5 + 15 + 6
    occupy(state, 0, {27: "B.bank"})
    assert _place_animal(state, "A.cow2", 28, phase=3) == 2 + 1 + 4 + 5
    assert state.bonus_large[A] == 0


# --- E5: K07 ------------------------------------------------------------------------------------------------


def test_e5_k07_adds_one_per_scoring_animal_tile() -> None:
    state = new()
    occupy(state, 0, {12: "B.bank", 11: "A.sheep4"})
    state.kmask[0] |= 1 << 7
    assert _place_animal_keeping(state, "A.sheep3", 10) == (3 + 1) + (4 + 1)
    assert _place_animal_keeping(state, "A.chicken2", 6) == 2 + 1


def _place_animal_keeping(state: BurgundyState, tile: str, space: int) -> int:
    die = SPACE_DIE[space]
    position(state, dice=(die, die), storage=(tile,), knowledge=(7,))
    before = state.vp[0]
    play(state, f"die:{die}", f"place:{tile}@{space}")
    return state.vp[0] - before


# --- E6: ships and goods ------------------------------------------------------------------------------------


def _ship_position(held: dict[int, int], knowledge: tuple[int, ...] = ()) -> BurgundyState:
    state = new(players=3)
    clear_depots(state)
    set_depot(state, 2, [], goods=[5, 5, 3])
    set_depot(state, 3, [], goods=[6])
    position(state, dice=(2, 2), storage=("S",), goods=held, knowledge=knowledge)
    play(state, "die:2", "place:S@18")
    assert pending_kind(state) == "ship"
    return state


def test_e6_ship_takes_a_depots_goods_and_advances_the_pawn() -> None:
    state = _ship_position({1: 2, 5: 1})
    play(state, "ship:2")
    assert goods(state) == {1: 2, 3: 1, 5: 3}
    assert state.depot_goods[2] == [0] * 7
    assert state.track_pos[0] == 1
    assert state.track_order()[0] == 0


def test_e6_ship_with_three_kinds_takes_nothing_new() -> None:
    state = _ship_position({1: 1, 2: 1, 4: 1})
    play(state, "ship:2")
    assert goods(state) == {1: 1, 2: 1, 4: 1}
    assert state.depot_goods[2][5] == 2 and state.depot_goods[2][3] == 1


def test_e6_ship_with_one_free_slot_asks_which_kind_to_keep() -> None:
    state = _ship_position({1: 2, 4: 1})
    play(state, "ship:2")
    assert pending_kind(state) == "ship_keep"
    assert legal(state) == ["keep:3", "keep:5"]
    play(state, "keep:5")
    assert goods(state) == {1: 2, 4: 1, 5: 2}
    assert state.depot_goods[2][3] == 1


def test_e6_k05_ship_takes_from_two_neighbouring_depots() -> None:
    state = _ship_position({1: 2, 4: 1}, knowledge=(5,))
    assert "ship:2+3" in legal(state) and "ship:6+1" in legal(state)
    play(state, "ship:2+3")
    assert legal(state) == ["keep:3", "keep:5", "keep:6"]
    play(state, "keep:6")
    assert goods(state) == {1: 2, 4: 1, 6: 1}
    assert state.depot_goods[2][5] == 2 and state.depot_goods[3][6] == 0


# --- E7: turn order -----------------------------------------------------------------------------------------


def _ship_turn(state: BurgundyState, seat: int) -> None:
    assert state.current_player == seat
    state.dice[seat] = [2, 2]
    state.dice_left = [2, 2]
    state.storage[seat] = [TILE_BY_NAME["S"]]
    state.rebuild_derived()
    space = 18 if state.estate[seat][18] == EMPTY else 17
    play(state, "die:2", f"place:S@{space}", "ship:1", "die:2", "workers", "pass")


def test_e7_a_ship_moves_the_pawn_on_top_from_the_next_round() -> None:
    state = new(players=3)
    assert state.order == [0, 1, 2]
    pass_turn(state)
    _ship_turn(state, 1)
    assert state.current_player == 2  # the current round keeps its order
    pass_turn(state)
    assert state.order == [1, 0, 2]  # round 2: B first (holds the white die)
    pass_turn(state)
    _ship_turn(state, 0)  # A reaches position 1 on top of B
    _ship_turn(state, 2)  # then C, on top of A
    assert state.order == [2, 0, 1]
    assert state.track_order() == [2, 0, 1]


# --- E8: selling --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("knowledge", "silver", "workers"), [((), 1, 0), ((3,), 2, 0), ((3, 4), 2, 1)])
def test_e8_selling_pays_one_silverling_and_n_vp_per_tile(
    knowledge: tuple[int, ...], silver: int, workers: int
) -> None:
    state = new(players=3)
    position(state, dice=(4, 3), goods={2: 1, 4: 3}, silver=0, knowledge=knowledge)
    play(state, "die:4", "sell:4")
    assert (state.silver[0], state.vp[0], state.workers[0]) == (silver, 9, workers)
    assert state.sold[0][4] == 3 and goods(state) == {2: 1}


def test_e8_a_die_sells_only_its_kind_unless_workers_change_it() -> None:
    state = new(players=3)
    position(state, dice=(3, 3), goods={2: 1, 4: 3})
    play(state, "die:3")
    assert not [a for a in legal(state) if a.startswith("sell:")]
    position(state, dice=(3, 3), goods={2: 1, 4: 3}, workers=1, silver=0)
    play(state, "die:3")
    assert [a for a in legal(state) if a.startswith("sell:")] == ["sell:2", "sell:4"]
    play(state, "sell:2")
    assert (state.silver[0], state.vp[0], state.workers[0]) == (1, 3, 0)


def test_e8_k15_and_k25_score_the_sold_pile() -> None:
    state = new(players=3)
    position(state, knowledge=(15, 25), silver=0)
    state.sold[0] = [0, 0, 1, 0, 3, 0, 0]
    part = state.final_breakdown(0)
    assert part["K25"] == 4 and part["K15"] == 6


# --- E9: warehouse ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("knowledge", "silver", "workers"), [((), 1, 0), ((3, 4), 2, 1)])
def test_e9_warehouse_sells_one_kind_without_a_die(knowledge: tuple[int, ...], silver: int, workers: int) -> None:
    state = new(players=4)
    position(state, dice=(3, 3), storage=("B.warehouse",), goods={2: 2, 6: 1}, silver=0, knowledge=knowledge)
    play(state, "die:3", "place:B.warehouse@26")
    assert legal(state) == ["sell:2", "sell:6", "skip"]
    play(state, "sell:2")
    assert (state.vp[0], state.silver[0], state.workers[0]) == (8, silver, workers)
    assert goods(state) == {6: 1}


# --- E10: castle bonus action -------------------------------------------------------------------------------


def test_e10_castle_gives_a_bonus_action_with_any_value() -> None:
    state = new()
    position(state, dice=(6, 2), storage=("C", "K09", "S"), goods={3: 1}, estate={12: "B.bank", 13: "K01"},
             phase=1)
    play(state, "die:6", "place:C@7")
    assert pending_kind(state) == "castle_bonus"
    options = legal(state)
    assert {"place:K09@8", "place:S@18", "place:S@20", "sell:3", "workers"} <= set(options)
    assert "place:K09@4" not in options  # not adjacent to an occupied space
    tiles_on_depots = {
        f"take:{d}:{name}"
        for d in range(1, 7)
        for name in {t for t in state.view(None)["depots"][str(d)]}
    }
    assert tiles_on_depots == {a for a in options if a.startswith("take:")}
    assert not any(a.startswith("buy:") for a in options)
    play(state, "workers")
    assert state.workers[0] == 2
    assert state.region_left[0][BOARDS["1"].region_of[7]] == 2


# --- E11: mines, region, colour race, income ----------------------------------------------------------------


def test_e11_mine_region_colour_bonus_and_phase_income() -> None:
    state = new(players=3)
    for seat in range(3):
        occupy(state, seat, {25: "M", 30: "M"})
    position(state, 0, dice=(3, 1), storage=("M",), phase=2, knowledge=(2,), silver=0)
    state.round = 4  # the last round of phase C
    play(state, "die:3", "place:M@34")
    assert state.vp[0] == 18 and state.bonus_large[M] == 0
    play(state, "die:1", "workers", "pass")
    assert (state.silver[0], state.workers[0]) == (0, 2)
    while state.phase == 2:
        pass_turn(state)
    assert (state.silver[0], state.workers[0]) == (3, 2 + 3)  # three mines, K02

    position(state, 1, dice=(3, 3), storage=("M",))
    before = state.vp[1]
    play(state, "die:3", "place:M@34")
    assert state.vp[1] - before == 13 and state.bonus_small[M] == 1

    position(state, 2, dice=(3, 3), storage=("M",), phase=4)
    before = state.vp[2]
    play(state, "die:3", "place:M@34")
    assert state.vp[2] - before == 8


# --- E12: building uniqueness -------------------------------------------------------------------------------


def test_e12_no_two_equal_buildings_in_one_city_unless_k01() -> None:
    estate = {26: "B.bank", 25: "M", 31: "K16", 36: "K17"}
    state = new()
    for die, target in ((1, "place:B.bank@27"), (3, "place:B.bank@37")):
        position(state, dice=(die, die), storage=("B.bank",), estate=estate)
        play(state, f"die:{die}")
        assert target not in legal(state)
        position(state, dice=(die, die), storage=("B.bank",), estate=estate, knowledge=(1,))
        play(state, f"die:{die}")
        assert target in legal(state)
    position(state, dice=(5, 5), storage=("B.bank",), estate=estate)
    play(state, "die:5")
    assert "place:B.bank@24" in legal(state)


# --- E13: city hall -----------------------------------------------------------------------------------------


def test_e13_city_hall_places_another_tile_ignoring_the_die() -> None:
    state = new()
    position(state, dice=(3, 3), storage=("B.cityhall", "B.watchtower", "C"))
    play(state, "die:3", "place:B.cityhall@26")
    assert pending_kind(state) == "city_hall"
    assert legal(state) == ["place:B.watchtower@12", "place:B.watchtower@27", "place:B.watchtower@32", "skip"]
    before = state.vp[0]
    play(state, "place:B.watchtower@12")
    assert state.vp[0] - before == 15


# --- E14: storage overflow, purchase, K06 -------------------------------------------------------------------


def test_e14_overflow_discards_a_stored_tile_and_purchase_is_once_per_turn() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 4, ["K12"])
    set_depot(state, 0, ["B.bank"])
    set_depot(state, 5, ["S"])
    position(state, dice=(4, 2), storage=("S", "M", "A.cow2"), silver=4)
    play(state, "die:4", "take:4:K12")
    assert pending_kind(state) == "discard"
    assert legal(state) == ["discard:S", "discard:M", "discard:A.cow2"]
    play(state, "discard:M")
    assert storage(state) == ["A.cow2", "K12", "S"]
    assert state.removed[-1] == TILE_BY_NAME["M"]
    assert "buy:5:S" not in legal(state)
    play(state, "buy:0:B.bank")
    assert state.silver[0] == 2 and pending_kind(state) == "discard"
    play(state, "discard:S")
    assert not any(a.startswith("buy:") for a in legal(state))


def test_e14_k06_buys_from_a_numbered_depot_and_needs_two_silverlings() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 0, ["B.bank"])
    set_depot(state, 5, ["S"])
    position(state, dice=(4, 2), silver=2, knowledge=(6,))
    assert {"buy:0:B.bank", "buy:5:S"} <= set(legal(state))
    play(state, "buy:5:S")
    assert state.silver[0] == 0 and storage(state) == ["S"]
    assert not any(a.startswith("buy:") for a in legal(state))
    position(state, dice=(4, 2), silver=1, knowledge=(6,))
    assert not any(a.startswith("buy:") for a in legal(state))


# --- E15: carpenter / church / market -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("building", "expected"),
    [
        ("B.church", ["take:2:C", "take:2:K03", "skip"]),
        ("B.market", ["take:1:S", "skip"]),
        ("B.carpenter", ["take:1:B.bank", "skip"]),
    ],
)
def test_e15_building_takes_a_tile_of_its_types_from_numbered_depots(building: str, expected: list[str]) -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 1, ["S", "B.bank"])
    set_depot(state, 2, ["C", "K03"])
    set_depot(state, 0, ["B.market"])
    position(state, dice=(3, 3), storage=(building,))
    play(state, "die:3", f"place:{building}@26")
    assert legal(state) == expected
    take = expected[0]
    play(state, take)
    assert storage(state) == [take.split(":")[2]]


# --- E16: workers with K13 + K14 ----------------------------------------------------------------------------


def test_e16_k13_and_k14_improve_take_workers() -> None:
    state = new()
    position(state, dice=(2, 5), silver=0, knowledge=(13, 14))
    play(state, "die:2", "workers", "die:5", "workers")
    assert (state.workers[0], state.silver[0]) == (8, 2)
    position(state, dice=(6, 6), storage=("C",), estate={13: "K16"}, knowledge=(14,))
    play(state, "die:6", "place:C@7", "workers")
    assert state.workers[0] == 4


# --- E17: depot filling -------------------------------------------------------------------------------------


def _to_next_phase(state: BurgundyState) -> None:
    phase = state.phase
    while state.phase == phase:
        pass_turn(state)


def _depot_types(state: BurgundyState, depot: int) -> list[str]:
    return sorted(TYPE_LETTERS[TILE_TYPE[t]] for t in state.depots[depot] if t != EMPTY)


def test_e17_depot_filling_by_player_count_and_phase() -> None:
    state = new(players=3, preset="reference")
    goods_before = [list(g) for g in state.depot_goods]
    assert _depot_types(state, 6) == ["A", "B", "C"]
    _to_next_phase(state)
    assert _depot_types(state, 6) == ["A", "B", "M"]
    counts = {t: sum(_depot_types(state, d).count(t) for d in range(1, 7)) for t in "SBCKAM"}
    assert counts == {"S": 3, "B": 6, "C": 1, "K": 3, "A": 3, "M": 2}
    assert len(_depot_types(state, 0)) == 6
    assert all(state.depot_goods[d][g] >= goods_before[d][g] for d in range(1, 7) for g in range(1, 7))
    assert sum(map(sum, state.depot_goods)) == 5 + 1  # phase A's five goods stayed, plus round 1 of B
    _to_next_phase(state)
    assert _depot_types(state, 6) == ["A", "B", "C"]
    two = new(players=2)
    assert _depot_types(two, 6) == ["A", "B"]
    assert len(_depot_types(two, 0)) == 4


# --- E18: final scoring -------------------------------------------------------------------------------------


def test_e18_final_scoring_adds_goods_silver_workers_and_knowledge() -> None:
    state = new(players=4)
    estate = {12: "B.warehouse", 26: "B.warehouse", 11: "A.cow3", 28: "A.sheep2",
              4: "K15", 8: "K16", 13: "K24", 31: "K25", 35: "K26"}
    position(state, goods={1: 2, 6: 1}, silver=5, workers=7, storage=("S", "M"), estate=estate)
    state.sold[0] = [0, 0, 2, 0, 3, 2, 0]
    state.bonus_large[A] = 0
    state.bonus_small[C] = 0
    part = state.final_breakdown(0)
    assert part == {"goods": 3, "silverlings": 5, "workers": 3, "K15": 9, "K16": 8, "K24": 8, "K25": 7, "K26": 4}
    assert sum(part.values()) == 47


def test_e18_final_scoring_is_added_at_game_end() -> None:
    state = new(players=2)
    while not state.is_over:
        pass_turn(state)
    assert state.final is not None
    for seat in range(2):
        assert state.vp[seat] == sum(state.final[seat].values())
        assert state.final[seat]["workers"] == state.workers[seat] // 2
    assert state.current_player is None and list(state.legal_actions()) == []


# --- E19: tie-break -----------------------------------------------------------------------------------------


def _fill(state: BurgundyState, seat: int, empty: int) -> None:
    board = BOARDS["1"]
    for space in range(1, 38 - empty):
        state.estate[seat][space] = {0: TILE_BY_NAME["A.cow2"], 1: TILE_BY_NAME["B.bank"], 2: TILE_BY_NAME["C"],
                                     3: TILE_BY_NAME["K16"], 4: TILE_BY_NAME["M"], 5: TILE_BY_NAME["S"]}[
            board.types[space]]
    for space in range(38 - empty, 38):
        state.estate[seat][space] = EMPTY


def test_e19_tie_break_fewest_empty_spaces_then_later_in_turn_order() -> None:
    state = new()
    state.vp = [180, 180]
    _fill(state, 0, 3)
    _fill(state, 1, 5)
    assert state.winners() == [0]
    most = new(tiebreak_empty="most")
    most.vp = [180, 180]
    _fill(most, 0, 3)
    _fill(most, 1, 5)
    assert most.winners() == [1]
    _fill(state, 0, 4)
    _fill(state, 1, 4)
    state.track_pos = [0, 1]  # final track order B, A -> A is later and wins
    assert state.track_order() == [1, 0]
    assert state.winners() == [0]


# --- E20: region completion values --------------------------------------------------------------------------


def test_e20_region_values_by_size_and_phase() -> None:
    state = new()
    position(state, dice=(3, 3), storage=("K17",), estate={8: "K16", 13: "K18"})
    play(state, "die:3", "place:K17@4")
    assert state.vp[0] == 16
    position(state, dice=(3, 3), storage=("B.bank",), estate={}, phase=1)
    play(state, "die:3", "place:B.bank@12")
    assert state.vp[0] == 16 + 9


def test_e20_an_eight_space_city_in_phase_e_scores_38() -> None:
    state = new(boards="2,1", start_castle="choose")
    play(state, "start:22", "start:19")
    board = BOARDS["2"]
    city = next(r for r in board.regions if len(r) == 8)
    names = ["B.warehouse", "B.watchtower", "B.carpenter", "B.church", "B.market", "B.boarding", "B.cityhall"]
    position(state, estate=dict(zip(city[:7], names, strict=True)), phase=4)
    last = city[7]
    die = SPACE_DIE[last]
    position(state, dice=(die, die), storage=("B.bank",))
    play(state, f"die:{die}", f"place:B.bank@{last}")
    assert state.vp[0] == 36 + 2


# --- E21: castle chain via city hall ------------------------------------------------------------------------


def test_e21_city_hall_places_a_castle_whose_bonus_action_follows() -> None:
    state = new()
    position(state, dice=(3, 4), storage=("B.cityhall", "C"), estate={12: "B.watchtower", 13: "K16"}, silver=5)
    play(state, "die:3", "place:B.cityhall@26")
    assert legal(state) == ["place:C@7", "skip"]
    play(state, "place:C@7")
    assert pending_kind(state) == "castle_bonus"
    assert not any(a.startswith("buy:") for a in legal(state))
    play(state, "workers")
    assert state.workers[0] == 2
    assert state.pending == [] and state.dice_left == [4]
    assert any(a.startswith("buy:0:") for a in legal(state))  # the purchase is open again after the chain
