"""Where undo stops (docs/engine-contract.md, ``GameState.undo_floor``), over every installed game.

An action a game leaves above its undo floor may be taken back, so it must be one a player learns
nothing from: it draws nothing from the RNG and shows no seat (nor a spectator) anything that seat
could not already tell. The check is generic: for every such action of seeded random games, each
seat's view after it is the same whatever the hidden information was before (the action applied to
determinizations for that seat), and the RNG is untouched. A game that forgets to raise its floor at
a draw or a reveal fails here. Undoing is replaying: the state ``k`` moves back equals the one played.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from meeple import IllegalAction, InvalidState, game_names, load_game
from meeple.core.contract import GameState

GAMES = game_names()
SEEDS = (3, 11)
MAX_STEPS = 400
"""Actions checked per game (the start of each game holds most kinds of turn)."""
DETERMINIZATIONS = 2
TURNS_OF_SEVERAL_MOVES = ("citadels", "burgundy", "caylus", "palais_royal")
"""Games where a seat often makes several moves in a row, so some must be undoable (a game whose
every move passes the turn, like the server tests' toy game, never offers an undo)."""
REPLAY_EVERY = 9
"""Every this many undoable actions, undoing is checked against replaying (it replays the game)."""


def canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def player_count(name: str) -> int:
    game = load_game(name)
    return min(game.max_players, max(game.min_players, 3))


def seen_alike(before: GameState[Any], after: GameState[Any], notation: str, salt: int) -> tuple[int, list[str]]:
    """Apply ``notation`` to determinizations of ``before`` for every seat (and a spectator) and compare
    that seat's view with ``after``'s; returns how many comparisons ran and the seats that saw a
    difference (something hidden reached them)."""
    compared = 0
    leaks: list[str] = []
    for seat in [None, *range(before.players)]:
        expected = canon(after.view(seat))
        for sample in range(DETERMINIZATIONS):
            other = before.determinize(seat, salt * 31 + sample)
            if not other.is_legal(notation):  # this seat's guess of the hidden facts rules it out
                continue
            other.apply(notation)
            compared += 1
            if canon(other.view(seat)) != expected:
                leaks.append(f"seat {seat}")
                break
    return compared, leaks


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_actions_above_the_floor_draw_nothing_and_reveal_nothing(name: str, seed: int) -> None:
    game = load_game(name)
    chooser = random.Random(seed)
    state = game.new_game(players=player_count(name), seed=seed)
    undoable = compared = 0
    for step in range(MAX_STEPS):
        if state.is_over:
            break
        before = state.clone()
        assert before.undo_floor == state.undo_floor, "clone keeps the undo floor"
        notation = str(chooser.choice(list(state.legal_actions())))
        state.apply(notation)
        floor = state.undo_floor
        assert before.undo_floor <= floor <= len(state.history), f"step {step}: the floor never falls"
        if floor > step:
            continue
        undoable += 1
        assert state.rng.state == before.rng.state, f"step {step}: {notation!r} drew from the RNG below the floor"
        count, leaks = seen_alike(before, state, notation, seed * 1000 + step)
        compared += count
        assert not leaks, (f"{name} step {step}: {notation!r} stays undoable (floor {floor}) but showed "
                           f"{', '.join(leaks)} something hidden; the game must raise its floor (seal_history)")
        if undoable % REPLAY_EVERY == 1:
            assert canon(state.undone(1).to_json()) == canon(before.to_json()), f"step {step}: undo is not replay"
    assert compared > 0 or undoable == 0
    restored = game.from_json(json.loads(json.dumps(state.to_json())))
    assert restored.undo_floor == state.undo_floor
    if not state.is_over:
        assert state.determinize(0, 5).undo_floor == state.undo_floor


@pytest.mark.parametrize("name", GAMES)
def test_undoing_several_moves_is_replaying_and_stops_at_the_floor(name: str) -> None:
    """A seat's own consecutive last moves, above the floor and while it is still its turn, are
    undoable; taking them back gives exactly the state before them."""
    game = load_game(name)
    chooser = random.Random(7)
    state = game.new_game(players=player_count(name), seed=7)
    actors: list[int] = []
    snapshots = [canon(state.to_json())]
    undid = 0
    while not state.is_over and len(actors) < MAX_STEPS:
        seat = state.current_player
        assert seat is not None
        state.apply(chooser.choice(list(state.legal_actions())))
        actors.append(seat)
        snapshots.append(canon(state.to_json()))
        for other in range(state.players):
            if other != state.current_player:
                assert state.undoable_moves(other, actors) == 0, "only the seat to play may undo"
        moves = state.undoable_moves(seat, actors)
        assert moves <= len(actors) - state.undo_floor
        if moves:
            undid += 1
            assert canon(state.undone(moves).to_json()) == snapshots[-1 - moves]
        with pytest.raises(IllegalAction):
            state.undone(len(actors) - state.undo_floor + 1)
    if name in TURNS_OF_SEVERAL_MOVES:
        assert undid > 0, f"{name}: no move was ever undoable in {len(actors)} actions"


@pytest.mark.parametrize("name", GAMES)
def test_a_saved_state_keeps_its_floor_and_old_saves_load_with_nothing_undoable(name: str) -> None:
    game = load_game(name)
    state = game.new_game(players=player_count(name), seed=5)
    chooser = random.Random(5)
    for _ in range(30):
        if state.is_over:
            break
        state.apply(chooser.choice(list(state.legal_actions())))
    saved = state.to_json()
    assert game.from_json(saved).undo_floor == state.undo_floor
    old = {key: value for key, value in saved.items() if key != "undo_floor"}
    assert game.from_json(old).undo_floor == len(state.history)
    for bad in (-1, len(state.history) + 1, "3", None):
        with pytest.raises(InvalidState):
            game.from_json({**saved, "undo_floor": bad})
