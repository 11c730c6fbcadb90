"""The shared conformance suite on Palais Royal, with the game's own invariants (rules reference §2.8, §7)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.contract import GameState
from meeple.games.palais_royal.data import CARD_CODES, components
from meeple.games.palais_royal.state import PalaisRoyalState
from tests.conformance import play_and_check


def invariants(state: GameState[Any]) -> None:
    """§2.8: 25 servants per colour, 36 nobles in play, 36 cards, all gold accounted for, nothing negative."""
    assert isinstance(state, PalaisRoyalState)
    comps = components()
    for p in range(state.players):
        assert min(state.rooms[p]) >= 0 and state.pool[p] >= 0 and state.supply[p] >= 0
        servants = state.pool[p] + sum(state.rooms[p]) + state.supply[p] + state.garden_servants.count(p)
        assert servants == comps.servants_per_colour == 25, f"seat {p} has {servants} servants"
        assert state.gold[p] >= 0
        assert min(state.hands[p]) >= 0
    assert state.bank + sum(state.gold) == comps.gold_total == 57, "gold not accounted for"
    in_play = [t for t in state.garden if t >= 0] + [t for owned in state.owned for t in owned]
    assert len(in_play) == len(set(in_play)) == 36
    assert state.garden_left == sum(1 for t in state.garden if t >= 0)
    cards = (len(state.deck) + len(state.discard) + len(state.drawn)
             + sum(map(sum, state.hands)) + sum(map(sum, state.front)))
    assert cards == comps.card_total == 36
    for q, owner in enumerate(state.garden_servants):
        if owner >= 0:
            assert state.garden[q] < 0 and state.rules.is_edge[q]


def view_check(state: GameState[Any], seat: int | None, view: dict[str, Any]) -> None:
    """§7: a seat sees its own hand and draw only; no view holds the deck order, the box or others' hands."""
    assert isinstance(state, PalaisRoyalState)
    text = json.dumps(view)
    assert '"deck":' not in text and "boxed" not in text
    for noble in state.boxed:
        assert state.rules.noble_ids[noble] not in view["noble_data"]
    if seat is None:
        assert view["hand"] is None and view["private_log"] == []
    else:
        assert view["hand"] == {CARD_CODES[k]: c for k, c in enumerate(state.hands[seat]) if c}
        assert all(event["seat"] == seat for event in view["private_log"])
    assert all(event["event"] not in ("drew", "kept") for event in view["log"])
    pending = view["pending"]
    if pending is not None and pending["kind"] == "keep":
        assert ("cards" in pending) == (seat == state.seat)


def determinize_check(state: GameState[Any], sampled: GameState[Any], seat: int) -> None:
    """The seat's own cards stay; everything it cannot see keeps its counts and really is resampled."""
    assert isinstance(state, PalaisRoyalState) and isinstance(sampled, PalaisRoyalState)
    assert sampled.hands[seat] == state.hands[seat]
    assert [sum(h) for h in sampled.hands] == [sum(h) for h in state.hands]
    assert len(sampled.deck) == len(state.deck)
    invariants(sampled)

    def unseen(s: PalaisRoyalState) -> list[int]:
        others = [p for p in range(s.players) if p != seat]
        cards = list(s.deck) + [k for p in others for k in range(9) for _ in range(s.hands[p][k])]
        return cards + (list(s.drawn) if s.seat != seat else [])

    pool = unseen(state)
    if seat == 0 and len(set(pool)) > 1:
        layouts = {tuple(unseen(state.determinize(seat, salt))) for salt in range(4)}
        assert len(layouts) > 1, "determinize never changes the unseen cards"


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_hold_the_contract(players: int, seed: int) -> None:
    """Random games cut at round 12 (a random player rarely recruits, so long games add little)."""
    play_and_check("palais_royal", players, seed, options={"round_limit": 12}, invariants=invariants,
                   view_check=view_check, determinize_check=determinize_check, deep_every=17)


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(min_value=0, max_value=2**32))
def test_short_games_with_variant_options_hold_the_contract(players: int, seed: int) -> None:
    """A quick end trigger and the variant options exercise the last round and scoring often."""
    options = {"end_trigger_nobles": 35, "privilege_activation": "immediate", "gold_limited": True,
               "discard_public": False, "initial_placement": "free_10", "step3_order": "fixed",
               "layout": "first_game", "start_seat": "random", "edge_tie": "demote"}
    play_and_check("palais_royal", players, seed, options=options, invariants=invariants,
                   view_check=view_check, determinize_check=determinize_check, deep_every=11)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_games_with_default_options_hold_the_contract(players: int) -> None:
    """Every player count plays at least one whole game with the default options."""
    play_and_check("palais_royal", players, 1000 + players, invariants=invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=89)
