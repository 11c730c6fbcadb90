"""Worker pools never fork a process that has other threads (``meeple.core.processes``)."""

from __future__ import annotations

import threading

import pytest

from meeple.core import registry
from meeple.core.processes import pool_context
from meeple.tournament import run_tournament


def test_a_process_alone_forks_and_one_with_other_threads_spawns(
        bystander: threading.Thread, monkeypatch: pytest.MonkeyPatch) -> None:
    assert pool_context().get_start_method() == "spawn"
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert pool_context().get_start_method() == "fork"


def test_spawned_tournament_workers_know_a_game_registered_at_run_time(bystander: threading.Thread) -> None:
    """A spawned worker imports meeple afresh: the main process hands it the games it knows."""
    registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")
    here = run_tournament("toy", ["easy", "easy", "easy"], 12, seed=4, workers=1)
    pooled = run_tournament("toy", ["easy", "easy", "easy"], 12, seed=4, workers=2)
    assert pooled.runner == "processes" and not pooled.interrupted
    assert pooled.to_json()["entries"] == here.to_json()["entries"]
