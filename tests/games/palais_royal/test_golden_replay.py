"""A pinned random game: seed, options and chooser fixed, so any change of behaviour shows up here."""

from __future__ import annotations

import random

from meeple import load_game


def test_pinned_three_player_game_replays_identically() -> None:
    game = load_game("palais_royal")
    state = game.new_game(players=3, seed=2024, options={"end_trigger_nobles": 33})
    chooser = random.Random(5)
    while not state.is_over:
        state.apply(chooser.choice(state.legal_actions()))
    assert len(state.history) == 161
    assert state.history[:5] == ["place:POM", "place:OFF", "place:GAT", "place:PAR", "place:CAR"]
    assert state.scores() == [1, 17, 12] and state.winners() == [1]
    assert state.stats() == {"actions": 161, "rounds": 5, "turns": 15, "nobles_recruited": 3, "cards_drawn": 4,
                             "cards_played": 0}
    replay = game.new_game(players=3, seed=2024, options={"end_trigger_nobles": 33})
    for notation in state.history:
        replay.apply(notation)
    assert replay.to_json() == state.to_json()
