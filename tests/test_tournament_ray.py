"""``meeple tournament --ray``: the games played on a Ray instance give the local pool's results, game for
game; the command starts a local Ray quietly and stops it, a Ctrl-C stops it at once with the finished
games reported; without Ray the flag says how to install it.

The tests that start Ray run the real command in a process of its own (Ray then leaves nothing in the
test process) and are skipped when Ray is not installed."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple import cli, tournament
from meeple.cli import app
from meeple.tournament import LOCAL_RAY, RayUnavailable, run_tournament
from tests.process_groups import assert_group_ends

pytestmark = pytest.mark.xdist_group("ray")  # see pyproject.toml

ROOT = Path(__file__).resolve().parents[1]
RAY_EXITS_WITHIN = 30.0  # Ray's raylet and GCS took over 10 s to exit on a loaded machine
READY_WITHIN = 120.0  # seconds for the command to start a local Ray (about 10 s on an idle 2-core machine)

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="Ray is not installed: pip install 'meeple[ray]'")
runner = CliRunner()


def _start(*args: str) -> subprocess.Popen[str]:
    """``meeple ARGS`` in its own process group (as a terminal runs it), output captured."""
    return subprocess.Popen([sys.executable, "-m", "meeple.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "COLUMNS": "200"})


def _wait_for_ready(process: subprocess.Popen[str]) -> str:
    """The line the command prints once Ray is up (it comes before any other output)."""
    assert process.stdout is not None
    stdout, lines = process.stdout, []
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(READY_WITHIN)
    assert lines and lines[0].startswith("Ray: "), f"no Ray within {READY_WITHIN:.0f} s: {lines}"
    return lines[0]


def _per_game(games_csv: Path) -> list[dict[str, str]]:
    """games.csv without the one column that may differ: the seconds each game took."""
    with games_csv.open() as handle:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)]


def _table(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("┃", "│", "┏", "└")) or " games, seats" in line]


@needs_ray
def test_a_tournament_on_a_local_ray_gives_the_local_results_game_for_game(tmp_path: Path) -> None:
    command = ["tournament", "caylus", "--bots", "easy,medium", "--games", "6", "--seed", "11"]
    process = _start(*command, "--ray", "--out", str(tmp_path / "ray"))
    try:
        out, err = process.communicate(timeout=READY_WITHIN + 60)
    finally:
        assert_group_ends(process, RAY_EXITS_WITHIN)  # Ray stopped with the command
    assert process.returncode == 0, (out, err)
    assert out.startswith("Ray: a local instance for this run, ")
    assert "Traceback" not in err and "INFO" not in err  # Ray started quietly

    width = cli.console.width
    cli.console.width = 200
    try:
        local = runner.invoke(app, [*command, "--workers", "2", "--out", str(tmp_path / "local")])
    finally:
        cli.console.width = width
    assert local.exit_code == 0, local.output

    ray_games, local_games = _per_game(tmp_path / "ray" / "games.csv"), _per_game(tmp_path / "local" / "games.csv")
    assert len(ray_games) == 6 and ray_games == local_games
    ray_summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    local_summary = json.loads((tmp_path / "local" / "summary.json").read_text())
    assert ray_summary["runner"] == "ray" and local_summary["runner"] == "processes"
    assert ray_summary["entries"] == local_summary["entries"]
    assert _table(out) == _table(local.output) and len(_table(out)) >= 6


@needs_ray
def test_ctrl_c_stops_a_ray_tournament_at_once_and_reports_the_finished_games() -> None:
    process = _start("tournament", "citadels", "--players", "3", "--bots", "easy", "--games", "1000000", "--ray")
    try:
        _wait_for_ready(process)
        time.sleep(4)  # the first tasks start their worker processes, then games finish by the hundred
        pressed = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: Ray's processes get it too
        out, err = process.communicate(timeout=60)
        stopped = time.monotonic() - pressed
    finally:
        assert_group_ends(process, RAY_EXITS_WITHIN)
    assert process.returncode == 130, (out, err)
    assert stopped < 10  # cancelling the tasks and stopping the local Ray take a second or two
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    finished = int(out.split("interrupted: ")[1].split(" of 1000000")[0])
    if finished:  # on a very slow machine no game may have finished yet
        assert "their results follow" in out and f"Citadels: {finished} games" in out


# --- without starting Ray ---------------------------------------------------------------------------


def test_without_ray_the_flag_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a))
    result = runner.invoke(app, ["tournament", "caylus", "--bots", "easy,medium", "--games", "2", "--ray"])
    assert result.exit_code == 2
    assert "Ray is not installed here; install it with pip install 'meeple[ray]'" in " ".join(
        result.output.replace("│", " ").split())
    with pytest.raises(RayUnavailable, match=r"meeple\[ray\]"):
        run_tournament("caylus", ["easy", "easy"], 2, ray_address=LOCAL_RAY)


@pytest.mark.parametrize(("args", "address"), [
    (["caylus", "--bots", "easy,medium", "--ray"], LOCAL_RAY),
    (["caylus", "--ray", "--bots", "easy,medium"], LOCAL_RAY),
    (["--ray", "caylus", "--bots", "easy,medium"], LOCAL_RAY),  # a game name is not an address
    (["caylus", "--bots", "easy,medium", "--ray", "auto"], "auto"),
    (["caylus", "--bots", "easy,medium", "--ray", "head.example:6379"], "head.example:6379"),
    (["caylus", "--bots", "easy,medium", "--ray=ray://head.example:10001"], "ray://head.example:10001"),
    (["caylus", "--bots", "easy,medium"], None),
])
def test_the_ray_flag_takes_an_address_only_when_it_looks_like_one(
        monkeypatch: pytest.MonkeyPatch, args: list[str], address: str | None) -> None:
    asked: list[str | None] = []

    def run(*_: Any, ray_address: str | None = None, **__: Any) -> None:
        asked.append(ray_address)
        raise KeyboardInterrupt  # enough: the command reports an interruption before any game

    monkeypatch.setattr(tournament, "require_ray", lambda: None)
    monkeypatch.setattr(tournament, "run_tournament", run)
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == 130, result.output
    assert asked == [address]


def test_a_node_with_other_code_refuses_to_play() -> None:
    with pytest.raises(RayUnavailable, match="is not the code that started the tournament"):
        tournament._play_ray_chunk([("caylus", ["easy", "easy"], 0, 1, {})], None, "0" * 16)
    no_tally = SimpleNamespace(add=SimpleNamespace(remote=lambda count: None))
    assert tournament._play_ray_chunk([], no_tally, tournament.code_fingerprint()) == []
