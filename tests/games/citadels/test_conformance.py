"""The shared conformance suite at every player count, with Citadels' own invariants (reference §7.4, §6)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.contract import GameState
from meeple.games.citadels.data import CHARACTER_SLUGS, DISTRICT_SLUGS, deck_kinds
from meeple.games.citadels.state import P_KEEP, P_OVER, P_REDRAW, CitadelsState
from tests.conformance import play_and_check


def citadels_invariants(state: GameState[Any]) -> None:
    assert isinstance(state, CitadelsState)
    cards = Counter(state.deck)
    for group in (*state.hands, *state.cities, state.drawn):
        cards.update(group)
    if state.grave_card >= 0:
        cards[state.grave_card] += 1
    expected = Counter(deck_kinds(state.rules.deck_preset))
    assert cards == expected, "district cards are not conserved"
    assert sum(cards.values()) in (65, 66, 68)
    held = [c for c in range(8) if state.holder[c] >= 0]
    placed = [*state.faceup, *state.facedown, *held, *state.pool] + ([state.reserved] if state.reserved >= 0 else [])
    assert sorted(placed) == list(range(8)), "face-up + face-down + held (+ in the draft) must be the 8 characters"
    if state.phase >= 2:
        assert not state.pool and len(state.faceup) + len(state.facedown) + len(held) == 8
    for city in state.cities:
        assert len(set(city)) == len(city), "a city holds a duplicate name"
        assert len(city) <= state.rules.cap, "a city is over the completion size"
    assert all(g >= 0 for g in state.gold), "negative gold"


def _lists_under_key(data: Any, key: str) -> list[Any]:
    """Every list stored under ``key`` anywhere in a JSON value."""
    found: list[Any] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key and isinstance(v, list):
                found.append(v)
            found.extend(_lists_under_key(v, key))
    elif isinstance(data, list):
        for item in data:
            found.extend(_lists_under_key(item, key))
    return found


def view_check(state: GameState[Any], seat: int | None, view: dict[str, Any]) -> None:
    """A view holds no other seat's hand, no unseen face-down character, no deck order (§6)."""
    assert isinstance(state, CitadelsState)
    over = state.phase == P_OVER
    if seat is None:
        assert view["hand"] is None
        assert view["private_log"] == []
    else:
        assert view["hand"] == [DISTRICT_SLUGS[d] for d in state.hands[seat]]
    assert not _lists_under_key(view, "deck"), "the deck order must never be shown"
    secret_fields = {"cards", "kept", "bottom", "gave", "got", "discarded", "drawn", "characters", "offered"}
    for entry in view["log"]:
        assert not secret_fields & set(entry) or entry["event"] == "face_up_discards", (
            f"a public log entry shows secret cards: {entry}"
        )
    for entry in view["private_log"]:
        assert entry.get("seat") == seat, f"another seat's private event {entry}"
    seen = set(view["characters"]["face_down_seen"])
    assert seen == {CHARACTER_SLUGS[c] for c in state.seen_face_down(seat)} if seat is not None else not seen
    if not over:
        # An unseen face-down character is named nowhere in the characters block (unless named aloud
        # by the Assassin or the Thief, who may name a character nobody holds).
        named = {view["characters"]["murdered"], view["characters"]["robbed"]}
        unseen = {CHARACTER_SLUGS[c] for c in state.facedown} - seen - named
        if state.reserved >= 0:
            unseen.add(CHARACTER_SLUGS[state.reserved])
        block = json.dumps(view["characters"])
        assert not any(f'"{name}"' in block for name in unseen), (unseen, block)
        assert "final" not in view
        mine = set(view["characters"]["mine"])
        owned = {CHARACTER_SLUGS[c] for c in range(8) if seat is not None and state.holder[c] == seat}
        assert mine == owned
        for name, holder in view["characters"]["revealed"].items():
            assert state.revealed >> CHARACTER_SLUGS.index(name) & 1 and holder == state.holder[
                CHARACTER_SLUGS.index(name)]
        pending = view["pending"]
        if pending and pending["seat"] != seat:
            assert "offered" not in pending and "drawn" not in pending and "marked" not in pending
        if pending and pending["kind"] in ("keep", "redraw") and pending["seat"] == seat:
            if state.phase == P_KEEP:
                assert pending["drawn"] == [DISTRICT_SLUGS[d] for d in state.drawn]
            if state.phase == P_REDRAW:
                assert pending["marked"] == [DISTRICT_SLUGS[d] for d in state.marked]


def determinize_check(state: GameState[Any], sampled: GameState[Any], seat: int) -> None:
    """Everything seat saw is kept; what it did not see is resampled, at least sometimes (checked below)."""
    assert isinstance(state, CitadelsState) and isinstance(sampled, CitadelsState)
    citadels_invariants(sampled)
    assert sampled.hands[seat] == state.hands[seat]
    assert sampled.cities == state.cities and sampled.gold == state.gold
    assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
    assert len(sampled.deck) == len(state.deck)
    for c in range(8):
        if state.holder[c] == seat or state.revealed >> c & 1:
            assert sampled.holder[c] == state.holder[c]
    assert sampled.faceup == state.faceup
    assert set(sampled.seen_face_down(seat)) == set(state.seen_face_down(seat))
    hidden = Counter(state.deck)
    for t, hand in enumerate(state.hands):
        if t != seat:
            hidden.update(hand)
    if state.phase != P_OVER and len(hidden) >= 2:
        # a few more samples: other hands + deck are a different arrangement in at least one of them
        arrangements = {json.dumps([sampled.hands, sampled.deck]), json.dumps([state.hands, state.deck])}
        for k in range(3):
            if len(arrangements) > 1:
                break
            again = state.determinize(seat, 1000 + k)
            arrangements.add(json.dumps([again.hands, again.deck]))
        assert len(arrangements) > 1, "determinize never resamples the hidden cards"


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_conformance_2_players(seed: int) -> None:
    play_and_check("citadels", 2, seed, invariants=citadels_invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=37)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_conformance_3_players(seed: int) -> None:
    play_and_check("citadels", 3, seed, invariants=citadels_invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=37)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_conformance_4_players(seed: int) -> None:
    play_and_check("citadels", 4, seed, invariants=citadels_invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=37)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_conformance_5_players(seed: int) -> None:
    play_and_check("citadels", 5, seed, invariants=citadels_invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=37)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_conformance_6_players(seed: int) -> None:
    play_and_check("citadels", 6, seed, invariants=citadels_invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=37)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_conformance_7_players(seed: int) -> None:
    play_and_check("citadels", 7, seed, invariants=citadels_invariants, view_check=view_check,
                   determinize_check=determinize_check, deep_every=37)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40),
       preset=st.sampled_from(["classic_cards", "original"]),
       players=st.integers(min_value=2, max_value=7))
def test_conformance_presets(seed: int, preset: str, players: int) -> None:
    play_and_check("citadels", players, seed, options={"preset": preset}, invariants=citadels_invariants,
                   view_check=view_check, determinize_check=determinize_check, deep_every=37)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), players=st.integers(min_value=2, max_value=7))
def test_conformance_other_options(seed: int, players: int) -> None:
    options = {"deck": "ffg66", "bonus_timing": "after_gather", "tie_break": "ffg", "first_crown": "random",
               "haunted_last_round": False, "great_wall_self": True, "max_rounds": 6}
    play_and_check("citadels", players, seed, options=options, invariants=citadels_invariants,
                   view_check=view_check, determinize_check=determinize_check, deep_every=37)
