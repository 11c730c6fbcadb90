"""The shared contract machinery (apply, refusal, JSON envelope, options) on a toy game."""

from __future__ import annotations

import json

import pytest

from meeple import IllegalAction, InvalidOptions, InvalidState
from tests.core.toy_game import Toy


def test_same_seed_same_game() -> None:
    a = Toy().new_game(players=3, seed=11)
    b = Toy().new_game(players=3, seed=11)
    assert a.to_json() == b.to_json()
    assert Toy().new_game(players=3, seed=12).to_json() != a.to_json()


def test_apply_accepts_value_or_notation_and_records_history() -> None:
    state = Toy().new_game(players=2, seed=1)
    first = state.legal_actions()[0]
    state.apply(first)
    state.apply("pass")
    assert state.history == [str(first), "pass"]


def test_illegal_action_is_refused_with_a_reason_and_changes_nothing() -> None:
    state = Toy().new_game(players=2, seed=1)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction, match="not a legal action for seat 0"):
        state.apply("play:99")
    with pytest.raises(ValueError):
        state.apply("")
    assert json.dumps(state.to_json()) == before


def test_nothing_is_legal_after_the_end() -> None:
    state = Toy().new_game(players=2, seed=1)
    while not state.is_over:
        state.apply("pass")
    assert state.current_player is None
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply("pass")


def test_json_round_trip_is_exact_and_validated() -> None:
    state = Toy().new_game(players=4, seed=5)
    state.apply(state.legal_actions()[0])
    data = json.loads(json.dumps(state.to_json()))
    assert Toy().from_json(data).to_json() == state.to_json()
    for broken in ({**data, "game": "chess"}, {**data, "players": 9}, {**data, "rng": 5}, {**data, "body": {}},
                   {**data, "options": {"hand_size": 7}}, "nope"):
        with pytest.raises(InvalidState):
            Toy().from_json(broken)  # type: ignore[arg-type]


def test_options_are_validated_and_presets_resolve() -> None:
    game = Toy()
    assert game.new_game(players=2, seed=1, options={"preset": "short"}).options == {"hand_size": 1}
    with pytest.raises(InvalidOptions, match="unknown option"):
        game.new_game(players=2, seed=1, options={"colour": "red"})
    with pytest.raises(InvalidOptions, match="must be one of"):
        game.new_game(players=2, seed=1, options={"hand_size": True})
    with pytest.raises(InvalidOptions, match="2–4 players"):
        game.new_game(players=5, seed=1)


def test_determinize_keeps_the_seat_view_and_resamples_the_rest() -> None:
    state = Toy().new_game(players=3, seed=3)
    others = {json.dumps(state.determinize(0, k).hands[1:]) for k in range(20)}
    assert len(others) > 1
    assert all(state.determinize(0, k).view(0) == state.view(0) for k in range(20))


def test_clone_is_independent() -> None:
    state = Toy().new_game(players=2, seed=2)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.history == [] and len(copy.history) == 1
