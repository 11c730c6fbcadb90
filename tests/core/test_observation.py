"""Typed observations and structured actions, for every game and player count.

An observation holds only what its seat may know, so it is the same on every determinization for
that seat; every legal action's ``{kind, args}`` writes its notation back; every legal action is one of
the notations the game lists for that player count.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from meeple import InvalidSeat, game_names, load_game
from meeple.core.contract import GameState
from meeple.core.observation import ActionInfo, Observation

CASES = [
    (name, players)
    for name in game_names()
    for players in range(load_game(name).min_players, load_game(name).max_players + 1)
]
#: Options that hide more than the defaults (a secret setup, a face-down discard pile), with how often
#: to check (every n actions; a secret setup is over after a few, so there every action of the first 12).
HIDING_OPTIONS = [
    ("burgundy", 3, {"preset": "variant_secret"}, 1, 12),
    ("palais_royal", 3, {"discard_public": False}, 13, None),
    ("citadels", 7, {"preset": "classic_cards"}, 11, None),
]
#: Random games per case and determinizations per checked position: enough to hit every phase.
GAMES = 2
SAMPLES = 4


def random_positions(
    name: str, players: int, seed: int, every: int, options: dict[str, Any] | None = None, until: int | None = None
) -> list[GameState[Any]]:
    """Clones of the positions of one random game, one every ``every`` actions (of the first ``until``),
    the end included."""
    chooser = random.Random(seed)
    state = load_game(name).new_game(players=players, seed=seed, options=options)
    found = []
    step = 0
    while not state.is_over:
        if step % every == chooser.randrange(every) and (until is None or step < until):
            found.append(state.clone())
        state.apply(chooser.choice(state.legal_actions()))
        step += 1
    found.append(state)
    return found


@pytest.mark.parametrize(
    ("name", "players", "options", "every", "until"), [(n, p, None, 23, None) for n, p in CASES] + HIDING_OPTIONS
)
def test_an_observation_is_the_same_on_every_determinization(
    name: str, players: int, options: dict[str, Any] | None, every: int, until: int | None
) -> None:
    for game_index in range(GAMES):
        seed = 1000 * players + game_index
        for position, state in enumerate(random_positions(name, players, seed, every, options, until)):
            for seat in [*range(players), None]:
                seen = state.observation(seat)
                assert isinstance(seen, Observation)
                assert seen.seat == seat and seen.players == players and seen.game == name
                assert seen.current_player == state.current_player and seen.is_over == state.is_over
                json.dumps(seen.to_json())
                for k in range(SAMPLES):
                    other = state.determinize(seat, 7919 * position + k)
                    assert other.observation(seat) == seen, f"{name} {players}p: determinize({seat}) changed it"


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_legal_action_is_listed_and_its_info_writes_its_notation(name: str, players: int) -> None:
    game = load_game(name)
    listed = set(game.action_notations(players))
    assert len(listed) == len(game.action_notations(players)), "a notation is listed twice"
    for state in random_positions(name, players, 77 + players, 5):
        infos = state.legal_action_infos()
        assert [info.notation for info in infos] == [str(a) for a in state.legal_actions()]
        for action, info in zip(state.legal_actions(), infos, strict=True):
            assert isinstance(info, ActionInfo)
            assert info.notation in listed, f"{info.notation} is not in the {players}-player action list"
            assert game.notation_from_info(info.kind, info.args) == info.notation
            assert state.action_info(str(action)) is info
            assert json.loads(json.dumps(info.to_json()))["notation"] == info.notation


@pytest.mark.parametrize("name", game_names())
def test_every_listed_notation_has_an_info_that_writes_it(name: str) -> None:
    game = load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for notation in game.action_notations(players):
            info = game.action_info(notation)
            assert info.notation == notation
            assert game.notation_from_info(info.kind, info.args) == notation


@pytest.mark.parametrize("name", game_names())
def test_observation_refuses_a_seat_that_does_not_exist(name: str) -> None:
    state = load_game(name).new_game(players=2, seed=1)
    for seat in (-1, 2, "0", True):
        with pytest.raises(InvalidSeat):
            state.observation(seat)  # type: ignore[arg-type]
