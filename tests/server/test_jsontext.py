"""The server's JSON text (``meeple.server.jsontext``, orjson) must be the standard library's text
for every message it sends: checked on each seat's and the spectator's view at every step of seeded
random games of all four games, on names in other scripts, and on what orjson cannot encode."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from meeple.core.registry import game_names, load_game
from meeple.server.jsontext import dumps, loads


def plain(value: Any) -> str:
    """The construction the fast path replaces."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("game_name", sorted(game_names()))
def test_every_view_of_random_games_encodes_as_the_standard_library_does(game_name: str) -> None:
    game = load_game(game_name)
    players = max(2, min(4, game.max_players))
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_game(players, seed=seed)
        for _step in range(120):
            if state.is_over:
                break
            for seat in [None, *range(players)]:
                view = state.view(seat)
                text = dumps(view)
                assert text == plain(view), (game_name, seed, len(state.history), seat)
                assert loads(text) == view
            state.apply(rng.choice(state.legal_actions()))


def test_other_scripts_and_integer_keys_encode_as_the_standard_library_does() -> None:
    message = {"name": "渡辺 さくら", "emoji": "🎲", "quote": 'a "b" \\ c\n', 3: [1, None, True], "x": -0.5}
    assert dumps(message) == plain(message)
    assert loads(dumps(message)) == json.loads(plain(message))


def test_an_integer_beyond_64_bits_still_encodes_and_decodes() -> None:
    value = {"big": 2**70, "seat": 1}
    assert dumps(value) == plain(value)
    assert loads(dumps(value)) == value
