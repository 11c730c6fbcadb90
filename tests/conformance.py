"""The conformance suite every game runs: seeded random games checked against the engine contract.

Each game's tests call ``play_and_check`` from a hypothesis test (see tests/games/*/test_conformance.py)
with the game's own invariants (conservation of cards, coins, tiles, …) and a check that a view holds
nothing its seat may not know. The suite itself knows no game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from meeple import IllegalAction, load_game
from meeple.core.contract import GameState

Invariant = Callable[[GameState[Any]], None]
ViewCheck = Callable[[GameState[Any], int | None, dict[str, Any]], None]
DeterminizeCheck = Callable[[GameState[Any], GameState[Any], int], None]

BAD_NOTATIONS = ["definitely-not-an-action", "", " ", ":", "build:" + "x" * 50, "\x00", "pick:" * 3]


def canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def play_and_check(
    game_name: str,
    players: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    invariants: Invariant | None = None,
    view_check: ViewCheck | None = None,
    determinize_check: DeterminizeCheck | None = None,
    deep_every: int = 17,
    max_actions: int = 20_000,
) -> GameState[Any]:
    """Play one random game and check the contract along the way; returns the finished state.

    Cheap checks run after every action; the costly ones (JSON round trip, every legal action applied
    to a clone, refused input, views against determinizations) every ``deep_every`` actions.
    """
    game = load_game(game_name)
    chooser = random.Random(seed ^ 0x5EED)
    state = game.new_game(players=players, seed=seed, options=options)
    twin = game.new_game(players=players, seed=seed, options=options)
    assert canon(state.to_json()) == canon(twin.to_json()), "new_game is not deterministic for a seed"

    steps = 0
    offset = chooser.randrange(deep_every)
    while not state.is_over:
        actions = list(state.legal_actions())
        seat = state.current_player
        assert actions, f"no legal action at step {steps} but the game is not over"
        assert isinstance(seat, int) and 0 <= seat < players, f"bad current_player {seat!r}"
        notations = [str(a) for a in actions]
        assert len(set(notations)) == len(notations), f"two legal actions share a notation: {notations}"
        if invariants is not None:
            invariants(state)
        if steps % deep_every == offset:
            _deep_checks(state, actions, seed + steps, view_check, determinize_check)
        action = chooser.choice(actions)
        state.apply(action if chooser.random() < 0.5 else str(action))
        steps += 1
        assert steps <= max_actions, f"not over after {max_actions} actions"

    assert state.current_player is None, "current_player must be None once the game is over"
    assert list(state.legal_actions()) == [], "a finished game must offer no action"
    if invariants is not None:
        invariants(state)
    scores = state.scores()
    winners = state.winners()
    assert len(scores) == players, f"scores {scores} for {players} players"
    assert winners and len(set(winners)) == len(winners), f"bad winners {winners}"
    assert all(0 <= w < players for w in winners), f"bad winners {winners}"
    try:
        state.apply(str(actions[0]))
        raise AssertionError("an action was accepted after the game ended")
    except IllegalAction:
        pass
    for viewer in [*range(players), None]:
        json.dumps(state.view(viewer))

    again = game.new_game(players=players, seed=seed, options=options)
    for notation in state.history:
        again.apply(notation)
    assert canon(again.to_json()) == canon(state.to_json()), "replaying the history gives another state"
    restored = game.from_json(json.loads(json.dumps(state.to_json())))
    assert canon(restored.to_json()) == canon(state.to_json())
    assert restored.scores() == scores and restored.winners() == winners
    return state


def _deep_checks(
    state: GameState[Any],
    actions: list[Any],
    salt: int,
    view_check: ViewCheck | None,
    determinize_check: DeterminizeCheck | None,
) -> None:
    game = state.game
    before = canon(state.to_json())

    # JSON round trip, exactly, and the restored state behaves the same.
    data = json.loads(json.dumps(state.to_json()))
    restored = game.from_json(data)
    assert canon(restored.to_json()) == before, "from_json(to_json()) differs"
    assert [str(a) for a in restored.legal_actions()] == [str(a) for a in actions]

    # Every listed action is accepted, by value and by notation, with the same result.
    for action in actions:
        by_value = state.clone()
        by_value.apply(action)
        by_notation = state.clone()
        by_notation.apply(str(action))
        assert canon(by_value.to_json()) == canon(by_notation.to_json()), f"{action} by value != by notation"
    assert canon(state.to_json()) == before, "applying to a clone changed the original"

    # Refused input changes nothing.
    legal = {str(a) for a in actions}
    for bad in [*BAD_NOTATIONS, *(n + "x" for n in list(legal)[:3]), *(n.upper() for n in list(legal)[:2])]:
        if bad in legal:
            continue
        try:
            state.apply(bad)
        except IllegalAction as error:
            assert str(error), "an IllegalAction needs a message"
        else:
            raise AssertionError(f"apply({bad!r}) was accepted")
        assert canon(state.to_json()) == before, f"refused {bad!r} changed the state"

    # Views: JSON-safe, never the RNG, identical in every determinization for that seat.
    rng_text = state.rng.to_json()
    for seat in [*range(state.players), None]:
        view = state.view(seat)
        text = json.dumps(view)
        assert rng_text not in text, "a view leaks the RNG state"
        if view_check is not None:
            view_check(state, seat, view)
        for k in range(2):
            sampled = state.determinize(seat, salt * 31 + k)
            assert canon(sampled.view(seat)) == canon(view), f"determinize({seat}) changed what it sees"
            if seat is not None and determinize_check is not None:
                determinize_check(state, sampled, seat)
            assert sampled.rng != state.rng, "determinize must replace the RNG: future chance is hidden too"
            if seat is not None and sampled.current_player == seat:
                sampled_actions = [str(a) for a in sampled.legal_actions()]
                assert sampled_actions == [str(a) for a in actions], "determinize changed the seat's choices"
        # A determinization depends only on what the seat knows: resampling from another state with the
        # same view, with the same sampler seed, gives the same copy (so bots decide alike).
        other_world = state.determinize(seat, salt * 31 + 7)
        resampled = canon(other_world.determinize(seat, salt).to_json())
        assert resampled == canon(state.determinize(seat, salt).to_json()), (
            f"determinize({seat}) depends on hidden information: canonicalise (sort) the unseen pool before sampling"
        )
    assert canon(state.to_json()) == before, "views or determinize changed the state"
