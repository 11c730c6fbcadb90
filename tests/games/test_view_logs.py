"""Views reuse their converted log entries (``meeple.core.logview``): they must equal, at every step of
many seeded random games of all four games, the views built the old way, converting the whole log on
every call. The states are driven as the server and the bots drive them: clone, apply on the clone,
view the clone, and sometimes view the abandoned original again or a determinization of it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from meeple.core.contract import JSON, GameState
from meeple.core.registry import load_game
from meeple.games.caylus.views import log_event
from meeple.games.citadels.events import event_dict
from meeple.games.palais_royal.state import PUBLIC

OldLogs = Callable[[Any, int | None], tuple[list[JSON], list[JSON]]]


def citadels_logs(state: Any, seat: int | None) -> tuple[list[JSON], list[JSON]]:
    return ([event_dict(e) for e in state.log if e[0] < 0],
            [event_dict(e) for e in state.log if seat is not None and e[0] == seat])


def palais_royal_logs(state: Any, seat: int | None) -> tuple[list[JSON], list[JSON]]:
    return ([dict(event) for visible, event in state.log if visible == PUBLIC],
            [dict(event) for visible, event in state.log if visible == seat] if seat is not None else [])


def caylus_logs(state: Any, seat: int | None) -> tuple[list[JSON], list[JSON]]:
    return [log_event(entry) for entry in state.log], []


def burgundy_logs(state: Any, seat: int | None) -> tuple[list[JSON], list[JSON]]:
    return ([dict(e) for e in state.log],
            [dict(e) for e in state.private_log[seat]] if seat is not None else [])


OLD_LOGS: dict[str, OldLogs] = {"citadels": citadels_logs, "palais_royal": palais_royal_logs,
                                "caylus": caylus_logs, "burgundy": burgundy_logs}


def old_view(state: GameState[Any], seat: int | None) -> JSON:
    """The view with its logs built from the whole log, as every view did before the cache."""
    public, private = OLD_LOGS[state.game.name](state, seat)
    return {**state.view(seat), "log": public, "private_log": private}


def check(state: GameState[Any]) -> None:
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        assert view == old_view(state, seat), (state.game.name, seat, len(state.history))
        assert state.view(seat) == view  # a second call (nothing new to convert) gives the same


@pytest.mark.parametrize("game_name", sorted(OLD_LOGS))
def test_cached_log_views_equal_the_old_construction(game_name: str) -> None:
    game = load_game(game_name)
    moves = 0
    for seed in range(4):
        rng = random.Random(seed)
        players = rng.randint(game.min_players, min(game.max_players, 5))
        state = game.new_game(players=players, seed=seed)
        check(state)
        for step in range(400):
            if state.is_over:
                break
            trial = state.clone()
            trial.apply(rng.choice(trial.legal_actions()))
            moves += 1
            if step % 3 == 0:
                check(trial)
            if step % 17 == 0:
                check(state)  # the original whose cache the clone extended: it must build its own
            if step % 29 == 0 and hasattr(state, "determinize"):
                seat = rng.randrange(players)
                check(state.determinize(seat, rng.randrange(1 << 30)))
            state = trial
        check(state)
    assert moves > 400


def test_a_view_is_a_copy_of_the_log_not_the_cache() -> None:
    """Changing a returned view's log list never changes the next view."""
    state = load_game("citadels").new_game(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    first = state.view(0)
    expected = old_view(state, 0)
    first["log"].append({"event": "forged"})
    first["private_log"].clear()
    assert state.view(0) == expected
