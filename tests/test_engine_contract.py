"""The engine contract in executable form, over every installed game (docs/engine-contract.md).

Each game also runs ``tests/conformance.py`` with its own invariants from ``tests/games/<game>/``; this
module asks nothing game-specific, so a newly registered game is checked the moment it is installed:
every player count, every preset, the metadata, refused setups and refused saved states.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from meeple import IllegalAction, InvalidOptions, InvalidSeat, InvalidState, game_names, load_game
from meeple.core.errors import UnknownGame
from tests.conformance import canon, play_and_check

GAMES = game_names()
SEEDS_PER_COUNT = 3

PLAYER_COUNTS = [
    (name, n) for name in GAMES for n in range(load_game(name).min_players, load_game(name).max_players + 1)
]
PRESETS = [(name, preset) for name in GAMES for preset in load_game(name).presets]


def test_the_four_games_are_installed() -> None:
    """Other games may be registered too (the server tests add a toy game); each is checked below."""
    assert GAMES[:4] == ["citadels", "burgundy", "caylus", "palais_royal"]


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS)
def test_random_games_hold_the_contract_at_every_player_count(name: str, players: int) -> None:
    seeds = range(1, 1 + SEEDS_PER_COUNT)
    finals = [canon(play_and_check(name, players, seed, deep_every=29).to_json()) for seed in seeds]
    assert len(set(finals)) == SEEDS_PER_COUNT, "different seeds must give different games"


@pytest.mark.parametrize(("name", "preset"), PRESETS)
def test_random_games_hold_the_contract_under_every_preset(name: str, preset: str) -> None:
    game = load_game(name)
    for players in (game.min_players, game.max_players):
        state = play_and_check(name, players, 11, options={"preset": preset}, deep_every=37)
        assert state.options == game.new_game(players=players, seed=11, options={"preset": preset}).options


@pytest.mark.parametrize("name", GAMES)
def test_metadata_is_plain_data(name: str) -> None:
    game = load_game(name)
    assert game.name == name and game.title
    assert isinstance(game.min_players, int) and 1 <= game.min_players <= game.max_players
    described = json.loads(json.dumps(game.describe()))
    assert described["name"] == name
    assert (described["min_players"], described["max_players"]) == (game.min_players, game.max_players)
    assert load_game(name) is game, "load_game returns one shared, immutable Game per name"
    components = game.components()
    assert json.loads(json.dumps(components)) == components, "components are plain JSON (lists, not tuples)"
    assert components == game.components(), "components are printed facts, the same at every call"


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        load_game("chess")


@pytest.mark.parametrize("name", GAMES)
def test_setups_outside_the_rules_are_refused(name: str) -> None:
    game = load_game(name)
    for players in (game.min_players - 1, game.max_players + 1, str(game.min_players), float(game.min_players), True):
        with pytest.raises(InvalidOptions, match="players"):
            game.new_game(players=players, seed=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions):
        game.new_game(players=game.min_players, seed="7")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions, match="no_such_option"):
        game.new_game(players=game.min_players, seed=1, options={"no_such_option": 1})
    with pytest.raises(InvalidOptions):
        game.new_game(players=game.min_players, seed=1, options={"preset": "no_such_preset"})
    for option in game.options.values():
        if option.choices:
            with pytest.raises(InvalidOptions, match=option.name):
                game.new_game(players=game.min_players, seed=1, options={option.name: "not-a-choice-\x00"})


@pytest.mark.parametrize("name", GAMES)
def test_a_game_without_a_seed_keeps_the_one_it_drew(name: str) -> None:
    game = load_game(name)
    state = game.new_game(players=game.max_players)
    assert isinstance(state.seed, int)
    again = game.new_game(players=game.max_players, seed=state.seed)
    assert canon(again.to_json()) == canon(state.to_json())


def _midgame(name: str) -> Any:
    game = load_game(name)
    state = game.new_game(players=game.min_players + 1 if game.max_players > game.min_players else game.min_players,
                          seed=5)
    for step in range(40):
        if state.is_over:
            break
        actions = state.legal_actions()
        state.apply(actions[(step * 7) % len(actions)])
    return state


@pytest.mark.parametrize("name", GAMES)
def test_malformed_saved_states_are_refused_with_invalid_state(name: str) -> None:
    game = load_game(name)
    data = json.loads(json.dumps(_midgame(name).to_json()))
    other = next((g for g in GAMES if g != name), "toy")
    broken: list[Any] = [
        "not a document", [], {}, {**data, "game": other}, {**data, "format": -1},
        {**data, "players": game.max_players + 1}, {**data, "seed": "5"}, {**data, "rng": None},
        {**data, "history": [1, 2]}, {**data, "history": "pick"}, {**data, "options": {"no_such_option": 1}},
        {**data, "body": None}, {**data, "body": "nope"},
    ]
    broken += [{key: value for key, value in data.items() if key != missing}
               for missing in data if missing != "undo_floor"]  # states saved before undo existed lack it
    broken += [{**data, "undo_floor": bad} for bad in (-1, len(data["history"]) + 1, "0")]
    body = data["body"]
    if isinstance(body, dict):
        broken += [{**data, "body": {k: v for k, v in body.items() if k != missing}} for missing in body]
    for document in broken:
        with pytest.raises(InvalidState):
            game.from_json(document)
    assert canon(game.from_json(data).to_json()) == canon(data)


@pytest.mark.parametrize("name", GAMES)
def test_refused_actions_say_why_and_change_nothing(name: str) -> None:
    state = _midgame(name)
    before = canon(state.to_json())
    legal = {str(action) for action in state.legal_actions()}
    for bad in ["definitely-not-an-action", "", "build:" + "x" * 50, "\n", "pick:king pick:king", "🂡", "x" * 10_000]:
        if bad in legal:
            continue
        with pytest.raises(IllegalAction) as refused:
            state.apply(bad)
        assert str(refused.value), "a refusal needs a message a player can read"
        assert not state.is_legal(bad)
    for not_an_action in (None, 3, 2.5, b"pick", ["pick"], {"action": "pick"}):
        with pytest.raises(IllegalAction):
            state.apply(not_an_action)  # type: ignore[arg-type]
    assert canon(state.to_json()) == before


@pytest.mark.parametrize("name", GAMES)
def test_views_are_refused_for_seats_that_do_not_exist(name: str) -> None:
    """Seat -1 once read the last seat's hand through Python's negative indexing."""
    state = _midgame(name)
    for seat in (-1, -state.players, state.players, "0", 0.0, True):
        with pytest.raises(InvalidSeat, match="no seat"):
            state.view(seat)  # type: ignore[arg-type]


def _views_after(state: Any, action: Any, seats: range) -> list[str]:
    after = state.clone()
    after.apply(action)
    return [canon(view) for view in after.views(list(seats))]


@pytest.mark.parametrize(("name", "preset"), [(name, None) for name in GAMES] + PRESETS)
def test_what_another_seat_sees_of_a_move_is_what_its_view_shows(name: str, preset: str | None) -> None:
    """``action_seen_by`` keys a bot's search tree (``ISMCTSBot(unseen_moves=True)``), so it must tell a
    seat no more than its view does: the mover sees its own move, and where two moves leave another
    seat's view alike but the mover's not, that seat's token is one for both (the move is hidden from
    it). A token may hide more than that (a pick that the calls then reveal): it keys a tree coarser."""
    game = load_game(name)
    hidden_pairs = 0
    for players in sorted({game.min_players, game.max_players}):
        seats = range(players)
        for seed in range(1, 3):
            options = None if preset is None else game.presets[preset]
            state = game.new_game(players=players, seed=seed, options=options)
            rng = random.Random(seed)
            step = 0
            while not state.is_over and step < 400:
                legal = list(state.legal_actions())
                mover = state.current_player
                if len(legal) > 1 and step % 7 == 0:
                    sample = rng.sample(legal, min(6, len(legal)))
                    for action in sample:
                        assert state.action_seen_by(action, mover) is action
                    outcomes = [_views_after(state, action, seats) for action in sample]
                    for i, j in itertools.combinations(range(len(sample)), 2):
                        views_a, views_b = outcomes[i], outcomes[j]
                        for seat in seats:
                            if seat == mover:
                                continue
                            seen_a = state.action_seen_by(sample[i], seat)
                            seen_b = state.action_seen_by(sample[j], seat)
                            if views_a[seat] == views_b[seat] and views_a[mover] != views_b[mover]:
                                hidden_pairs += 1
                                assert seen_a == seen_b, (players, seed, step, seat, sample[i], sample[j])
                state.apply(rng.choice(legal))
                step += 1
    if name == "citadels" and preset is None:
        assert hidden_pairs > 0  # face-down picks, kept cards
