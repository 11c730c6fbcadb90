"""The shared conformance suite, run on the toy game so the suite itself is tested."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core import registry
from tests.conformance import play_and_check


@settings(max_examples=30, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**32))
def test_toy_games_hold_the_contract(players: int, seed: int) -> None:
    registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")
    play_and_check("toy", players, seed, deep_every=2)
