"""The engine's tables give what the rules they were made from give (docs/games/citadels.md, Performance)."""

from __future__ import annotations

import pytest

from meeple.games.citadels.actions import DESTROY, K_DESTROY, Act
from meeple.games.citadels.data import DISTRICT_SLUGS, GREAT_WALL, KEEP, KIND_COUNT
from meeple.games.citadels.state import CitadelsState
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
