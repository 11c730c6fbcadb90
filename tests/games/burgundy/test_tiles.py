"""One scenario per building (reference §1.2), per knowledge tile (§1.4) and per other tile type (§1.5)."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.games.burgundy.data import SPACE_DIE, A, M, S
from meeple.games.burgundy.state import BurgundyState
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


def place(state: BurgundyState, tile: str, space: int, extra: tuple[str, ...] = (), **kwargs: Any) -> None:
    """Place ``tile`` on ``space`` with a die showing exactly that space's number."""
    die = SPACE_DIE[space]
    position(state, dice=(die, die), storage=(tile, *extra), **kwargs)
    play(state, f"die:{die}", f"place:{tile}@{space}")


# --- buildings -------------------------------------------------------------------------------------------------


def test_building_warehouse_sells_a_kind_or_may_be_skipped() -> None:
    state = new()
    place(state, "B.warehouse", 26, goods={5: 2})
    assert legal(state) == ["sell:5", "skip"]
    play(state, "skip")
    assert goods(state) == {5: 2} and state.vp[0] == 0


def test_building_warehouse_without_goods_is_lost() -> None:
    state = new()
    place(state, "B.warehouse", 26)
    assert state.pending == [] and pending_kind(state) is None


def test_building_watchtower_gives_four_vp() -> None:
    state = new()
    place(state, "B.watchtower", 26)
    assert state.vp[0] == 4 and state.pending == []


def test_building_carpenter_takes_a_building_from_a_numbered_depot() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 3, ["A.cow2", "B.bank"])
    set_depot(state, 0, ["B.market"])
    place(state, "B.carpenter", 26)
    assert legal(state) == ["take:3:B.bank", "skip"]
    play(state, "take:3:B.bank")
    assert storage(state) == ["B.bank"]


def test_building_church_takes_a_castle_mine_or_knowledge_tile() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 5, ["M", "K02", "B.bank"])
    place(state, "B.church", 26)
    assert legal(state) == ["take:5:M", "take:5:K02", "skip"]
    play(state, "take:5:K02")
    assert storage(state) == ["K02"]


def test_building_market_takes_a_ship_or_animal() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 6, ["A.pig4", "B.bank"])
    set_depot(state, 4, ["S"])
    place(state, "B.market", 26)
    assert legal(state) == ["take:4:S", "take:6:A.pig4", "skip"]


def test_building_take_with_nothing_to_take_is_lost() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 0, ["B.bank"])
    place(state, "B.carpenter", 26)
    assert state.pending == []


def test_building_boarding_house_gives_four_workers_regardless_of_k13_k14() -> None:
    state = new()
    place(state, "B.boarding", 26, knowledge=(13, 14), silver=0)
    assert state.workers[0] == 4 and state.silver[0] == 0


def test_building_bank_gives_two_silverlings() -> None:
    state = new()
    place(state, "B.bank", 26, silver=0)
    assert state.silver[0] == 2


def test_building_city_hall_with_nothing_placeable_is_lost() -> None:
    state = new()
    place(state, "B.cityhall", 26, extra=("M",))  # mine space 25 (a 4) touches 19 and 26: die ignored
    assert legal(state) == ["place:M@25", "skip"]
    for tile in ("C", "A.cow2"):  # no castle or pasture space touches {19, 26}
        state = new()
        place(state, "B.cityhall", 26, extra=(tile,))
        assert state.pending == []


def test_building_effects_happen_whatever_die_was_used() -> None:
    state = new()
    position(state, dice=(5, 5), storage=("B.bank",), workers=2, silver=0)
    play(state, "die:5", "place:B.bank@26~w2")
    assert state.silver[0] == 2 and state.workers[0] == 0


def test_forced_building_effects_option_removes_skip() -> None:
    state = new(forced_building_effects=True)
    place(state, "B.warehouse", 26, goods={5: 2})
    assert legal(state) == ["sell:5"]


# --- castles, mines, ships, animals --------------------------------------------------------------------------------


def test_castle_bonus_take_uses_any_numbered_depot_but_not_the_black_one() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 1, ["S"])
    set_depot(state, 6, ["B.bank"])
    set_depot(state, 0, ["K07"])
    place(state, "C", 7, estate={12: "B.watchtower"})
    takes = [a for a in legal(state) if a.startswith("take:")]
    assert takes == ["take:1:S", "take:6:B.bank"]
    play(state, "take:6:B.bank")
    assert storage(state) == ["B.bank"] and state.workers[0] == 0


def test_castle_bonus_sell_any_kind_counts_as_a_sale() -> None:
    state = new(players=4)
    place(state, "C", 7, estate={12: "B.watchtower"}, goods={2: 3}, knowledge=(3, 4), silver=0)
    play(state, "sell:2")
    assert (state.vp[0], state.silver[0], state.workers[0]) == (12, 2, 1)


def test_mine_pays_one_silverling_at_each_phase_end() -> None:
    state = new()
    position(state, estate={25: "M"})
    state.round = 4
    silver = state.silver[0]
    pass_turn(state)
    pass_turn(state)
    assert state.phase == 1 and state.silver[0] == silver + 1


def test_ship_goods_from_an_empty_depot_take_nothing_but_move_the_pawn() -> None:
    state = new()
    clear_depots(state)
    place(state, "S", 20)
    play(state, "ship:4")
    assert goods(state) == {} and state.track_pos[0] == 1


def test_animals_of_another_pasture_do_not_count() -> None:
    state = new()
    place(state, "A.cow3", 11, estate={12: "B.bank", 27: "B.watchtower"})
    place(state, "A.cow2", 28)
    assert state.vp[0] == 3 + 2 + (1 + 10)


# --- knowledge tiles ----------------------------------------------------------------------------------------------


def test_k01_allows_equal_buildings_in_one_city() -> None:
    state = new()
    position(state, dice=(1, 1), storage=("B.bank",), estate={26: "B.bank"})
    play(state, "die:1")
    assert "place:B.bank@27" not in legal(state)
    position(state, dice=(1, 1), storage=("B.bank",), estate={26: "B.bank"}, knowledge=(1,))
    play(state, "die:1")
    assert "place:B.bank@27" in legal(state)


def test_k02_gives_a_worker_per_mine_at_phase_end() -> None:
    state = new()
    position(state, estate={25: "M", 30: "M"}, knowledge=(2,))
    state.round = 4
    pass_turn(state)
    workers = state.workers[0]
    pass_turn(state)
    assert state.phase == 1 and state.workers[0] == workers + 2


@pytest.mark.parametrize(("k", "silver", "workers"), [(3, 2, 0), (4, 1, 1)])
def test_k03_k04_improve_every_sale(k: int, silver: int, workers: int) -> None:
    state = new()
    position(state, dice=(2, 2), goods={2: 1}, silver=0, knowledge=(k,))
    play(state, "die:2", "sell:2")
    assert (state.silver[0], state.workers[0]) == (silver, workers)


def test_k05_ship_may_take_two_neighbouring_depots_or_one() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 6, [], goods=[4])
    set_depot(state, 1, [], goods=[5, 5])
    place(state, "S", 20, knowledge=(5,))
    assert legal(state) == [f"ship:{d}" for d in range(1, 7)] + [f"ship:{d}+{d % 6 + 1}" for d in range(1, 7)]
    play(state, "ship:6+1")
    assert goods(state) == {4: 1, 5: 2}


def test_k06_purchase_from_any_depot_once_per_turn() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 3, ["A.cow2"])
    position(state, silver=4)
    assert not any(a.startswith("buy:") for a in legal(state))
    position(state, silver=4, knowledge=(6,))
    assert [a for a in legal(state) if a.startswith("buy:")] == ["buy:3:A.cow2"]


def test_k06_pay_with_workers_option_offers_mixed_payments() -> None:
    state = new(k06_pay_with_workers=True)
    clear_depots(state)
    set_depot(state, 3, ["A.cow2"])
    position(state, silver=1, workers=2, knowledge=(6,))
    assert [a for a in legal(state) if a.startswith("buy:")] == ["buy:3:A.cow2~w1", "buy:3:A.cow2~w2"]
    play(state, "buy:3:A.cow2~w1")
    assert (state.silver[0], state.workers[0]) == (0, 1)


def test_k07_adds_a_vp_per_scoring_animal_tile() -> None:
    state = new()
    place(state, "A.pig2", 11, estate={12: "B.bank"}, knowledge=(7,))
    assert state.vp[0] == 3


def test_k08_each_worker_moves_a_die_by_two() -> None:
    state = new()
    position(state, dice=(1, 1), goods={4: 1}, workers=2, knowledge=(8,))
    play(state, "die:1", "sell:4")
    assert state.workers[0] == 0  # distance 3 -> 2 workers
    position(state, dice=(1, 1), goods={3: 1}, workers=1, knowledge=(8,))
    play(state, "die:1", "sell:3")
    assert state.workers[0] == 0


@pytest.mark.parametrize(
    ("k", "tile", "space", "die", "estate"),
    [
        (9, "B.bank", 26, 2, {}),
        (10, "S", 20, 4, {}),
        (10, "A.cow2", 11, 5, {12: "B.bank"}),
        (11, "K17", 13, 2, {}),
        (11, "M", 25, 5, {}),
        (11, "C", 7, 5, {12: "B.bank"}),
    ],
)
def test_k09_k10_k11_free_adjustment_when_placing_their_types(
    k: int, tile: str, space: int, die: int, estate: dict[int, str]
) -> None:
    state = new()
    position(state, dice=(die, die), storage=(tile,), estate=estate)
    play(state, f"die:{die}")
    assert f"place:{tile}@{space}" not in legal(state)
    position(state, dice=(die, die), storage=(tile,), estate=estate, knowledge=(k,))
    play(state, f"die:{die}")
    assert f"place:{tile}@{space}" in legal(state)


def test_k12_free_adjustment_when_taking_from_a_depot() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 4, ["S"])
    position(state, dice=(3, 3))
    play(state, "die:3")
    assert "take:4:S" not in legal(state)
    position(state, dice=(3, 3), knowledge=(12,))
    play(state, "die:3")
    assert "take:4:S" in legal(state)


def test_k13_take_workers_also_gives_a_silverling() -> None:
    state = new()
    position(state, dice=(2, 2), silver=0, knowledge=(13,))
    play(state, "die:2", "workers")
    assert (state.workers[0], state.silver[0]) == (2, 1)


def test_k14_take_workers_gives_four() -> None:
    state = new()
    position(state, dice=(2, 2), knowledge=(14,))
    play(state, "die:2", "workers")
    assert state.workers[0] == 4


def test_knowledge_in_storage_has_no_effect_until_placed() -> None:
    state = new()
    position(state, dice=(2, 1), storage=("K14",))
    play(state, "die:2", "workers")
    assert state.workers[0] == 2
    play(state, "die:1", "place:K14@13")
    assert state.kmask[0] & (1 << 14)


def test_k15_three_vp_per_sold_kind() -> None:
    state = new()
    position(state, knowledge=(15,))
    state.sold[0] = [0, 1, 0, 5, 0, 0, 2]
    assert state.final_breakdown(0)["K15"] == 9


@pytest.mark.parametrize(
    ("k", "building"),
    [(16, "B.warehouse"), (17, "B.watchtower"), (18, "B.carpenter"), (19, "B.church"), (20, "B.market"),
     (21, "B.boarding"), (22, "B.bank"), (23, "B.cityhall")],
)
def test_k16_to_k23_four_vp_per_building_of_their_type(k: int, building: str) -> None:
    state = new()
    position(state, estate={12: building, 26: building, 9: "B.bank" if building != "B.bank" else "B.market"},
             knowledge=(k,))
    assert state.final_breakdown(0)[f"K{k}"] == 8


def test_k24_four_vp_per_animal_kind_in_the_estate() -> None:
    state = new()
    position(state, estate={11: "A.cow2", 10: "A.cow3", 28: "A.pig4", 1: "A.chicken2"}, knowledge=(24,))
    assert state.final_breakdown(0)["K24"] == 12


def test_k25_one_vp_per_sold_goods_tile() -> None:
    state = new()
    position(state, knowledge=(25,))
    state.sold[0] = [0, 1, 0, 5, 0, 0, 2]
    assert state.final_breakdown(0)["K25"] == 8


def test_k26_two_vp_per_bonus_tile() -> None:
    state = new()
    position(state, knowledge=(26,))
    state.bonus_large[S] = 0
    state.bonus_small[M] = 0
    state.bonus_large[A] = 1
    assert state.final_breakdown(0)["K26"] == 4


def test_final_knowledge_only_counts_when_in_the_estate() -> None:
    state = new()
    position(state, storage=("K25",))
    state.sold[0] = [0, 1, 0, 5, 0, 0, 2]
    assert "K25" not in state.final_breakdown(0)


# --- colour bonus tiles ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "large", "small"), [(2, 5, 2), (3, 6, 3), (4, 7, 4)])
def test_colour_bonus_first_and_second_then_nothing(players: int, large: int, small: int) -> None:
    state = new(players=players)
    gains = []
    for seat in range(players):
        occupy(state, seat, {25: "M", 30: "M"})
        position(state, seat, dice=(3, 3), storage=("M",), phase=4)
        before = state.vp[seat]
        play(state, "die:3", "place:M@34")
        gains.append(state.vp[seat] - before - (6 + 2))
    assert gains == [large, small, 0, 0][:players]
    assert state.bonus_large[M] == 0 and state.bonus_small[M] == 1



def test_chain_city_hall_castle_ship_resolves_depth_first() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 2, [], goods=[4])
    position(state, dice=(3, 3), storage=("B.cityhall", "C", "S"), estate={12: "B.watchtower"})
    play(state, "die:3", "place:B.cityhall@26", "place:C@7")
    assert pending_kind(state) == "castle_bonus"
    play(state, "place:S@18")
    assert pending_kind(state) == "ship" and state.track_pos[0] == 1
    play(state, "ship:2")
    assert state.pending == [] and goods(state) == {4: 1}
    assert state.dice_left == [3]


def test_castle_bonus_building_effect_is_its_own_decision() -> None:
    state = new()
    clear_depots(state)
    set_depot(state, 5, ["B.bank"])
    place(state, "C", 7, estate={12: "B.watchtower"}, extra=("B.carpenter",))
    play(state, "place:B.carpenter@26")
    assert state.view(None)["pending"] == {"kind": "building_take", "seat": 0, "stack": ["building_take"],
                                           "building": "carpenter"}
    play(state, "take:5:B.bank")
    assert storage(state) == ["B.bank"]


def test_sale_vp_option_per_sale_scores_n_once() -> None:
    state = new(players=3, sale_vp="per_sale")
    position(state, dice=(4, 4), goods={4: 3})
    play(state, "die:4", "sell:4")
    assert state.vp[0] == 3 and state.sold[0][4] == 3
