"""Action tables (fixed, versioned, complete) and observation encoders (shapes, bounds, spaces)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from meeple import load_game
from meeple.research import action_table, encoder
from meeple.research.tables import PINNED, VERSIONS, _build
from tests.research.helpers import CASES, positions


@pytest.mark.parametrize(("name", "players"), CASES)
def test_each_table_is_the_published_one(name: str, players: int) -> None:
    table = action_table(name, players)
    assert PINNED[(name, players)] == (table.version, table.digest) and table.version == VERSIONS[name]
    assert table.notations == load_game(name).action_notations(players)
    assert [table.index[n] for n in table.notations] == list(range(table.size))


def test_a_changed_table_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple.research import tables

    monkeypatch.setitem(tables.PINNED, ("caylus", 3), (1, "0" * 16))
    tables.action_table.cache_clear()
    try:
        with pytest.raises(tables.TableMismatch, match="bump VERSIONS"):
            tables.action_table("caylus", 3)
    finally:
        tables.action_table.cache_clear()
    assert _build("caylus", 3).digest != "0" * 16


@pytest.mark.parametrize(("name", "players"), CASES)
def test_masks_and_encodings_of_random_positions(name: str, players: int) -> None:
    table = action_table(name, players)
    coder = encoder(name, players)
    flat, named = coder.flat_space(), coder.dict_space()
    assert flat.shape == (coder.size,) and sum(f.size for f in coder.fields) == coder.size
    for state in positions(name, players, 11 * players, 9):
        mask = table.mask(state)
        legal = [str(a) for a in state.legal_actions()]
        assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
        assert sorted(table.notation(i) for i in np.flatnonzero(mask)) == sorted(legal)
        for seat in range(players):
            vector = coder.encode(state.observation(seat))
            assert vector.dtype == np.float32 and flat.contains(vector)
            assert named.contains(coder.encode_dict(state.observation(seat)))
    assert not table.mask(state).any()


@pytest.mark.parametrize(("name", "players"), [("citadels", 4), ("palais_royal", 2)])
def test_an_encoder_refuses_another_games_observation(name: str, players: int) -> None:
    state = load_game("caylus").new_game(players=players, seed=1)
    with pytest.raises(ValueError, match="encoder"):
        encoder(name, players).encode(state.observation(0))


@pytest.mark.parametrize("name", sorted({name for name, _ in CASES}))
def test_docs_show_the_encodings_and_tables_of_the_code(name: str) -> None:
    from pathlib import Path

    docs = (Path(__file__).parents[2] / "docs" / "research.md").read_text()
    game = load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        assert encoder(name, players).markdown() in docs, f"docs/research.md: the {name} encoding is out of date"
        assert action_table(name, players).digest in docs, f"docs/research.md: the {name} table digest is missing"


@pytest.mark.parametrize(("name", "players"), [(name, 3) for name in sorted({n for n, _ in CASES})])
def test_seats_are_relative_to_the_observer(name: str, players: int) -> None:
    coder = encoder(name, players)
    for state in positions(name, players, 5, 31)[:-1]:
        deciding = state.current_player
        for seat in range(players):
            named = coder.encode_dict(state.observation(seat))
            assert int(np.argmax(named["current_player"])) == (deciding - seat) % players
    money = {"citadels": ("gold", "gold"), "burgundy": ("silverlings", None), "caylus": ("deniers", "deniers"),
             "palais_royal": ("gold", "gold")}[name]
    if money[1] is not None:
        observation = state.observation(1)
        cap = next(f.cap for f in coder.fields if f.name == money[1])
        expected = [min(getattr(observation, money[0])[(1 + r) % players] / cap, 1.0) for r in range(players)]
        assert coder.encode_dict(observation)[money[1]].tolist() == pytest.approx(expected)
