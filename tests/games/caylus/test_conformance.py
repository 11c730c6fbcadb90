"""The shared conformance suite on random Caylus games, with Caylus's own invariants (rules §7.5)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.contract import GameState
from meeple.games.caylus.data import (
    FIXED_SPACES,
    LAST_SPACE,
    LOTS,
    NEUTRAL_IDS,
    PRESTIGE_IDS,
    RESIDENCE_ID,
    SECTION_SIZE,
    STONE_IDS,
    TILES,
    WOOD_IDS,
    WORKERS,
)
from meeple.games.caylus.state import CaylusState
from tests.conformance import canon, play_and_check


def make_invariants(pp_floor: bool = True) -> Any:
    """Invariants of §7.5; the closure remembers the last bailiff and scored count to check monotony."""
    seen: dict[str, int] = {"bailiff": 6, "scored": 0, "cap": 2}

    def check(game_state: GameState[Any]) -> None:
        assert isinstance(game_state, CaylusState)
        state = game_state
        n = state.players
        # Workers: 6 each, on the board or available.
        on_board = [0] * n
        for s in range(1, LAST_SPACE + 1):
            if state.worker[s] >= 0:
                on_board[state.worker[s]] += 1
        for seat in (state.gate, state.tpost, state.guild, state.joust, state.inn_left, state.inn_right):
            if seat >= 0:
                on_board[seat] += 1
        for seat in (*state.stables, *state.castle):
            on_board[seat] += 1
        assert all(on_board[p] + state.avail[p] == WORKERS for p in range(n)), (on_board, state.avail)
        assert len(set(state.castle)) == len(state.castle) and len(set(state.stables)) == len(state.stables)
        assert len(state.stables) <= 3 and (n > 2 or not state.stables)
        # Nothing negative.
        assert all(m >= 0 for m in state.money)
        assert all(c >= 0 for held in state.cubes for c in held)
        assert not pp_floor or all(p >= 0 for p in state.pp)
        # Pawns.
        assert 1 <= state.provost <= LAST_SPACE
        assert 6 <= state.bailiff <= 25 and state.bailiff >= seen["bailiff"]
        seen["bailiff"] = state.bailiff
        # Castle.
        for x in range(3):
            assert sum(state.houses[x]) == state.castle_count[x] <= SECTION_SIZE[x]
        assert state.scored >= seen["scored"]
        seen["scored"] = state.scored
        assert state.cap >= seen["cap"]
        seen["cap"] = state.cap
        # Favour markers never beyond the cap in force.
        assert all(0 <= m <= state.cap for markers in state.fav for m in markers)
        # Tiles: each wood/stone/prestige tile in the stock or on the road; six neutral tiles in all.
        for t in (*WOOD_IDS, *STONE_IDS, *PRESTIGE_IDS):
            expected = 0 if TILES[t].slug == "jeweller" and not state.options["jeweller"] else TILES[t].copies
            assert state.stock[t] + state.tile.count(t) == expected, TILES[t].slug
        assert sum(1 for t in state.tile if t in NEUTRAL_IDS) + len(state.removed) == len(NEUTRAL_IDS)
        for s in range(1, LAST_SPACE + 1):
            if state.tile[s] == RESIDENCE_ID:
                assert state.owner[s] >= 0
        for s, t in FIXED_SPACES.items():
            assert state.tile[s] == t
        built = [state.tile[s] >= 0 for s in LOTS]
        assert built == sorted(built, reverse=True), "built lots are not a prefix"
        assert state.turn <= 18

    return check


def view_check(state: GameState[Any], seat: int | None, view: dict[str, Any]) -> None:
    """Caylus has no secrets (§6): every seat sees exactly the spectator's view, which has no RNG."""
    assert canon(view) == canon(state.view(None))
    assert "rng" not in json.dumps(view)


def determinize_check(state: GameState[Any], sampled: GameState[Any], seat: int) -> None:
    """Nothing is hidden, so a determinization keeps the whole game (only the RNG is replaced)."""
    assert canon(sampled.dump_body()) == canon(state.dump_body())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_random_games_hold_the_contract(players: int, seed: int) -> None:
    state = play_and_check("caylus", players, seed, invariants=make_invariants(), view_check=view_check,
                           determinize_check=determinize_check)
    assert state.is_over


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"preset": "beginner"}),
        (4, {"preset": "later_printing"}),
        (2, {"lawyer_targets": "wood_stone", "tower_full_penalty": "none"}),
        (5, {"pp_floor": False}),
    ],
)
def test_random_games_with_options(players: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        invariants = make_invariants(pp_floor=bool(options.get("pp_floor", True)))
        state = play_and_check("caylus", players, seed, options=options, invariants=invariants,
                               view_check=view_check, determinize_check=determinize_check)
        if options.get("preset") == "beginner":
            assert not any(h.startswith(("favour:", "res:")) for h in state.history)


def test_games_always_end_within_eighteen_turns() -> None:
    """D36: the bailiff gains at least one space a turn, so the Towers are scored by turn 18."""
    from meeple import load_game
    from meeple.core.rng import Rng

    game = load_game("caylus")
    for players in (2, 3, 4, 5):
        for seed in range(25):
            state = game.new_game(players, seed)
            rng = Rng(seed)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            assert isinstance(state, CaylusState) and state.turn <= 18 and state.scored == 3


@pytest.mark.parametrize(
    ("players", "actions", "scores", "digest"),
    [(2, 126, [7, 5], "b1292a07e6c23aa2"), (5, 247, [6, 3, 6, 7, 12], "29039b803c96dbc7")],
)
def test_golden_replay_is_stable(players: int, actions: int, scores: list[int], digest: str) -> None:
    """A pinned seeded game: any change of rules, option defaults or action order shows up here."""
    import hashlib

    from meeple import load_game
    from meeple.core.rng import Rng

    state = load_game("caylus").new_game(players, 2026)
    chooser = Rng(99)
    while not state.is_over:
        state.apply(chooser.choice(state.legal_actions()))
    assert len(state.history) == actions and state.scores() == scores
    assert hashlib.sha256(" ".join(state.history).encode()).hexdigest()[:16] == digest
