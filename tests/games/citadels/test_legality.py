"""legal_actions against a slow, independent reading of the turn table (§2.3, §2.4, §2.6, §7.2)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple.games.citadels.data import (
    CHARACTER_SLUGS,
    CHARACTER_TAX,
    DISTRICT_SLUGS,
    DISTRICT_TYPE,
)
from meeple.games.citadels.state import P_DISCARD, P_GRAVE, P_KEEP, P_PICK, P_REDRAW, P_TURN, CitadelsState
from tests.games.citadels.helpers import new_state


def reference_actions(s: CitadelsState) -> set[str]:
    """What §2.3's decision table allows, written plainly with strings and sets."""
    rules = s.rules
    if s.phase in (P_PICK, P_DISCARD):
        verb = "pick" if s.phase == P_PICK else "discard"
        return {f"{verb}:{CHARACTER_SLUGS[c]}" for c in s.pool}
    if s.phase == P_KEEP:
        return {f"keep:{DISTRICT_SLUGS[d]}" for d in s.drawn}
    if s.phase == P_GRAVE:
        return {"graveyard:take", "graveyard:pass"}
    seat = s.cur
    hand = [DISTRICT_SLUGS[d] for d in s.hands[seat]]
    if s.phase == P_REDRAW:
        unmarked = list(hand)
        for d in s.marked:
            unmarked.remove(DISTRICT_SLUGS[d])
        return {f"redraw:{d}" for d in unmarked} | {"redraw:done"}
    assert s.phase == P_TURN
    city = [DISTRICT_SLUGS[d] for d in s.cities[seat]]
    gold = s.gold[seat]
    character = CHARACTER_SLUGS[s.rank]
    cost = {DISTRICT_SLUGS[d]: c for d, c in enumerate(rules.cost)}
    out: set[str] = set()
    if not s.gathered:
        out.add("gold")
        if s.deck:
            out.add("draw")
    else:
        out.add("end")
        if s.builds_left > 0 and (len(city) < rules.cap or rules.overbuild):
            out |= {f"build:{d}" for d in hand if cost[d] <= gold and d not in city}
    faceup = {CHARACTER_SLUGS[c] for c in s.faceup}
    if not s.power_used:
        if character == "assassin":
            out |= {f"kill:{c}" for c in CHARACTER_SLUGS if c not in faceup and c != "assassin"}
        elif character == "thief":
            murdered = CHARACTER_SLUGS[s.killed] if s.killed >= 0 else None
            out |= {f"rob:{c}" for c in CHARACTER_SLUGS if c not in faceup | {"assassin", "thief", murdered}}
        elif character == "magician":
            out |= {f"swap:{t}" for t in range(s.players) if t != seat}
            out |= {f"redraw:{d}" for d in hand}
        elif character == "warlord":
            bishop = CHARACTER_SLUGS.index("bishop")
            protected = s.holder[bishop] if s.killed != bishop else -1  # a living Bishop's city
            for target in range(s.players):
                other = [DISTRICT_SLUGS[d] for d in s.cities[target]]
                if target == protected or len(other) >= rules.cap:
                    continue
                for name in other:
                    if name == "keep":
                        continue
                    price = cost[name] - 1
                    if "great_wall" in other and (name != "great_wall" or rules.great_wall_self):
                        price += 1
                    if price <= gold:
                        out.add(f"destroy:{target}:{name}")
    tax_type = CHARACTER_TAX[s.rank]
    if tax_type >= 0 and not s.tax_used:
        income = sum(1 for d in s.cities[seat] if DISTRICT_TYPE[d] == tax_type) + ("school_of_magic" in city)
        if income >= 1:
            out.add("tax")
    if "laboratory" in city and not s.lab_used:
        out |= {f"lab:{d}" for d in hand}
    if "smithy" in city and not s.smithy_used and gold >= rules.smithy_price and s.deck:
        out.add("smithy")
    return out


OPTION_SETS: list[dict[str, Any]] = [
    {}, {"preset": "classic_cards"}, {"great_wall_self": True, "overbuild": True, "deck": "ffg66"},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_legal_actions_match_the_turn_table(players: int) -> None:
    for seed in range(6):
        s = new_state(players, OPTION_SETS[seed % 3], seed=seed * 7 + players)
        chooser = random.Random(seed)
        while not s.is_over:
            listed = [str(a) for a in s.legal_actions()]
            assert len(listed) == len(set(listed)), listed
            assert set(listed) == reference_actions(s), (s.history[-5:], listed)
            s.apply(chooser.choice(s.legal_actions()))
