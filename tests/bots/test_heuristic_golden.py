"""The heuristic bots decide as they did before they read lenses: seeded heuristic-only games at every
player count and several option sets give the committed digests (tests/bots/heuristic_golden.py)."""

from __future__ import annotations

import pytest

from tests.bots.heuristic_golden import LINEUPS, cases, golden_path, mismatches

#: The games whose golden file exists (the other games' lens work adds theirs).
GAMES = ["citadels", "burgundy", "caylus", "palais_royal"]


@pytest.mark.parametrize("name", GAMES)
def test_heuristic_games_play_as_recorded(name: str) -> None:
    assert golden_path(name).exists()
    assert len(cases(name)) >= 18
    assert mismatches(name) == []


def test_citadels_keeps_the_games_of_its_kept_tables() -> None:
    """Citadels' hard-against-medium tables at 2–4 players were played with these decisions: twenty seeds
    at each count, the medium bot on every seat and against random ones as a tournament seats them."""
    citadels = cases("citadels")
    for players in (2, 3, 4):
        for lineup in LINEUPS:
            seeds = {seed for count, options, seed, kind in citadels if (count, options, kind) == (players, {}, lineup)}
            assert seeds >= set(range(1, 21)), (players, lineup)
