"""Notation (reference §7), refused input, saved states, options and views."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from meeple import IllegalAction, load_game
from meeple.core.errors import InvalidOptions, InvalidState
from meeple.core.rng import Rng
from tests.games.burgundy.scenario import GAME, legal, new, pass_turn, pending_kind, play, position


def _random_state(players: int, steps: int, seed: int = 3) -> Any:
    state = new(players=players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_load_game_gives_the_registered_class() -> None:
    game = load_game("burgundy")
    assert (game.name, game.min_players, game.max_players) == ("burgundy", 2, 4)
    assert set(game.options) >= {"boards", "start_castle", "tiebreak_empty", "keep_smc_on_depots",
                                 "k06_pay_with_workers", "forced_building_effects", "board_variant_4",
                                 "board_variant_8", "random_board_pool", "first_seat", "secret_setup", "sale_vp"}


def test_actions_are_interned_values_whose_text_is_the_notation() -> None:
    state = new()
    position(state, dice=(3, 5), storage=("B.bank", "S"))
    first = state.legal_actions()
    assert [str(a) for a in first] == ["die:3", "die:5"]
    play(state, "die:3")
    actions = state.legal_actions()
    again = state.clone().legal_actions()
    assert all(a is b for a, b in zip(actions, again, strict=True))
    assert "place:B.bank@12" in [str(a) for a in actions]
    assert len({hash(a) for a in actions}) == len(actions)


def test_unknown_notation_is_refused_with_a_clear_message() -> None:
    state = new()
    before = json.dumps(state.to_json(), sort_keys=True)
    for bad in ("", "die:9", "place:B.bank@99", "take:7:S", "DIE:3", "sell:", "workers:2", "pass"):
        with pytest.raises(IllegalAction, match="not a legal action for seat 0"):
            state.apply(bad)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_another_seats_die_is_refused() -> None:
    state = new()
    position(state, dice=(2, 2))
    state.dice[1] = [5, 5]
    with pytest.raises(IllegalAction):
        state.apply("die:5")


def test_pass_needs_both_dice_used() -> None:
    state = new()
    position(state, dice=(2, 4))
    play(state, "die:2", "workers")
    assert "pass" not in legal(state)
    play(state, "die:4", "workers")
    assert legal(state)[-1] == "pass"


def test_a_whole_turn_as_one_shorthand_is_atomic() -> None:
    state = new()
    position(state, dice=(3, 5), storage=("B.bank",))
    bad = "die:3 place:B.bank@12 die:5 place:B.bank@26"
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction):
        state.apply(bad)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    state.apply("die:3 place:B.bank@12~w0 die:5 workers pass")
    assert state.history[-5:] == ["die:3", "place:B.bank@12", "die:5", "workers", "pass"]
    assert state.current_player == 1


def test_actions_after_the_game_are_refused() -> None:
    state = new()
    while not state.is_over:
        pass_turn(state)
    with pytest.raises(IllegalAction, match="over"):
        state.apply("pass")
    assert state.view(None)["final"] is not None and state.view(None)["winners"] == state.winners()


@pytest.mark.parametrize("steps", [0, 7, 40, 150])
def test_json_round_trip_is_exact_mid_decision(steps: int) -> None:
    state = _random_state(3, steps)
    data = json.loads(json.dumps(state.to_json()))
    restored = GAME.from_json(data)
    assert restored.to_json() == state.to_json()
    assert legal(restored) == legal(state)


def _corrupt(mutate: Any) -> dict[str, Any]:
    state = _random_state(2, 60)
    data: dict[str, Any] = copy.deepcopy(state.to_json())
    mutate(data["body"])
    return data


@pytest.mark.parametrize(
    "mutate",
    [
        lambda b: b.pop("estate"),
        lambda b: b.__setitem__("workers", [-1, 2]),
        lambda b: b.__setitem__("silver", ["1", 2]),
        lambda b: b["storage"][0].append("Q.dragon"),
        lambda b: b["piles"][0].pop(),
        lambda b: b["box"].append(3),
        lambda b: b.__setitem__("pending", [[0, 9]]),
        lambda b: b.__setitem__("pending", [[42]]),
        lambda b: b.__setitem__("board", ["1", "99"]),
        lambda b: b.__setitem__("bought", "no"),
        lambda b: b.__setitem__("turn_index", 5),
        lambda b: b["estate"][0].__setitem__(0, "S"),
        lambda b: b.__setitem__("log", "nothing"),
        lambda b: b.__setitem__("order", [0, 0]),
    ],
)
def test_malformed_saved_states_are_refused(mutate: Any) -> None:
    with pytest.raises(InvalidState):
        GAME.from_json(_corrupt(mutate))


@pytest.mark.parametrize(
    "options",
    [
        {"boards": "nonsense"},
        {"boards": "1,2,3"},
        {"boards": "2,1"},  # board 2 has no castle in the centre: start_castle must be 'choose'
        {"boards": "random"},
        {"first_seat": 2},
        {"random_board_pool": "1,1,2"},
        {"tiebreak_empty": "any"},
        {"keep_smc_on_depots": 1},
    ],
)
def test_invalid_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(players=2, seed=1, options=options)


def test_views_are_public_and_show_the_pending_decision() -> None:
    state = new()
    position(state, dice=(6, 2), storage=("C",), estate={12: "B.bank"})
    play(state, "die:6", "place:C@7")
    view = state.view(1)
    json.dumps(view)
    assert view["pending"]["kind"] == "castle_bonus" and view["pending"]["seat"] == 0
    assert {**view, "seat": None} == state.view(None)
    assert view["players"][0]["estate"]["7"] == "C"
    assert view["future_goods_stacks"] == [0, 5, 5, 5, 5]
    assert pending_kind(state) == "castle_bonus"


def test_determinize_keeps_the_view_and_reshuffles_the_unseen() -> None:
    state = _random_state(2, 30)
    sampled = state.determinize(0, 5)
    assert sampled.view(0) == state.view(0)
    assert sampled.rng != state.rng
    assert [*sorted(g for s in sampled.stacks for g in s)] != [] or not state.stacks
    assert (sampled.stacks, sampled.piles) != (state.stacks, state.piles)


def test_stats_count_rounds() -> None:
    state = new()
    while not state.is_over:
        pass_turn(state)
    assert state.stats()["rounds"] == 25
    assert state.stats()["actions"] == 25 * 2 * 5
