"""Bot tournaments: many games with the seats rotated, run in parallel, with win shares, confidence
intervals and ratings.

Seat rotation removes the seat advantage: in game ``g`` the entry at lineup position ``i`` sits in
seat ``(i + g) % players``. Entries are named after their bot kind, numbered when a kind appears more
than once (``easy#1``, ``easy#2``). Ratings use the Plackett–Luce model of the maintained ``openskill``
package, fed with each game's finishing order (winners first, then by score).
"""

from __future__ import annotations

import csv
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from meeple.bots import make_bot
from meeple.core.registry import load_game
from meeple.simulate import play_bot_game


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


def play_tournament_game(
    game_name: str, kinds: Sequence[str], index: int, seed: int, options: Mapping[str, Any] | None
) -> GameRecord:
    """Play game ``index`` of a tournament; a module-level function so worker processes can run it."""
    players = len(kinds)
    seat_of_entry = tuple((entry + index) % players for entry in range(players))
    bots: list[Any] = [None] * players
    for entry, seat in enumerate(seat_of_entry):
        bots[seat] = make_bot(kinds[entry], seed=f"{seed}:{entry}")
    started = time.perf_counter()
    state = load_game(game_name).new_game(players=players, seed=seed, options=options)
    play_bot_game(state, bots)
    scores = state.scores()
    winners = state.winners()
    seat_scores = tuple(scores[seat] for seat in seat_of_entry)
    shares = tuple((1 / len(winners) if seat in winners else 0.0) for seat in seat_of_entry)
    # Finishing order: winners share first place, then the others by score (equal scores share a rank).
    keys = [(seat in winners, scores[seat]) for seat in seat_of_entry]
    ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return GameRecord(index, seed, seat_of_entry, seat_scores, shares, ranks, len(state.history),
                      time.perf_counter() - started)


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

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": len(self.kinds), "bots": self.kinds, "seed": self.seed,
            "options": self.options, "games": len(self.records), "seconds": self.seconds,
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
    on_game: Callable[[GameRecord], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games (seeds ``seed + i``), in ``workers`` processes (default: every core)."""
    game = load_game(game_name)
    game.check_players(len(kinds))
    names = entry_names(list(kinds))
    entries = [EntryResult(name, kind) for name, kind in zip(names, kinds, strict=True)]
    result = TournamentResult(game_name, list(kinds), seed, dict(options or {}), entries)
    workers = workers or os.cpu_count() or 1
    started = time.perf_counter()
    jobs = [(game_name, list(kinds), i, seed + i, dict(options or {})) for i in range(games)]
    if workers == 1:
        for job in jobs:
            record = play_tournament_game(*job)
            result.records.append(record)
            if on_game:
                on_game(record)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_tournament_game, *job) for job in jobs]
            for future in futures:
                record = future.result()
                result.records.append(record)
                if on_game:
                    on_game(record)
    result.seconds = time.perf_counter() - started
    _tally(result)
    return result


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
