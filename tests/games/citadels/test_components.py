"""Component totals against the rulebook (§1.1, §1.3, §1.4) and the option table (§4.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from meeple import InvalidOptions, load_game
from meeple.games.citadels.data import (
    CHARACTER_SLUGS,
    DISTRICT_SLUGS,
    DISTRICT_TYPE,
    DISTRICTS,
    TYPE_SLUGS,
    deck_kinds,
    printed_costs,
)
from meeple.games.citadels.state import CitadelsState


def test_classic_deck_has_68_cards_with_the_reference_totals() -> None:
    deck = deck_kinds("classic68")
    cost = printed_costs(4)
    assert len(deck) == 68 and sum(cost[d] for d in deck) == 219
    by_type = Counter(TYPE_SLUGS[DISTRICT_TYPE[d]] for d in deck)
    assert by_type == {"noble": 12, "religious": 11, "trade": 20, "military": 11, "unique": 14}
    sums: Counter[str] = Counter()
    for d in deck:
        sums[TYPE_SLUGS[DISTRICT_TYPE[d]]] += cost[d]
    assert sums == {"noble": 46, "religious": 28, "trade": 50, "military": 28, "unique": 67}
    uniques = [d for d in deck if TYPE_SLUGS[DISTRICT_TYPE[d]] == "unique"]
    assert len(set(uniques)) == 13 and Counter(DISTRICT_SLUGS[d] for d in uniques)["keep"] == 2
    assert len([d for d in deck if DISTRICT_TYPE[d] != 4]) == 54


@pytest.mark.parametrize(("preset", "size", "missing"), [
    ("ffg66", 66, {"map_room", "imperial_treasury"}),
    ("original65", 65, {"map_room", "imperial_treasury", "great_wall"}),
])
def test_deck_presets(preset: str, size: int, missing: set[str]) -> None:
    deck = deck_kinds(preset)
    assert len(deck) == size
    assert {DISTRICT_SLUGS[d] for d in deck} == set(DISTRICT_SLUGS) - missing


def test_eight_characters_in_rank_order() -> None:
    assert CHARACTER_SLUGS == ("assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")


def test_district_table_names_are_unique_slugs() -> None:
    assert len({d[0] for d in DISTRICTS}) == len(DISTRICTS) == 30


def test_setup_deals_four_cards_and_two_gold() -> None:
    for players in range(2, 8):
        state = load_game("citadels").new_game(players=players, seed=players)
        assert isinstance(state, CitadelsState)
        assert all(len(h) == 4 for h in state.hands) and state.gold == [2] * players
        assert len(state.deck) == 68 - 4 * players
        assert state.crown == 0


def test_options_defaults_and_presets() -> None:
    game = load_game("citadels")
    assert game.option_set.defaults() == {
        "deck": "classic68", "complete_at": None, "classic_variant": False, "overbuild": False,
        "observatory_cost": 4, "laboratory_gold": 1, "smithy": "3:2", "library": "plus_one",
        "haunted_last_round": True, "great_wall_self": False, "bonus_timing": "start", "tie_break": "rank",
        "first_crown": "seat0", "max_rounds": None,
    }
    assert set(game.presets) == {"classic", "classic_cards", "original"}
    assert game.resolve_options({"preset": "classic_cards"}, 4)["library"] == "keep_all"
    with pytest.raises(InvalidOptions):
        game.new_game(players=4, seed=1, options={"classic_variant": True, "complete_at": 7})
    with pytest.raises(InvalidOptions):
        game.new_game(players=8, seed=1)
    with pytest.raises(InvalidOptions):
        game.new_game(players=4, seed=1, options={"smithy": "9:9"})


def test_random_first_crown_option() -> None:
    game = load_game("citadels")
    crowns = {game.new_game(players=5, seed=s, options={"first_crown": "random"}).crown for s in range(40)}
    assert len(crowns) > 1
