"""Building Palais Royal positions for scenario tests: a first-game table with chosen counts.

Positions are set field by field on a real state (never by monkey-patching); chance is fixed by the
seed or by arranging the deck explicitly.
"""

from __future__ import annotations

from typing import Any

from meeple import load_game
from meeple.games.palais_royal.data import CARD_CODES, SQUARE_NAMES
from meeple.games.palais_royal.rules import CARD_INDEX, PRIVILEGE_INDEX, ROOM_INDEX
from meeple.games.palais_royal.state import PLAY, PalaisRoyalState

GAME = load_game("palais_royal")


def table(players: int = 2, seed: int = 11, **options: Any) -> PalaisRoyalState:
    """The first-game layout, setup done, every room empty, every pool 18; seat 0 starts step 1."""
    state = GAME.new_game(players=players, seed=seed, options={"layout": "first_game", **options})
    assert isinstance(state, PalaisRoyalState)
    for p in range(players):
        state.rooms[p] = [0] * 9
        state.pool[p] = 18
    state.phase = PLAY
    state._begin_turn(0)
    return state


def put(state: PalaisRoyalState, seat: int, pool: int | None = None, gold: int | None = None, **rooms: int) -> None:
    """Set ``seat``'s servants per room (others 0); the pool keeps 25 per colour unless given."""
    state.rooms[seat] = [0] * 9
    for code, count in rooms.items():
        state.rooms[seat][ROOM_INDEX[code]] = count
    garden = state.garden_servants.count(seat)
    state.pool[seat] = 25 - state.supply[seat] - sum(state.rooms[seat]) - garden if pool is None else pool
    if gold is not None:
        state.bank += state.gold[seat] - gold
        state.gold[seat] = gold
    state._legal = None


def square(name: str) -> int:
    return SQUARE_NAMES.index(name)


def noble(state: PalaisRoyalState, noble_id: str) -> int:
    return state.rules.noble_index[noble_id]


def lay(state: PalaisRoyalState, where: str, noble_id: str) -> None:
    """Put the tile ``noble_id`` on square ``where`` (swapping it with whatever tile was there)."""
    q, tile = square(where), noble(state, noble_id)
    if tile in state.garden:
        other = state.garden.index(tile)
        state.garden[other], state.garden[q] = state.garden[q], tile
    else:
        state.boxed.remove(tile)
        if state.garden[q] >= 0:
            state.boxed.append(state.garden[q])
        else:
            state.garden_left += 1
        state.garden[q] = tile
        state.garden_servants[q] = -1
    state._legal = None


def clear(state: PalaisRoyalState, *where: str, servant: int | None = None) -> None:
    """Empty squares (their tiles go to the box), optionally with a garden servant of ``servant``."""
    for name in where:
        q = square(name)
        if state.garden[q] >= 0:
            state.boxed.append(state.garden[q])
            state.garden[q] = -1
            state.garden_left -= 1
        if servant is not None:
            state.garden_servants[q] = servant
            state.pool[servant] -= 1
    state._legal = None


def grant(state: PalaisRoyalState, seat: int, noble_id: str) -> None:
    """Give ``seat`` a noble from the garden with its privilege already in effect."""
    tile = noble(state, noble_id)
    if tile in state.garden:
        q = state.garden.index(tile)
        state.garden[q] = -1
        state.garden_left -= 1
    else:
        state.boxed.remove(tile)
    state.owned[seat].append(tile)
    privilege = state.rules.noble_privilege[tile]
    if privilege >= 0 and privilege != PRIVILEGE_INDEX["SUPPLY"]:
        state.active[seat][privilege] += state.rules.noble_param[tile]
    state._legal = None


def give_card(state: PalaisRoyalState, seat: int, code: str, copies: int = 1) -> None:
    """Move cards of a kind from the deck to a hand (keeping the 36 cards)."""
    kind = CARD_INDEX[code]
    for _ in range(copies):
        state.deck.remove(kind)
        state.hands[seat][kind] += 1
    state._legal = None


def stack_deck(state: PalaisRoyalState, *codes: str) -> None:
    """Arrange the deck so the next draws give ``codes`` in order."""
    for code in codes:
        state.deck.remove(CARD_INDEX[code])
    state.deck.extend(CARD_INDEX[c] for c in reversed(codes))
    state._legal = None


def legal(state: PalaisRoyalState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: PalaisRoyalState, *notations: str) -> None:
    for notation in notations:
        for token in notation.split():
            state.apply(token)


def to_step(state: PalaisRoyalState, step: int) -> None:
    while state.step < step:
        state.apply("end")


def room(state: PalaisRoyalState, seat: int, code: str) -> int:
    return state.rooms[seat][ROOM_INDEX[code]]


def hand(state: PalaisRoyalState, seat: int) -> dict[str, int]:
    return {CARD_CODES[k]: c for k, c in enumerate(state.hands[seat]) if c}
