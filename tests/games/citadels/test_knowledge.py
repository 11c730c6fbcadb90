"""§6 hidden information: ``determinize(seat)`` keeps every fact the seat has seen and resamples the rest.

Each test builds a position through one event that shows cards to some seats (a Magician swap, a
Graveyard take or pass, a destroy, draw rejects, Laboratory and redraw discards, a draw that reaches
known cards), then checks many determinizations: the seats that saw keep the fact in every one of them,
the seats that did not see it get it resampled.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.games.card_knowledge import Record, empty_record
from meeple.games.citadels.data import deck_kinds
from meeple.games.citadels.state import DRAWN, LOCATIONS, P_OVER, CitadelsState
from tests.games.citadels.helpers import k, names, new_state, play, set_table, start_action_phase
from tests.games.citadels.test_conformance import citadels_invariants

SAMPLES = 40
#: A deck with none of the cards dealt by hand in these tests, so "this card is in that hand" is crisp.
DECK = ["castle", "palace", "cathedral", "harbor", "docks", "barracks", "fortress", "church", "monastery",
        "town_hall", "trading_post", "watchtower", "prison", "tavern"] * 2


def worlds(state: CitadelsState, seat: int | None, count: int = SAMPLES) -> list[CitadelsState]:
    """Determinizations of ``state`` for ``seat``, each checked to show the seat exactly what it sees."""
    view = state.view(seat)
    out = []
    for salt in range(count):
        world = state.determinize(seat, salt)
        assert world.view(seat) == view
        out.append(world)
    return out


def always(state: CitadelsState, seat: int | None, fact: Callable[[CitadelsState], Any]) -> None:
    """``fact`` holds in the real state and in every determinization for ``seat``."""
    assert fact(state)
    for world in worlds(state, seat):
        assert fact(world), f"seat {seat} forgot a fact it saw"


def varies(state: CitadelsState, seat: int | None, part: Callable[[CitadelsState], Any]) -> None:
    """``part`` of the state is resampled for ``seat``: it takes more than one value over the determinizations."""
    seen = {json.dumps(part(world)) for world in worlds(state, seat)}
    assert len(seen) > 1, f"seat {seat} keeps fixed something it did not see"


def hand(seat: int) -> Callable[[CitadelsState], list[str]]:
    return lambda s: sorted(names(s.hands[seat]))


def bottom(count: int) -> Callable[[CitadelsState], list[str]]:
    return lambda s: names(s.deck[-count:])


def _swapped(whole_deck: bool = False) -> CitadelsState:
    """Seat 0, the Magician, swaps its temple+manor for seat 1's market+prison+keep; ``whole_deck`` puts the
    rest of the 68 cards under ``DECK`` (a position the saved form accepts)."""
    s = new_state(4)
    hands = {0: ["temple", "manor"], 1: ["market", "prison", "keep"], 2: ["smithy"], 3: ["library"]}
    deck = list(DECK)
    if whole_deck:
        rest = Counter(names(deck_kinds("classic68"))) - Counter(deck + [c for h in hands.values() for c in h])
        deck += sorted(rest.elements())
    set_table(s, hands=hands, gold={0: 5, 1: 9}, deck=deck)
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    play(s, "swap:1")
    return s


# --- the Magician's swap ------------------------------------------------------------------------------


def test_6_magician_swap_both_players_know_both_hands() -> None:
    s = _swapped()
    always(s, 0, lambda w: hand(1)(w) == ["manor", "temple"])  # what it gave
    always(s, 1, lambda w: hand(0)(w) == ["keep", "market", "prison"])  # what it gave
    varies(s, 2, hand(0))  # a third seat saw only the counts
    varies(s, 2, hand(1))
    varies(s, None, hand(1))


def test_6_after_a_swap_builds_leave_and_unseen_draws_join_the_known_hand() -> None:
    s = _swapped()
    play(s, "gold", "end")  # seat 1, the King, now holds temple + manor
    play(s, "draw")
    kept = s.drawn[0]
    play(s, f"keep:{names([kept])[0]}", "build:manor")
    assert names(s.hands[1]) == ["temple", names([kept])[0]]
    always(s, 0, lambda w: "temple" in hand(1)(w) and "manor" not in hand(1)(w) and len(w.hands[1]) == 2)
    varies(s, 0, hand(1))  # the card it drew unseen
    always(s, 1, lambda w: bottom(1)(w) == names(s.deck[-1:]))  # its own reject, at the bottom
    varies(s, 0, bottom(1))  # another seat's reject stays random to seat 0


def test_6_swap_knowledge_survives_the_saved_form_and_stays_out_of_other_views() -> None:
    s = _swapped(whole_deck=True)
    data = json.loads(json.dumps(s.to_json()))
    restored = load_game("citadels").from_json(data)
    assert isinstance(restored, CitadelsState)
    assert restored.to_json() == data
    always(restored, 0, lambda w: hand(1)(w) == ["manor", "temple"])
    for seat in (2, 3, None):  # what seats 0 and 1 know is not in another seat's view or determinization
        assert s.view(seat) == restored.view(seat)
        world = s.determinize(seat, 1)
        assert world.knowledge[0] == world.knowledge[1] == empty_record(LOCATIONS)


def test_6_an_unseen_discard_from_a_known_hand_keeps_the_cards_between_hand_and_deck_bottom() -> None:
    s = _swapped()
    s.cities[1] = [k("laboratory")]
    s.masks[1] = 1 << k("laboratory")
    play(s, "gold", "end", "lab:temple")  # seat 1 discards one of the two cards seat 0 gave it
    both = ["manor", "temple"]
    always(s, 0, lambda w: sorted(names(w.hands[1] + w.deck[-1:])) == both)
    varies(s, 0, bottom(1))  # which one went under is unseen by seat 0
    always(s, 1, lambda w: bottom(1)(w) == ["temple"])
    varies(s, 2, lambda w: sorted(names(w.hands[1] + w.deck[-1:])))
    play(s, "draw", "keep:castle")  # an unseen card joins the hand; the palace goes under the temple
    always(s, 0, lambda w: names(w.deck[-2:-1])[0] in both and set(both) <= set(names(w.hands[1] + w.deck[-2:-1])))
    varies(s, 0, lambda w: names(w.deck[-2:-1]))


# --- the Graveyard and destroyed districts (public) ---------------------------------------------------


def _destroyed(owner_gold: int) -> CitadelsState:
    s = new_state(4)
    set_table(s, cities={0: ["market"], 1: ["graveyard"]}, hands={0: ["temple"], 1: ["manor"], 2: ["keep"]},
              gold={1: owner_gold, 3: 3}, deck=list(DECK))
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    play(s, "destroy:0:market")
    return s


def test_6_a_graveyard_take_is_public() -> None:
    s = _destroyed(owner_gold=2)
    play(s, "graveyard:take")
    for seat in (0, 2, 3, None):
        always(s, seat, lambda w: "market" in hand(1)(w))
        varies(s, seat, hand(1))  # its other card stays hidden


def test_6_a_graveyard_pass_and_a_destroy_without_prompt_put_a_public_card_under_the_deck() -> None:
    for s in (_destroyed(owner_gold=2), _destroyed(owner_gold=0)):
        if s.grave_card >= 0:
            play(s, "graveyard:pass")
        for seat in (0, 1, 2, 3, None):
            always(s, seat, lambda w: bottom(1)(w) == ["market"])
            varies(s, seat, lambda w: names(w.deck[:3]))


# --- cards put under the deck by one seat ---------------------------------------------------------------


def test_6_draw_rejects_are_at_the_bottom_in_order_for_the_drawer_only() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["observatory"]}, deck=list(DECK))
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "draw", "keep:palace")  # drew castle, palace, cathedral; castle and cathedral go under, in order
    assert names(s.deck[-2:]) == ["castle", "cathedral"]
    always(s, 0, lambda w: bottom(2)(w) == ["castle", "cathedral"])
    for seat in (1, 2, 3, None):
        varies(s, seat, bottom(2))
    play(s, "end", "draw", "keep:harbor")  # seat 1's rejects go below seat 0's
    always(s, 0, lambda w: names(w.deck[-3:-1]) == ["castle", "cathedral"])
    always(s, 1, lambda w: bottom(1)(w) == ["docks"])
    varies(s, 0, bottom(1))


def test_6_laboratory_and_redraw_discards_are_at_the_bottom_for_their_owner_only() -> None:
    s = new_state(4)
    set_table(s, cities={0: ["laboratory"]}, hands={0: ["temple", "manor", "keep", "smithy"]}, deck=list(DECK))
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    play(s, "lab:smithy", "redraw:keep", "redraw:temple", "redraw:done")
    assert names(s.deck[-3:]) == ["smithy", "keep", "temple"]
    always(s, 0, lambda w: bottom(3)(w) == ["smithy", "keep", "temple"])
    for seat in (1, None):
        varies(s, seat, bottom(3))


def test_6_a_known_card_drawn_by_another_seat_is_known_in_its_hand() -> None:
    s = new_state(4)
    set_table(s, hands={1: ["temple"], 2: ["manor"]}, deck=["castle", "palace", "docks"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "architect": 3}, from_character="king")
    play(s, "draw", "keep:palace", "end")  # seat 0 puts the castle under the docks
    play(s, "gold", "end", "gold", "end")  # the Architect (seat 3) draws docks and castle
    assert names(s.hands[3]) == ["docks", "castle"]
    always(s, 0, lambda w: "castle" in hand(3)(w))


def test_6_known_cards_drawn_and_partly_put_back_stay_between_hand_and_bottom() -> None:
    s = new_state(4)
    set_table(s, deck=["castle", "palace", "docks"])
    start_action_phase(s, {"king": 0, "bishop": 1, "merchant": 2, "warlord": 3}, from_character="king")
    play(s, "draw", "keep:palace", "end")  # deck: docks, castle (seat 0 knows the castle is last)
    play(s, "draw", "keep:docks")  # seat 1 draws docks + castle, keeps the docks, the castle goes back
    assert names(s.deck) == ["castle"] and names(s.hands[1]) == ["docks"]
    always(s, 0, lambda w: sorted(names(w.hands[1] + w.deck)) == ["castle", "docks"])
    varies(s, 0, lambda w: names(w.deck))
    always(s, 1, lambda w: names(w.deck) == ["castle"])


# --- properties over random games -------------------------------------------------------------------------


def _sound(state: CitadelsState, record: Record) -> None:
    """Every fact of ``record`` is true of ``state`` (locations: the hands, then ``DRAWN``)."""
    known, facts, groups = record
    contents = [Counter(h) for h in state.hands] + [Counter()] * (DRAWN - state.players) + [Counter(state.drawn)]
    for loc, cards in enumerate(known):
        assert not Counter(cards) - contents[loc], f"location {loc} does not hold {names(cards)}"
    for position, card in facts:
        assert state.deck[position - state.deck_top] == card
    for loc in range(LOCATIONS):
        slots = len(known[loc]) + sum(g[1][loc] for g in groups)
        assert slots <= contents[loc].total(), f"location {loc} has more known slots than cards"
    for cards, slots_by_location, positions in groups:
        places: Counter[int] = Counter(state.deck[p - state.deck_top] for p in positions)
        for loc, slots in enumerate(slots_by_location):
            if slots:
                places.update(contents[loc] - Counter(known[loc]))
        assert not Counter(cards) - places, "a group's known cards are not in its places"


OPTIONS = [{}, {"preset": "classic_cards"}, {"preset": "original"}, {"deck": "ffg66", "bonus_timing": "after_gather"}]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=7),
       options=st.sampled_from(OPTIONS))
def test_6_determinize_keeps_what_each_seat_knows_over_random_games(seed: int, players: int,
                                                                     options: dict[str, Any]) -> None:
    state = load_game("citadels").new_game(players=players, seed=seed, options=options)
    assert isinstance(state, CitadelsState)
    chooser = random.Random(seed)
    step = 0
    while True:
        if step % 23 == 0 or state.phase == P_OVER:
            for me, record in enumerate(state.knowledge):
                _sound(state, record)
                seat = None if me == players else me
                for salt in range(2):
                    world = state.determinize(seat, salt * 7 + step)
                    assert world.view(seat) == state.view(seat)
                    citadels_invariants(world)
                    assert world.knowledge[me] == record
                    _sound(world, record)
            data = json.loads(json.dumps(state.to_json()))
            assert load_game("citadels").from_json(data).to_json() == data
        if state.is_over:
            break
        state.apply(chooser.choice(state.legal_actions()))
        step += 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=7),
       options=st.sampled_from(OPTIONS))
def test_6_records_brought_up_to_date_late_are_those_kept_up_to_date(seed: int, players: int,
                                                                     options: dict[str, Any]) -> None:
    """The knowledge records are updated only when read (the events wait in the state): a game whose
    records are read after every action and the same game read only now and then (and a copy taken
    with events waiting) hold the same records and save the same."""
    game = load_game("citadels")
    eager = game.new_game(players=players, seed=seed, options=options)
    lazy = game.new_game(players=players, seed=seed, options=options)
    assert isinstance(eager, CitadelsState) and isinstance(lazy, CitadelsState)
    chooser = random.Random(seed)
    copies: list[tuple[CitadelsState, list[Record]]] = []
    step = waited = 0
    while not eager.is_over:
        action = chooser.choice(eager.legal_actions())
        assert lazy.legal_actions() == eager.legal_actions()
        eager.apply(action)
        lazy.apply(action)
        records = list(eager.knowledge)
        step += 1
        if step % 17 == 0:
            waited += bool(lazy._pending)
            copies.append((lazy.clone(), records))
        if step % 41 == 0:
            assert lazy.knowledge == records
    assert waited  # some copies were taken with events still waiting
    assert lazy.to_json() == eager.to_json()
    for copy, records in copies:
        assert copy.knowledge == records
