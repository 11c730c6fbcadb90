"""The strength table of docs/bots.md, read from the tournaments' results folders kept in the repository.

    python bench/strength_table.py                          # every run in bench/results/strength/
    python bench/strength_table.py /path/to/out /other/out  # any ``meeple tournament --out`` folders

Prints a Markdown table, one line per run: the first entry of the lineup (the bot measured, e.g. hard
against three medium) with its wins, win share and 95% Wilson interval, against parity (one over the
player count), its mean score and the mean of the other entries' mean scores. Nothing is played: the rows
are read back and checked as ``meeple tournament --resume`` checks them, so the table says exactly what
the kept games say. ``tests/test_strength_results.py`` checks that docs/bots.md shows these lines.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "strength"
sys.path.insert(0, str(HERE.parent))

from meeple.tournament import TournamentResult, read_results  # noqa: E402

HEADER = ("| Run | Game | Players | Lineup | Games | Wins | Win share | Wilson 95% | Parity "
          "| Mean score | Others' mean score |")


def run_folders(root: Path = RESULTS) -> list[Path]:
    """The results folders under ``root`` (each holds a summary.json), by name."""
    return sorted(path.parent for path in root.glob("*/summary.json"))


def table_line(name: str, result: TournamentResult) -> str:
    """One run's line: the lineup's first entry against the rest."""
    measured, others = result.entries[0], result.entries[1:]
    low, high = measured.win_share_interval
    players = len(result.kinds)
    wins = f"{measured.wins:g}"
    others_mean = sum(entry.mean_score for entry in others) / len(others)
    return (f"| {name} | {result.game} | {players} | {','.join(result.kinds)} | {measured.games} | {wins} "
            f"| **{measured.win_share:.1%}** | {low:.1%}–{high:.1%} | {1 / players:.0%} "
            f"| {measured.mean_score:.2f} | {others_mean:.2f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="results folders (default: bench/results/strength/*)")
    args = parser.parse_args(argv)
    folders = args.folders or run_folders()
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    for folder in folders:
        print(table_line(folder.name, read_results(folder)))


if __name__ == "__main__":
    main()
