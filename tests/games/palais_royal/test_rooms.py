"""One scenario per castle room (§1.2, §2.1–§2.6), on the first-game layout."""

from __future__ import annotations

import pytest

from meeple import IllegalAction
from tests.games.palais_royal.helpers import lay, legal, play, put, room, stack_deck, table, to_step

R, B = 0, 1


def test_parade_ground_sends_one_servant_per_servant_plus_majority_to_the_gate() -> None:
    state = table(2)
    put(state, R, PAR=2)
    put(state, B, PAR=1)
    play(state, "gate gate gate")
    assert room(state, R, "GAT") == 3 and legal(state) == ["end"]


def test_stairway_points_come_from_stairway_servants_and_majority() -> None:
    state = table(2)
    put(state, R, STA=2, GAT=1)
    put(state, B, STA=2, CAR=1)
    to_step(state, 2)
    assert state.movement_points() == 2  # tie lost to B's Cardinal
    play(state, "move:GAT-MIN move:MIN-BAC")
    assert room(state, R, "BAC") == 1 and legal(state) == ["end"]


def test_mint_pays_one_gold_per_servant_plus_majority() -> None:
    state = table(2)
    put(state, R, MIN=3, gold=0)
    to_step(state, 3)
    play(state, "mint")
    assert state.gold[R] == 4


@pytest.mark.parametrize("code, action", [("KIN", "king"), ("POM", "pomp")])
def test_king_and_pompadour_add_a_servant_only_with_the_majority(code: str, action: str) -> None:
    state = table(2)
    put(state, R, **{code: 1})
    put(state, B, **{code: 1})
    to_step(state, 3)
    assert action not in legal(state)
    state = table(2)
    put(state, R, **{code: 2})
    put(state, B, **{code: 1})
    to_step(state, 3)
    play(state, action)
    assert room(state, R, code) == 3 and action not in legal(state)


def test_office_servants_limit_the_recruits() -> None:
    state = table(2)
    for square, noble_id in (("c3", "N23"), ("d4", "N24"), ("b4", "N07")):  # 1 gold each
        lay(state, square, noble_id)
    put(state, R, gold=9, OFF=2, KIN=9, POM=9)
    to_step(state, 4)
    play(state, "recruit:c3 recruit:d4")
    assert room(state, R, "OFF") == 0 and not any(a.startswith("recruit") for a in legal(state))


def test_back_door_draws_one_card_per_servant() -> None:
    state = table(2)
    put(state, R, BAC=2)
    stack_deck(state, "TIE", "PURSE")
    to_step(state, 5)
    play(state, "draw")
    assert sorted(state.view(R)["pending"]["cards"]) == ["PURSE", "TIE"]
    play(state, "end")
    assert room(state, R, "BAC") == 2 and state.discard[-2:] == [7, 2]


def test_cardinal_only_breaks_ties() -> None:
    state = table(2)
    put(state, R, CAR=5, MIN=1)
    put(state, B, MIN=2)
    to_step(state, 3)
    play(state, "mint")
    assert state.gold[R] == 1  # fewer than B: the Cardinal cannot help


def test_gate_receives_reinforcements_and_is_left_by_the_stairs() -> None:
    state = table(2)
    put(state, R, PAR=1, STA=1)
    play(state, "gate gate end")
    with pytest.raises(IllegalAction):
        state.apply("move:GAT-STA")  # not adjacent in the first-game layout
    play(state, "move:GAT-KIN")
    assert room(state, R, "GAT") == 1 and room(state, R, "KIN") == 1
