"""The worked examples of the rules reference §6 (E1–E21), one test each, on the first-game layout."""

from __future__ import annotations

import pytest

from meeple import IllegalAction
from meeple.games.palais_royal.data import FAVOUR, PASSAGE
from tests.games.palais_royal.helpers import (
    GAME,
    clear,
    give_card,
    grant,
    hand,
    lay,
    legal,
    noble,
    play,
    put,
    room,
    square,
    stack_deck,
    table,
    to_step,
)
from tests.games.palais_royal.test_conformance import invariants

R, B, G, Y = 0, 1, 2, 3


def allowance_of(state: object, seat: int) -> int:
    """Step-1 allowance ``seat`` would have on his turn in this position."""
    from meeple.games.palais_royal.state import PalaisRoyalState

    assert isinstance(state, PalaisRoyalState)
    saved = state.seat
    state.seat = seat
    state._reset_turn()
    value = state.gate_allowance()
    state.seat = saved
    state._reset_turn()
    return value


@pytest.mark.parametrize("players, gold", [(4, [0, 1, 2, 3]), (3, [0, 1, 2]), (2, [0, 1])])
def test_e1_setup_totals(players: int, gold: list[int]) -> None:
    """E1: pools 8, 10 servants in rooms (≥3 STA, ≥2 PAR), gold 0/1/2/3, supply 7, deck 36, garden 36."""
    state = GAME.new_game(players=players, seed=3)
    assert state.view(None)["pending"] == {"kind": "place", "seat": 0, "left": 5}
    order = []
    while state.phase == 0:
        order.append(state.seat)
        state.apply("place:MIN" if len(order) % 2 else "place:CAR")
    assert order == [p for p in range(players) for _ in range(5)]
    assert state.pool == [8] * players
    for p in range(players):
        assert sum(state.rooms[p]) == 10 and room(state, p, "STA") >= 3 and room(state, p, "PAR") >= 2
    assert state.gold == gold
    assert state.supply == [7] * players
    assert len(state.deck) == 36 and state.garden_left == 36 and len(state.boxed) == 6
    assert state.current_player == 0 and state.step == 1 and state.round == 1


def test_e2_parade_ground_majority() -> None:
    """E2: PAR R3 B2 → R's allowance 4, placed from the pool onto GAT; B's allowance is 2."""
    state = table(4)
    put(state, R, pool=8, PAR=3)
    put(state, B, PAR=2)
    assert state.gate_allowance() == 4
    play(state, "gate gate gate gate")
    assert state.pool[R] == 4 and room(state, R, "GAT") == 4
    assert "gate" not in legal(state)
    play(state, "end end end end end")
    assert state.current_player == B and state.gate_allowance() == 2


def test_e3_cardinal_breaks_ties() -> None:
    """E3: PAR R2 B2; the Cardinal decides; still level → nobody; G with CAR 2 wins a three-way tie."""
    state = table(3)
    put(state, R, PAR=2, CAR=1)
    put(state, B, PAR=2)
    assert (allowance_of(state, R), allowance_of(state, B)) == (3, 2)
    put(state, B, PAR=2, CAR=1)
    assert (allowance_of(state, R), allowance_of(state, B)) == (2, 2)
    put(state, R, PAR=2)
    put(state, B, PAR=2)
    assert (allowance_of(state, R), allowance_of(state, B)) == (2, 2)
    put(state, R, PAR=2, CAR=1)
    put(state, G, PAR=2, CAR=2)
    assert [allowance_of(state, p) for p in (R, B, G)] == [2, 2, 3]


def test_e4_stairway_moves_are_fixed_at_the_start_and_orthogonal() -> None:
    """E4: STA R4 B3 → 5 points, kept even when STA empties; STA-GAT is diagonal, so illegal."""
    state = table(2)
    put(state, R, STA=4)
    put(state, B, STA=3)
    to_step(state, 2)
    assert state.movement_points() == 5
    with pytest.raises(IllegalAction):
        state.apply("move:STA-GAT")
    play(state, "move:STA-KIN move:KIN-GAT move:GAT-OFF move:STA-MIN move:MIN-BAC")
    assert room(state, R, "STA") == 2 and room(state, R, "OFF") == 1 and room(state, R, "BAC") == 1
    assert room(state, R, "KIN") == room(state, R, "GAT") == room(state, R, "MIN") == 0
    assert legal(state) == ["end"]


def test_e5_mint_tie() -> None:
    """E5: MIN R2 B2, no Cardinal → 2 gold; with B at 1 → 3 gold."""
    for b_mint, income in ((2, 2), (1, 3)):
        state = table(2)
        put(state, R, MIN=2, gold=0)
        put(state, B, MIN=b_mint)
        to_step(state, 3)
        play(state, "mint")
        assert state.gold[R] == income
        assert "mint" not in legal(state)


def test_e6_seals_from_the_king_and_pompadour() -> None:
    """E6 (the seed's example): KIN 2, POM 3 with both majorities → king, pomp → 3 turquoise, 4 violet."""
    state = table(4)
    state.seat = Y
    state._reset_turn()
    put(state, Y, KIN=2, POM=3)
    put(state, R, KIN=1, POM=2)
    pool = state.pool[Y]
    to_step(state, 3)
    play(state, "king pomp")
    assert room(state, Y, "KIN") == 3 and room(state, Y, "POM") == 4 and state.pool[Y] == pool - 2
    play(state, "end")
    assert room(state, Y, "KIN") + state.v_turquoise == 3 and room(state, Y, "POM") + state.v_violet == 4


def test_e7_bonus_servant_with_an_empty_pool() -> None:
    """E7: pool 0 → king:MIN (not adjacent, fine); king:KIN illegal; no servant elsewhere → no king."""
    state = table(2)
    put(state, R, pool=0, KIN=1, MIN=1)
    to_step(state, 3)
    assert "king:MIN" in legal(state) and "king" not in legal(state) and "king:KIN" not in legal(state)
    play(state, "king:MIN")
    assert room(state, R, "MIN") == 0 and room(state, R, "KIN") == 2
    state = table(2)
    put(state, R, pool=0, KIN=1)
    to_step(state, 3)
    assert not any(a.startswith("king") for a in legal(state))


def test_e8_cost_reduction_on_an_interior_square() -> None:
    """E8: N30 on c3 with c4, b3 empty → gold 2; paying returns 4 servants; no slot is left after."""
    state = table(2)
    lay(state, "c3", "N30")
    clear(state, "c4", "b3")
    put(state, R, gold=2, OFF=1, KIN=2, POM=1)
    pool = state.pool[R]
    to_step(state, 4)
    assert state.recruit_cost(square("c3")) == 2
    play(state, "recruit:c3")
    assert state.gold[R] == 0
    assert room(state, R, "OFF") == room(state, R, "KIN") == room(state, R, "POM") == 0
    assert state.pool[R] == pool + 4
    assert state.garden[square("c3")] == -1 and state.garden_servants[square("c3")] == -1
    assert state.owned[R] == [noble(state, "N30")]
    assert state.view(None)["nobles"][R] == [{"id": "N30", "face_up": False}]
    assert not any(a.startswith("recruit") for a in legal(state))


def test_e9_edge_square_and_a_servant_holding_neighbour() -> None:
    """E9: N37 on a3; a4 holds a Blue garden servant (empty), b3 empty → gold 6; then edge:pool or edge:MIN."""
    state = table(2)
    lay(state, "a3", "N37")
    clear(state, "a4", servant=B)
    clear(state, "b3")
    put(state, R, gold=6, OFF=1, KIN=2, POM=1, MIN=1)
    to_step(state, 4)
    assert state.recruit_cost(square("a3")) == 6
    play(state, "recruit:a3")
    assert state.gold[R] == 0
    assert legal(state) == ["edge:pool", "edge:MIN"]
    assert state.view(None)["pending"] == {"kind": "edge", "seat": R, "square": "a3"}
    play(state, "edge:MIN")
    assert room(state, R, "MIN") == 0 and state.garden_servants[square("a3")] == R


def test_e10_corner_costs_and_scores_on_both_edges() -> None:
    """E10: N20 on f1; e1 has a Green garden servant → gold 1; R's servant on f1 scores S and E."""
    state = table(3)
    lay(state, "f1", "N20")
    clear(state, "e1", servant=G)
    put(state, R, gold=1, OFF=1, POM=1)
    to_step(state, 4)
    assert state.recruit_cost(square("f1")) == 1
    play(state, "recruit:f1 edge:pool")
    # S: R (f1) ties G (e1) → ⌊(6 + 3) / 2⌋ = 4 each; E: R alone → 6.
    assert state.rules.edge_points(state.garden_servants, 3) == [4 + 6, 0, 4]


def test_e11_two_recruits_update_the_reduction() -> None:
    """E11: d4 costs 1 then d5 costs 8 (total 9); in reverse order 9 then 0 (same total)."""
    for order, costs in ((("d4", "d5"), (1, 8)), (("d5", "d4"), (9, 0))):
        state = table(2)
        lay(state, "d4", "N19")
        lay(state, "d5", "N41")
        clear(state, "d3", "c5")
        for name in ("c4", "e4", "d6", "e5"):
            assert state.garden[square(name)] >= 0
        put(state, R, gold=9, OFF=2, KIN=3, POM=2)
        pool = state.pool[R]
        to_step(state, 4)
        paid: list[int] = []
        for name in order:
            before = state.gold[R]
            assert state.recruit_cost(square(name)) == costs[len(paid)]
            play(state, f"recruit:{name}")
            paid.append(before - state.gold[R])
        assert tuple(paid) == costs and state.gold[R] == 0
        assert room(state, R, "OFF") == room(state, R, "KIN") == room(state, R, "POM") == 0
        assert state.pool[R] == pool + 7


def test_e12_back_door_keeps_a_subset() -> None:
    """E12: BAC 3 draws PURSE, PASSAGE, FAVOUR; keeping two returns 2 servants; PASSAGE is discarded."""
    state = table(2)
    put(state, R, BAC=3)
    pool = state.pool[R]
    stack_deck(state, "PURSE", "PASSAGE", "FAVOUR")
    to_step(state, 5)
    play(state, "draw")
    assert sorted(legal(state)) == ["end", "keep:FAVOUR", "keep:PASSAGE", "keep:PURSE"]
    assert state.view(R)["pending"]["cards"] == ["PURSE", "PASSAGE", "FAVOUR"]
    assert "cards" not in state.view(B)["pending"]
    play(state, "keep:PURSE keep:FAVOUR")
    assert "play:FAVOUR" in legal(state)
    assert room(state, R, "BAC") == 1 and state.pool[R] == pool + 2
    assert hand(state, R) == {"PURSE": 1, "FAVOUR": 1}
    play(state, "end")
    assert state.discard[-1] == PASSAGE and state.current_player == B
    assert state.view(B)["discard"] == ["PASSAGE"]


def test_e13_reshuffle_when_the_deck_runs_out() -> None:
    """E13: deck 1 + discard 5, draw 3 → the discards become the deck: deck 3, discard 0."""
    state = table(2)
    put(state, R, BAC=3)
    state.discard = state.deck[1:6]
    state.hands[B] = [0] * 9
    for k in state.deck[6:]:
        state.hands[B][k] += 1
    state.deck = state.deck[:1]
    to_step(state, 5)
    play(state, "draw")
    assert len(state.drawn) == 3 and len(state.deck) == 3 and state.discard == []
    invariants(state)
    state = table(2)
    put(state, R, BAC=3)
    for k in state.deck[1:]:
        state.hands[B][k] += 1
    state.deck = state.deck[:1]
    to_step(state, 5)
    play(state, "draw")
    assert len(state.drawn) == 1 and state.deck == []


def test_e14_gate_with_an_exhausted_pool() -> None:
    """E14: pool 1, PAR 2 (majority), BAC 1 → allowance 3: gate, then gate:BAC and gate:PAR."""
    state = table(2)
    put(state, R, pool=1, PAR=2, BAC=1)
    assert state.gate_allowance() == 3 and "gate:GAT" not in legal(state)
    play(state, "gate")
    assert state.pool[R] == 0 and "gate" not in legal(state)
    assert {"gate:BAC", "gate:PAR"} <= set(legal(state)) and "gate:GAT" not in legal(state)
    play(state, "gate:BAC gate:PAR")
    assert room(state, R, "GAT") == 3 and room(state, R, "PAR") == 1 and room(state, R, "BAC") == 0
    assert not any(a.startswith("gate") for a in legal(state))


@pytest.mark.parametrize("left_after, final", [(7, True), (12, True), (13, False)])
def test_e15_end_trigger_at_the_start_players_turn(left_after: int, final: bool) -> None:
    """E15: 13 at R's turn → normal round; ≤ 12 at R's next turn → R, B, G, Y play once more, then scoring."""
    state = table(4)
    names = [n for n in (f"{f}{r}" for r in range(1, 7) for f in "abcdef")]
    clear(state, *names[:23])
    state._begin_turn(R)
    assert state.garden_left == 13 and not state.final_round
    clear(state, *names[23:36 - left_after])
    for _ in range(4):
        play(state, "end end end end end")
    assert state.current_player == R and state.final_round is final
    for seat in (R, B, G, Y):
        assert state.current_player == seat and not state.is_over
        play(state, "end end end end end")
    assert state.is_over is final


def _e16_garden(state: object) -> None:
    from meeple.games.palais_royal.state import PalaisRoyalState

    assert isinstance(state, PalaisRoyalState)
    for seat, squares in ((R, "a6 c6 f6 a3"), (B, "b6 d6 a1 a2 f1 f3"), (G, "e6 f2")):
        clear(state, *squares.split(), servant=seat)


def test_e16_edge_scoring() -> None:
    """E16: N R6 B3; W tie R4 B4; E B6, R and G tie for 2nd → 1 each; S B6 → R 11, B 19, G 1."""
    state = table(3)
    _e16_garden(state)
    assert state.rules.edge_points(state.garden_servants, 3) == [11, 19, 1]
    assert [s["edges"] for s in state.score_breakdown()] == [11, 19, 1]


def test_e17_full_score() -> None:
    """E17: nobles 7+5+4, two FAVOUR played (4), 8 cards in hand (capped at 6), edges 11 → 37."""
    state = table(3)
    _e16_garden(state)
    for noble_id in ("N35", "N30", "N01"):
        grant(state, R, noble_id)
    state.deck.remove(FAVOUR)
    state.deck.remove(FAVOUR)
    state.front[R][FAVOUR] = 2
    for _ in range(8):
        state.hands[R][state.deck.pop()] += 1
    assert state.score_breakdown()[R] == {"nobles": 16, "played_cards": 4, "hand": 6, "edges": 11, "total": 37}


def test_e18_winner_tie_break() -> None:
    """E18: equal totals → more nobles wins; equal nobles → more gold; still equal → both win."""
    state = table(3)
    for noble_id in ("N35", "N30", "N01"):
        grant(state, R, noble_id)
    for noble_id in ("N36", "N25", "N21", "N19"):
        grant(state, G, noble_id)
    assert state.scores()[R] == state.scores()[G] == 16
    assert state.winners() == [G]
    state = table(3)
    for noble_id in ("N35", "N30", "N01"):
        grant(state, R, noble_id)
    for noble_id in ("N36", "N31", "N25"):
        grant(state, G, noble_id)
    put(state, R, gold=2)
    put(state, G, gold=1)
    assert state.winners() == [R]
    put(state, G, gold=2)
    assert state.winners() == [R, G]
    shared = table(3, winner_tiebreak="shared")
    for noble_id in ("N35", "N30", "N01"):
        grant(shared, R, noble_id)
    for noble_id in ("N36", "N25", "N21", "N19"):
        grant(shared, G, noble_id)
    assert shared.winners() == [R, G]


def test_e19_supply_privilege_is_capped_by_the_general_supply() -> None:
    """E19: N01 brings 3 servants (7→4), then N02 (n = 5) brings only the 4 left; 25 per colour."""
    state = table(2)
    lay(state, "c3", "N01")
    lay(state, "d3", "N02")
    for name in ("c2", "c4", "b3", "d2", "d4", "e3"):
        assert state.garden[square(name)] >= 0
    put(state, R, gold=2, OFF=2, KIN=6, POM=3)
    to_step(state, 4)
    pool = state.pool[R]
    play(state, "recruit:c3")
    assert state.supply[R] == 4 and state.pool[R] == pool + 5 + 3
    invariants(state)
    pool = state.pool[R]
    play(state, "recruit:d3")
    assert state.supply[R] == 0 and state.pool[R] == pool + 6 + 4
    invariants(state)


def test_e20_the_tie_card() -> None:
    """E20: PAR R2 B2, CAR B1: play:TIE then gate → allowance 3; without it 2; B at 3 → no help."""
    state = table(2)
    put(state, R, PAR=2)
    put(state, B, PAR=2, CAR=1)
    give_card(state, R, "TIE")
    assert state.gate_allowance() == 2
    play(state, "play:TIE gate")
    assert state.gate_left == 2
    state = table(2)
    put(state, R, PAR=2)
    put(state, B, PAR=3, CAR=1)
    give_card(state, R, "TIE")
    play(state, "play:TIE")
    assert state.gate_allowance() == 2


def test_e21_a_complete_turn_in_notation() -> None:
    """E21: the first turn of a 2-player game, token by token, ends in the reference's position."""
    state = table(2)
    put(state, R, pool=8, gold=0, PAR=3, STA=3, MIN=1, KIN=1, OFF=1, GAT=1)
    put(state, B, pool=8, gold=1, PAR=2, STA=3, KIN=1, OFF=2, BAC=2)
    lay(state, "c1", "N19")
    assert state.garden_left == 36
    play(state, "gate gate gate gate end")
    assert room(state, R, "GAT") == 5 and state.pool[R] == 4
    play(state, "move:GAT-POM move:GAT-KIN move:GAT-OFF end")
    play(state, "mint king end")
    assert state.gold[R] == 2 and room(state, R, "KIN") == 3 and state.pool[R] == 3
    play(state, "recruit:c1")
    assert state.gold[R] == 0 and room(state, R, "OFF") == 1 and room(state, R, "KIN") == 2
    assert state.pool[R] == 5
    play(state, "edge:pool end")
    assert legal(state) == ["end"]
    play(state, "end")
    assert state.current_player == B and state.step == 1
    expected = {"GAT": 2, "POM": 1, "KIN": 2, "OFF": 1, "MIN": 1, "PAR": 3, "STA": 3}
    assert {code: room(state, R, code) for code in expected} == expected
    assert state.pool[R] == 4 and state.gold[R] == 0 and state.supply[R] == 7
    assert state.garden_servants[square("c1")] == R
    assert state.owned[R] == [noble(state, "N19")]
    assert state.pool[R] + sum(state.rooms[R]) + 1 + state.supply[R] == 25
    assert state.garden_left == 35
    invariants(state)
