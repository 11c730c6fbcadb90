"""The ``meeple`` command end to end, through Typer's runner, on the toy game and on Citadels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.core import registry

runner = CliRunner()


@pytest.fixture(autouse=True)
def toy_registered() -> None:
    registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")


def test_games_lists_installed_games() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "toy" in result.output


def test_options_shows_defaults_and_presets() -> None:
    result = runner.invoke(app, ["options", "toy"])
    assert result.exit_code == 0, result.output
    assert "hand_size" in result.output and "preset short" in result.output


def test_unknown_game_is_a_clear_error() -> None:
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code != 0
    assert "unknown game 'chess'" in result.output


def test_simulate_reports_wins_scores_and_speed(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    result = runner.invoke(app, ["simulate", "toy", "--players", "3", "--games", "25", "--seed", "4",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "games per second" in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 25
    assert sum(data["wins"]) == pytest.approx(25)
    again = runner.invoke(app, ["simulate", "toy", "--players", "3", "--games", "25", "--seed", "4",
                                "--json", str(tmp_path / "again.json")])
    assert again.exit_code == 0
    assert json.loads((tmp_path / "again.json").read_text())["mean_scores"] == data["mean_scores"]


def test_simulate_refuses_bad_options() -> None:
    result = runner.invoke(app, ["simulate", "toy", "-o", "hand_size=5"])
    assert result.exit_code != 0
    assert "hand_size" in result.output


def test_play_reprompts_on_bad_input_and_finishes_the_game() -> None:
    moves = "zzz\n99\n" + "1\n" * 40
    result = runner.invoke(app, ["play", "toy", "--players", "2", "--seed", "3"], input=moves)
    assert result.exit_code == 0, result.output
    assert "is not a legal action" in result.output
    assert "choose a number from 1 to" in result.output
    assert "Final scores" in result.output


def test_play_quits_cleanly() -> None:
    result = runner.invoke(app, ["play", "toy", "--players", "2", "--seed", "3"], input="q\n")
    assert result.exit_code == 0
    assert "--seed 3" in result.output


def test_tournament_rotates_seats_and_writes_results(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "toy", "--bots", "ismcts,random,random", "--games", "12",
                                 "--workers", "2", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 12
    names = [entry["name"] for entry in summary["entries"]]
    assert names == ["ismcts", "random#1", "random#2"]
    assert sum(entry["wins"] for entry in summary["entries"]) == pytest.approx(12)
    rows = (tmp_path / "games.csv").read_text().splitlines()
    assert len(rows) == 13
    seats = {tuple(row.split(",")[4::4]) for row in rows[1:]}
    assert len(seats) == 3  # every entry sat in every seat


def test_tournament_is_reproducible_whatever_the_worker_count() -> None:
    from meeple.tournament import run_tournament

    one = run_tournament("toy", ["random", "random"], 10, seed=3, workers=1)
    two = run_tournament("toy", ["random", "random"], 10, seed=3, workers=2)
    assert one.to_json()["entries"] == two.to_json()["entries"]


def test_win_share_interval_is_wilson_and_honest_at_the_extremes() -> None:
    from meeple.tournament import EntryResult

    low, high = EntryResult("a", "a", games=200, wins=200.0).win_share_interval
    assert high == 1.0 and low == pytest.approx(0.9812, abs=1e-3)
    low, high = EntryResult("a", "a", games=100, wins=25.0).win_share_interval
    assert low == pytest.approx(0.1754, abs=1e-3) and high == pytest.approx(0.3430, abs=1e-3)
