"""Walks through a game that ask bots for their choices on the way: at every position (is it legal?), in
resampled worlds (is it blind to what its seat cannot see?), against a clock (is it fast?) and against
random players (does it win?); and the mid-game positions and redeals the search tests start from."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from meeple import load_game
from meeple.bots import RandomBot, RolloutPolicy
from meeple.bots.base import Bot
from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.simulate import play_bot_game

#: The games with a heuristic and a hard level, which every bot test covers.
GAMES = ["citadels", "burgundy", "caylus", "palais_royal"]


def mid_game(name: str, players: int, seed: int, steps: int) -> GameState[Any]:
    """``name``'s game after ``steps`` moves of its heuristic on every seat, then on to the next position
    with a real choice (not over: a search has something to decide)."""
    state: GameState[Any] = load_game(name).new_game(players=players, seed=seed)
    policy = RolloutPolicy(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(policy.choose(state))
    while not state.is_over and len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    assert not state.is_over
    return state


def same_decision_on_a_redeal(make_bot: Callable[[], Bot], state: GameState[Any], redeal_seed: int) -> bool:
    """Assert that two fresh ``make_bot()`` decide the same on ``state`` and on a redeal of what its seat
    cannot see (``determinize`` for that seat, which shows it the same view); returns whether the
    redeal really changed hidden information."""
    seat = state.current_player
    assert seat is not None
    other = state.determinize(seat, Rng(redeal_seed))
    assert other.view(seat) == state.view(seat)
    assert str(make_bot().choose(state)) == str(make_bot().choose(other))
    return bool(other.to_json()["body"] != state.to_json()["body"])


def count_legal_choices(state: GameState[Any], bot: Bot, seed: int) -> int:
    """Play ``state`` to the end, asserting that ``bot`` names a legal action at every position.

    Half the moves are the bot's and half a random player's, so that random players walk the game into
    all sorts of positions while the bot's own kind of positions come up too. Returns the positions asked.
    """
    walker = RandomBot(seed=seed + 50)
    rng = Rng(seed)
    checked = 0
    while not state.is_over:
        legal = state.legal_actions()
        action = bot.choose(state)
        assert action in legal, f"{action} is not legal after {state.history[-4:]}"
        checked += 1
        state.apply(action if rng.random() < 0.5 else walker.choose(state))
    return checked


def count_blind_decisions(games: Iterable[tuple[GameState[Any], Sequence[Bot]]], make_bot: Callable[[int], Bot], *,
                          every: int, worlds: Sequence[int], max_plies: int | None = None) -> int:
    """Let the bots (one a seat) play each ``(state, bots)`` game, and at every ``every``-th ply check that
    the seat on turn decides the same whatever it cannot see.

    At such a ply, each offset in ``worlds`` gives one determinization for that seat, seeded ``ply +
    offset``; a fresh ``make_bot(ply)`` must choose the very same action (``is``) in every one of them as
    in the real state. A game stops at its end or after ``max_plies`` plies. Returns the plies checked.
    """
    compared = 0
    for state, bots in games:
        ply = 0
        while not state.is_over and (max_plies is None or ply < max_plies):
            seat = state.current_player
            assert seat is not None
            if ply % every == 0:
                resampled = [state.determinize(seat, Rng(ply + offset)) for offset in worlds]
                expected = make_bot(ply).choose(state)
                for world in resampled:
                    assert make_bot(ply).choose(world) is expected
                compared += 1
            state.apply(bots[seat].choose(state))
            ply += 1
    return compared


def mean_seconds_per_decision(games: Iterable[tuple[GameState[Any], Sequence[Bot]]]) -> float:
    """Play each ``(state, bots)`` game to the end, timing every ``choose`` with ``time.perf_counter``;
    returns the mean time per decision over all the games."""
    spent = 0.0
    decisions = 0
    for state, bots in games:
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            start = time.perf_counter()
            action = bots[seat].choose(state)
            spent += time.perf_counter() - start
            decisions += 1
            state.apply(action)
    return spent / decisions


def wins_against_random(new_game: Callable[[int], GameState[Any]], make_bot: Callable[[int], Bot], *,
                        games: int, players: int) -> float:
    """Play ``games`` games ``new_game(game)``, each with ``make_bot(game)`` in seat ``game % players``
    and ``RandomBot(10 * game + seat)`` in every other seat; returns the bot's wins, a shared win
    counting as its share."""
    wins = 0.0
    for game in range(games):
        seat = game % players
        bots: list[Any] = [RandomBot(10 * game + p) for p in range(players)]
        bots[seat] = make_bot(game)
        winners = play_bot_game(new_game(game), bots).winners()
        wins += 1 / len(winners) if seat in winners else 0.0
    return wins
