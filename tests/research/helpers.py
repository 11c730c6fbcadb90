"""Shared pieces of the research API tests: the cases and random positions."""

from __future__ import annotations

import random
from typing import Any

from meeple import game_names, load_game
from meeple.core.contract import GameState

#: Every game at every player count.
CASES = [
    (name, players)
    for name in game_names()
    for players in range(load_game(name).min_players, load_game(name).max_players + 1)
]


def positions(name: str, players: int, seed: int, every: int) -> list[GameState[Any]]:
    """Clones of one random game's positions, one every ``every`` actions (at a random phase), and its end."""
    chooser = random.Random(seed)
    state = load_game(name).new_game(players=players, seed=seed)
    phase = chooser.randrange(every)
    found = []
    step = 0
    while not state.is_over:
        if step % every == phase:
            found.append(state.clone())
        state.apply(chooser.choice(state.legal_actions()))
        step += 1
    found.append(state)
    return found
