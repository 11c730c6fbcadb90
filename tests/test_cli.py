"""The ``meeple`` command end to end, through Typer's runner, on the toy game, Citadels and Burgundy."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple import cli
from meeple.cli import app
from meeple.core import registry

runner = CliRunner()


@pytest.fixture(autouse=True)
def toy_registered() -> None:
    registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")


@pytest.fixture(autouse=True)
def wide_console() -> Iterator[None]:
    """A wide console, so that sentences are not wrapped across lines in the captured output."""
    width = cli.console.width
    cli.console.width = 200
    yield
    cli.console.width = width


def _panels(output: str, title: str) -> list[str]:
    """The text inside every panel with this title (its lines, box edges removed)."""
    found = []
    for part in output.split(f"─ {title} ")[1:]:
        lines = []
        for line in part.splitlines()[1:]:
            if line.startswith("╰"):
                break
            lines.append(line.strip("│ "))
        found.append("\n".join(lines))
    return found


def _flat(output: str) -> str:
    """The output with box edges and line breaks folded away, for messages Typer draws in a box."""
    return " ".join(output.replace("│", " ").split())


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
    result = runner.invoke(app, ["play", "toy", "--players", "2", "--seed", "3", "--bots", "easy"], input=moves)
    assert result.exit_code == 0, result.output
    assert "is not a legal action" in result.output
    assert "choose a number from 1 to" in result.output
    assert "Final scores" in result.output


def test_play_quits_cleanly() -> None:
    result = runner.invoke(app, ["play", "toy", "--players", "2", "--seed", "3", "--bots", "easy"], input="q\n")
    assert result.exit_code == 0
    assert "--seed 3" in result.output


def test_tournament_rotates_seats_and_writes_results(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "toy", "--bots", "hard,easy,easy", "--games", "12",
                                 "--workers", "2", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 12 and summary["interrupted"] is False
    names = [entry["name"] for entry in summary["entries"]]
    assert names == ["hard", "easy#1", "easy#2"]
    assert sum(entry["wins"] for entry in summary["entries"]) == pytest.approx(12)
    with (tmp_path / "games.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(int(row["game"]) for row in rows) == list(range(12))
    seats = {tuple(row[f"{name}:seat"] for name in names) for row in rows}
    assert len(seats) == 3  # every entry sat in every seat


def test_tournament_is_reproducible_whatever_the_worker_count() -> None:
    from meeple.tournament import run_tournament

    one = run_tournament("toy", ["easy", "easy"], 10, seed=3, workers=1)
    two = run_tournament("toy", ["easy", "easy"], 10, seed=3, workers=2)
    assert one.to_json()["entries"] == two.to_json()["entries"]


def test_the_tournament_budget_clock_is_offered_checked_and_recorded(tmp_path: Path) -> None:
    assert "--budget-clock" in runner.invoke(app, ["tournament", "--help"]).output
    wrong = runner.invoke(app, ["tournament", "toy", "--bots", "easy,easy", "--budget-clock", "gpu"])
    assert wrong.exit_code != 0
    assert "'gpu' is not one of wall, cpu" in _flat(wrong.output)
    result = runner.invoke(app, ["tournament", "toy", "--bots", "hard,easy", "--games", "2", "--workers", "1",
                                 "--budget-clock", "cpu", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["budget_clock"] == "cpu" and summary["games"] == 2


def test_win_share_interval_is_wilson_and_honest_at_the_extremes() -> None:
    from meeple.tournament import EntryResult

    low, high = EntryResult("a", "a", games=200, wins=200.0).win_share_interval
    assert high == 1.0 and low == pytest.approx(0.9812, abs=1e-3)
    low, high = EntryResult("a", "a", games=100, wins=25.0).win_share_interval
    assert low == pytest.approx(0.1754, abs=1e-3) and high == pytest.approx(0.3430, abs=1e-3)


# --- bot levels -------------------------------------------------------------------------------------


def test_one_level_fills_every_seat_and_old_names_still_work(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "toy", "--players", "3", "--bots", "random", "--games", "6",
                                 "--workers", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["bots"] == ["easy", "easy", "easy"]
    assert [entry["name"] for entry in summary["entries"]] == ["easy#1", "easy#2", "easy#3"]


def test_a_tournament_lineup_of_the_wrong_size_is_refused_in_words() -> None:
    result = runner.invoke(app, ["tournament", "caylus", "--players", "4", "--bots", "medium,easy,easy"])
    assert result.exit_code != 0
    assert ("--bots lists 3 bots for 4 players: give one level for every seat, or one level for all"
            in _flat(result.output))


def test_simulate_reads_bots_the_same_way(tmp_path: Path) -> None:
    wrong = runner.invoke(app, ["simulate", "toy", "--players", "3", "--bots", "easy,hard"])
    assert wrong.exit_code != 0
    assert "--bots lists 2 bots for 3 players" in _flat(wrong.output)
    out = tmp_path / "sim.json"
    listed = runner.invoke(app, ["simulate", "toy", "--bots", "easy,random,easy", "--games", "4", "--json", str(out)])
    assert listed.exit_code == 0, listed.output
    assert json.loads(out.read_text())["bots"] == ["easy", "easy", "easy"]  # three players: the list's length
    unknown = runner.invoke(app, ["simulate", "toy", "--bots", "grandmaster"])
    assert unknown.exit_code != 0 and "the levels are easy, medium, hard" in _flat(unknown.output)


def test_play_names_its_opponents_by_level_and_counts_bot_seats() -> None:
    result = runner.invoke(app, ["play", "citadels", "--players", "3", "--seed", "2"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "against Bot 2 (medium), Bot 3 (medium)" in result.output  # medium is the default
    wrong = runner.invoke(app, ["play", "citadels", "--players", "4", "--bots", "easy,hard"], input="q\n")
    assert wrong.exit_code != 0
    assert "--bots lists 2 bots for 3 bot seats" in _flat(wrong.output)


# --- meeple play ------------------------------------------------------------------------------------


def test_play_citadels_tells_the_log_in_sentences_and_plays_forced_moves() -> None:
    result = runner.invoke(app, ["play", "citadels", "--players", "3", "--seed", "3"], input="1\n" * 300)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Round 1 begins; Player 1 has the crown." in out
    assert "Bot 2 picks a character." in out and "Bot 3 picks a character." in out
    assert re.search(r"Bot [23] (takes \d+ gold|draws \d cards|builds \w+)", out)
    assert re.search(r"You picked the \w+ \(from ", out)  # what only this seat saw
    assert "face_up_discards(" not in out and "event=" not in out and "pick:" not in out.split("your move")[-1]
    assert "Your only move, played for you: End your turn" in out
    # Each turn begins with what happened since the last decision, so nothing is told twice.
    assert out.count("Round 1 begins; Player 1 has the crown.") == 1
    assert "Since your last move" in out and "Final scores" in out


def test_confirm_forced_asks_for_every_decision() -> None:
    moves = "1\n" * 400
    auto = runner.invoke(app, ["play", "citadels", "--players", "3", "--seed", "3"], input=moves)
    asked = runner.invoke(app, ["play", "citadels", "--players", "3", "--seed", "3", "--confirm-forced"],
                          input=moves)
    assert asked.exit_code == 0, asked.output
    assert "Your only move" not in asked.output
    forced = auto.output.count("Your only move, played for you")
    assert forced > 0
    assert asked.output.count("your move (") == auto.output.count("your move (") + forced


def test_play_burgundy_reads_as_sentences_and_plays_forced_moves() -> None:
    result = runner.invoke(app, ["play", "burgundy", "--players", "2", "--seed", "3"], input="1\n" * 10 + "q\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"Bot 2 (takes|places|sells|uses a \d)", out)
    assert "Setup: turn order" in out
    assert re.search(r"Your only move, played for you: (Use die \d|End turn)", out)
    news = "\n".join(_panels(out, "Since your last move"))
    assert "Bot 2 uses a" in news
    assert not re.search(r"event=|\bK\d\d\b|\b[AB]\.[a-z]|\{\w+\}", news)


def test_the_whole_log_on_request() -> None:
    result = runner.invoke(app, ["play", "citadels", "--players", "3", "--seed", "3"],
                           input="1\n1\nlog\nlog 1\nq\n")
    assert result.exit_code == 0, result.output
    whole, last = _panels(result.output, "Log")
    assert "Round 1 begins; Player 1 has the crown." in whole and "Bot 3 picks a character." in whole
    assert "Only you saw" in whole and "You picked the" in whole
    assert "Round 1 begins" not in last and len(last.splitlines()) <= 4  # one public line, one private
