"""The engine's hints beside the legal actions: Burgundy's worker cost of a die action is the engine's
figure, sent by the server, never computed again in a page.

In seeded random Burgundy games, at every die decision, the hint the server sends for each legal
action (``legal_moves``) equals the workers ``apply`` then charges for it (the public log's
``workers`` of the take, placement or sale made with the die); other decisions carry no hints.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple.core.registry import load_game
from meeple.server.actions import legal_moves

CHARGED = ("take", "place", "sell")


def charged(before: int, state: Any) -> int:
    """The workers the die action just applied cost, from the public log entries it wrote."""
    spent = [entry["workers"] for entry in state.view(None)["log"][before:]
             if entry["event"] in CHARGED and entry.get("by") == "die"]
    assert len(spent) <= 1, spent
    return spent[0] if spent else 0


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_each_die_actions_hint_is_what_apply_charges(players: int, seed: int) -> None:
    state = load_game("burgundy").new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    decisions = costly = 0
    while not state.is_over:
        moves = legal_moves(state)
        pending = state.view(None)["pending"]
        if pending is None or pending.get("kind") != "die":
            assert "hints" not in moves, pending
        else:
            decisions += 1
            hints = moves["hints"]
            assert len(hints) == len(moves["legal"])
            logged = len(state.view(None)["log"])
            for notation, hint in zip(moves["legal"], hints, strict=True):
                after = state.clone()
                after.apply(notation)
                assert hint.get("workers", 0) == charged(logged, after), (notation, hint)
                assert hint.get("workers") != 0, "a free action has no hint"
                costly += bool(hint)
        state.apply(chooser.choice(moves["legal"]))
    assert decisions >= 10 * players and costly > decisions, (decisions, costly)
