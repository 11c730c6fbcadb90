"""The tournaments kept in ``bench/results/strength/`` are whole and say what docs/bots.md says of them.

Each folder is what ``meeple tournament --out`` left (its rows checked as ``--resume`` checks them), its
summary's table is the one its rows give (a row edited by hand would show), and docs/bots.md carries the
line ``bench/strength_table.py`` prints for it, so the published figures are the kept games' figures.
The games whose moves a folder keeps (those played since 2026-11-28) play again to the scores of their rows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.tournament import SUMMARY_JSON, TournamentResult, read_moves, read_results, replay
from tests.bench_modules import bench_module

ROOT = Path(__file__).resolve().parents[1]


strength_table = bench_module("strength_table")
RUNS = strength_table.run_folders()


def test_the_repository_keeps_its_strength_runs() -> None:
    assert RUNS, "bench/results/strength/ holds no tournament"
    assert (ROOT / "bench" / "results" / "strength" / "README.md").exists()


@pytest.mark.parametrize("folder", RUNS, ids=[folder.name for folder in RUNS])
def test_a_kept_run_is_whole_and_docs_show_its_line(folder: Path) -> None:
    result = read_results(folder)
    summary = json.loads((folder / SUMMARY_JSON).read_text())
    assert summary["running"] is False, "a run is kept once stopped (its summary then holds its table)"
    assert summary["games"] == len(result.records) > 0
    assert summary["entries"] == result.to_json()["entries"]
    docs = (ROOT / "docs" / "bots.md").read_text()
    assert strength_table.table_line(folder.name, result) in docs
    readme = (folder.parent / "README.md").read_text()
    assert f"`{folder.name}`" in readme, "the README says how each run was played"


@pytest.mark.parametrize("folder", RUNS, ids=[folder.name for folder in RUNS])
def test_the_kept_moves_of_a_run_play_again_to_its_rows(folder: Path) -> None:
    result = read_results(folder)
    rows = {record.index: record for record in result.records}
    games = read_moves(folder)
    if not games:
        pytest.skip(f"{folder.name}'s games were all played before moves were kept")
    assert {game.index for game in games} <= set(rows), "moves only for the games of the table"
    for game in games:
        row = rows[game.index]
        final = replay(result, game)
        assert final.is_over and len(game.moves) == row.actions
        assert tuple(final.scores()[seat] for seat in game.seat_of_entry) == row.scores, f"game {game.index}"


@pytest.fixture(scope="module")
def kept_results() -> dict[str, TournamentResult]:
    """Every kept run by its folder's name, read once for the summary's tests."""
    return {folder.name: read_results(folder) for folder in RUNS}


def test_docs_show_the_summary_of_the_kept_runs(kept_results: dict[str, TournamentResult]) -> None:
    docs = (ROOT / "docs" / "bots.md").read_text()
    for line in strength_table.glance_table(kept_results):
        assert line in docs, f"docs/bots.md's summary lacks or differs from: {line}"


def test_a_cell_of_the_summary_holds_one_current_run(kept_results: dict[str, TournamentResult]) -> None:
    twice = dict(kept_results, **{"copy-" + name: result for name, result in kept_results.items()})
    with pytest.raises(ValueError, match="two current runs"):
        strength_table.glance_table(twice)
