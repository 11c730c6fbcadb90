"""§7 hidden information: ``determinize(seat)`` keeps every fact the seat has seen and resamples the rest.

The facts beyond a seat's own hand are about where cards went after it saw them: a deck reshuffled from
the face-up discard pile is made of exactly those cards (§2.5, E13), and with ``discard_public=false`` the
face-down pile still holds every card played into it in front of everybody, and the cards a seat refused
there itself.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.games.palais_royal.data import CARD_CODES
from meeple.games.palais_royal.rules import CARD_INDEX
from meeple.games.palais_royal.state import PalaisRoyalState
from tests.games.palais_royal.helpers import give_card, play, put, table, to_step

R, B, G = 0, 1, 2
SAMPLES = 30


def cards(*codes: str) -> Counter[int]:
    return Counter(CARD_INDEX[c] for c in codes)


def worlds(state: PalaisRoyalState, seat: int | None) -> list[PalaisRoyalState]:
    out = []
    for salt in range(SAMPLES):
        world = state.determinize(seat, salt)
        assert world.view(seat) == state.view(seat)
        out.append(world)
    return out


def _reshuffled(**options: Any) -> tuple[PalaisRoyalState, Counter[int]]:
    """Seat R draws 2 with one card left in the deck: the discard pile (4 PURSE, 1 TIE) becomes the deck."""
    state = table(3, **options)
    put(state, R, BAC=2)
    pile = ["PURSE"] * 4 + ["TIE"]
    for code in pile:
        state.deck.remove(CARD_INDEX[code])
    state.discard = [CARD_INDEX[c] for c in pile]
    last = state.deck.pop()
    while state.deck:  # every other card into the other hands
        state.hands[B if len(state.deck) % 2 else G][state.deck.pop()] += 1
    state.deck = [last]
    to_step(state, 5)
    play(state, "draw")
    assert len(state.drawn) == 2 and len(state.deck) == 4 and not state.discard
    return state, cards(*pile)


def test_7_a_deck_reshuffled_from_the_public_discard_pile_holds_exactly_those_cards() -> None:
    state, pile = _reshuffled()
    for seat in (B, G, None):
        orders = set()
        for world in worlds(state, seat):
            assert not Counter(world.deck) - pile, "the new deck holds a card that was not in the discard pile"
            assert not pile - Counter(world.deck) - Counter(world.drawn)
            orders.add(tuple(world.deck) + tuple(world.drawn))
        assert len(orders) > 1
    play(state, f"keep:{CARD_CODES[state.drawn[-1]]}", "end")
    for seat in (B, G, None):  # the kept card is in R's hand or still in the deck: the deck is from the pile
        for world in worlds(state, seat):
            assert not Counter(world.deck) - pile


def test_7_a_face_down_discard_pile_keeps_the_cards_played_into_it() -> None:
    state = table(2, discard_public=False)
    give_card(state, R, "PURSE")
    to_step(state, 3)
    play(state, "play:PURSE")
    for seat in (B, None):
        for world in worlds(state, seat):
            assert CARD_INDEX["PURSE"] in world.discard


def test_7_a_face_down_discard_pile_keeps_the_cards_a_seat_refused_for_that_seat_only() -> None:
    state = table(2, discard_public=False)
    put(state, R, BAC=2)
    to_step(state, 5)
    play(state, "draw")
    refused = list(state.drawn)
    play(state, "end")
    assert sorted(state.discard) == sorted(refused)
    for world in worlds(state, R):
        assert sorted(world.discard) == sorted(refused)
    assert len({tuple(sorted(w.discard)) for w in worlds(state, B)}) > 1


def test_7_a_deck_reshuffled_from_a_face_down_pile_holds_the_cards_played_into_it() -> None:
    """The pile was face down, but the PURSE played into it in front of everybody is now in the deck (or
    in the draw that reshuffled it)."""
    state = table(3, discard_public=False)
    put(state, R, BAC=2)
    purse = CARD_INDEX["PURSE"]
    for _ in range(4):
        state.deck.remove(purse)
    state.hands[R][purse] = 1
    state.hands[B][purse] = 3  # seat B sees the other three copies
    state.discard = [state.deck.pop() for _ in range(4)]
    last = state.deck.pop()
    while state.deck:
        state.hands[G][state.deck.pop()] += 1
    state.deck = [last]
    to_step(state, 3)
    play(state, "play:PURSE")
    to_step(state, 5)
    play(state, "draw")
    assert len(state.deck) == 4 and not state.discard
    for world in worlds(state, B):
        assert purse in world.deck + world.drawn


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4),
       public=st.booleans())
def test_7_determinize_keeps_what_each_seat_knows_over_random_games(seed: int, players: int, public: bool) -> None:
    state = load_game("palais_royal").new_game(players=players, seed=seed, options={"discard_public": public})
    assert isinstance(state, PalaisRoyalState)
    chooser = random.Random(seed)
    step = 0
    while not state.is_over:
        if step % 13 == 0:
            for seat in [*range(players), None]:
                world = state.determinize(seat, step)
                assert world.view(seat) == state.view(seat)
                world.load_body(world.dump_body())  # the saved form's card and knowledge checks
        state.apply(chooser.choice(state.legal_actions()))
        step += 1
