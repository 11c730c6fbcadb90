"""Bot-against-bot games in bulk, for the ``simulate`` command and for tests.

Ctrl-C ends a run at once, even in the middle of a game or of a bot's search: the game in progress is
dropped and the result holds the games that finished (``interrupted`` is then true). Each finished game
is one outcome appended in a single step, so an interruption can never leave half a game in the totals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.bots import make_bot
from meeple.core.contract import GameState
from meeple.core.registry import load_game

#: How often (seconds) a long game reports its progress: often enough for a moving bar, rarely enough
#: to cost nothing next to the game.
PROGRESS_EVERY = 0.1

#: ``on_progress(games_done, decisions)``: games done so far, counting the game in progress as the
#: share its decisions make of an average finished game (never quite one), and decisions played in all.
ProgressCallback = Callable[[float, int], None]


@dataclass(frozen=True)
class GameOutcome:
    """What one finished game adds to the totals."""

    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    stats: Mapping[str, int]
    actions: int


@dataclass
class SimulationResult:
    """Totals over many games; win shares split a shared win evenly between the winners."""

    game: str
    players: int
    bots: list[str]
    outcomes: list[GameOutcome] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def wins(self) -> list[float]:
        wins = [0.0] * self.players
        for outcome in self.outcomes:
            for seat in outcome.winners:
                wins[seat] += 1 / len(outcome.winners)
        return wins

    @property
    def score_totals(self) -> list[int]:
        return [sum(outcome.scores[seat] for outcome in self.outcomes) for seat in range(self.players)]

    @property
    def stat_totals(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for outcome in self.outcomes:
            for key, value in outcome.stats.items():
                totals[key] = totals.get(key, 0) + value
        return totals

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
            "interrupted": self.interrupted,
            "wins": self.wins,
            "win_shares": self.win_shares,
            "mean_scores": self.mean_scores,
            "mean_stats": self.mean_stats,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }


def play_bot_game(
    state: GameState[Any], bots: Sequence[Any], on_action: Callable[[int], None] | None = None
) -> GameState[Any]:
    """Let the seated bots play ``state`` to the end; ``on_action(n)`` hears of the game's n-th decision."""
    played = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state))
        if on_action is not None:
            played += 1
            on_action(played)
    return state


def games_done(finished: int, finished_actions: int, all_actions: int, running: int = 1) -> float:
    """Finished games plus the running games' estimated share: their decisions over an average finished
    game's, each running game counting for less than one."""
    if finished == 0 or running <= 0:
        return float(finished)
    average = finished_actions / finished
    return finished + min(0.95 * running, max(0, all_actions - finished_actions) / max(average, 1.0))


class ProgressThrottle:
    """Calls ``on_progress`` at most every ``PROGRESS_EVERY`` seconds during a game (and after each)."""

    def __init__(self, on_progress: ProgressCallback | None) -> None:
        self.on_progress = on_progress
        self.finished = 0
        self.finished_actions = 0
        self.current_actions = 0
        self.next_report = time.monotonic() + PROGRESS_EVERY

    def action(self, played: int) -> None:
        self.current_actions = played
        if self.on_progress is not None and time.monotonic() >= self.next_report:
            self.next_report = time.monotonic() + PROGRESS_EVERY
            total = self.finished_actions + played
            self.on_progress(games_done(self.finished, self.finished_actions, total), total)

    def game_over(self, actions: int) -> None:
        self.finished += 1
        self.finished_actions += actions
        self.current_actions = 0
        if self.on_progress is not None:
            self.on_progress(float(self.finished), self.finished_actions)


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int = 1,
    bot_kinds: Sequence[str] = ("easy",),
    options: Mapping[str, Any] | None = None,
    on_progress: ProgressCallback | None = None,
) -> SimulationResult:
    """Play ``games`` games with seeds ``seed, seed+1, …``; ``bot_kinds`` names one level per seat (or one
    for every seat). Ctrl-C stops early with the finished games' totals."""
    game = load_game(game_name)
    kinds = list(bot_kinds) * players if len(bot_kinds) == 1 else list(bot_kinds)
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} bots for {players} players: give one per seat, or one for all")
    result = SimulationResult(game_name, players, kinds)
    throttle = ProgressThrottle(on_progress)
    started = time.perf_counter()
    try:
        for index in range(games):
            game_seed = seed + index
            bots = [make_bot(kind, seed=f"{game_seed}:{seat}") for seat, kind in enumerate(kinds)]
            state = game.new_game(players=players, seed=game_seed, options=options)
            play_bot_game(state, bots, throttle.action)
            outcome = GameOutcome(game_seed, tuple(state.scores()), tuple(state.winners()), dict(state.stats()),
                                  len(state.history))
            result.outcomes.append(outcome)
            throttle.game_over(throttle.current_actions)
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    return result
