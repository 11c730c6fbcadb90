"""Scenario tests for every character power (§2.4), every unique district (§1.3, §2.5), the end (§3)."""

from __future__ import annotations

import pytest

from meeple import IllegalAction
from meeple.games.citadels.data import KING
from meeple.games.citadels.state import P_PICK, P_REDRAW, P_TURN
from tests.games.citadels.helpers import ch, finish, k, legal, names, new_state, play, set_table, start_action_phase

# --- characters ----------------------------------------------------------------------------------


def test_assassin_victim_is_silent_not_revealed_and_not_robbed() -> None:
    s = new_state(4)
    set_table(s, gold={2: 4}, deck=["tavern"] * 4)
    start_action_phase(s, {"assassin": 0, "thief": 1, "merchant": 2, "warlord": 3}, faceup=["king", "bishop"])
    play(s, "kill:merchant", "gold", "end")
    assert "rob:merchant" not in legal(s)
    play(s, "rob:warlord", "gold", "end")
    assert s.current_player == 3 and s.gold[2] == 4  # seat 2 had no turn, no +1, no robbery
    view = s.view(0)
    assert "merchant" not in view["characters"]["revealed"]
    assert view["characters"]["murdered"] == "merchant"
    assert s.view(2)["characters"]["mine"] == ["merchant"]


def test_assassin_cannot_target_himself() -> None:
    s = new_state(5)
    set_table(s)
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "bishop": 3, "warlord": 4}, faceup=["merchant"])
    kills = [a for a in legal(s) if a.startswith("kill:")]
    assert "kill:assassin" not in kills and len(kills) == 6


def test_thief_may_name_his_own_other_character_without_effect_two_players() -> None:
    s = new_state(2)
    set_table(s, gold={0: 3}, deck=["tavern"] * 4)
    start_action_phase(s, {"thief": 0, "merchant": 0, "king": 1, "warlord": 1}, from_character="thief")
    assert "rob:merchant" in legal(s)
    play(s, "rob:merchant", "gold", "end", "gold", "end")  # Thief, then the King (seat 1)
    assert s.rank == ch("merchant") and s.gold[0] == 3 + 2 + 1


def test_magician_swap_targets_any_other_seat_and_marks_duplicates_one_at_a_time() -> None:
    s = new_state(4)
    set_table(s, hands={0: ["temple", "temple", "manor"]}, deck=["castle", "palace"])
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    assert [a for a in legal(s) if a.startswith("swap:")] == ["swap:1", "swap:2", "swap:3"]
    play(s, "redraw:temple")
    assert s.phase == P_REDRAW and legal(s) == ["redraw:temple", "redraw:manor", "redraw:done"]
    play(s, "redraw:temple")
    assert legal(s) == ["redraw:manor", "redraw:done"]
    play(s, "redraw:done")
    assert names(s.hands[0]) == ["manor", "castle", "palace"] and names(s.deck) == ["temple", "temple"]
    assert not [a for a in legal(s) if a.startswith(("swap:", "redraw:"))]


def test_magician_redraw_shorthand_expands_to_atomic_notations() -> None:
    s = new_state(4)
    set_table(s, hands={0: ["temple", "market", "castle"]}, deck=["manor", "fortress", "tavern"])
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    assert s.expand_notation("redraw:temple,market") == ["redraw:temple", "redraw:market", "redraw:done"]
    s.apply("redraw:temple,market")
    assert s.history == ["redraw:temple", "redraw:market", "redraw:done"]
    assert names(s.hands[0]) == ["castle", "manor", "fortress"]
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply("redraw:castle,nonsense")
    assert s.to_json() == before


def test_king_without_a_holder_leaves_the_crown() -> None:
    s = new_state(4)
    set_table(s, deck=["tavern"] * 8)
    start_action_phase(s, {"assassin": 0, "thief": 1, "magician": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       crown=2)
    while s.phase != P_PICK:
        play(s, "gold", "end")
    assert s.crown == 2 and s.current_player == 2


def test_king_tax_counts_noble_districts() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["manor", "castle", "temple"]})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "tax")
    assert s.gold[0] == 2


def test_tax_is_not_offered_when_it_would_pay_nothing() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["temple"]})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    assert "tax" not in legal(s)


def test_bishop_protects_against_his_own_warlord_two_players() -> None:
    s = new_state(2)
    set_table(s, cities={0: ["temple", "market"], 1: ["tavern"]}, gold={0: 9})
    start_action_phase(s, {"bishop": 0, "warlord": 0, "king": 1, "merchant": 1}, from_character="warlord")
    destroys = [a for a in legal(s) if a.startswith("destroy:")]
    assert destroys == ["destroy:1:tavern"]


def test_merchant_bonus_after_gathering_option() -> None:
    s = new_state(4, {"bonus_timing": "after_gather"})
    set_table(s, gold={2: 0})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="merchant")
    assert s.gold[2] == 0
    play(s, "gold")
    assert s.gold[2] == 3


def test_architect_cards_carry_to_the_next_turn_but_extra_builds_do_not() -> None:
    s = new_state(2)
    set_table(s, gold={0: 20}, deck=["tavern", "market", "docks", "manor"])
    start_action_phase(s, {"architect": 0, "warlord": 0, "king": 1, "bishop": 1}, from_character="architect")
    play(s, "gold", "build:tavern", "end")
    assert s.rank == ch("warlord")
    play(s, "gold", "build:market")
    assert not [a for a in legal(s) if a.startswith("build:")]
    assert names(s.cities[0]) == ["tavern", "market"]


def test_warlord_may_destroy_in_his_own_city_but_never_in_a_complete_one() -> None:
    s = new_state(4)
    set_table(s, cities={3: ["prison", "tavern"], 0: ["manor", "castle", "palace", "temple", "church", "tavern",
                                                       "market"]}, gold={3: 5})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    destroys = [a for a in legal(s) if a.startswith("destroy:")]
    assert destroys == ["destroy:3:prison", "destroy:3:tavern"]


def test_warlord_destroy_before_gathering_and_only_once() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["tavern", "temple"]}, gold={3: 2})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    play(s, "destroy:0:tavern")
    assert not [a for a in legal(s) if a.startswith("destroy:")] and "end" not in legal(s)


# --- unique districts ----------------------------------------------------------------------------


def test_keep_cannot_be_destroyed() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["keep"]}, gold={3: 9})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    assert not [a for a in legal(s) if a.startswith("destroy:")]


@pytest.mark.parametrize(("wall_self", "cost"), [(False, 5), (True, 6)])
def test_great_wall_surcharge_and_its_own_cost(wall_self: bool, cost: int) -> None:
    s = new_state(4, {"great_wall_self": wall_self})
    set_table(s, cities={0: ["great_wall", "tavern"]}, gold={3: 9})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    assert s.destroy_cost(0, k("tavern")) == 1
    assert s.destroy_cost(0, k("great_wall")) == cost


def test_university_and_dragon_gate_score_eight_and_cost_five_to_destroy() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["university", "dragon_gate"]}, gold={3: 5})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    assert s.destroy_cost(0, k("university")) == 5 == s.destroy_cost(0, k("dragon_gate"))
    assert s.score_breakdown(0)["districts"] == 16


@pytest.mark.parametrize(("cost", "buildable"), [(4, True), (5, False)])
def test_observatory_cost_option(cost: int, buildable: bool) -> None:
    s = new_state(4, {"observatory_cost": cost})
    set_table(s, hands={0: ["observatory"]}, gold={0: 2})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "gold")
    assert ("build:observatory" in legal(s)) == buildable


@pytest.mark.parametrize("options", [{"observatory_cost": 5}, {"preset": "original"}])
def test_3_2_a_district_scores_its_cost_under_the_options_d2(options: dict[str, object]) -> None:
    """§3.2: a district scores what it cost to build, so a 5-gold Observatory (D2) scores 5, not the printed 4."""
    s = new_state(4, options)
    set_table(s, cities={0: ["observatory", "manor"]})
    finish(s)
    assert s.score_breakdown(0)["districts"] == 5 + 3
    assert s.scores()[0] == 8


def test_2_6_destroy_cost_follows_the_optioned_cost_d2() -> None:
    """§2.6: the Warlord pays the district's cost − 1, the cost being the one the options set (D2)."""
    s = new_state(4, {"observatory_cost": 5})
    set_table(s, cities={0: ["observatory", "great_wall"]}, gold={3: 5})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    assert s.destroy_cost(0, k("observatory")) == 5 - 1 + 1  # behind the Great Wall
    assert "destroy:0:observatory" in legal(s)
    s.gold[3] = 4
    s._legal = None
    assert "destroy:0:observatory" not in legal(s)


def test_e15_ffg_tie_break_counts_district_points_at_the_optioned_cost_d2() -> None:
    """D22 (tie_break=ffg): "district points" are what the districts score, the 5-gold Observatory 5 (D2)."""
    s = new_state(2, {"observatory_cost": 5, "tie_break": "ffg"})
    set_table(s, cities={0: ["observatory", "temple"], 1: ["palace"]}, gold={0: 0, 1: 1})
    finish(s)
    assert s.scores() == [6, 5] and s.winners() == [0]
    set_table(s, cities={0: ["observatory"], 1: ["palace"]}, gold={0: 0, 1: 1})
    finish(s)
    assert s.scores() == [5, 5] and s.winners() == [1]  # equal district points, then the most gold


def test_a_district_works_the_turn_it_is_built() -> None:
    """D25: build the Smithy, then use it; build the School of Magic, then tax with it."""
    s = new_state(4)
    set_table(s, hands={0: ["smithy"]}, gold={0: 6}, deck=["tavern", "market"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "gold", "build:smithy")
    assert "smithy" in legal(s)
    s = new_state(4)
    set_table(s, hands={0: ["school_of_magic"]}, gold={0: 4})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    assert "tax" not in legal(s)
    play(s, "gold", "build:school_of_magic", "tax")
    assert s.gold[0] == 1


def test_map_room_and_imperial_treasury_at_game_end() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["map_room", "imperial_treasury"]}, hands={0: ["tavern", "market"]}, gold={0: 5})
    finish(s)
    points = s.score_breakdown(0)
    assert (points["map_room"], points["imperial_treasury"]) == (2, 5)


def test_haunted_quarter_may_supply_unique_itself() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["haunted_quarter", "manor", "temple", "market", "prison"]})
    assert s.score_breakdown(0)["five_types"] == 3


def test_school_of_magic_is_only_unique_at_scoring() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["school_of_magic", "manor", "temple", "market"]})
    assert s.score_breakdown(0)["five_types"] == 0


# --- end of game ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options", "cap"), [
    (2, {}, 8), (3, {}, 8), (4, {}, 7), (7, {}, 7), (4, {"classic_variant": True}, 8), (5, {"complete_at": 8}, 8),
    (3, {"complete_at": 7}, 7), (4, {"preset": "original"}, 8),
])
def test_completion_size_by_player_count_and_variant(players: int, options: dict[str, object], cap: int) -> None:
    assert new_state(players, options).rules.cap == cap


def test_the_round_is_finished_after_a_city_completes() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["manor", "temple", "market", "prison", "docks", "harbor"]}, hands={0: ["tavern"]},
              gold={0: 5}, deck=["tavern"] * 5)
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "gold", "build:tavern", "end")
    assert s.phase == P_TURN and s.cur == 1  # the others still play
    play(s, "gold", "end", "gold", "end", "gold", "end")
    assert s.is_over and s.current_player is None and s.legal_actions() == ()
    assert s.first_complete == 0 and s.view(None)["final"]["breakdown"][0]["first_complete"] == 4


def test_first_completer_is_the_earlier_turn() -> None:
    s = new_state(4)
    near = ["manor", "temple", "market", "prison", "docks", "harbor"]
    set_table(s, cities={0: near, 1: near}, hands={0: ["tavern"], 1: ["tavern"]}, gold={0: 5, 1: 5})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "gold", "build:tavern", "end", "gold", "build:tavern", "end")
    points = [s.score_breakdown(t) for t in (0, 1)]
    assert (points[0]["first_complete"], points[0]["complete"]) == (4, 0)
    assert (points[1]["first_complete"], points[1]["complete"]) == (0, 2)


def test_max_rounds_stops_the_game() -> None:
    s = new_state(4, {"max_rounds": 1})
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    assert s.round_no == 1 and s.stats()["rounds"] == 1


def test_murdered_king_heir_is_revealed_only_at_round_end() -> None:
    s = new_state(4)
    set_table(s, deck=["tavern"] * 8)
    start_action_phase(s, {"assassin": 0, "king": 1, "bishop": 2, "warlord": 3}, faceup=["thief", "merchant"])
    play(s, "kill:king", "gold", "end")
    assert not s.revealed >> KING & 1 and s.crown == 0
    assert {"event": "heir", "seat": 1} not in s.view(None)["log"]
    play(s, "gold", "end", "gold", "end")
    assert {"event": "heir", "seat": 1} in s.view(None)["log"] and s.crown == 1


def test_finish_helper_ends_the_game() -> None:
    s = new_state(3)
    finish(s)
    assert s.is_over and s.winners()
