"""Bot tournaments: many games with the seats rotated, run in parallel, with win shares, confidence
intervals and ratings.

Seat rotation removes the seat advantage: in game ``g`` the entry at lineup position ``i`` sits in
seat ``(i + g) % players``. Entries are named after their bot kind, numbered when a kind appears more
than once (``easy#1``, ``easy#2``). Ratings use the Plackett–Luce model of the maintained ``openskill``
package, fed with each game's finishing order (winners first, then by score).

Ctrl-C stops a tournament at once: the worker processes ignore it and are ended by the main process,
which keeps the games that finished (``interrupted`` is then true) and rates those.

``budget_clock`` says how the searching bots (``hard``, ``expert``) measure their time budget a move:
``"wall"``, elapsed time, as for a player waiting; ``"cpu"``, the CPU time of the thread that searches,
so that every search gets what it would on an idle core however many games or other programs share the
machine, and the results do not depend on its load. Every game carries it, in worker processes and on Ray.

With ``ray_address`` the games run as tasks on a Ray cluster instead (Ray is an optional dependency:
``pip install 'meeple[ray]'``). Every game still depends on its index and seed only, so the records and
the table are the same as with the local pool, game for game; see ``docs/tournaments.md``.
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from meeple.bots import check_budget_clock, make_bot
from meeple.core import registry
from meeple.core.processes import pool_context
from meeple.core.registry import load_game
from meeple.simulate import PROGRESS_EVERY, ProgressCallback, ProgressThrottle, games_done, play_bot_game

#: One game to play: game name, lineup, game index, seed, options, budget clock (the arguments of
#: ``play_tournament_game``).
Job = tuple[str, list[str], int, int, dict[str, Any], str]


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
    moves: tuple[str, ...] = ()  # the game's history in notation: new_game(players, seed, options) replays it


def seat_bots(
    kinds: Sequence[str], index: int, seed: int, budget_clock: str = "wall",
) -> tuple[tuple[int, ...], list[Any]]:
    """The seat of each entry in game ``index`` (rotated, so every entry sits everywhere) and the bots by
    seat, each seeded from the game's seed and its entry: what makes a tournament game replayable."""
    players = len(kinds)
    seat_of_entry = tuple((entry + index) % players for entry in range(players))
    bots: list[Any] = [None] * players
    for entry, seat in enumerate(seat_of_entry):
        bots[seat] = make_bot(kinds[entry], seed=f"{seed}:{entry}", budget_clock=budget_clock)
    return seat_of_entry, bots


def play_tournament_game(
    game_name: str, kinds: Sequence[str], index: int, seed: int, options: Mapping[str, Any] | None,
    budget_clock: str = "wall", on_action: Callable[[int], None] | None = None,
) -> GameRecord:
    """Play game ``index`` of a tournament, the searching bots' budgets on ``budget_clock``; a
    module-level function so worker processes can run it."""
    players = len(kinds)
    seat_of_entry, bots = seat_bots(kinds, index, seed, budget_clock)
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
                      time.perf_counter() - started, decisions, tuple(state.history))


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
    runner: str = "processes"  # or "ray"
    startup_seconds: float = 0.0  # of ``seconds``: starting or reaching the Ray cluster
    budget_clock: str = "wall"  # how the searching bots measured their time budgets
    planned: int = 0  # the games asked for
    running: bool = False  # true in the summary written while games are still being played
    resumed: int = 0  # of ``records``: games played by earlier runs into the same results folder
    earlier_seconds: float = 0.0  # the time those earlier runs took
    code: list[str] = field(default_factory=list)  # fingerprints of the code of every run (``code_fingerprint``)
    on_record: Callable[[GameRecord], None] | None = field(default=None, repr=False, compare=False)

    def add(self, record: GameRecord) -> None:
        """Keep a finished game (and hand it to ``on_record``, which writes it to the results folder); its
        moves are not kept in memory, where a long run's would add up, only in the folder."""
        self.records.append(replace(record, moves=()) if record.moves else record)
        if self.on_record is not None:
            self.on_record(record)

    @property
    def played_now(self) -> int:
        """The games this run played (``records`` less those resumed from an earlier run)."""
        return len(self.records) - self.resumed

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": len(self.kinds), "bots": self.kinds, "seed": self.seed,
            "options": self.options, "budget_clock": self.budget_clock, "games": len(self.records),
            "planned": self.planned, "running": self.running, "interrupted": self.interrupted,
            "resumed": self.resumed, "seconds": self.earlier_seconds + self.seconds, "runner": self.runner,
            "startup_seconds": self.startup_seconds, "code": self.code,
            "mean_actions": sum(r.actions for r in self.records) / max(len(self.records), 1),
            "entries": [entry.to_json() for entry in self.entries],
        }

    def write(self, directory: Path) -> tuple[Path, Path]:
        """``summary.json`` and ``games.csv`` (one row per game, by game index) in ``directory``."""
        directory.mkdir(parents=True, exist_ok=True)
        summary = _write_summary(directory, self)
        table = directory / GAMES_CSV
        partial = table.with_name(GAMES_CSV + ".partial")
        with partial.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(csv_header([entry.name for entry in self.entries]))
            writer.writerows(csv_row(record) for record in sorted(self.records, key=lambda r: r.index))
        partial.replace(table)  # never a half-written table, even if this process is killed meanwhile
        return summary, table


def run_tournament(
    game_name: str,
    kinds: Sequence[str],
    games: int,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    on_progress: ProgressCallback | None = None,
    ray_address: str | None = None,
    on_ready: Callable[[str], None] | None = None,
    budget_clock: str = "wall",
    out: Path | None = None,
    resume: bool = False,
) -> TournamentResult:
    """Play ``games`` games (seeds ``seed + i``), in ``workers`` processes (default: every core), the
    searching bots' time budgets on ``budget_clock`` ("wall" or "cpu", module docstring).
    ``on_progress(games_done, decisions)`` hears how far it is, also during long games; Ctrl-C stops
    early with the finished games.

    ``ray_address`` plays them on Ray instead: ``LOCAL_RAY`` starts a Ray instance on this machine for the
    run (``workers`` CPUs, default every core) and stops it after; ``"auto"``, ``"HOST:PORT"`` or
    ``"ray://HOST:PORT"`` join an existing cluster (``workers`` then caps the games played at once). A Ray
    already initialised in this process is used as it is; ``on_ready`` hears, once, a line on the cluster
    the games are about to run on. Raises ``RayUnavailable`` when Ray is not installed or the cluster
    cannot be reached.

    ``out`` keeps the results in that folder as the games finish (``ResultsFolder``): a row of
    ``games.csv`` and a line of ``moves.jsonl`` (its moves, ``read_moves``) per game, ``summary.json`` at
    the start and the end, so a run stopped by Ctrl-C,
    SIGTERM or a crash keeps every finished game. With ``resume`` the games already in ``out`` count and
    only the others are played (``games`` may then be more than before); raises ``ResultsFolderError``
    when ``out`` holds another tournament's results, or holds results and ``resume`` is false."""
    game = load_game(game_name)
    game.check_players(len(kinds))
    check_budget_clock(budget_clock)
    names = entry_names(list(kinds))
    entries = [EntryResult(name, kind) for name, kind in zip(names, kinds, strict=True)]
    result = TournamentResult(game_name, list(kinds), seed, dict(options or {}), entries, budget_clock=budget_clock,
                              planned=games, code=[code_fingerprint()])
    folder = ResultsFolder.open(out, result, resume) if out is not None else None
    done = {record.index for record in result.records}
    if on_progress is not None and done:  # the games resumed count as done from the start
        reported, resumed = on_progress, len(done)

        def on_progress(games: float, decisions: int) -> None:
            reported(games + resumed, decisions)

    processes = min(workers or os.cpu_count() or 1, max(games - len(done), 1))
    started = time.perf_counter()
    # Made one by one as the games start, so that a million-game run starts at once.
    jobs = ((game_name, list(kinds), i, seed + i, dict(options or {}), budget_clock)
            for i in range(games) if i not in done)
    try:
        if len(done) >= games:
            pass
        elif ray_address is not None:
            result.runner = "ray"
            _play_on_ray(ray_address, jobs, games, workers, result, on_progress, on_ready)
        elif processes <= 1:
            _play_here(jobs, result, on_progress)
        else:
            _play_in_workers(jobs, games, processes, result, on_progress)
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        result.seconds = time.perf_counter() - started
        if folder is not None:
            folder.close()
    _tally(result)
    if folder is not None:
        folder.finish()
    return result


# --- the results folder -------------------------------------------------------------------------------

SUMMARY_JSON = "summary.json"
GAMES_CSV = "games.csv"
MOVES_JSONL = "moves.jsonl"
_PER_ENTRY = ("seat", "score", "win_share", "rank")
#: What must be the same for a run to continue another's results: the rest (workers, Ray) cannot
#: change a game's result.
_SAME_TOURNAMENT = ("game", "bots", "seed", "options", "budget_clock")


class ResultsFolderError(ValueError):
    """A results folder that cannot take this tournament's games (say why, change nothing)."""


def csv_header(names: Sequence[str]) -> list[str]:
    return ["game", "seed", "actions", "seconds", "decisions"] + [f"{n}:{what}" for n in names for what in _PER_ENTRY]


def csv_row(record: GameRecord) -> list[Any]:
    row: list[Any] = [record.index, record.seed, record.actions, f"{record.seconds:.4f}", record.decisions]
    for e in range(len(record.scores)):
        row += [record.seat_of_entry[e], record.scores[e], record.win_shares[e], record.ranks[e]]
    return row


def _write_summary(directory: Path, result: TournamentResult) -> Path:
    summary = directory / SUMMARY_JSON
    partial = summary.with_name(SUMMARY_JSON + ".partial")
    partial.write_text(json.dumps(result.to_json(), indent=2))
    partial.replace(summary)
    return summary


def moves_line(record: GameRecord) -> str:
    """A game's line of ``moves.jsonl``: its index, seed, each entry's seat and its moves in notation."""
    return json.dumps({"game": record.index, "seed": record.seed, "seats": list(record.seat_of_entry),
                       "moves": list(record.moves)}, separators=(",", ":")) + "\n"


def _moves_lines(directory: Path) -> dict[int, tuple[str, dict[str, Any]]]:
    """The lines of ``moves.jsonl`` by game index (the last one for an index), each with what it says; a
    line that is not a whole game's (cut short by a crash while it was written) is left out."""
    path = directory / MOVES_JSONL
    if not path.exists():
        return {}
    lines: dict[int, tuple[str, dict[str, Any]]] = {}
    for line in path.read_text().splitlines(keepends=True):
        try:
            game = json.loads(line)
            index = game["game"]
        except (ValueError, KeyError, TypeError):
            continue
        if line.endswith("\n") and type(index) is int and isinstance(game.get("moves"), list):
            lines[index] = (line, game)
    return lines


@dataclass(frozen=True)
class GameMoves:
    """One game of a results folder's ``moves.jsonl``: enough to play it again move for move."""

    index: int
    seed: int
    seat_of_entry: tuple[int, ...]
    moves: tuple[str, ...]


def read_moves(directory: Path) -> list[GameMoves]:
    """The games of a results folder whose moves it keeps, by game index (a folder begun before moves were
    kept holds them only for the games played since). Replay one with ``replay``."""
    games = []
    for index, (_line, game) in sorted(_moves_lines(directory).items()):
        games.append(GameMoves(index, int(game["seed"]), tuple(int(s) for s in game["seats"]),
                               tuple(str(m) for m in game["moves"])))
    return games


def replay(result: TournamentResult, game: GameMoves,
           on_move: Callable[[int | None, str], None] | None = None) -> Any:
    """The final state of a kept game, played again from its seed and moves (raises the engine's
    ``IllegalAction`` if a move does not fit: then the folder is not this code's); ``on_move(seat,
    move)`` hears each move before it is applied, with the seat to play then."""
    state = load_game(result.game).new_game(players=len(result.kinds), seed=game.seed, options=result.options)
    for move in game.moves:
        if on_move is not None:
            on_move(state.current_player, move)
        state.apply(move)
    return state


class ResultsFolder:
    """A tournament's results on disk while it runs, so that no finished game is lost: each game's row
    is appended to ``games.csv`` (and flushed) as soon as it finishes, in the order games finish, after
    its moves are appended to ``moves.jsonl``; ``summary.json`` says the run's settings from the start
    (``"running": true``) and its table at the end, when both files are rewritten by game index. A later
    run with ``resume`` reads them, checks that it is the same tournament, keeps the moves of the games
    in ``games.csv`` only, and plays only the games not yet in it."""

    def __init__(self, directory: Path, result: TournamentResult) -> None:
        self.directory = directory
        self.result = result
        self.handle: Any = None
        self.writer: Any = None
        self.moves_handle: Any = None

    @classmethod
    def open(cls, directory: Path, result: TournamentResult, resume: bool) -> ResultsFolder:
        """Take ``directory`` for ``result``'s tournament; with ``resume``, add the games it holds to
        ``result``."""
        folder = cls(directory, result)
        try:
            folder._take(resume)
        except OSError as error:  # not a folder, not writable, the disk full: before any game is played
            raise ResultsFolderError(f"cannot keep the results in {directory}: {error.strerror or error}") from None
        return folder

    def _take(self, resume: bool) -> None:
        directory, result = self.directory, self.result
        held = self._held_games()
        if held and not resume:
            raise ResultsFolderError(
                f"{directory} already holds the results of {held} game{'s' * (held != 1)} of a tournament: "
                "--resume continues it; choose another folder to start afresh")
        if resume and held:
            self._resume()
        result.running = True
        _tally(result)
        result.write(directory)  # the settings from the start; the games kept, without any torn last line
        self._write_moves()  # and the moves of those games only: a game whose row was lost is played again
        self.handle = (directory / GAMES_CSV).open("a", newline="")
        self.writer = csv.writer(self.handle)
        self.moves_handle = (directory / MOVES_JSONL).open("a")
        result.on_record = self.add

    def _write_moves(self) -> None:
        """``moves.jsonl`` again, by game index, with the lines of the games in ``records`` only."""
        kept = {record.index for record in self.result.records}
        lines = [line for index, (line, _game) in sorted(_moves_lines(self.directory).items()) if index in kept]
        path = self.directory / MOVES_JSONL
        partial = path.with_name(MOVES_JSONL + ".partial")
        partial.write_text("".join(lines))
        partial.replace(path)

    def _held_games(self) -> int:
        table = self.directory / GAMES_CSV
        if not table.exists():
            return 0
        with table.open(newline="") as handle:
            return max(0, sum(1 for _ in handle) - 1)

    def _resume(self) -> None:
        result = self.result
        summary_path = self.directory / SUMMARY_JSON
        try:
            earlier = json.loads(summary_path.read_text())
        except (OSError, ValueError) as error:
            raise ResultsFolderError(f"cannot resume from {self.directory}: {summary_path} is unreadable ({error})"
                                     ) from None
        wanted = result.to_json()
        differs = [f"{key} {_shown(earlier.get(key))} there, {_shown(wanted[key])} here"
                   for key in _SAME_TOURNAMENT if earlier.get(key) != wanted[key]]
        if differs:
            raise ResultsFolderError(f"{self.directory} holds another tournament's results: "
                                     + "; ".join(differs))
        records = self._read_games()
        too_many = [record.index for record in records if record.index >= result.planned]
        if too_many:
            raise ResultsFolderError(f"{self.directory} already holds game {max(too_many) + 1}: ask for at least "
                                     f"--games {max(too_many) + 1}")
        result.records.extend(records)
        result.resumed = len(records)
        result.earlier_seconds = float(earlier.get("seconds", 0.0))
        result.code = [*earlier.get("code", []), *(c for c in result.code if c not in earlier.get("code", []))]

    def _read_games(self) -> list[GameRecord]:
        """The rows of ``games.csv``, each checked against the tournament (seed and seats of its index);
        a last row cut short by a crash is left out, to be played again."""
        names = [entry.name for entry in self.result.entries]
        players = len(names)
        table = self.directory / GAMES_CSV
        text = table.read_text()
        lines = text.splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines.pop()  # torn by a crash while it was written
        rows = list(csv.reader(lines))
        if not rows:
            return []
        header, body = rows[0], rows[1:]
        with_decisions = "decisions" in header  # tables written before that column was added lack it
        if header != (csv_header(names) if with_decisions else [h for h in csv_header(names) if h != "decisions"]):
            raise ResultsFolderError(f"{table} is not a table of this lineup ({', '.join(names)}): its header is "
                                     f"{','.join(header)}")
        records: dict[int, GameRecord] = {}
        first = 5 if with_decisions else 4
        for line, row in enumerate(body, start=2):
            try:
                index, seed, actions = int(row[0]), int(row[1]), int(row[2])
                seconds, decisions = float(row[3]), int(row[4]) if with_decisions else 0
                cells = row[first:]
                if len(cells) != 4 * players:
                    raise ValueError(f"{len(row)} cells")
                seats = tuple(int(cells[4 * e]) for e in range(players))
                record = GameRecord(index, seed, seats, tuple(int(cells[4 * e + 1]) for e in range(players)),
                                    tuple(float(cells[4 * e + 2]) for e in range(players)),
                                    tuple(int(cells[4 * e + 3]) for e in range(players)), actions, seconds, decisions)
            except (ValueError, IndexError) as error:
                raise ResultsFolderError(f"{table}, line {line}, is not a game's row ({error})") from None
            expected_seats = tuple((e + index) % players for e in range(players))
            if index < 0 or seed != self.result.seed + index or seats != expected_seats:
                raise ResultsFolderError(f"{table}, line {line}: game {index} has seed {seed} and seats {seats}, "
                                         f"not {self.result.seed + index} and {expected_seats}")
            if index in records:
                raise ResultsFolderError(f"{table}, line {line}: game {index} is there twice")
            records[index] = record
        return list(records.values())

    def add(self, record: GameRecord) -> None:
        self.moves_handle.write(moves_line(record))
        self.moves_handle.flush()
        self.writer.writerow(csv_row(record))
        self.handle.flush()

    def close(self) -> None:
        for handle in (self.handle, self.moves_handle):
            if handle is not None:
                handle.close()
        self.handle = self.moves_handle = None
        self.result.on_record = None

    def finish(self) -> None:
        """The final summary (tallied), the table and the moves by game index."""
        self.result.running = False
        self.result.write(self.directory)
        self._write_moves()


def read_results(directory: Path) -> TournamentResult:
    """The tournament kept in a results folder (``--out``), its table tallied from the rows there: what
    a run left behind, read again without playing (each row checked as ``--resume`` checks it).
    Raises ``ResultsFolderError`` when the folder holds no readable tournament."""
    summary_path = directory / SUMMARY_JSON
    try:
        summary = json.loads(summary_path.read_text())
        kinds = [str(kind) for kind in summary["bots"]]
        result = TournamentResult(
            str(summary["game"]), kinds, int(summary["seed"]), dict(summary.get("options") or {}),
            [EntryResult(name, kind) for name, kind in zip(entry_names(kinds), kinds, strict=True)],
            budget_clock=str(summary.get("budget_clock", "wall")), planned=int(summary.get("planned", 0)),
            code=[str(code) for code in summary.get("code", [])], runner=str(summary.get("runner", "processes")),
            interrupted=bool(summary.get("interrupted", False)), running=bool(summary.get("running", False)))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ResultsFolderError(f"{directory} holds no readable tournament: {summary_path}: {error}") from None
    if not (directory / GAMES_CSV).exists():
        raise ResultsFolderError(f"{directory} holds no readable tournament: {directory / GAMES_CSV} is missing")
    result.records.extend(sorted(ResultsFolder(directory, result)._read_games(), key=lambda r: r.index))
    result.resumed = len(result.records)
    result.earlier_seconds = float(summary.get("seconds", 0.0))
    _tally(result)
    return result


def _shown(value: Any) -> str:
    return ",".join(value) if isinstance(value, list) else json.dumps(value)


def _play_here(jobs: Iterable[Job], result: TournamentResult, on_progress: ProgressCallback | None) -> None:
    throttle = ProgressThrottle(on_progress)
    for job in jobs:
        record = play_tournament_game(*job, on_action=throttle.action)
        result.add(record)
        throttle.game_over(record.decisions)


#: In a worker process: the decision counter shared with the main process (set by ``_start_worker``).
_shared_decisions: Any = None


def _start_worker(decisions: Any, games: dict[str, str]) -> None:
    """A worker leaves Ctrl-C to the main process (which ends the pool), counts its bots' decisions and
    knows the games the main process knows (a worker started afresh, not forked, would not know a game
    registered at run time)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    registry.GAME_CLASSES.update(games)
    global _shared_decisions
    _shared_decisions = decisions


class _DecisionCounter:
    """Hands a game's decisions to ``send`` every ``PROGRESS_EVERY`` seconds, not one by one (a worker
    process adds them to the shared counter, a Ray task to the tally actor)."""

    def __init__(self, send: Callable[[int], None]) -> None:
        self.send = send
        self.unreported = 0
        self.next_report = time.monotonic() + PROGRESS_EVERY

    def __call__(self, played: int) -> None:
        self.unreported += 1
        if time.monotonic() >= self.next_report:
            self.flush()

    def flush(self) -> None:
        if self.unreported:
            self.send(self.unreported)
        self.unreported = 0
        self.next_report = time.monotonic() + PROGRESS_EVERY


def _add_to_shared_decisions(count: int) -> None:
    if _shared_decisions is not None:
        with _shared_decisions.get_lock():
            _shared_decisions.value += count


def _play_job(job: Job) -> GameRecord:
    counter = _DecisionCounter(_add_to_shared_decisions)
    record = play_tournament_game(*job, on_action=counter)
    counter.flush()
    return record


def _play_in_workers(jobs: Iterable[Job], games: int, workers: int, result: TournamentResult,
                     on_progress: ProgressCallback | None) -> None:
    """Games in a process pool; the main process waits in short steps to report progress, and ends the
    pool at once when it is interrupted."""
    context = pool_context()
    decisions = context.Value("q", 0)
    with _ctrl_c_held():  # a spawned worker is born ignoring it: a press while it imports prints nothing
        pool = context.Pool(workers, initializer=_start_worker,
                            initargs=(decisions, dict(registry.GAME_CLASSES)))
    try:
        finished = pool.imap_unordered(_play_job, jobs)
        finished_decisions = 0
        while len(result.records) < games:
            try:
                record = finished.next(timeout=PROGRESS_EVERY)
            except multiprocessing.TimeoutError:
                record = None
            if record is not None:
                result.add(record)
                finished_decisions += record.decisions
            if on_progress is not None:
                done, running = result.played_now, min(workers, games - len(result.records))
                on_progress(games_done(done, finished_decisions, decisions.value, running), decisions.value)
    except BaseException:  # interrupted, or a game failed: the workers end at once
        pool.terminate()
        raise
    else:  # every game played: the workers end when they read that there is no more work. Not close() and
        # then terminate(): the workers can be stopped before they read it, and terminate() then waits for
        # them forever (CPython issue 96995); a CI run lost its 90 minutes after a tournament's last game
        pool.close()
    finally:
        pool.join()


# --- Ray ---------------------------------------------------------------------------------------------

#: ``ray_address`` (and ``--ray`` without an address): a Ray instance started on this machine for the run.
LOCAL_RAY = "local"
RAY_INSTALL = "pip install 'meeple[ray]'"
#: How long (seconds) one Ray task should play: long enough that scheduling costs nothing next to the
#: games, short enough that Ctrl-C loses little and the cluster's CPUs finish together.
RAY_TASK_SECONDS = 0.25


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the Ray cluster could not be started or reached."""


def require_ray() -> None:
    """Raise ``RayUnavailable`` (saying how to install it) unless Ray can be imported; imports nothing."""
    if importlib.util.find_spec("ray") is None:
        raise RayUnavailable(f"Ray is not installed here; install it with {RAY_INSTALL}")


@cache
def code_fingerprint() -> str:
    """A hash of the code and data that decide a game's result (engines, bots, this runner): two machines
    with the same fingerprint play every seed alike."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    paths = [root / "simulate.py", root / "tournament.py"]
    for folder in ("core", "games", "bots"):  # the modules and the games' data files, as a wheel installs them
        paths += [path for path in (root / folder).rglob("*")
                  if path.is_file() and (path.suffix == ".py" or path.parent.name == "data")]
    for path in sorted(paths, key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class _DecisionTally:
    """A Ray actor adding up the decisions that the tasks report, for the progress bar."""

    def __init__(self) -> None:
        self.total = 0

    def add(self, count: int) -> None:
        self.total += count

    def read(self) -> int:
        return self.total


def _play_ray_chunk(jobs: list[Job], tally: Any, fingerprint: str | None) -> list[GameRecord]:
    """A Ray task: consecutive games of the tournament, each played exactly as in a local worker."""
    if fingerprint is not None and fingerprint != code_fingerprint():
        import socket

        raise RayUnavailable(f"meeple on {socket.gethostname()} is not the code that started the tournament "
                           f"(fingerprint {code_fingerprint()}, expected {fingerprint}): install the same "
                           "meeple on every node, so that every seed plays alike")
    counter = _DecisionCounter(tally.add.remote)
    records = [play_tournament_game(*job, on_action=counter) for job in jobs]
    counter.flush()
    return records


@contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    """Environment variables set (unless already set) for the duration of the block."""
    added = [name for name in values if name not in os.environ]
    for name in added:
        os.environ[name] = values[name]
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C is ignored for a moment: while Ray is cleaned up (a second press must not leave Ray half
    stopped), and while a pool's worker processes start (they keep the setting)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _connect_ray(address: str, workers: int | None) -> tuple[Any, bool]:
    """Import Ray and start or join the cluster; returns the module and whether this call started Ray
    (and so must shut it down)."""
    require_ray()
    local = address == LOCAL_RAY
    # A local instance: on the loopback interface only, no usage reports, token authentication without
    # the notice about it. These are read by Ray's own processes, so they must be set before it starts.
    quiet = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0",
             "RAY_AUTH_MODE": "token"} if local else {"RAY_USAGE_STATS_ENABLED": "0"}
    with _environment(quiet):
        import ray

        if ray.is_initialized():
            return ray, False
        settings: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING,
                                    "log_to_driver": False}
        if local:
            settings["num_cpus"] = workers or os.cpu_count() or 1
        try:
            ray.init(address=address, **settings)
        except ModuleNotFoundError as error:  # ray:// needs the Ray Client's gRPC
            raise RayUnavailable(f"{address} needs the Ray Client: pip install 'ray[client]' ({error})") from None
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
            if local:
                raise RayUnavailable(f"could not start a local Ray instance: {error}") from None
            raise RayUnavailable(f"could not reach the Ray cluster at {address}: {error} (is it up? A cluster with "
                                 "token authentication also wants RAY_AUTH_MODE=token and its token here: see "
                                 "docs/tournaments.md)") from None
    return ray, True


def _play_on_ray(address: str, jobs: Iterator[Job], games: int, workers: int | None, result: TournamentResult,
                 on_progress: ProgressCallback | None, on_ready: Callable[[str], None] | None = None) -> None:
    """Games as Ray tasks, a few in flight per CPU of the cluster; the main process waits in short steps
    to report progress. When it is interrupted it stops a Ray it started, which ends the tasks with it
    (cancelling them first raced their replies: Ray 2.60's driver aborted, "Tried to complete task that
    was not pending", and left Ray's agents behind), or cancels its tasks on a cluster it joined."""
    started = time.perf_counter()
    ray, owned = _connect_ray(address, workers)
    pending: dict[Any, int] = {}  # task -> games in it
    tally: Any = None
    try:
        play = ray.remote(num_cpus=1)(_play_ray_chunk)
        tally = ray.remote(num_cpus=0)(_DecisionTally).remote()
        fingerprint = None if address == LOCAL_RAY and owned else code_fingerprint()
        result.startup_seconds = time.perf_counter() - started
        if on_ready is not None:
            on_ready(_describe_ray(ray, address, owned, result.startup_seconds))
        finished_decisions = decisions = 0
        submitted = len(result.records)  # resumed games are not played again
        chunk, cpus, cpus_checked = 1, 1, 0.0
        reading: Any = None
        while len(result.records) < games:
            if time.monotonic() - cpus_checked > 2.0:  # nodes may join or leave during a long run
                cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
                cpus = min(cpus, workers) if workers else cpus
                cpus_checked = time.monotonic()
            while len(pending) < 2 * cpus and submitted < games:
                size = max(1, min(chunk, -(-(games - submitted) // (2 * cpus))))
                batch = [next(jobs) for _ in range(size)]
                pending[play.remote(batch, tally, fingerprint)] = size
                submitted += size
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=PROGRESS_EVERY)
            for ref in ready:
                del pending[ref]
                try:
                    played = ray.get(ref)
                except RayUnavailable as error:  # a node with other code: Ray wraps what the task raised
                    raise RayUnavailable(str(getattr(error, "cause", error))) from None
                for record in played:
                    result.add(record)
                    finished_decisions += record.decisions
            if ready and result.records:
                seconds = sum(r.seconds for r in result.records[-50:]) / len(result.records[-50:])
                chunk = max(1, min(1000, int(RAY_TASK_SECONDS / max(seconds, 1e-6))))
            if reading is None:
                reading = tally.read.remote()
            elif ray.wait([reading], timeout=0)[0]:
                decisions = max(decisions, ray.get(reading))
                reading = None
            if on_progress is not None:
                done, running = result.played_now, sum(pending.values())
                shown = max(decisions, finished_decisions)
                on_progress(games_done(done, finished_decisions, shown, running), shown)
        if on_progress is not None:
            on_progress(float(result.played_now), finished_decisions)
    finally:
        with _ctrl_c_held():
            if owned:  # stopping the local Ray ends its tasks and actors with it
                ray.shutdown()
            else:  # a cluster outlives the run: its tasks are cancelled, best effort (one may have ended, a node gone)
                with suppress(Exception):
                    for ref in pending:
                        ray.cancel(ref, force=True)
                    if tally is not None:
                        ray.kill(tally)


def _describe_ray(ray: Any, address: str, owned: bool, seconds: float) -> str:
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if address == LOCAL_RAY and owned:
        return f"Ray: a local instance for this run, {cpus} CPUs, ready in {seconds:.1f} s"
    nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
    where = "the Ray cluster this process had joined" if not owned else f"the Ray cluster at {address}"
    return f"Ray: {where}, {nodes} node{'s' * (nodes != 1)}, {cpus} CPUs, ready in {seconds:.1f} s"


def _tally(result: TournamentResult) -> None:
    """Win shares, scores and ratings of the entries over ``result.records`` (from scratch, so it may be
    called again as games are added)."""
    for entry in result.entries:
        entry.games, entry.wins, entry.score_total = 0, 0.0, 0
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
