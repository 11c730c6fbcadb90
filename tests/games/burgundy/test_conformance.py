"""The shared conformance suite on Burgundy at 2–4 players, with the game's own invariants (§3.17)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.burgundy import actions as act
from meeple.games.burgundy.actions import BAction
from meeple.games.burgundy.data import (
    BOARDS,
    DEPOT_SPACES,
    DIST,
    GOODS_PER_KIND,
    NEIGHBOURS,
    ROUNDS,
    SPACE_DIE,
    SPACES,
    TILE_COUNTS,
    TILE_TYPE,
    A,
    B,
    C,
    M,
    S,
)
from meeple.games.burgundy.state import EMPTY, K01, K08, K09, K10, K11, K12, BurgundyState
from tests.conformance import play_and_check


class Invariants:
    """Conservation and sign checks, plus VP that never go down within one game."""

    def __init__(self) -> None:
        self.last_vp: list[int] = []

    def __call__(self, state: GameState[Any]) -> None:
        assert isinstance(state, BurgundyState)
        census = state.tile_census()
        assert census == [w + b for w, b in TILE_COUNTS], "hex tiles not conserved"
        assert sum(census) == 164
        assert state.goods_census() == [0] + [GOODS_PER_KIND] * 6, "goods not conserved"
        for seat in range(state.players):
            assert state.silver[seat] >= 0 and state.workers[seat] >= 0 and state.vp[seat] >= 0
            assert len(state.storage[seat]) <= 3
            assert sum(1 for g in state.goods[seat] if g) <= 3
            assert all(g >= 0 for g in state.goods[seat] + state.sold[seat])
        if self.last_vp:
            assert all(now >= before for now, before in zip(state.vp, self.last_vp, strict=True)), "VP went down"
        self.last_vp = list(state.vp)
        for t in range(6):
            large, small = state.bonus_large[t], state.bonus_small[t]
            assert small == EMPTY or (large != EMPTY and large != small)
        for d in range(1, 7):
            for i, tile in enumerate(state.depots[d]):
                if tile != EMPTY:
                    allowed = {DEPOT_SPACES[d][i][0]}
                    if d == 6 and i == 2:
                        allowed |= {C, M}
                    assert TILE_TYPE[tile] in allowed, f"depot {d} space {i} holds a wrong colour"
        assert state.stats()["rounds"] <= 25


def view_check(state: GameState[Any], seat: int | None, view: dict[str, Any]) -> None:
    """Only a seat's own secret setup choices differ from the spectator's view; hidden order never leaks."""
    assert isinstance(state, BurgundyState)
    spectator = state.view(None)
    for key, value in view.items():
        if key not in ("seat", "players", "private_log"):
            assert value == spectator[key], key
    secret = state.hidden_setup_seats(None)
    for s, (mine, public) in enumerate(zip(view["players"], spectator["players"], strict=True)):
        if s != seat or not secret:
            assert mine == public
        if s in state.hidden_setup_seats(seat):
            assert mine["estate"] == {} and mine["start_space"] is None
    assert all(event["seat"] == seat for event in view["private_log"])
    if seat is None:
        assert view["private_log"] == []
    assert all(isinstance(n, int) for n in view["future_goods_stacks"])
    assert isinstance(view["box_goods"], int) and isinstance(view["black_pile"], int)
    assert all(isinstance(n, int) for n in view["white_piles"].values())
    for key in ("stacks", "box", "piles"):
        assert key not in view


def _hidden(state: BurgundyState) -> tuple[Any, ...]:
    return (tuple(map(tuple, state.stacks)), tuple(state.box), tuple(map(tuple, state.piles)), tuple(state.black_pile))


def determinize_check(state: GameState[Any], sampled: GameState[Any], seat: int) -> None:
    """Resampled: the same unseen multisets and sizes, and a different arrangement when one is possible."""
    assert isinstance(state, BurgundyState) and isinstance(sampled, BurgundyState)
    unseen = Counter(g for s in state.stacks for g in s) + Counter(state.box)
    assert Counter(g for s in sampled.stacks for g in s) + Counter(sampled.box) == unseen
    assert [len(s) for s in sampled.stacks] == [len(s) for s in state.stacks]
    for mine, theirs in zip([*state.piles, state.black_pile], [*sampled.piles, sampled.black_pile], strict=True):
        assert Counter(mine) == Counter(theirs)
    future = [g for s in state.stacks for g in s]
    rearrangeable = (future and len(unseen) > 1 and len(set(unseen.elements())) > 1) or any(
        len(set(p)) > 1 for p in [*state.piles, state.black_pile]
    )
    if rearrangeable:
        others = [_hidden(state.determinize(seat, k)) for k in range(8)]
        assert any(h != _hidden(state) for h in others), "determinize never resamples hidden things"


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_burgundy_holds_the_contract(players: int, seed: int) -> None:
    play_and_check("burgundy", players, seed, invariants=Invariants(), view_check=view_check,
                   determinize_check=determinize_check, deep_every=29)


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "reference"},
        {"preset": "variant_choose"},
        {"preset": "variant_secret"},
        {"preset": "variant_boards", "secret_setup": True},
        {"preset": "variant_boards", "board_variant_8": "b", "board_variant_4": "b"},
        {"k06_pay_with_workers": True, "forced_building_effects": True, "tiebreak_empty": "most"},
    ],
)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_burgundy_options_hold_the_contract(options: dict[str, Any], seed: int, players: int) -> None:
    play_and_check("burgundy", players, seed, options=options, invariants=Invariants(), view_check=view_check,
                   determinize_check=determinize_check, deep_every=41)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_die_actions_are_what_choosing_the_die_makes_legal(seed: int, players: int) -> None:
    """``die_actions`` (what bots weigh a die by) lists exactly the legal actions after ``die:<value>``,
    at every turn of a random game, for each die the seat still has."""
    chooser = random.Random(seed)
    state = load_game("burgundy").new_game(players=players, seed=seed)
    checked = 0
    while not state.is_over:
        dice = [a for a in state.legal_actions() if a.notation.startswith("die:")]
        for die in dice:
            after = state.clone()
            after.apply(die)
            seat = state.current_player
            assert seat is not None
            assert state.die_actions(seat, die.a) == after.legal_actions()
            checked += 1
        state.apply(chooser.choice(state.legal_actions()))
    assert checked >= 25 * players * 2  # both dice of every seat in every round, at least


def _reference_die_actions(state: BurgundyState, seat: int, rolled: int) -> tuple[BAction, ...]:
    """A die's legal actions written straight from reference §3.5, §3.6 and §3.8, space by space and
    without the engine's bit masks: takes, placements, sales, then the workers action."""
    kmask, workers = state.kmask[seat], state.workers[seat]

    def affordable(target: int, free: bool) -> bool:
        need = max(0, DIST[rolled][target] - free)
        return (need + 1) // 2 <= workers if kmask & K08 else need <= workers

    out = [act.TAKE_ACTIONS[d][t] for d in range(1, 7) if affordable(d, bool(kmask & K12))
           for t in sorted({t for t in state.depots[d] if t != EMPTY})]
    board, estate = BOARDS[state.board[seat]], state.estate[seat]
    free_bit = {B: K09, S: K10, A: K10}
    for t in sorted(set(state.storage[seat])):
        kind = TILE_TYPE[t]
        for space in range(1, SPACES + 1):
            city = board.regions[board.region_of[space]]
            if (estate[space] == EMPTY and board.types[space] == kind
                    and any(estate[n] != EMPTY for n in NEIGHBOURS[space])
                    and not (kind == B and not kmask & K01 and any(estate[c] == t for c in city))
                    and affordable(SPACE_DIE[space], bool(kmask & free_bit.get(kind, K11)))):
                out.append(act.PLACE_ACTIONS[t][space])
    out += [act.SELL_ACTIONS[g] for g in range(1, 7) if state.goods[seat][g] and affordable(g, False)]
    return (*out, act.WORKERS_ACTION)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_die_actions_follow_the_rules_with_and_without_knowledge_tiles(seed: int, players: int) -> None:
    """The engine's die actions (a short path without K01/K08-K12, a general one with them) equal the
    rules written out plainly, for every die value at every turn of a random game; and seats are
    given those knowledge tiles at random, so both paths are checked often."""
    chooser = random.Random(seed)
    state = load_game("burgundy").new_game(players=players, seed=seed)
    checked = knowing = 0
    while not state.is_over:
        seat = state.current_player
        if not state.pending and seat is not None:
            for value in range(1, 7):
                assert state.die_actions(seat, value) == _reference_die_actions(state, seat, value)
                checked += 1
                knowing += bool(state.kmask[seat] & (K01 | K08 | K09 | K10 | K11 | K12))
            # Give or take one after the check, so every seat's first turn is checked without them (the
            # game goes on with it: only legality is checked).
            if chooser.random() < 0.3:
                state.kmask[seat] ^= chooser.choice((K01, K08, K09, K10, K11, K12))
                state._legal = None
        state.apply(chooser.choice(state.legal_actions()))
    assert checked >= 25 * players * 6 and 0 < knowing < checked


def test_the_base_class_apply_plays_the_same_game() -> None:
    """Burgundy's ``apply`` checks and carries out in one method; the contract's route
    (``GameState.apply``: its own check, then the ``_apply`` hook, then the history) plays the very
    same game, by action and by notation."""
    chooser = random.Random(5)
    fast = load_game("burgundy").new_game(players=3, seed=5)
    base = fast.clone()
    steps = 0
    while not fast.is_over:
        action = chooser.choice(fast.legal_actions())
        fast.apply(action)
        GameState.apply(base, action if steps % 2 else action.notation)
        steps += 1
    assert base.history == fast.history and len(fast.history) == steps
    assert base.to_json() == fast.to_json()


@pytest.mark.parametrize("rejected", [None, 0, 7, 23])
def test_round_dice_are_the_generators_draws_even_past_a_rejected_draw(rejected: int | None) -> None:
    """Each round's dice are exactly ``rng.dice(2 * players + 1)`` at that round, although the engine
    draws the whole game's dice at once; also when one draw is rejected (forced here: SplitMix64
    outputs 0 from state 0, which Lemire's method rejects for a die), which shifts every later die."""
    state = load_game("burgundy").new_game(players=2, seed=11)
    gamma = 0x9E3779B97F4A7C15  # SplitMix64's step
    start = 12345 if rejected is None else -(rejected + 1) * gamma % 2**64
    state.rng = Rng.from_state(start)
    state._dice_ahead = None
    reference = Rng.from_state(start)
    for index in range(ROUNDS):
        state.round = index
        state._start_round()
        order = state.order
        assert [*state.dice[order[0]], *state.dice[order[1]], state.white] == reference.dice(5)
        assert state.rng.state == reference.state
