"""Component data (§1.1, §4, validated on load), options (§5), refused input, saved form, views (§7)."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections import Counter
from typing import Any

import pytest

from meeple import IllegalAction, load_game
from meeple.core.errors import InvalidOptions, InvalidState
from meeple.games.palais_royal.actions import all_actions, parse_action
from meeple.games.palais_royal.data import (
    DataError,
    _read,
    components,
    parse_board,
    parse_cards,
    parse_nobles,
)
from meeple.games.palais_royal.state import PalaisRoyalState
from tests.games.palais_royal.helpers import GAME, clear, give_card, legal, play, put, square, table, to_step

R, B = 0, 1


# --- components -------------------------------------------------------------------------------------


def test_nobles_table_matches_the_reference_totals() -> None:
    """§4.1: 42 tiles, 18 with a privilege, ≤ 2 per kind, SUPPLY 3 + 5, T 59 = V 59, gold 162, VP 175."""
    nobles = components().nobles
    assert len(nobles) == 42
    assert sum(1 for n in nobles if n.privilege) == 18
    assert max(Counter(n.privilege for n in nobles if n.privilege).values()) == 2
    assert sum(n.param for n in nobles if n.privilege == "SUPPLY") == 8
    assert all(n.turquoise + n.violet >= 1 for n in nobles)
    assert sum(n.turquoise for n in nobles) == sum(n.violet for n in nobles) == 59
    assert sum(n.gold for n in nobles) == 162 and sum(n.vp for n in nobles) == 175
    assert [n.id for n in nobles if n.status == "printed"] == ["N01"]
    assert (nobles[0].gold, nobles[0].turquoise, nobles[0].violet, nobles[0].vp) == (2, 2, 2, 4)


def test_cards_board_and_supplies_match_the_component_list() -> None:
    """§1.1: 36 cards (9 × 4), 25 servants per colour (18 + 7), 57 gold in 33 coins, 4 edges of 6."""
    comps = components()
    assert [c.copies for c in comps.cards] == [4] * 9 and comps.card_total == 36
    assert all(c.status == "reconstructed" for c in comps.cards)
    assert (comps.pool_servants, comps.general_supply_servants, comps.servants_per_colour) == (18, 7, 25)
    assert comps.gold_total == 57 and sum(count for _, count in comps.coins) == 33
    assert [len(e.squares) for e in comps.edges] == [6, 6, 6, 6]
    assert all(e.points == (6, 3) for e in comps.edges)
    assert comps.first_game_layout == ("BAC", "OFF", "CAR", "MIN", "GAT", "POM", "STA", "KIN", "PAR")


def test_first_game_adjacency_is_orthogonal() -> None:
    """§1.2 adjacency table of the first-game layout."""
    view = table(2).view(None)
    assert {k: set(v) for k, v in view["adjacent"].items()} == {
        "BAC": {"OFF", "MIN"}, "OFF": {"BAC", "CAR", "GAT"}, "CAR": {"OFF", "POM"},
        "MIN": {"BAC", "GAT", "STA"}, "GAT": {"OFF", "MIN", "POM", "KIN"}, "POM": {"CAR", "GAT", "PAR"},
        "STA": {"MIN", "KIN"}, "KIN": {"STA", "GAT", "PAR"}, "PAR": {"POM", "KIN"},
    }


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('id = "N03", gold = 3', 'id = "N03", gold = -3', "nobles.toml: row 3 (N03): field 'gold' must be >= 0"),
        ('id = "N04", gold = 4', 'id = "N04", gold = "4"', "nobles.toml: row 4 (N04): field 'gold' must be int"),
        ('privilege = "MOVE"', 'privilege = "FLY"', "field 'privilege' must be empty or one of"),
        ('id = "N42"', 'id = "N41"', "row 42 (N41): field 'id' must be unique"),
        ('status = "printed"', 'status = "maybe"', "row 1 (N01): field 'status' must be one of"),
    ],
)
def test_a_broken_nobles_file_is_refused_naming_file_row_and_field(old: str, new: str, message: str) -> None:
    text = _read("nobles.toml")
    assert old in text
    with pytest.raises(DataError, match=re.escape(message)):
        parse_nobles(text.replace(old, new, 1))


def test_broken_cards_and_board_files_are_refused() -> None:
    cards = _read("cards.toml")
    with pytest.raises(DataError, match=re.escape("cards.toml: the copies must add up to 36 cards, not 37")):
        parse_cards(cards.replace("copies = 4", "copies = 5", 1))
    with pytest.raises(DataError, match=re.escape("cards.toml: row 9 (FAVOUR): field 'window'")):
        parse_cards(cards.replace('window = "any", effect = "no effect', 'window = "never", effect = "no effect'))
    board = _read("board.toml")
    with pytest.raises(DataError, match=re.escape("board.toml: edges.N: field 'squares': 'c3' is not a square")):
        parse_board(board.replace('"a6", "b6", "c6"', '"a6", "b6", "c3"'))
    with pytest.raises(DataError, match=re.escape("board.toml: not valid TOML")):
        parse_board(board + "\n[[[")


def test_more_than_two_tiles_per_privilege_needs_the_nonstandard_option() -> None:
    """§4.5: the ≤ 2 check is waived only by allow_nonstandard_data."""
    comps = components()
    nobles = list(comps.nobles)
    nobles[18] = dataclasses.replace(nobles[18], privilege="GATE", param=1)
    edited = dataclasses.replace(comps, nobles=tuple(nobles))
    assert edited.privilege_overuse() == ["privilege GATE is on 3 tiles (N03, N04, N19), more than 2"]
    assert comps.privilege_overuse() == []


# --- options ----------------------------------------------------------------------------------------


def test_every_option_has_its_reference_default() -> None:
    assert GAME.option_set.defaults() == {
        "layout": "random", "gate_fixed_centre": False, "initial_placement": "fixed_3_2", "start_seat": 0,
        "cost_reduction": "orthogonal", "corner_edges": "both", "edge_tie": "split",
        "bonus_servant_from_rooms": True, "privilege_activation": "next_turn", "step3_order": "free",
        "hand_score_cap": 6, "end_trigger_nobles": 12, "round_limit": 40, "gold_limited": False,
        "winner_tiebreak": "nobles_then_gold", "discard_public": True, "hide_face_down_nobles": False,
        "allow_nonstandard_data": False,
    }


def test_layout_options() -> None:
    explicit = ["GAT", "OFF", "CAR", "MIN", "BAC", "POM", "STA", "KIN", "PAR"]
    state = GAME.new_game(players=2, seed=1, options={"layout": explicit})
    assert state.view(None)["layout"][0] == ["GAT", "OFF", "CAR"]
    assert state.options["layout"] == ",".join(explicit)
    for seed in range(5):
        centred = GAME.new_game(players=2, seed=seed, options={"gate_fixed_centre": True})
        assert centred.view(None)["layout"][1][1] == "GAT"
    assert GAME.new_game(players=2, seed=1, options={"preset": "first_game"}).view(None)["layout"][2] == [
        "STA", "KIN", "PAR"]
    with pytest.raises(InvalidOptions, match="must name each of the 9 rooms"):
        GAME.new_game(players=2, seed=1, options={"layout": "PAR,STA"})
    with pytest.raises(InvalidOptions, match="gate_fixed_centre needs GAT in the centre"):
        GAME.new_game(players=2, seed=1, options={"layout": explicit, "gate_fixed_centre": True})


def test_start_seat_option() -> None:
    state = GAME.new_game(players=3, seed=1, options={"start_seat": 2})
    assert state.current_player == 2 and state.gold == [1, 2, 0]
    with pytest.raises(InvalidOptions, match="start_seat 3 does not exist with 2 players"):
        GAME.new_game(players=2, seed=1, options={"start_seat": 3})
    seats = {GAME.new_game(players=4, seed=s, options={"start_seat": "random"}).current_player for s in range(12)}
    assert len(seats) > 1


def test_free_initial_placement_variant() -> None:
    """[D-20] free_10: no fixed 3 + 2, each player places 10."""
    state = GAME.new_game(players=2, seed=1, options={"initial_placement": "free_10"})
    assert state.pool == [18, 18] and state.view(None)["pending"]["left"] == 10
    for _ in range(20):
        state.apply("place:MIN")
    assert state.pool == [8, 8] and state.rooms[0][2] == 10 and state.current_player == 0


def test_cost_reduction_variants() -> None:
    for option, cost in (("orthogonal", 2), ("orthogonal_diagonal", 1), ("none", 4)):
        state = table(2, cost_reduction=option)
        clear(state, "c4", "b3", "b4")
        from tests.games.palais_royal.helpers import lay

        lay(state, "c3", "N30")
        assert state.recruit_cost(square("c3")) == cost, option


def test_edge_options() -> None:
    state = table(3, corner_edges="none")
    clear(state, "a1", servant=R)
    clear(state, "b1", servant=B)
    assert state.rules.edge_points(state.garden_servants, 3) == [0, 6, 0]
    for tie, points in (("split", [4, 4, 0]), ("demote", [3, 3, 0]), ("full", [6, 6, 0])):
        state = table(3, edge_tie=tie)
        clear(state, "b6", servant=R)
        clear(state, "c6", servant=B)
        assert state.rules.edge_points(state.garden_servants, 3) == points, tie


def test_fixed_step_three_order() -> None:
    state = table(2, step3_order="fixed")
    put(state, R, MIN=1, KIN=1, POM=1)
    to_step(state, 3)
    play(state, "pomp")
    assert "mint" not in legal(state) and "king" not in legal(state)


def test_bonus_servant_only_from_the_pool_by_option() -> None:
    state = table(2, bonus_servant_from_rooms=False)
    put(state, R, pool=0, KIN=1, MIN=1)
    to_step(state, 3)
    assert not any(a.startswith("king") for a in legal(state))


def test_limited_gold_caps_the_mint() -> None:
    state = table(2, gold_limited=True)
    put(state, R, gold=56, MIN=3)
    put(state, B, gold=0)
    to_step(state, 3)
    assert state.bank == 1
    play(state, "mint")
    assert state.gold[R] == 57 and state.bank == 0


def test_round_limit_ends_a_stalled_game() -> None:
    state = table(2, round_limit=2)
    for _ in range(4):
        play(state, "end end end end end")
    assert state.is_over and state.round == 2


# --- refused input and the saved form ---------------------------------------------------------------


def test_illegal_input_is_refused_with_a_clear_message() -> None:
    state = table(2)
    before = json.dumps(state.to_json(), sort_keys=True)
    for bad in ("fly", "recruit:z9", "move:STA-GAT", "keep:PURSE", "draw"):
        with pytest.raises(IllegalAction, match="not a legal action for seat 0"):
            state.apply(bad)
    with pytest.raises(ValueError, match="not Palais Royal notation"):
        parse_action("gate:XYZ")
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_another_seats_action_is_refused() -> None:
    """Only the seat on turn decides: B's pending edge choice cannot be made during R's step 1."""
    state = table(2)
    with pytest.raises(IllegalAction):
        state.apply("edge:pool")
    play(state, "end end end end end")
    assert state.current_player == B


def test_every_notation_round_trips() -> None:
    for action in all_actions():
        assert parse_action(str(action)) is action
        assert copy.deepcopy(action) is action


def test_a_turn_can_be_written_as_one_sequence() -> None:
    state = table(2)
    put(state, R, PAR=1)
    state.apply("gate gate end end")
    assert state.step == 3 and state.history[-4:] == ["gate", "gate", "end", "end"]
    with pytest.raises(IllegalAction):
        state.apply("mint fly")
    assert state.step == 3


def _saved(players: int = 3, steps: int = 120) -> dict[str, Any]:
    import random

    state = GAME.new_game(players=players, seed=4)
    chooser = random.Random(4)
    for _ in range(steps):
        state.apply(chooser.choice(state.legal_actions()))
    return json.loads(json.dumps(state.to_json()))


@pytest.mark.parametrize(
    "path, value, message",
    [
        (("body", "pool"), [1, 2], "pool"),
        (("body", "gold", 0), -1, "gold"),
        (("body", "rooms", "PAR", 0), "x", "rooms.PAR"),
        (("body", "deck", 0), "JOKER", "deck"),
        (("body", "garden", 0), "N99", "garden"),
        (("body", "phase"), "lunch", "phase"),
        (("body", "seat"), 7, "seat"),
        (("body", "general_supply", 0), 0, "servants of seat 0"),
        (("body", "hands"), "x", "hands"),
        (("body", "turn", "drew"), 1, "turn.drew"),
        (("body", "layout", 0), "GAT", "layout"),
    ],
)
def test_malformed_saved_states_are_refused(path: tuple[Any, ...], value: Any, message: str) -> None:
    data = _saved()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InvalidState, match=message):
        GAME.from_json(data)


def test_a_saved_state_restores_exactly() -> None:
    data = _saved(4, 300)
    restored = GAME.from_json(data)
    assert json.dumps(restored.to_json(), sort_keys=True) == json.dumps(data, sort_keys=True)
    del data["body"]["turn"]
    with pytest.raises(InvalidState, match="turn"):
        GAME.from_json(data)


# --- hidden information (§7) ------------------------------------------------------------------------


def test_hands_and_draws_are_hidden_from_other_seats() -> None:
    state = table(3)
    give_card(state, R, "PURSE", 2)
    put(state, R, BAC=2)
    to_step(state, 5)
    play(state, "draw")
    drawn = [c for c in state.view(R)["pending"]["cards"]]
    mine = state.view(R)
    assert mine["hand"] == {"PURSE": 2} and mine["private_log"][-1]["cards"] == drawn
    for viewer in (B, 2, None):
        view = state.view(viewer)
        assert view["hand_counts"][R] == 2 and "cards" not in view["pending"]
        assert view["hand"] != {"PURSE": 2} or (viewer is None and view["hand"] is None)
        assert all(e["event"] != "drew" for e in view["log"] + view["private_log"])
        assert "deck" not in view and "boxed" not in view
    play(state, f"keep:{drawn[0]}")
    assert all("card" not in e for e in state.view(B)["log"] if e["event"] == "keep")


def test_determinize_resamples_only_what_the_seat_cannot_see() -> None:
    state = table(3)
    give_card(state, R, "PURSE", 2)
    give_card(state, B, "TIE", 3)
    copies = [state.determinize(R, salt) for salt in range(8)]
    assert all(isinstance(c, PalaisRoyalState) and c.hands[R] == state.hands[R] for c in copies)
    assert all(sum(c.hands[B]) == 3 and len(c.deck) == len(state.deck) for c in copies)
    assert len({tuple(c.hands[B]) for c in copies}) > 1
    assert all(c.view(R) == state.view(R) for c in copies)


def test_discard_pile_is_hidden_by_option_and_resampled() -> None:
    state = table(2, discard_public=False)
    state.discard = [state.deck.pop() for _ in range(5)]
    view = state.view(R)
    assert view["discard"] is None and view["discard_size"] == 5
    assert len({tuple(state.determinize(R, s).discard) for s in range(6)}) > 1


def test_load_game_metadata() -> None:
    game = load_game("palais_royal")
    assert (game.name, game.title, game.min_players, game.max_players) == ("palais_royal", "Palais Royal", 2, 4)
    assert "first_game" in game.presets


def test_pending_edge_and_keep_decisions_survive_a_round_trip() -> None:
    """A save in the middle of a recruit (edge servant pending) or a Back-door draw restores exactly."""
    from tests.games.palais_royal.helpers import lay, stack_deck

    state = table(2)
    lay(state, "a3", "N03")  # GATE privilege, given only once the garden servant is placed
    put(state, R, gold=3, OFF=1, KIN=1, POM=1)
    to_step(state, 4)
    play(state, "recruit:a3")
    restored = GAME.from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json() and legal(restored) == legal(state) == ["edge:pool"]
    play(restored, "edge:pool end")
    assert restored.waiting[R][1] == 1
    state = table(2)
    put(state, R, BAC=2)
    stack_deck(state, "TIE", "FAVOUR")
    to_step(state, 5)
    play(state, "draw keep:TIE")
    restored = GAME.from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json() and restored.view(R)["pending"]["cards"] == ["FAVOUR"]
