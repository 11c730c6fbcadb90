"""One scenario per noble privilege kind (§4.2) and per privilege card kind (§4.3), plus their timing."""

from __future__ import annotations

import pytest

from meeple import IllegalAction
from meeple.games.palais_royal.data import FAVOUR, MIN, PATRON, TIE
from tests.games.palais_royal.helpers import (
    give_card,
    grant,
    hand,
    lay,
    legal,
    play,
    put,
    room,
    square,
    stack_deck,
    table,
    to_step,
)

R, B = 0, 1


# --- noble privileges (§4.2) ------------------------------------------------------------------------


def test_gate_privilege_adds_allowance_even_without_parade_servants() -> None:
    state = table(2)
    put(state, R)
    assert state.gate_allowance() == 0 and "gate" not in legal(state)
    grant(state, R, "N03")
    assert state.gate_allowance() == 1
    play(state, "gate")
    assert room(state, R, "GAT") == 1


def test_move_privilege_adds_a_movement_point() -> None:
    state = table(2)
    put(state, R, STA=1, GAT=1)
    grant(state, R, "N05")
    to_step(state, 2)
    assert state.movement_points() == 1 + 1 + 1  # servant, sole majority, MOVE


def test_gold_privilege_makes_the_mint_pay_without_servants() -> None:
    state = table(2)
    put(state, R, gold=0)
    to_step(state, 3)
    assert "mint" not in legal(state)
    grant(state, R, "N07")
    play(state, "mint")
    assert state.gold[R] == 1


@pytest.mark.parametrize("noble_id, room_code, target", [("N09", "KIN", "N19"), ("N11", "POM", "N20")])
def test_seal_privileges_give_one_virtual_seal_per_turn(noble_id: str, room_code: str, target: str) -> None:
    """KSEAL / VSEAL: a virtual seal used before servants; it returns no servant and expires."""
    state = table(2)
    lay(state, "c3", target)  # N19: T1 V0; N20: T0 V1; both 2 gold
    put(state, R, gold=2, OFF=1)
    grant(state, R, noble_id)
    to_step(state, 4)
    pool = state.pool[R]
    play(state, "recruit:c3")
    assert state.pool[R] == pool + 1  # only the Office servant came back
    assert room(state, R, room_code) == 0


def test_cardinal_privilege_adds_cardinal_strength() -> None:
    state = table(2)
    put(state, R, PAR=2)
    put(state, B, PAR=2)
    assert state.gate_allowance() == 2
    grant(state, R, "N13")
    assert state.gate_allowance() == 3
    assert state.view(None)["cardinal_strength"] == [1, 0]


def test_discount_privilege_lowers_every_cost_by_one() -> None:
    state = table(2)
    lay(state, "c3", "N30")
    assert state.recruit_cost(square("c3")) == 4
    grant(state, R, "N15")
    assert state.recruit_cost(square("c3")) == 3
    lay(state, "d3", "N07")  # 1 gold
    grant(state, R, "N16")
    assert state.recruit_cost(square("d3")) == 0


def test_backdoor_privilege_draws_one_more_and_pays_one_keep() -> None:
    state = table(2)
    put(state, R, BAC=1)
    pool = state.pool[R]
    grant(state, R, "N17")
    stack_deck(state, "PURSE", "REINF")
    to_step(state, 5)
    play(state, "draw")
    assert len(state.drawn) == 2
    play(state, "keep:PURSE")
    assert room(state, R, "BAC") == 1 and state.pool[R] == pool  # paid by the virtual unit
    play(state, "keep:REINF")
    assert room(state, R, "BAC") == 0 and state.pool[R] == pool + 1


def test_backdoor_privilege_alone_allows_drawing() -> None:
    state = table(2)
    grant(state, R, "N17")
    stack_deck(state, "FAVOUR")
    to_step(state, 5)
    play(state, "draw keep:FAVOUR")
    assert hand(state, R) == {"FAVOUR": 1} and state.pool[R] == 18


def test_recruit_privilege_is_a_slot_without_an_office_servant() -> None:
    state = table(2)
    lay(state, "c3", "N19")
    put(state, R, gold=2, KIN=1)
    to_step(state, 4)
    assert not any(a.startswith("recruit") for a in legal(state))
    state = table(2)
    lay(state, "c3", "N19")
    put(state, R, gold=2, KIN=1)
    grant(state, R, "N18")
    to_step(state, 4)
    play(state, "recruit:c3")
    assert room(state, R, "OFF") == 0 and state.v_slots == 0


def test_supply_privilege_resolves_at_once_after_the_edge_servant() -> None:
    """SUPPLY on an edge square: the garden servant is placed first, then 3 servants arrive."""
    state = table(2)
    lay(state, "a3", "N01")
    put(state, R, pool=0, gold=2, OFF=1, KIN=2, POM=2)
    state.supply[R] = 25 - 5
    to_step(state, 4)
    play(state, "recruit:a3")
    assert state.pool[R] == 5 and state.supply[R] == 20
    play(state, "edge:pool")
    assert state.pool[R] == 4 + 3 and state.supply[R] == 17


def test_privileges_start_at_the_owners_next_turn() -> None:
    """[D-14] next_turn: a GATE noble recruited now gives nothing until R's next turn."""
    state = table(2)
    lay(state, "c3", "N03")  # GATE, 3 gold, T1 V1
    put(state, R, gold=3, OFF=1, KIN=1, POM=1)
    to_step(state, 4)
    play(state, "recruit:c3")
    assert state.active[R][1] == 0 and state.waiting[R][1] == 1
    assert state.view(None)["privileges"][R] == {"active": {}, "next_turn": {"GATE": 1}}
    play(state, "end end")
    assert state.current_player == B
    play(state, "end end end end end")
    assert state.current_player == R and state.active[R][1] == 1 and state.gate_allowance() == 1


def test_privileges_can_act_immediately_by_option() -> None:
    state = table(2, privilege_activation="immediate")
    lay(state, "c3", "N18")  # RECRUIT, 5 gold, T2 V2
    lay(state, "d3", "N19")
    put(state, R, gold=7, OFF=1, KIN=3, POM=2)
    to_step(state, 4)
    play(state, "recruit:c3")
    assert state.v_slots == 1 and "recruit:d3" in legal(state)
    play(state, "recruit:d3")
    assert len(state.owned[R]) == 2


# --- privilege cards (§4.3) -------------------------------------------------------------------------


def test_reinforcements_card_adds_two_gate_allowance() -> None:
    state = table(2)
    put(state, R, PAR=1)
    give_card(state, R, "REINF")
    play(state, "gate play:REINF")
    assert state.gate_allowance() == (1 + 1 - 1) + 2  # PAR 1 + sole majority, one used, then +2
    assert state.discard[-1] == 0


def test_secret_passage_adds_two_movement_points() -> None:
    state = table(2)
    put(state, R, STA=1)
    give_card(state, R, "PASSAGE")
    assert "play:PASSAGE" not in legal(state)  # step 1 is not its window
    to_step(state, 2)
    play(state, "play:PASSAGE")
    assert state.movement_points() == 1 + 1 + 2


def test_purse_gives_three_gold_in_step_three() -> None:
    state = table(2)
    put(state, R, gold=0)
    give_card(state, R, "PURSE")
    to_step(state, 3)
    play(state, "play:PURSE")
    assert state.gold[R] == 3


@pytest.mark.parametrize("card, target", [("KLETTER", "N19"), ("VLETTER", "N20")])
def test_sealed_letters_give_a_virtual_seal(card: str, target: str) -> None:
    state = table(2)
    lay(state, "c3", target)
    put(state, R, gold=2, OFF=1)
    give_card(state, R, card)
    to_step(state, 4)
    assert "recruit:c3" not in legal(state)
    play(state, f"play:{card} recruit:c3")
    assert len(state.owned[R]) == 1


def test_recommendation_gives_a_recruitment_slot() -> None:
    state = table(2)
    lay(state, "c3", "N19")
    put(state, R, gold=2, KIN=1)
    give_card(state, R, "RECOMMEND")
    to_step(state, 4)
    play(state, "play:RECOMMEND recruit:c3")
    assert len(state.owned[R]) == 1


def test_patronage_discounts_only_the_next_recruit() -> None:
    state = table(2)
    lay(state, "c3", "N30")  # 4 gold, T2 V1
    lay(state, "e3", "N21")  # 4 gold, T1 V0
    put(state, R, gold=5, OFF=2, KIN=3, POM=1)
    give_card(state, R, "PATRON")
    to_step(state, 4)
    play(state, "play:PATRON")
    assert state.recruit_cost(square("c3")) == 1
    play(state, "recruit:c3")
    assert state.gold[R] == 4 and state.patron == 0
    assert state.recruit_cost(square("e3")) == 4
    assert state.discard[-1] == PATRON


def test_favour_stays_in_front_and_scores_two() -> None:
    state = table(2)
    give_card(state, R, "FAVOUR", 2)
    assert state.score_breakdown()[R]["hand"] == 2
    play(state, "play:FAVOUR")
    assert state.front[R][FAVOUR] == 1 and FAVOUR not in state.discard
    assert state.score_breakdown()[R] == {"nobles": 0, "played_cards": 2, "hand": 1, "edges": 0, "total": 3}


def test_tie_card_lasts_the_turn_and_is_public() -> None:
    state = table(2)
    put(state, R, MIN=1)
    put(state, B, MIN=1, CAR=2)
    give_card(state, R, "TIE")
    to_step(state, 3)
    play(state, "play:TIE mint")
    assert state.gold[R] == 0 + 2
    assert state.discard[-1] == TIE
    assert {"event": "play", "seat": R, "card": "TIE"} in state.view(B)["log"]
    assert state.view(B)["majority"]["MIN"] == R and not state.holds_majority(B, MIN)


def test_cards_outside_their_window_are_refused() -> None:
    state = table(2)
    give_card(state, R, "PURSE")
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply("play:PURSE")
    to_step(state, 4)
    assert "play:PURSE" not in legal(state)


def test_hand_score_is_capped() -> None:
    state = table(2, hand_score_cap=3)
    give_card(state, R, "REINF", 4)
    assert hand(state, R) == {"REINF": 4} and state.score_breakdown()[R]["hand"] == 3
