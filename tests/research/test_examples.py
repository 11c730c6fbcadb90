"""The examples parse and answer --help (running them trains for minutes: see docs/research.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.py"))


def test_there_are_examples() -> None:
    assert {p.name for p in EXAMPLES} >= {"train_maskable_ppo.py", "openspiel_ismcts.py"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_answers_help(path: Path) -> None:
    if path.name == "openspiel_ismcts.py":
        pytest.importorskip("pyspiel")
    done = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
