"""Ctrl-C on ``meeple simulate`` and ``meeple tournament``: one press stops at once (even while a hard
bot thinks or worker processes play), the finished games are reported, no traceback; and the progress
reports move during a game, not only between games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple import simulate as simulate_module
from meeple.core import registry
from meeple.simulate import simulate
from meeple.tournament import run_tournament
from tests.process_groups import assert_group_ends

ROOT = Path(__file__).resolve().parents[1]
STARTUP = 3.0  # seconds for the command to import and start playing
STOP_WITHIN = 1.5  # seconds from Ctrl-C to the process having ended


@pytest.fixture(autouse=True)
def toy_registered() -> None:
    registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")


def _interrupt(*args: str) -> tuple[int, str, str, float]:
    """Run ``meeple ARGS`` in its own process group, press Ctrl-C (SIGINT to the whole group, as a
    terminal does) after the start-up time, and return the exit code, outputs and seconds to stop."""
    process = subprocess.Popen([sys.executable, "-m", "meeple.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env={**os.environ, "COLUMNS": "200"})
    try:
        time.sleep(STARTUP)
        assert process.poll() is None, process.communicate()
        pressed = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=20)
        stopped = time.monotonic() - pressed
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert_group_ends(process)  # no worker process is left behind
    return process.returncode, out, err, stopped


@pytest.mark.parametrize("command", [
    ["simulate", "citadels", "--players", "3", "--bots", "hard", "--games", "3"],
    ["tournament", "citadels", "--players", "3", "--bots", "hard", "--games", "4", "--workers", "2"],
])
def test_ctrl_c_stops_at_once_while_hard_bots_think(command: list[str]) -> None:
    code, out, err, stopped = _interrupt(*command)
    assert code == 130
    assert stopped < STOP_WITHIN
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "interrupted: 0 of" in out


@pytest.mark.parametrize("command", [
    ["simulate", "citadels", "--players", "3", "--bots", "easy", "--games", "1000000"],
    ["tournament", "citadels", "--players", "3", "--bots", "easy", "--games", "1000000", "--workers", "2"],
])
def test_ctrl_c_reports_the_games_that_finished(command: list[str]) -> None:
    code, out, err, stopped = _interrupt(*command)
    assert code == 130
    assert stopped < STOP_WITHIN + 1.0  # rating a few thousand finished games takes a moment
    assert "Traceback" not in err
    assert "games finished; their results follow" in out
    finished = int(out.split("interrupted: ")[1].split(" of ")[0])
    assert 0 < finished < 1_000_000
    assert f"Citadels: {finished} games" in out  # the table is for exactly those games


def test_an_interrupted_simulation_keeps_whole_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    reports: list[tuple[float, int]] = []

    def press_ctrl_c_in_the_third_game(done: float, decisions: int) -> None:
        reports.append((done, decisions))
        if done > 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(simulate_module, "PROGRESS_EVERY", 0.0)
    result = simulate("citadels", 3, 10, bot_kinds=["easy"], on_progress=press_ctrl_c_in_the_third_game)
    assert result.interrupted and result.games == 2
    assert sum(result.wins) == pytest.approx(2)
    assert len(result.mean_scores) == 3
    fractions = [done for done, _ in reports if done != int(done)]
    assert fractions and all(1 < done < 3 for done in fractions)  # the bar moved during games 2 and 3
    decisions = [count for _, count in reports]
    assert decisions == sorted(decisions) and decisions[-1] > 0


def test_tournament_progress_counts_decisions_from_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr("meeple.tournament.PROGRESS_EVERY", 0.0)
    reports: list[tuple[float, int]] = []
    result = run_tournament("citadels", ["easy", "easy", "easy"], 6, seed=2, workers=2,
                            on_progress=lambda done, decisions: reports.append((done, decisions)))
    assert not result.interrupted and len(result.records) == 6
    assert reports[-1][0] == pytest.approx(6)
    assert reports[-1][1] == sum(record.decisions for record in result.records) > 0


@pytest.mark.parametrize("command", [["simulate", "toy", "--games", "3"],
                                     ["tournament", "toy", "--bots", "easy,easy", "--games", "3"]])
def test_a_command_run_in_process_gives_ctrl_c_back_when_it_returns(
        command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted command ignores a second Ctrl-C while it prints, and only until it returns: a test
    process (or a notebook) that ran it, and every process it starts later, must still stop on Ctrl-C."""
    from typer.testing import CliRunner

    from meeple import cli

    def pressed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_simulation", pressed)
    monkeypatch.setattr("meeple.tournament.run_tournament", pressed)
    before = signal.getsignal(signal.SIGINT)
    result = CliRunner().invoke(cli.app, command)
    assert result.exit_code == 130 and "interrupted: 0 of 3" in result.output
    assert signal.getsignal(signal.SIGINT) is before is not signal.SIG_IGN
