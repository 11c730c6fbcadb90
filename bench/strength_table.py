"""The strength table of docs/bots.md, read from the tournaments' results folders kept in the repository.

    python bench/strength_table.py                          # every run in bench/results/strength/
    python bench/strength_table.py /path/to/out /other/out  # any ``meeple tournament --out`` folders
    python bench/strength_table.py --glance                 # hard against medium, expert against hard: game × players

Prints a Markdown table, one line per run: the first entry of the lineup (the bot measured, e.g. hard
against three medium) with its wins, win share and 95% Wilson interval, against parity (one over the
player count), its mean score and the mean of the other entries' mean scores. Nothing is played: the rows
are read back and checked as ``meeple tournament --resume`` checks them, so the table says exactly what
the kept games say. ``--glance`` prints the same runs as one cell per game, pairing and player count (the
summary at the top of docs/bots.md). ``tests/test_strength_results.py`` checks that docs/bots.md shows
these lines.
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


#: The pairings of the summary: the level measured, the level in every other seat.
GLANCE_PAIRINGS = (("hard", "medium"), ("expert", "hard"))
GLANCE_PLAYERS = (2, 3, 4)
#: Runs of a level's earlier settings, kept for the record but not what the level plays now.
SUPERSEDED = {
    "caylus-expert-end-2p": "the expert with Caylus' rollouts played to the end",
    "palais_royal-expert-2p": "the expert with Palais Royal's rollouts cut after 30 decisions",
    "palais_royal-expert12-2p": "the expert with Palais Royal's rollouts cut after 12 decisions",
    "palais_royal-expert-flat-2p": "the expert with Palais Royal's candidates valued flat, by the heuristic's playouts",
    "palais_royal-cut12-2p": "hard with Palais Royal's rollouts cut after 12 decisions",
    "palais_royal-cut12-4p": "hard with Palais Royal's rollouts cut after 12 decisions",
    "caylus-expert-2p": "the expert growing one tree for its 4.5 s, before trees of hard's size",
    "palais_royal-expert-end-2p": "the expert growing one tree for its 4.5 s, before trees of hard's size",
}


def pairing(result: TournamentResult) -> tuple[str, str] | None:
    """(measured, others) when every seat but the first plays one level, else None."""
    measured, *others = result.kinds
    return (measured, others[0]) if others and len(set(others)) == 1 else None


def glance_cell(result: TournamentResult | None) -> str:
    if result is None:
        return "no kept run"
    measured = result.entries[0]
    low, high = measured.win_share_interval
    return f"**{measured.win_share:.1%}** of {measured.games} ({low:.1%}–{high:.1%})"


def glance_table(results: dict[str, TournamentResult]) -> list[str]:
    """One line per game and pairing, one cell per player count; at most one current run per cell."""
    cells: dict[tuple[str, tuple[str, str], int], TournamentResult] = {}
    for name, result in results.items():
        key = pairing(result)
        if name in SUPERSEDED or key not in GLANCE_PAIRINGS:
            continue
        cell = (result.game, key, len(result.kinds))
        if cell in cells:
            raise ValueError(f"two current runs of {cell}: mark one SUPERSEDED")
        cells[cell] = result
    games = sorted({result.game for result in results.values()})
    lines = ["| Game | Level against the others | "
             + " | ".join(f"{n} players (parity {1 / n:.0%})" for n in GLANCE_PLAYERS) + " |",
             "|---|---|" + "---|" * len(GLANCE_PLAYERS)]
    for game in games:
        for measured, others in GLANCE_PAIRINGS:
            row = [glance_cell(cells.get((game, (measured, others), n))) for n in GLANCE_PLAYERS]
            lines.append(f"| {game} | {measured} against {others} | " + " | ".join(row) + " |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="results folders (default: bench/results/strength/*)")
    parser.add_argument("--glance", action="store_true", help="one cell per game, pairing and player count")
    args = parser.parse_args(argv)
    folders = args.folders or run_folders()
    if args.glance:
        print("\n".join(glance_table({folder.name: read_results(folder) for folder in folders})))
        return
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    for folder in folders:
        print(table_line(folder.name, read_results(folder)))


if __name__ == "__main__":
    main()
