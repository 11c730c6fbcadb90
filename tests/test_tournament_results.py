"""A tournament's results folder (``--out``): games kept as they finish, so that Ctrl-C, SIGTERM or a
crash loses no finished game, and ``--resume`` plays only the games not yet there — with the same
table as one uninterrupted run."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli import app
from meeple.core.errors import IllegalAction
from meeple.tournament import (
    GAMES_CSV,
    MOVES_JSONL,
    SUMMARY_JSON,
    ResultsFolderError,
    read_moves,
    read_results,
    replay,
    run_tournament,
)
from tests.process_groups import assert_group_ends

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
GAME = "citadels"
LINEUP = ["medium", "easy", "easy"]


def _flat(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / GAMES_CSV).open(newline="") as handle:
        return [{key: value for key, value in row.items() if key != "seconds"} for row in csv.DictReader(handle)]


def _files(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(folder.iterdir())}


def test_a_resumed_tournament_has_the_games_and_table_of_one_uninterrupted_run(tmp_path: Path) -> None:
    whole = run_tournament(GAME, LINEUP, 12, seed=5, workers=1, out=tmp_path / "whole")
    run_tournament(GAME, LINEUP, 5, seed=5, workers=2, out=tmp_path / "parts")
    resumed = run_tournament(GAME, LINEUP, 12, seed=5, workers=2, out=tmp_path / "parts", resume=True)
    assert resumed.resumed == 5 and resumed.played_now == 7
    assert _rows(tmp_path / "parts") == _rows(tmp_path / "whole")
    assert [int(row["game"]) for row in _rows(tmp_path / "parts")] == list(range(12))  # by index at the end
    assert (tmp_path / "parts" / MOVES_JSONL).read_text() == (tmp_path / "whole" / MOVES_JSONL).read_text()
    summary = json.loads((tmp_path / "parts" / SUMMARY_JSON).read_text())
    assert summary["entries"] == whole.to_json()["entries"]  # win shares, scores and ratings alike
    assert summary["games"] == 12 and summary["resumed"] == 5 and summary["running"] is False
    # Asking again for as many games plays none and changes no result.
    again = run_tournament(GAME, LINEUP, 12, seed=5, out=tmp_path / "parts", resume=True)
    assert again.played_now == 0 and _rows(tmp_path / "parts") == _rows(tmp_path / "whole")


def test_a_results_folder_read_back_gives_the_table_of_its_run(tmp_path: Path) -> None:
    played = run_tournament(GAME, LINEUP, 6, seed=3, workers=1, out=tmp_path / "run")
    read = read_results(tmp_path / "run")
    assert read.to_json()["entries"] == played.to_json()["entries"]  # wins, scores and ratings alike
    assert [r.index for r in read.records] == list(range(6))
    kept = sorted(played.records, key=lambda r: r.index)
    assert [replace(r, seconds=round(r.seconds, 4)) for r in kept] == read.records  # times kept to 0.1 ms
    assert (read.game, read.kinds, read.seed, read.planned, read.code) == (GAME, LINEUP, 3, 6, played.code)
    # A run still going (its summary says so) is read as far as it got, a torn last row left out.
    table = tmp_path / "run" / GAMES_CSV
    table.write_text(table.read_text() + "6,9,12")
    assert len(read_results(tmp_path / "run").records) == 6


def test_every_game_of_a_folder_plays_again_from_its_kept_moves_to_its_row(tmp_path: Path) -> None:
    played = run_tournament(GAME, ["medium", "easy", "medium"], 6, seed=11, workers=2, out=tmp_path)
    assert all(not record.moves for record in played.records)  # in the folder, not held in memory
    result = read_results(tmp_path)
    games = read_moves(tmp_path)
    assert [game.index for game in games] == list(range(6))
    for game, record in zip(games, result.records, strict=True):
        assert (game.seed, game.seat_of_entry, len(game.moves)) == (record.seed, record.seat_of_entry, record.actions)
        final = replay(result, game)
        assert final.is_over
        assert tuple(final.scores()[seat] for seat in game.seat_of_entry) == record.scores
    # a move that does not fit the game is refused by the engine, not passed over
    forged = replace(games[0], moves=(*games[0].moves[:3], "not-a-move"))
    with pytest.raises(IllegalAction, match="not-a-move"):
        replay(result, forged)


def test_reading_a_folder_that_holds_no_tournament_says_why(tmp_path: Path) -> None:
    with pytest.raises(ResultsFolderError, match=r"summary\.json"):
        read_results(tmp_path)
    run_tournament(GAME, LINEUP, 2, seed=1, workers=1, out=tmp_path / "run")
    (tmp_path / "run" / GAMES_CSV).unlink()
    with pytest.raises(ResultsFolderError, match=r"games\.csv is missing"):
        read_results(tmp_path / "run")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / SUMMARY_JSON).write_text('{"game": "citadels"}')
    with pytest.raises(ResultsFolderError, match="bots"):
        read_results(tmp_path / "bad")


def test_resume_continues_an_older_table_without_the_decisions_column(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    run_tournament(GAME, LINEUP, 4, seed=1, workers=1, out=folder)
    with (folder / GAMES_CSV).open(newline="") as handle:
        rows = list(csv.reader(handle))
    decisions = rows[0].index("decisions")
    with (folder / GAMES_CSV).open("w", newline="") as handle:  # as tables were written before that column
        csv.writer(handle).writerows([row[:decisions] + row[decisions + 1:] for row in rows])
    resumed = run_tournament(GAME, LINEUP, 6, seed=1, workers=1, out=folder, resume=True)
    assert resumed.resumed == 4 and len(resumed.records) == 6
    assert [int(row["game"]) for row in _rows(folder)] == list(range(6))


@pytest.mark.parametrize(("change", "message"), [
    ({"kinds": ["medium", "easy", "medium"]}, "bots medium,easy,easy there, medium,easy,medium here"),
    ({"seed": 2}, "seed 1 there, 2 here"),
    ({"budget_clock": "cpu"}, 'budget_clock "wall" there, "cpu" here'),
    ({"games": 3}, "already holds game 4: ask for at least --games 4"),
])
def test_resume_refuses_another_tournament_and_changes_nothing(tmp_path: Path, change: dict[str, object],
                                                               message: str) -> None:
    run_tournament(GAME, LINEUP, 4, seed=1, workers=1, out=tmp_path)
    before = _files(tmp_path)
    arguments: dict[str, object] = {"kinds": LINEUP, "games": 6, "seed": 1, **change}
    with pytest.raises(ResultsFolderError, match=message.replace("(", r"\(")):
        run_tournament(GAME, out=tmp_path, resume=True, workers=1, **arguments)  # type: ignore[arg-type]
    assert _files(tmp_path) == before


def test_a_folder_with_results_is_not_overwritten_without_resume(tmp_path: Path) -> None:
    run_tournament(GAME, LINEUP, 3, seed=1, workers=1, out=tmp_path)
    before = _files(tmp_path)
    result = runner.invoke(app, ["tournament", GAME, "--bots", ",".join(LINEUP), "--games", "3",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "already holds the results of 3 games of a tournament: --resume continues it" in _flat(result.output)
    assert _files(tmp_path) == before
    missing = runner.invoke(app, ["tournament", GAME, "--bots", ",".join(LINEUP), "--resume"])
    assert missing.exit_code == 2 and "--resume continues the results kept in --out" in _flat(missing.output)


def test_a_folder_that_cannot_be_written_is_refused_before_any_game(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a folder")
    result = runner.invoke(app, ["tournament", GAME, "--bots", ",".join(LINEUP), "--games", "2", "--out", str(taken)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "cannot keep the results in" in _flat(result.output) and "File exists" in _flat(result.output)
    assert taken.read_text() == "not a folder"


def test_a_row_torn_by_a_crash_is_played_again(tmp_path: Path) -> None:
    run_tournament(GAME, LINEUP, 4, seed=1, workers=1, out=tmp_path)
    complete = _rows(tmp_path)
    text = (tmp_path / GAMES_CSV).read_text()
    (tmp_path / GAMES_CSV).write_text(text[: text.rstrip("\n").rfind("\n") + 6])  # the last row cut short
    moves = (tmp_path / MOVES_JSONL).read_text()
    (tmp_path / MOVES_JSONL).write_text(moves + '{"game": 4, "seed": 5, "mo')  # and a line cut short
    resumed = run_tournament(GAME, LINEUP, 4, seed=1, workers=1, out=tmp_path, resume=True)
    assert resumed.resumed == 3 and resumed.played_now == 1
    assert _rows(tmp_path) == complete
    assert (tmp_path / MOVES_JSONL).read_text() == moves  # the game played again once, the torn line gone


def test_a_forged_row_is_refused_in_words(tmp_path: Path) -> None:
    run_tournament(GAME, LINEUP, 3, seed=1, workers=1, out=tmp_path)
    lines = (tmp_path / GAMES_CSV).read_text().splitlines(keepends=True)
    cells = lines[2].split(",")
    cells[1] = "99"  # game 1 claims another seed
    (tmp_path / GAMES_CSV).write_text("".join([*lines[:2], ",".join(cells), *lines[3:]]))
    with pytest.raises(ResultsFolderError, match="line 3: game 1 has seed 99"):
        run_tournament(GAME, LINEUP, 5, seed=1, workers=1, out=tmp_path, resume=True)


def _start_in_background(folder: Path) -> subprocess.Popen[str]:
    """``meeple tournament`` as a script's background job starts it: SIGINT ignored (POSIX shells do this
    to ``cmd &``), so only SIGTERM can stop it."""
    command = [sys.executable, "-c", "import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
               "sys.argv[0] = 'meeple'; from meeple.cli import app; app()",
               "tournament", "citadels", "--players", "3", "--bots", "easy", "--games", "1000000", "--workers", "2",
               "--out", str(folder)]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, "COLUMNS": "200"})


def _wait_for_rows(folder: Path, process: subprocess.Popen[str], rows: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if (folder / GAMES_CSV).exists() and len((folder / GAMES_CSV).read_text().splitlines()) > rows:
            return
        time.sleep(0.1)
    raise AssertionError("no games were written")


def test_sigterm_stops_a_background_tournament_keeping_every_finished_game(tmp_path: Path) -> None:
    process = _start_in_background(tmp_path)
    try:
        _wait_for_rows(tmp_path, process, 50)
        os.kill(process.pid, signal.SIGINT)  # ignored, as in a background job
        time.sleep(0.5)
        assert process.poll() is None
        os.kill(process.pid, signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert_group_ends(process)  # no worker process is left behind
    assert process.returncode == 130
    assert "Traceback" not in err
    finished = int(out.split("interrupted: ")[1].split(" of ")[0])
    summary = json.loads((tmp_path / SUMMARY_JSON).read_text())
    assert summary["games"] == finished and summary["interrupted"] is True and summary["running"] is False
    kept = {int(row["game"]) for row in _rows(tmp_path)}  # the games in progress may leave gaps
    assert len(kept) == len(_rows(tmp_path)) == finished
    planned = max(kept) + 41
    resumed = run_tournament("citadels", ["easy"] * 3, planned, seed=1, workers=1, out=tmp_path, resume=True)
    assert resumed.resumed == finished and resumed.played_now == planned - finished
    assert sorted(int(row["game"]) for row in _rows(tmp_path)) == list(range(planned))


def test_a_killed_tournament_keeps_the_games_written_before_the_crash(tmp_path: Path) -> None:
    process = _start_in_background(tmp_path)
    try:
        _wait_for_rows(tmp_path, process, 50)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # no chance to write anything more
        process.communicate(timeout=30)
    summary = json.loads((tmp_path / SUMMARY_JSON).read_text())
    assert summary["running"] is True and summary["bots"] == ["easy"] * 3  # the settings, from the start
    kept = len((tmp_path / GAMES_CSV).read_text().splitlines()) - 1
    assert kept >= 50
    with_moves = {game.index for game in read_moves(tmp_path)}
    assert {int(row["game"]) for row in _rows(tmp_path)} <= with_moves  # a game's moves are written before its row
    resumed = run_tournament("citadels", ["easy"] * 3, 1_000_000, seed=1, workers=1, out=tmp_path, resume=True,
                             on_progress=_stop_after_one)
    assert kept - 1 <= resumed.resumed <= kept  # a last row torn by the kill is played again
    assert resumed.interrupted


def _stop_after_one(games: float, decisions: int) -> None:
    raise KeyboardInterrupt
