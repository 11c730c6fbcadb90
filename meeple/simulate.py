"""Bot-against-bot games in bulk, for the ``simulate`` command and for tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.bots import make_bot
from meeple.core.contract import GameState
from meeple.core.registry import load_game


@dataclass
class SimulationResult:
    """Totals over many games; win shares split a shared win evenly between the winners."""

    game: str
    players: int
    bots: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    score_totals: list[int] = field(default_factory=list)
    stat_totals: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def mean_scores(self) -> list[float]:
        return [total / self.games for total in self.score_totals] if self.games else []

    @property
    def win_shares(self) -> list[float]:
        return [wins / self.games for wins in self.wins] if self.games else []

    @property
    def mean_stats(self) -> dict[str, float]:
        return {key: total / self.games for key, total in self.stat_totals.items()} if self.games else {}

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "games": self.games,
            "wins": self.wins,
            "win_shares": self.win_shares,
            "mean_scores": self.mean_scores,
            "mean_stats": self.mean_stats,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }


def play_bot_game(state: GameState[Any], bots: Sequence[Any]) -> GameState[Any]:
    """Let the seated bots play ``state`` to the end."""
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state))
    return state


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int = 1,
    bot_kinds: Sequence[str] = ("random",),
    options: Mapping[str, Any] | None = None,
    on_game: Callable[[GameState[Any]], None] | None = None,
) -> SimulationResult:
    """Play ``games`` games with seeds ``seed, seed+1, …``; bots are given per seat (the last repeats)."""
    game = load_game(game_name)
    kinds = [bot_kinds[min(i, len(bot_kinds) - 1)] for i in range(players)]
    result = SimulationResult(game_name, players, kinds, wins=[0.0] * players, score_totals=[0] * players)
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed + index
        bots = [make_bot(kind, seed=f"{game_seed}:{seat}") for seat, kind in enumerate(kinds)]
        state = play_bot_game(game.new_game(players=players, seed=game_seed, options=options), bots)
        winners = state.winners()
        for seat in winners:
            result.wins[seat] += 1 / len(winners)
        for seat, score in enumerate(state.scores()):
            result.score_totals[seat] += score
        for key, value in state.stats().items():
            result.stat_totals[key] = result.stat_totals.get(key, 0) + value
        result.games += 1
        if on_game is not None:
            on_game(state)
    result.seconds = time.perf_counter() - started
    return result
