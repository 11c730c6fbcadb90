"""Bot tournaments: many games with the seats rotated, run in parallel, with win shares, confidence
intervals and ratings.

Seat rotation removes the seat advantage: in game ``g`` the entry at lineup position ``i`` sits in
seat ``(i + g) % players``. Entries are named after their bot kind, numbered when a kind appears more
than once (``easy#1``, ``easy#2``). Ratings use the Plackett–Luce model of the maintained ``openskill``
package, fed with each game's finishing order (winners first, then by score).

Ctrl-C stops a tournament at once: the worker processes ignore it and are ended by the main process,
which keeps the games that finished (``interrupted`` is then true) and rates those.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from meeple.bots import make_bot
from meeple.core.registry import load_game
from meeple.simulate import PROGRESS_EVERY, ProgressCallback, ProgressThrottle, games_done, play_bot_game

#: One game to play: game name, lineup, game index, seed, options (the arguments of ``play_tournament_game``).
Job = tuple[str, list[str], int, int, dict[str, Any]]


def entry_names(kinds: Sequence[str]) -> list[str]:
    """Unique names for a lineup: a kind used more than once is numbered."""
    names = []
    for i, kind in enumerate(kinds):
        if kinds.count(kind) > 1:
            names.append(f"{kind}#{kinds[:i].count(kind) + 1}")
        else:
            names.append(kind)
    return names


@dataclass(frozen=True)
class GameRecord:
    """One finished tournament game, seen per lineup entry."""

    index: int
    seed: int
    seat_of_entry: tuple[int, ...]
    scores: tuple[int, ...]  # per entry
    win_shares: tuple[float, ...]  # per entry; 1/k each on a k-way shared win
    ranks: tuple[int, ...]  # per entry, 1 = first
    actions: int
    seconds: float
    decisions: int = 0  # the bots' choices (``actions`` may also hold moves the engine made by itself)


def play_tournament_game(
    game_name: str, kinds: Sequence[str], index: int, seed: int, options: Mapping[str, Any] | None,
    on_action: Callable[[int], None] | None = None,
) -> GameRecord:
    """Play game ``index`` of a tournament; a module-level function so worker processes can run it."""
    players = len(kinds)
    seat_of_entry = tuple((entry + index) % players for entry in range(players))
    bots: list[Any] = [None] * players
    for entry, seat in enumerate(seat_of_entry):
        bots[seat] = make_bot(kinds[entry], seed=f"{seed}:{entry}")
    started = time.perf_counter()
    state = load_game(game_name).new_game(players=players, seed=seed, options=options)
    decisions = 0

    def count(played: int) -> None:
        nonlocal decisions
        decisions = played
        if on_action is not None:
            on_action(played)

    play_bot_game(state, bots, count)
    scores = state.scores()
    winners = state.winners()
    seat_scores = tuple(scores[seat] for seat in seat_of_entry)
    shares = tuple((1 / len(winners) if seat in winners else 0.0) for seat in seat_of_entry)
    # Finishing order: winners share first place, then the others by score (equal scores share a rank).
    keys = [(seat in winners, scores[seat]) for seat in seat_of_entry]
    ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return GameRecord(index, seed, seat_of_entry, seat_scores, shares, ranks, len(state.history),
                      time.perf_counter() - started, decisions)


@dataclass
class EntryResult:
    name: str
    kind: str
    games: int = 0
    wins: float = 0.0
    score_total: int = 0
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_share_interval(self) -> tuple[float, float]:
        """95% Wilson score interval of the win share: unlike the normal approximation it stays honest
        at a perfect or empty record (200 wins in 200 games gives 98.1–100%, not 100–100%). Shared wins
        count as fractions."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        z = 1.96
        p = self.win_share
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def mean_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    @property
    def ordinal(self) -> float:
        """A conservative rating: mu − 3·sigma."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        low, high = self.win_share_interval
        return {
            "name": self.name, "kind": self.kind, "games": self.games, "wins": self.wins,
            "win_share": self.win_share, "win_share_ci95": [low, high], "mean_score": self.mean_score,
            "rating_mu": self.mu, "rating_sigma": self.sigma, "rating_ordinal": self.ordinal,
        }


@dataclass
class TournamentResult:
    game: str
    kinds: list[str]
    seed: int
    options: dict[str, Any]
    entries: list[EntryResult]
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": len(self.kinds), "bots": self.kinds, "seed": self.seed,
            "options": self.options, "games": len(self.records), "interrupted": self.interrupted,
            "seconds": self.seconds,
            "mean_actions": sum(r.actions for r in self.records) / max(len(self.records), 1),
            "entries": [entry.to_json() for entry in self.entries],
        }

    def write(self, directory: Path) -> tuple[Path, Path]:
        """``summary.json`` and ``games.csv`` (one row per game) in ``directory``."""
        directory.mkdir(parents=True, exist_ok=True)
        summary = directory / "summary.json"
        summary.write_text(json.dumps(self.to_json(), indent=2))
        table = directory / "games.csv"
        names = [entry.name for entry in self.entries]
        with table.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["game", "seed", "actions", "seconds"]
                            + [f"{n}:{what}" for n in names for what in ("seat", "score", "win_share", "rank")])
            for record in sorted(self.records, key=lambda r: r.index):
                row: list[Any] = [record.index, record.seed, record.actions, f"{record.seconds:.4f}"]
                for e in range(len(names)):
                    row += [record.seat_of_entry[e], record.scores[e], record.win_shares[e], record.ranks[e]]
                writer.writerow(row)
        return summary, table


def run_tournament(
    game_name: str,
    kinds: Sequence[str],
    games: int,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    on_progress: ProgressCallback | None = None,
) -> TournamentResult:
    """Play ``games`` games (seeds ``seed + i``), in ``workers`` processes (default: every core).
    ``on_progress(games_done, decisions)`` hears how far it is, also during long games; Ctrl-C stops
    early with the finished games."""
    game = load_game(game_name)
    game.check_players(len(kinds))
    names = entry_names(list(kinds))
    entries = [EntryResult(name, kind) for name, kind in zip(names, kinds, strict=True)]
    result = TournamentResult(game_name, list(kinds), seed, dict(options or {}), entries)
    workers = min(workers or os.cpu_count() or 1, games)
    started = time.perf_counter()
    # Made one by one as the games start, so that a million-game run starts at once.
    jobs = ((game_name, list(kinds), i, seed + i, dict(options or {})) for i in range(games))
    try:
        if workers <= 1:
            _play_here(jobs, result, on_progress)
        else:
            _play_in_workers(jobs, games, workers, result, on_progress)
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    _tally(result)
    return result


def _play_here(jobs: Iterable[Job], result: TournamentResult, on_progress: ProgressCallback | None) -> None:
    throttle = ProgressThrottle(on_progress)
    for job in jobs:
        record = play_tournament_game(*job, on_action=throttle.action)
        result.records.append(record)
        throttle.game_over(record.decisions)


#: In a worker process: the decision counter shared with the main process (set by ``_start_worker``).
_shared_decisions: Any = None


def _start_worker(decisions: Any) -> None:
    """A worker leaves Ctrl-C to the main process (which ends the pool) and counts its bots' decisions."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _shared_decisions
    _shared_decisions = decisions


class _DecisionCounter:
    """Adds a worker's decisions to the shared counter every ``PROGRESS_EVERY`` seconds, not one by one."""

    def __init__(self) -> None:
        self.unreported = 0
        self.next_report = time.monotonic() + PROGRESS_EVERY

    def __call__(self, played: int) -> None:
        self.unreported += 1
        if time.monotonic() >= self.next_report:
            self.flush()

    def flush(self) -> None:
        if _shared_decisions is not None and self.unreported:
            with _shared_decisions.get_lock():
                _shared_decisions.value += self.unreported
        self.unreported = 0
        self.next_report = time.monotonic() + PROGRESS_EVERY


def _play_job(job: Job) -> GameRecord:
    counter = _DecisionCounter()
    record = play_tournament_game(*job, on_action=counter)
    counter.flush()
    return record


def _play_in_workers(jobs: Iterable[Job], games: int, workers: int, result: TournamentResult,
                     on_progress: ProgressCallback | None) -> None:
    """Games in a process pool; the main process waits in short steps to report progress, and ends the
    pool at once when it is interrupted."""
    context = multiprocessing.get_context()
    decisions = context.Value("q", 0)
    pool = context.Pool(workers, initializer=_start_worker, initargs=(decisions,))
    try:
        finished = pool.imap_unordered(_play_job, jobs)
        finished_decisions = 0
        while len(result.records) < games:
            try:
                record = finished.next(timeout=PROGRESS_EVERY)
            except multiprocessing.TimeoutError:
                record = None
            if record is not None:
                result.records.append(record)
                finished_decisions += record.decisions
            if on_progress is not None:
                done, running = len(result.records), min(workers, games - len(result.records))
                on_progress(games_done(done, finished_decisions, decisions.value, running), decisions.value)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _tally(result: TournamentResult) -> None:
    model = PlackettLuce()
    ratings = [model.rating(name=entry.name) for entry in result.entries]
    for record in sorted(result.records, key=lambda r: r.index):  # rating order must not depend on timing
        for e, entry in enumerate(result.entries):
            entry.games += 1
            entry.wins += record.win_shares[e]
            entry.score_total += record.scores[e]
        rated = model.rate([[rating] for rating in ratings], ranks=list(record.ranks))
        ratings = [team[0] for team in rated]
    for entry, rating in zip(result.entries, ratings, strict=True):
        entry.mu, entry.sigma = rating.mu, rating.sigma
