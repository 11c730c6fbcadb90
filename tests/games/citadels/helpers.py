"""Building Citadels positions for scenario tests: a seeded game whose fields are then set by hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from meeple import load_game
from meeple.games.citadels.data import CHARACTER_INDEX, DISTRICT_INDEX, DISTRICT_SLUGS
from meeple.games.citadels.state import P_OVER, S_PICK, S_RANDOM_FD, CitadelsState


def k(name: str) -> int:
    """A district kind from its slug."""
    return DISTRICT_INDEX[name]


def ch(name: str) -> int:
    """A character index (rank − 1) from its slug."""
    return CHARACTER_INDEX[name]


def names(cards: Iterable[int]) -> list[str]:
    return [DISTRICT_SLUGS[d] for d in cards]


def new_state(players: int, options: Mapping[str, Any] | None = None, seed: int = 1) -> CitadelsState:
    state = load_game("citadels").new_game(players=players, seed=seed, options=dict(options or {}))
    assert isinstance(state, CitadelsState)
    return state


def set_table(
    state: CitadelsState,
    *,
    hands: Mapping[int, list[str]] | None = None,
    cities: Mapping[int, list[str]] | None = None,
    gold: Mapping[int, int] | None = None,
    deck: list[str] | None = None,
) -> None:
    """Replace hands, cities, gold and deck (seats not named get empty hands/cities and 0 gold)."""
    n = state.players
    state.hands = [[k(x) for x in (hands or {}).get(s, [])] for s in range(n)]
    state.cities = [[k(x) for x in (cities or {}).get(s, [])] for s in range(n)]
    state.masks = [sum(1 << d for d in city) for city in state.cities]
    state.gold = [(gold or {}).get(s, 0) for s in range(n)]
    state.deck = [k(x) for x in (deck or [])]
    state._legal = None


def start_action_phase(
    state: CitadelsState,
    holders: Mapping[str, int],
    *,
    faceup: Iterable[str] = (),
    killed: str | None = None,
    robbed: str | None = None,
    crown: int = 0,
    from_character: str = "assassin",
) -> None:
    """Put the round straight into its action phase with these characters held, then call ranks from
    ``from_character`` on (earlier ranks are treated as already played)."""
    held = {ch(c): seat for c, seat in holders.items()}
    up = [ch(c) for c in faceup]
    down = [c for c in range(8) if c not in held and c not in up]
    state.holder = [held.get(c, -1) for c in range(8)]
    state.faceup = up
    state.facedown = down
    state.pool = []
    state.reserved = -1
    state.steps = [(-1, S_RANDOM_FD, c) for c in down] + [(seat, S_PICK, c) for c, seat in held.items()]
    state.draft_idx = state.rules.script_len
    state.killed = ch(killed) if killed else -1
    state.robbed = ch(robbed) if robbed else -1
    state.revealed = sum(1 << c for c in held if c < ch(from_character) and c != state.killed)  # they played
    state.crown = crown
    state._legal = None
    state._call_from(ch(from_character))


def legal(state: CitadelsState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: CitadelsState, *notations: str) -> None:
    for notation in notations:
        state.apply(notation)


def finish(state: CitadelsState) -> None:
    """End the game now (as at the end of a round), for scoring tests."""
    state.phase = P_OVER
    state.is_over = True
    state.cur = -1
    state._legal = None
