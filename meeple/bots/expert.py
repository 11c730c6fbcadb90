"""The "expert" level: the hard level's search for 4.5 s a move (its 0.5–1 s), on every core, as trees of
the hard level's size whose root figures are added up.

Root parallelism: the position is searched at once by this process and by worker processes (one per
other core), each an independent ISMCTS with its own seed and the same deadline; their root figures
(visits and rewards per action, or a paired root's rewards per world) are added up and the action is
chosen from the sum, as one search with that many iterations would. The workers live in one pool per
process, made on the first expert decision and kept, so a decision costs no process start; where no
child process may be made (inside a daemonic worker) or only one core exists, the search runs here
alone. A share of a search does not stop once its own choice is settled (the hard level's
``stop_when_settled``): its visits are added to the others', which it cannot see, and those it would
not run could be the ones that decide the sum; a search alone here stops once its trees' sum is settled.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import time
from multiprocessing.pool import Pool
from typing import Any

from meeple.bots import HARD_SETTINGS, HARD_SETTINGS_BY_GAME, build_search
from meeple.bots.ismcts import ISMCTSBot, RootStatistics
from meeple.core.contract import GameState
from meeple.core.processes import pool_context

#: What the expert changes in the hard level's settings, for every game: a 4.5 s budget (the other
#: half second is the margin for the workers' replies under the 5 s a move).
EXPERT_SETTINGS: dict[str, Any] = {"time_limit": 4.5}

#: Per-game changes on top of that: with ten to twenty times the hard level's iterations, the noise
#: of the estimates falls and the evaluation's bias at the cutoff matters more, so Burgundy's rollouts
#: look twice as far ahead and its paired root weighs four candidates instead of three (Citadels' 20
#: decisions are now hard's own, which chose better than 10 at hard's budget). Where the longer rollouts
#: were played against hard they lost: Caylus' rollouts to the end chose no better than hard's cut at a
#: late turn's start with a fifth of its iterations (docs/bots.md, "Caylus: what changed") and lost the
#: expert's first two games, so Caylus keeps hard's cut. Palais Royal keeps hard's paired root with
#: rollouts to the end, on four and a half times hard's worlds per process (its cut-off rollouts, after
#: 12 or 30 decisions, lost every real game the expert played with them; valued flat, by the heuristic's
#: playouts alone, its candidates chose better on positions of heuristic games and lost its first real
#: game by 65 points, idle: docs/bots.md, "The expert level"). Burgundy grows one tree for its whole budget:
#: below its paired root a rollout is cut soon, so a tree reaches little further than the cut, and trees of
#: hard's size chose no better there (each loses the world it was playing out when its time ran out).
EXPERT_SETTINGS_BY_GAME: dict[str, dict[str, Any]] = {
    "burgundy": {"paired_root": 4, "rollout_cutoff": 40, "tree_budget": None},
    "citadels": {"rollout_cutoff": 20},
}

#: Seconds the main process waits for a worker beyond the deadline before going on without it.
REPLY_GRACE = 0.3
#: Under the CPU clock (``budget_clock="cpu"``), seconds of elapsed time the main process waits for a
#: worker after its own search: a worker's budget is then its own CPU time, which a loaded machine
#: stretches in elapsed time, and only a worker lost for good should be given up.
CPU_REPLY_PATIENCE = 60.0

_pool: Pool | None = None
_pool_owner = 0  # the process that made ``_pool`` (a forked child must not use its parent's)
_pool_size = 0


def expert_settings(game_name: str) -> dict[str, Any]:
    """What the expert changes in the hard level's settings for ``game_name``: its time is spent on fresh
    trees of the hard level's budget (``tree_budget``; not in Burgundy), whose root statistics are added
    up as the processes' are. One tree grown for 4.5 s chose worse than hard's in Palais Royal; trees of
    hard's size added up chose better than that tree, and in Citadels better than hard (docs/bots.md,
    "Trees of the hard level's size")."""
    hard_time = {**HARD_SETTINGS, **HARD_SETTINGS_BY_GAME.get(game_name, {})}["time_limit"]
    return {**EXPERT_SETTINGS, "tree_budget": hard_time, **EXPERT_SETTINGS_BY_GAME.get(game_name, {})}


def _worker_count() -> int:
    """Workers besides this process: one per other core, none inside a daemonic process."""
    if multiprocessing.current_process().daemon:
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(0, cores - 1)


def _warm_up(game_name: str) -> None:
    """Import the game and its heuristic in a new worker before its first search needs them."""
    build_search(game_name, 0)
    from meeple.bots.heuristics import has_heuristic

    has_heuristic(game_name)


def _shared_pool(size: int, game_name: str) -> Pool | None:
    """This process's pool of ``size`` workers, made once and warmed up for ``game_name`` (the
    warm-ups run before the first searches reach the workers)."""
    global _pool, _pool_owner, _pool_size
    if size <= 0:
        return None
    if _pool is not None and _pool_owner == os.getpid() and _pool_size == size:
        return _pool
    context = pool_context()
    try:
        _pool = context.Pool(size)
    except (AssertionError, OSError):  # a daemonic process, or no more processes allowed
        _pool = None
        return None
    _pool_owner, _pool_size = os.getpid(), size
    for _ in range(size):
        _pool.apply_async(_warm_up, (game_name,))
    return _pool


def _close_pool() -> None:
    if _pool is not None and _pool_owner == os.getpid():
        _pool.terminate()


atexit.register(_close_pool)

def _search_in_worker(game_name: str, seed: str, overrides: dict[str, Any], state: GameState[Any],
                      candidates: list[Any] | None, started: float | None) -> RootStatistics:
    """One independent search in a worker process, on the same wall clock as the main process's
    (``time.perf_counter`` is the system's monotonic clock on Linux), or under the CPU clock
    (``started`` None) on its own thread's CPU time from the start of its search."""
    search = build_search(game_name, seed, overrides, base=expert_settings(game_name))
    return search.search(state, candidates, started=started, may_stop_early=False)


class ExpertBot:
    """The "expert" level: ``build_search`` with ``EXPERT_SETTINGS`` on this process and every other core."""

    name = "expert"

    def __init__(self, seed: int | str = 0, processes: int | None = None, **overrides: Any) -> None:
        self.seed = seed
        self.processes = processes
        self.overrides = overrides
        self.decisions = 0
        self.last_iterations = 0
        self.last_rollouts = 0
        self.last_stopped_early = False  # only a search alone here stops once settled
        self._search: ISMCTSBot | None = None
        self._game_name: str | None = None

    def search_for(self, game_name: str) -> ISMCTSBot:
        """This process's share of the search for ``game_name``."""
        if self._search is None or self._game_name != game_name:
            self._search = build_search(game_name, self.seed, self.overrides, base=expert_settings(game_name))
            self._game_name = game_name
        return self._search

    def choose(self, state: GameState[Any]) -> Any:
        game_name = state.game.name
        search = self.search_for(game_name)
        started = search.clock()
        on_wall = search.budget_clock == "wall"  # else each process's CPU time, counted from its own start
        legal = list(state.legal_actions())
        self.last_stopped_early = False
        if len(legal) == 1:
            self.last_iterations = self.last_rollouts = 0
            return legal[0]
        candidates = None
        if search.paired_root is not None and search.rollout_policy is not None:
            candidates = search.root_candidates(state, legal, search.paired_root)
        workers = _worker_count() if self.processes is None else self.processes
        pool = _shared_pool(workers, game_name)
        self.decisions += 1
        replies = []
        if pool is not None:
            for index in range(workers):
                seed = f"{self.seed}/worker{index}/{self.decisions}"
                replies.append(pool.apply_async(_search_in_worker, (game_name, seed, self.overrides, state,
                                                                    candidates, started if on_wall else None)))
        statistics = search.search(state, candidates, started=started, may_stop_early=pool is None)
        budget = search.time_limit or 0.0
        searched = time.perf_counter()
        for reply in replies:
            if on_wall:
                remaining = started + budget + REPLY_GRACE - time.perf_counter()
            else:
                remaining = searched + CPU_REPLY_PATIENCE - time.perf_counter()
            try:
                statistics.merge(reply.get(timeout=max(0.01, remaining)))
            except multiprocessing.TimeoutError:
                continue  # a worker the machine starved: the decision goes on without it
        self.last_iterations = statistics.iterations
        self.last_rollouts = statistics.rollouts
        self.last_stopped_early = statistics.stopped_early
        return search.decide(statistics)


def expert_bot(seed: int | str = 0, **overrides: Any) -> ExpertBot:
    """The slowest level, built to be the strongest: the hard search for 4.5 s on every core (docs/bots.md,
    "The expert level", says what is measured); keywords override its settings."""
    return ExpertBot(seed, **overrides)
