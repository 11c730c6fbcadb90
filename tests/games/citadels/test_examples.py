"""Every worked example of the reference, §5.1, §5.2 and the scenarios E1–E22 of §5.3."""

from __future__ import annotations

import pytest

from meeple import IllegalAction
from meeple.core.rng import Rng
from meeple.games.citadels.data import BISHOP, KING, THIEF
from meeple.games.citadels.state import (
    P_GRAVE,
    P_KEEP,
    P_OVER,
    P_PICK,
    P_TURN,
    S_RANDOM_FD,
    CitadelsState,
    deal_characters,
)
from tests.games.citadels.helpers import ch, finish, k, legal, names, new_state, play, set_table, start_action_phase


def test_5_1_seed_turn_example_thief_robs_warlord_destroy_tax_build() -> None:
    """§5.1: Anna robs Ashley's Warlord; Ashley gathers gold, destroys Kent's market, taxes, builds."""
    s = new_state(4)
    set_table(s, cities={1: ["manor", "market", "temple"], 2: ["prison", "school_of_magic"]},
              hands={2: ["barracks", "tavern"]}, gold={0: 1, 2: 4}, deck=["castle", "palace"])
    start_action_phase(s, {"thief": 0, "architect": 1, "warlord": 2, "magician": 3}, robbed="warlord",
                       from_character="warlord", faceup=["king", "bishop"])
    assert s.current_player == 2
    assert (s.gold[2], s.gold[0]) == (0, 5)  # step 1: robbery at the reveal
    play(s, "gold")
    assert s.gold[2] == 2
    play(s, "destroy:1:market")
    assert s.gold[2] == 1 and names(s.cities[1]) == ["manor", "temple"]
    assert s.deck[-1] == k("market") and len(s.deck) == 3
    play(s, "tax")
    assert s.gold[2] == 3
    play(s, "build:barracks")
    assert s.gold[2] == 0 and names(s.cities[2]) == ["prison", "school_of_magic", "barracks"]
    assert legal(s) == ["end"]
    round_before = s.round_no
    play(s, "end")
    assert s.phase == P_PICK and s.round_no == round_before + 1
    assert s.crown == 0  # nobody held the King: the crown did not move
    assert s.history == ["gold", "destroy:1:market", "tax", "build:barracks", "end"]


def test_5_2_seed_final_scoring_kent_28_ashley_29() -> None:
    """§5.2: the Haunted Quarter counts as military for Kent; the School of Magic is only unique at scoring."""
    s = new_state(4)
    set_table(s, cities={
        0: ["castle", "temple", "trading_post", "keep", "cathedral", "harbor", "haunted_quarter"],
        1: ["barracks", "prison", "manor", "trading_post", "docks", "school_of_magic", "dragon_gate"],
    })
    s.first_complete = 0
    s.holder = [-1, -1, -1, 0, 1, -1, -1, -1]
    finish(s)
    kent, ashley = s.score_breakdown(0), s.score_breakdown(1)
    assert kent == {"districts": 21, "five_types": 3, "first_complete": 4, "complete": 0, "map_room": 0,
                    "imperial_treasury": 0}
    assert ashley["districts"] == 27 and ashley["five_types"] == 0 and ashley["complete"] == 2
    assert s.scores()[:2] == [28, 29]
    # An engine letting the School of Magic fill the missing religious type would give Ashley 32.
    assert s.scores()[1] + 3 == 32
    assert s.winners() == [1]


def test_e1_assassin_and_the_murdered_kings_heir() -> None:
    s = new_state(4)
    set_table(s, cities={2: ["manor", "castle"]}, gold={0: 2, 1: 2, 2: 3, 3: 4}, deck=["tavern"] * 6)
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       crown=1)
    assert "kill:bishop" not in legal(s)
    play(s, "kill:king", "gold", "end")
    assert s.current_player == 1
    before = s.to_json()
    for bad in ("rob:king", "rob:assassin"):
        with pytest.raises(IllegalAction):
            s.apply(bad)
        assert s.to_json() == before
    play(s, "rob:warlord", "gold")
    thief_gold = s.gold[1]
    play(s, "end")
    # rank 4 gets no answer; rank 8: seat 3's 4 gold go to the Thief at the reveal
    assert s.current_player == 3 and s.gold[2] == 3 and s.crown == 1
    assert s.gold[3] == 0 and s.gold[1] == thief_gold + 4
    assert {"event": "no_answer", "rank": 4, "character": "king"} in s.view(None)["log"]
    play(s, "gold", "end")
    assert s.crown == 2 and s.phase == P_PICK and s.current_player == 2
    assert {"event": "heir", "seat": 2} in s.view(None)["log"]


def test_e2_thief_takes_gold_before_the_merchant_bonus_and_tax() -> None:
    s = new_state(4)
    set_table(s, cities={3: ["tavern", "market"]}, gold={1: 0, 3: 3})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "merchant": 3}, faceup=["bishop", "warlord"],
                       from_character="thief")
    play(s, "rob:merchant", "gold", "end")
    play(s, "gold", "end")  # the King's turn
    assert s.current_player == 3
    assert s.gold[1] == 5 and s.gold[3] == 1
    play(s, "gold", "tax")
    assert s.gold[1] == 5 and s.gold[3] == 5


def test_e3_magician_swaps_with_an_empty_hand() -> None:
    s = new_state(4)
    set_table(s, hands={2: ["palace", "temple", "docks"]}, deck=["manor", "castle"])
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    play(s, "swap:2")
    assert names(s.hands[0]) == ["palace", "temple", "docks"] and s.hands[2] == []
    assert not [a for a in legal(s) if a.startswith(("swap:", "redraw:"))]
    assert "end" not in legal(s) and {"gold", "draw"} <= set(legal(s))


@pytest.mark.parametrize(
    ("deck", "hand_after", "deck_after"),
    [
        (["manor", "fortress", "tavern"], ["castle", "manor", "fortress"], ["tavern", "temple", "market"]),
        (["manor"], ["castle", "manor", "temple"], ["market"]),
    ],
)
def test_e4_magician_redraw_goes_under_the_deck_first(deck: list[str], hand_after: list[str],
                                                     deck_after: list[str]) -> None:
    s = new_state(4)
    set_table(s, hands={0: ["temple", "market", "castle"]}, deck=deck)
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    play(s, "redraw:temple", "redraw:market", "redraw:done")
    assert names(s.hands[0]) == hand_after and names(s.deck) == deck_after


def test_e5_king_takes_the_crown_on_reveal_and_tax_timing() -> None:
    for path, actions, final in (("A", ["gold", "build:manor", "tax"], 3), ("B", ["tax", "gold", "build:manor"], 2)):
        s = new_state(4)
        set_table(s, cities={3: ["castle", "school_of_magic"]}, hands={3: ["manor"]}, gold={3: 1})
        start_action_phase(s, {"assassin": 0, "thief": 1, "magician": 2, "king": 3}, faceup=["bishop", "merchant"],
                           from_character="king", crown=0)
        assert s.crown == 3, path
        play(s, *actions)
        assert s.gold[3] == final, path
        assert "tax" not in legal(s), path


@pytest.mark.parametrize("murdered", [False, True])
def test_e6_bishop_protects_his_city_unless_murdered(murdered: bool) -> None:
    s = new_state(4)
    set_table(s, cities={1: ["temple", "church", "monastery"]}, gold={1: 0, 3: 5})
    start_action_phase(s, {"assassin": 0, "bishop": 1, "king": 2, "warlord": 3}, faceup=["thief", "merchant"],
                       killed="bishop" if murdered else None, from_character="king")
    play(s, "gold", "end")  # the King
    if not murdered:
        assert s.current_player == 1
        play(s, "tax")
        assert s.gold[1] == 3
        play(s, "gold", "end")
    assert s.current_player == 3
    destroys = [a for a in legal(s) if a.startswith("destroy:1:")]
    if murdered:
        assert s.gold[1] == 0
        assert destroys == ["destroy:1:temple", "destroy:1:church", "destroy:1:monastery"]
        assert s.destroy_cost(1, k("temple")) == 0 and s.destroy_cost(1, k("monastery")) == 2
    else:
        assert destroys == []


def test_e7_merchant_bonus_keep_build_tax() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["tavern", "market"]}, hands={0: ["docks"]}, gold={0: 2},
              deck=["harbor", "prison", "manor"])
    start_action_phase(s, {"merchant": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="merchant")
    assert s.gold[0] == 3
    play(s, "draw")
    assert s.phase == P_KEEP and legal(s) == ["keep:harbor", "keep:prison"]
    play(s, "keep:harbor")
    assert s.deck[-1] == k("prison")
    play(s, "build:docks")
    assert s.gold[0] == 0
    play(s, "tax")
    assert s.gold[0] == 3 and names(s.hands[0]) == ["harbor"]


def test_e8_architect_draws_two_builds_three_and_completes() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["manor", "temple", "market", "prison"]}, hands={0: ["tavern", "church", "castle"]},
              gold={0: 5, 3: 9}, deck=["palace", "cathedral", "watchtower"])
    start_action_phase(s, {"architect": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="architect")
    assert len(s.hands[0]) == 5 and names(s.hands[0])[-2:] == ["palace", "cathedral"]
    play(s, "gold", "build:castle", "build:church", "build:tavern")
    assert s.gold[0] == 0 and len(s.cities[0]) == 7 and s.first_complete == 0
    assert not [a for a in legal(s) if a.startswith("build:")]
    play(s, "end", "gold")  # the Warlord
    assert not [a for a in legal(s) if a.startswith("destroy:0:")]
    play(s, "end")
    assert s.phase == P_OVER and s.score_breakdown(0)["first_complete"] == 4


def test_e8_variant_cap_stops_the_second_build() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["manor", "temple", "market", "prison", "docks", "harbor"]},
              hands={0: ["tavern", "church"]}, gold={0: 9})
    start_action_phase(s, {"architect": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="architect")
    play(s, "gold", "build:tavern")
    assert not [a for a in legal(s) if a.startswith("build:")]


def test_e9_warlord_cost_matrix() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["watchtower", "university", "keep"], 1: ["great_wall", "market"],
                         2: ["manor", "castle", "palace", "temple", "church", "tavern", "market"], 3: ["prison"]},
              gold={3: 6})
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    destroys = sorted(a for a in legal(s) if a.startswith("destroy:"))
    assert destroys == sorted(["destroy:0:watchtower", "destroy:0:university", "destroy:1:market",
                               "destroy:1:great_wall", "destroy:3:prison"])
    costs = {(0, "watchtower"): 0, (0, "university"): 5, (1, "market"): 2, (1, "great_wall"): 5, (3, "prison"): 1}
    for (seat, card), cost in costs.items():
        assert s.destroy_cost(seat, k(card)) == cost
    play(s, "destroy:0:university")
    assert s.gold[3] == 1 and names(s.cities[0]) == ["watchtower", "keep"] and s.deck[-1] == k("university")
    assert not [a for a in legal(s) if a.startswith("destroy:")]


def _graveyard_table(owner_gold: int = 2, warlord_gold: int = 3, owner: int = 1) -> CitadelsState:
    s = new_state(4)
    cities = {0: ["market"], owner: ["graveyard"]}
    set_table(s, cities=cities, gold={owner: owner_gold, 3: warlord_gold} if owner != 3 else {3: warlord_gold},
              deck=["tavern"])
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    return s


def test_e10_graveyard_owner_decides_and_takes_the_card() -> None:
    s = _graveyard_table()
    play(s, "destroy:0:market")
    assert s.gold[3] == 2 and s.phase == P_GRAVE and s.current_player == 1
    assert legal(s) == ["graveyard:take", "graveyard:pass"]
    play(s, "graveyard:take")
    assert s.gold[1] == 1 and names(s.hands[1]) == ["market"] and len(s.deck) == 1
    assert s.current_player == 3 and s.phase == P_TURN


def test_e10b_graveyard_pass_puts_the_card_under_the_deck() -> None:
    s = _graveyard_table()
    play(s, "destroy:0:market", "graveyard:pass")
    assert s.deck == [k("tavern"), k("market")] and s.current_player == 3


def test_e10c_graveyard_owner_without_gold_gets_no_prompt() -> None:
    s = _graveyard_table(owner_gold=0)
    play(s, "destroy:0:market")
    assert s.phase == P_TURN and s.deck[-1] == k("market")


def test_e10d_warlords_own_graveyard_gives_no_prompt() -> None:
    s = _graveyard_table(owner=3)
    play(s, "destroy:0:market")
    assert s.phase == P_TURN and s.current_player == 3 and s.deck[-1] == k("market")


@pytest.mark.parametrize("warlord_gold", [3, 4])
def test_e10e_destroying_the_graveyard_itself(warlord_gold: int) -> None:
    s = _graveyard_table(warlord_gold=warlord_gold)
    assert ("destroy:1:graveyard" in legal(s)) == (warlord_gold >= 4)
    if warlord_gold >= 4:
        play(s, "destroy:1:graveyard")
        assert s.phase == P_TURN and s.deck[-1] == k("graveyard")


@pytest.mark.parametrize(
    ("city", "options", "keeps", "hand", "bottom"),
    [
        (["observatory"], {}, ["keep:castle"], ["castle"], ["manor", "temple", "docks"]),
        (["library"], {}, [], ["temple", "castle"], ["docks", "manor"]),
        (["observatory", "library"], {}, ["keep:castle", "keep:docks"], ["castle", "docks"], ["manor", "temple"]),
        (["observatory", "library"], {"library": "keep_all"}, [], ["temple", "castle", "docks"], ["manor"]),
    ],
)
def test_e11_observatory_and_library(city: list[str], options: dict[str, str], keeps: list[str], hand: list[str],
                                     bottom: list[str]) -> None:
    s = new_state(4, options)
    set_table(s, cities={0: city}, deck=["temple", "castle", "docks", "manor"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "draw")
    if keeps:
        assert s.phase == P_KEEP
    play(s, *keeps)
    assert s.phase == P_TURN and names(s.hands[0]) == hand
    assert names(s.deck) == bottom


def test_e12_laboratory_once_per_turn() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["laboratory"]}, hands={0: ["temple", "manor"]}, deck=["tavern"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "lab:temple")
    assert s.gold[0] == 1 and names(s.hands[0]) == ["manor"] and s.deck[-1] == k("temple")
    assert "lab:manor" not in legal(s)


@pytest.mark.parametrize(("options", "gold", "legal_smithy", "after", "drawn"), [
    ({}, 3, True, 0, ["palace", "castle"]),
    ({}, 2, False, 2, []),
    ({"preset": "classic_cards"}, 3, True, 1, ["palace", "castle", "docks"]),
])
def test_e12_smithy(options: dict[str, str], gold: int, legal_smithy: bool, after: int, drawn: list[str]) -> None:
    s = new_state(4, options)
    set_table(s, cities={0: ["smithy"]}, gold={0: gold}, deck=["palace", "castle", "docks", "manor"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    assert ("smithy" in legal(s)) == legal_smithy
    if legal_smithy:
        play(s, "smithy")
        assert "smithy" not in legal(s)
    assert s.gold[0] == after and names(s.hands[0]) == drawn


def test_e12_laboratory_classic_cards_pays_two() -> None:
    s = new_state(4, {"preset": "classic_cards"})
    set_table(s, cities={0: ["laboratory"]}, hands={0: ["temple"]})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "lab:temple")
    assert s.gold[0] == 2


def test_e13_map_room_imperial_treasury_university() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["map_room", "imperial_treasury", "university", "manor", "temple", "market", "prison"],
                         1: ["tavern", "manor", "castle", "palace", "temple", "church", "monastery"]},
              hands={0: ["tavern", "docks", "harbor"]}, gold={0: 4})
    s.first_complete = 1
    finish(s)
    assert s.score_breakdown(0) == {"districts": 26, "five_types": 3, "first_complete": 0, "complete": 2,
                                    "map_room": 3, "imperial_treasury": 4}
    assert s.scores()[0] == 38


@pytest.mark.parametrize(("city", "score", "score_ffg_last_round"), [
    (["haunted_quarter", "manor", "temple", "market", "castle", "church", "docks"], 17, 17),
    (["haunted_quarter", "manor", "temple", "market", "prison"], 13, 13),
    (["haunted_quarter", "keep", "manor", "temple", "market"], 14, 11),
])
def test_e14_haunted_quarter_five_types(city: list[str], score: int, score_ffg_last_round: int) -> None:
    for option, expected in ((True, score), (False, score_ffg_last_round)):
        s = new_state(4, {"haunted_last_round": option})
        set_table(s, cities={0: city})
        s.hq_round = s.round_no  # built in the final round
        finish(s)
        points = s.score_breakdown(0)
        assert points["districts"] + points["five_types"] == expected, option  # without completion bonuses


def test_e15_tie_break_by_highest_chosen_rank_even_if_murdered() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["palace", "castle"], 2: ["cathedral", "castle"]})
    s.holder = [1, -1, -1, 3, 2, -1, -1, 0]  # seat 0 Warlord, seat 2 Bishop
    s.killed = ch("warlord")
    finish(s)
    assert s.scores()[0] == s.scores()[2] and s.winners() == [0]


def test_e15_tie_break_two_players_compare_best_rank() -> None:
    s = new_state(2)
    set_table(s, cities={0: ["palace"], 1: ["palace"]})
    s.holder = [0, -1, -1, 1, -1, -1, 0, 1]
    finish(s)
    assert s.winners() == [1]


def test_e15_ffg_tie_break_districts_then_gold_then_shared() -> None:
    s = new_state(4, {"tie_break": "ffg"})
    set_table(s, cities={0: ["palace"], 1: ["palace"]}, gold={0: 1, 1: 1})
    finish(s)
    s.gold = [0, 0, 0, 0]
    assert s.winners() == [0, 1]


def _open_two_player_draft(face_down: int) -> CitadelsState:
    s = new_state(2)
    s.faceup = []
    s.facedown = [face_down]
    s.pool = sorted(c for c in range(8) if c != face_down)
    s.steps = [(-1, S_RANDOM_FD, face_down)]
    s.holder = [-1] * 8
    s.draft_idx = 0
    s.crown = 0
    s._open_draft_step()
    s._legal = None
    return s


def test_e16_two_player_draft() -> None:
    s = _open_two_player_draft(BISHOP)
    assert len(legal(s)) == 7 and s.current_player == 0
    play(s, "pick:king")
    assert s.current_player == 1 and len(legal(s)) == 6
    play(s, "pick:warlord")
    assert s.current_player == 1 and legal(s)[0].startswith("discard:")
    play(s, "discard:thief")
    assert s.current_player == 0
    assert legal(s) == ["pick:assassin", "pick:magician", "pick:merchant", "pick:architect"]
    play(s, "pick:merchant", "discard:assassin")
    assert legal(s) == ["pick:magician", "pick:architect"] and s.current_player == 1
    set_table(s, deck=["tavern"] * 10)
    play(s, "pick:architect")
    assert sorted(s.facedown) == sorted([BISHOP, THIEF, ch("assassin"), ch("magician")])
    assert {c for c in range(8) if s.holder[c] == 0} == {KING, ch("merchant")}
    assert {c for c in range(8) if s.holder[c] == 1} == {ch("warlord"), ch("architect")}
    order = []
    while s.phase != P_PICK:
        order.append((s.rank, s.current_player))
        play(s, "gold", "end")
    assert order == [(KING, 0), (ch("merchant"), 0), (ch("architect"), 1), (ch("warlord"), 1)]


def test_e17_three_player_draft_order_and_offers() -> None:
    s = new_state(3, {"first_crown": "random"}, seed=3)
    s.crown = 1
    s.pool = sorted(c for c in range(8) if c not in s.facedown)
    s.draft_idx = 0
    s._open_draft_step()
    s._legal = None
    seen = []
    while s.phase == P_PICK:
        seen.append((s.current_player, len(legal(s))))
        play(s, legal(s)[0])
    assert seen == [(1, 7), (2, 6), (0, 5), (1, 4), (2, 3), (0, 2)]
    assert len(s.facedown) == 2


def test_e17_seven_player_draft_last_seat_gets_the_face_down_card() -> None:
    s = new_state(7)
    reserved = s.reserved
    seen = []
    while s.phase == P_PICK:
        seen.append((s.current_player, len(legal(s))))
        if s.current_player == 6:
            assert reserved in s.pool
        play(s, legal(s)[-1])
    assert seen == [(0, 7), (1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2)]
    assert len(s.facedown) == 1 and len(s.seen_face_down(6)) == 1


def test_e18_king_is_never_dealt_face_up() -> None:
    order = [KING, BISHOP, THIEF, 0, 2, 5, 6, 7]
    faceup, first, rest = deal_characters(order, 4, Rng(5))
    assert faceup == [BISHOP, THIEF] and KING in [first, *rest]
    assert len(faceup) + 1 + len(rest) == 8 and len(rest) == 5


def test_e18_no_seed_ever_shows_the_king_face_up() -> None:
    for seed in range(200):
        for players in (4, 5):
            assert KING not in new_state(players, seed=seed).faceup


def test_e19_short_and_empty_deck() -> None:
    s = new_state(4)
    set_table(s, deck=["tavern"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "draw")
    assert s.phase == P_TURN and names(s.hands[0]) == ["tavern"]
    s = new_state(4)
    set_table(s, cities={1: ["smithy"]}, gold={1: 9})
    start_action_phase(s, {"king": 0, "architect": 1, "merchant": 2, "warlord": 3}, from_character="architect")
    assert s.hands[1] == [] and "draw" not in legal(s) and "smithy" not in legal(s) and "gold" in legal(s)


def test_e20_build_restrictions() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["temple"]}, hands={0: ["temple", "palace", "tavern"]}, gold={0: 2})
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    assert not [a for a in legal(s) if a.startswith("build:")]  # before gathering
    play(s, "gold")
    builds = [a for a in legal(s) if a.startswith("build:")]
    assert builds == ["build:tavern"]  # temple already built, palace too dear
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply("build:" + "x" * 50)
    assert s.to_json() == before


def test_e21_school_of_magic_with_two_characters() -> None:
    s = new_state(2)
    set_table(s, cities={0: ["market", "prison", "school_of_magic"]}, deck=["tavern"] * 9)
    start_action_phase(s, {"merchant": 0, "warlord": 0, "king": 1, "bishop": 1}, from_character="king")
    play(s, "gold", "end", "gold", "end")  # King and Bishop (seat 1)
    assert s.current_player == 0 and s.rank == ch("merchant")
    gold = s.gold[0]
    play(s, "tax")
    assert s.gold[0] == gold + 2
    play(s, "gold", "end")
    assert s.rank == ch("warlord")
    gold = s.gold[0]
    play(s, "tax")
    assert s.gold[0] == gold + 2


def test_e22_legal_target_lists() -> None:
    s = new_state(4)
    set_table(s)
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["merchant", "architect"])
    assert [a for a in legal(s) if a.startswith("kill:")] == [
        "kill:thief", "kill:magician", "kill:king", "kill:bishop", "kill:warlord"]
    play(s, "kill:bishop", "gold", "end")
    assert [a for a in legal(s) if a.startswith("rob:")] == ["rob:magician", "rob:king", "rob:warlord"]
