"""The engine's tables give what the rules they were made from give (docs/games/citadels.md, Performance)."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from meeple import load_game
from meeple.bots import RandomBot
from meeple.core.errors import InvalidState
from meeple.core.rng import Rng
from meeple.games.citadels.actions import DESTROY, K_DESTROY, Act
from meeple.games.citadels.data import (
    ARCHITECT,
    DISTRICT_SLUGS,
    DISTRICT_TYPE,
    GREAT_WALL,
    HAUNTED_QUARTER,
    IMPERIAL_TREASURY,
    KEEP,
    KIND_COUNT,
    MAP_ROOM,
    UNIQUE,
    WARLORD,
)
from meeple.games.citadels.events import E_PICKED, E_ROUND
from meeple.games.citadels.observation import CitadelsLens
from meeple.games.citadels.state import _OFFERS, P_OVER, P_TURN, S_PICK, CitadelsState
from tests.games.citadels.helpers import new_state, set_table, start_action_phase


def _plain_destroys(state: CitadelsState, gold: int) -> list[Act]:
    """§2.6 read directly (no Bishop in play here): any district of a city that is not complete, but the
    Keep, whose price the Warlord can pay."""
    return [DESTROY[target][d] for target, city in enumerate(state.cities)
            if len(city) < state.rules.cap for d in city if d != KEEP and state.destroy_cost(target, d) <= gold]


@pytest.mark.parametrize("options", [{}, {"great_wall_self": True}, {"observatory_cost": 5}])
def test_the_warlords_targets_are_the_districts_he_can_pay_for(options: dict[str, object]) -> None:
    # Every district kind in some city, with and without the Great Wall beside it.
    kinds = [d for d in range(KIND_COUNT) if d != GREAT_WALL]
    cities = {seat: [DISTRICT_SLUGS[d] for d in kinds[seat::3]][:6] for seat in range(3)}
    cities[1][-1] = "great_wall"
    rest = [DISTRICT_SLUGS[d] for d in kinds if all(DISTRICT_SLUGS[d] not in c for c in cities.values())]
    seen = 0
    for chunk in range(0, len(rest), 5):
        for walled in (False, True):
            for gold in range(10):
                s = new_state(4, options)
                table = {seat: list(c) for seat, c in cities.items()}
                table[2] = rest[chunk : chunk + 5] + (["great_wall"] if walled else [])
                set_table(s, cities=table, gold={3: gold})
                start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3},
                                   faceup=["bishop", "merchant"], from_character="warlord")
                destroys = [a for a in s.legal_actions() if a.kind == K_DESTROY]
                assert destroys == _plain_destroys(s, gold), (options, chunk, walled, gold)
                seen += len(destroys)
    assert seen


def _plain_breakdown(state: CitadelsState, seat: int) -> dict[str, int]:
    """§3.2 read directly from the city's list of districts."""
    city = state.cities[seat]
    types = {DISTRICT_TYPE[d] for d in city if d != HAUNTED_QUARTER}
    if HAUNTED_QUARTER in city:
        any_type = state.rules.haunted_last_round or state.phase != P_OVER or state.hq_round != state.round_no
        five = len(types) >= 4 if any_type else len(types | {UNIQUE}) == 5
    else:
        five = len(types) == 5
    first = state.first_complete == seat
    return {
        "districts": sum(state.rules.points[d] for d in city),
        "five_types": 3 if five else 0,
        "first_complete": 4 if first else 0,
        "complete": 2 if len(city) >= state.rules.cap and not first else 0,
        "map_room": len(state.hands[seat]) if MAP_ROOM in city else 0,
        "imperial_treasury": state.gold[seat] if IMPERIAL_TREASURY in city else 0,
    }


@pytest.mark.parametrize("haunted_last_round", [True, False])
def test_the_scores_are_the_sums_of_the_rules_items(haunted_last_round: bool) -> None:
    # One district of each type but the unique, three unique ones that score, and the Haunted Quarter:
    # every city of up to 7 of them, in and out of the final round's scoring.
    names = ["manor", "temple", "market", "watchtower", "haunted_quarter", "map_room", "imperial_treasury",
             "school_of_magic"]
    checked = 0
    for size in range(8):
        for city in combinations(names, size):
            s = new_state(4, {"haunted_last_round": haunted_last_round})
            set_table(s, cities={0: list(city), 2: list(city[:2])}, hands={0: ["tavern"] * size}, gold={0: 3})
            s.first_complete = 2 if size == 7 else -1
            for phase, hq_round in ((P_TURN, s.round_no), (P_OVER, s.round_no), (P_OVER, s.round_no - 1)):
                s.phase, s.hq_round = phase, hq_round
                plain = [_plain_breakdown(s, seat) for seat in range(4)]
                assert [s.score_breakdown(seat) for seat in range(4)] == plain, (city, phase, hq_round)
                assert s.scores() == [sum(items.values()) for items in plain], (city, phase, hq_round)
                checked += 1
    assert checked == 3 * 2**8 - 3  # every subset but the one of all 8


def _plain_pick_order(state: CitadelsState) -> list[int]:
    """The round's pickers: those recorded so far, then the script's from the crown."""
    seats = [seat for seat, kind, _ in state.steps if kind == S_PICK]
    crown, n = state.crown, state.players
    return seats + [(crown + offset) % n for offset, kind in state.rules.script[state.draft_idx:] if kind == S_PICK]


def _plain_offered_pools(state: CitadelsState, seat: int) -> list[tuple[tuple[int, ...], int]]:
    """The seat's picks logged since the round began."""
    start = max(i for i, entry in enumerate(state.log) if entry[1] == E_ROUND and entry[0] < 0)
    return [(entry[3], entry[4]) for entry in state.log[start:] if entry[0] == seat and entry[1] == E_PICKED]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_the_lens_reads_the_draft_as_the_state_records_it(players: int) -> None:
    # Every position of a random game, its clone, its JSON form loaded again and a world of each seat's.
    game = load_game("citadels")
    state = new_state(players, seed=players)
    bot = RandomBot(players)
    checked = 0
    while True:
        copies = [state.clone(), game.from_json(state.to_json()),
                  *(state.determinize(seat, Rng(checked + seat)) for seat in range(players))]
        for copy in [state, *copies]:
            assert isinstance(copy, CitadelsState)
            for seat in range(players):
                lens = CitadelsLens(copy, seat)
                assert lens.pick_order == _plain_pick_order(copy)
                assert lens.offered_pools == _plain_offered_pools(copy, seat)
                checked += 1
        if state.is_over:
            break
        state.apply(bot.choose(state))
    assert checked > 1000


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_the_legal_actions_set_by_a_step_are_those_listed_from_scratch(players: int) -> None:
    # A draft step and a keep step set their legal actions as they open (``_legal``); at every position
    # they must be what ``legal_actions`` lists from the state alone, on the state and on a clone; and a
    # clone played on must leave its original's list alone.
    for seed in range(4):
        s = new_state(players, {"preset": "classic_cards"} if seed % 2 else {}, seed=seed * 11 + players)
        chooser = Rng(seed)
        while not s.is_over:
            listed = s.legal_actions()
            fresh = s.clone()
            fresh._legal = None
            assert fresh.legal_actions() == listed, s.history[-3:]
            if len(s.history) % 7 == 0:  # the turn's flags survive the saved form
                restored = load_game("citadels").from_json(s.to_json())
                assert isinstance(restored, CitadelsState)
                assert restored._open == s._open and restored.legal_actions() == listed
            other = s.clone()
            other.apply(listed[chooser.randbelow(len(listed))])
            assert s.legal_actions() is listed
            s.apply(listed[chooser.randbelow(len(listed))])


def test_the_turns_flags_read_and_set_what_it_has_used() -> None:
    s = new_state(4)
    start_action_phase(s, {"assassin": 0, "thief": 1, "king": 2, "warlord": 3}, faceup=["bishop", "merchant"],
                       from_character="warlord")
    set_table(s, cities={3: ["watchtower", "laboratory", "smithy"]}, hands={3: ["temple"]}, gold={3: 9},
              deck=["manor", "tavern", "market"])
    flags = ("tax_used", "power_used", "lab_used", "smithy_used")
    offers = {"tax_used": "tax", "power_used": "destroy:3:watchtower", "lab_used": "lab:temple",
              "smithy_used": "smithy"}
    assert [getattr(s, flag) for flag in flags] == [False] * 4
    for flag in flags:
        assert offers[flag] in [str(a) for a in s.legal_actions()]
        setattr(s, flag, True)
        s._legal = None
        assert getattr(s, flag) and offers[flag] not in [str(a) for a in s.legal_actions()]
        assert [getattr(s, f) for f in flags if f != flag] == [f in flags[:flags.index(flag)] for f in flags
                                                              if f != flag]
    for flag in flags:
        setattr(s, flag, False)
    s._legal = None
    assert s._open == _OFFERS[WARLORD]
    s.apply("tax")
    assert s.tax_used and not s.power_used and s.to_json()["body"]["tax_used"] is True


def test_a_saved_flag_the_character_cannot_have_is_refused() -> None:
    s = new_state(4, seed=3)
    chooser = Rng(3)
    while not (s.phase == P_TURN and s.rank == ARCHITECT):
        listed = s.legal_actions()
        s.apply(listed[chooser.randbelow(len(listed))])
    data = s.to_json()
    assert load_game("citadels").from_json(data).to_json() == data
    for flag in ("power_used", "tax_used"):  # the Architect has no power and levies no tax
        bad = json.loads(json.dumps(data))
        bad["body"][flag] = True
        with pytest.raises(InvalidState, match=flag):
            load_game("citadels").from_json(bad)
