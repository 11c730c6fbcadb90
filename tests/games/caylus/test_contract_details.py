"""Contract details for Caylus: refused input, saved states, options, views and actions."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from meeple import IllegalAction, load_game
from meeple.core.errors import InvalidOptions, InvalidState
from meeple.core.rng import Rng
from meeple.games.caylus.actions import ACTIONS, action
from tests.conformance import canon
from tests.games.caylus.scenario import new_game


def _midgame(players: int = 4, steps: int = 150, seed: int = 5) -> Any:
    state = load_game("caylus").new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("bad", ["place:29", "place:gate ", "PASS", "provost:+4", "build:jeweller", "buy:g",
                                 "castle:ffw", "favour:pp", "res:trade:g:gg", ""])
def test_unknown_or_out_of_turn_notation_is_refused_with_a_message(bad: str) -> None:
    """§7.1: anything not listed raises IllegalAction naming the seat, and changes nothing."""
    state = new_game(4)
    before = canon(state.to_json())
    with pytest.raises(IllegalAction, match="seat 0"):
        state.apply(bad)
    assert canon(state.to_json()) == before


def test_an_action_of_another_decision_is_refused() -> None:
    """A phase-4 bid while seat 0 is placing workers: legal elsewhere, not now."""
    state = new_game(4)
    with pytest.raises(IllegalAction):
        state.apply(action("provost:+1"))
    with pytest.raises(IllegalAction):
        state.apply("castle:done")


def test_a_finished_game_refuses_everything() -> None:
    state = load_game("caylus").new_game(3, 2)
    rng = Rng(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalAction, match="over"):
        state.apply("pass")


def test_a_finished_games_view_gives_each_seats_end_bonuses_as_the_score_counts_them() -> None:
    """The final table shows these figures as they are: 3 PP per gold cube, 1 per 3 plain cubes, 1 per 4 d."""
    state = load_game("caylus").new_game(3, 2)
    rng = Rng(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(None)
    for seat, player in enumerate(view["players_state"]):
        cubes, bonuses = player["cubes"], view["end_bonuses"][seat]
        plain = cubes["f"] + cubes["w"] + cubes["s"] + cubes["c"]
        assert bonuses == {"gold": [cubes["g"], 3 * cubes["g"]], "plain_cubes": [plain, plain // 3],
                           "deniers": [player["deniers"], player["deniers"] // 4]}
        assert view["final_scores"][seat] == player["prestige"] + sum(pp for _held, pp in bonuses.values())


def test_json_round_trip_is_exact() -> None:
    state = _midgame()
    data = json.loads(json.dumps(state.to_json()))
    restored = load_game("caylus").from_json(data)
    assert canon(restored.to_json()) == canon(state.to_json())
    assert [str(a) for a in restored.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert restored.view(None) == state.view(None)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("deniers",), "many"),
        (("deniers",), [-1, 0, 0, 0]),
        (("cubes",), [[0, 0, 0, 0]] * 4),
        (("road",), ["nowhere"] * 28),
        (("workers",), [6, 6, 6, 6]),
        (("turn_order",), [0, 0, 1, 2]),
        (("bailiff",), 3),
        (("provost",), 29),
        (("stock",), {}),
        (("favour_choice",), [5, 0, 0]),
        (("favours",), [[9, 0, 0, 0]] * 4),
        (("houses",), [[7, 0, 0, 0], [0] * 4, [0] * 4]),
        (("removed",), ["n_farm", "n_farm"]),
        (("log",), [["x"]]),
        (("phase",), 0),
    ],
)
def test_malformed_saved_states_are_refused(path: tuple[str, ...], value: Any) -> None:
    state = _midgame()
    data = copy.deepcopy(state.to_json())
    data["body"][path[0]] = value
    with pytest.raises(InvalidState):
        load_game("caylus").from_json(data)


def test_missing_body_key_is_refused() -> None:
    data = _midgame().to_json()
    del data["body"]["castle_workers"]
    with pytest.raises(InvalidState):
        load_game("caylus").from_json(data)


@pytest.mark.parametrize(
    "options",
    [{"turn_order": "0,1,2"}, {"turn_order": "0,0,1,2"}, {"neutral_order": "n_farm"}, {"lawyer_pp": 5},
     {"tower_full_penalty": "always"}, {"preset": "nope"}, {"jeweller": 1}],
)
def test_invalid_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        load_game("caylus").new_game(4, 1, options)


def test_options_defaults_and_presets() -> None:
    """§4.2 (with the seed's readings of D5 and D11 as defaults)."""
    game = load_game("caylus")
    defaults = {name: option.default for name, option in game.options.items()}
    assert defaults == {"jeweller": False, "lawyer_pp": 4, "lawyer_targets": "wood_only", "pp_floor": True,
                        "tower_full_penalty": "if_no_batch", "simplified_favours": False, "turn_order": None,
                        "neutral_order": None}
    assert dict(game.presets["later_printing"]) == {"jeweller": True, "lawyer_pp": 3}
    assert dict(game.presets["beginner"]) == {"simplified_favours": True}
    assert dict(game.presets["standard"]) == {}


def test_setup_is_random_but_seeded() -> None:
    """§1.7: the neutral order and the first turn order come from the game RNG."""
    game = load_game("caylus")
    a = game.new_game(5, 11)
    b = game.new_game(5, 11)
    assert canon(a.to_json()) == canon(b.to_json())
    orders = {tuple(game.new_game(5, seed).turn_order) for seed in range(20)}
    roads = {tuple(game.new_game(5, seed).tile[1:7]) for seed in range(20)}
    assert len(orders) > 5 and len(roads) > 5


def test_view_is_public_and_complete() -> None:
    """§6: every seat sees the same; the view carries what a UI needs and never the RNG."""
    state = _midgame()
    view = state.view(1)
    assert view == state.view(None) == state.view(0)
    for key in ("turn", "phase", "current_player", "pending", "road", "castle", "players_state",
                "favour_table", "stock", "log", "turn_order", "passing_order", "bailiff", "provost"):
        assert key in view
    assert len(view["road"]) == 28
    assert state.rng.to_json() not in json.dumps(view)
    assert view["pending"]["seat"] == state.current_player


def test_determinize_keeps_the_public_game() -> None:
    state = _midgame()
    sampled = state.determinize(0, 99)
    assert canon(sampled.dump_body()) == canon(state.dump_body())
    assert sampled.rng != state.rng


def test_actions_are_interned_immutable_values() -> None:
    """Each notation is one object; str() is the notation; pickling keeps identity."""
    act = action("place:castle")
    assert str(act) == "place:castle" and ACTIONS["place:castle"] is act
    assert pickle.loads(pickle.dumps(act)) is act
    with pytest.raises(AttributeError):
        act.notation = "pass"
    assert len({str(a) for a in ACTIONS.values()}) == len(ACTIONS)


def test_clone_is_independent() -> None:
    state = _midgame()
    twin = state.clone()
    before = canon(state.to_json())
    twin.apply(twin.legal_actions()[0])
    assert canon(state.to_json()) == before


def test_a_saved_state_between_decisions_is_refused() -> None:
    """A body whose cursors point past a decision (here phase 4 with every bid made) is not a saved state."""
    state = _midgame()
    data = copy.deepcopy(state.to_json())
    data["body"]["phase"] = 4
    data["body"]["cursor"] = len(data["body"]["bridge"])
    with pytest.raises(InvalidState):
        load_game("caylus").from_json(data)
    extra = copy.deepcopy(state.to_json())
    extra["body"]["surprise"] = 1
    with pytest.raises(InvalidState):
        load_game("caylus").from_json(extra)
