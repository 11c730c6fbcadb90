"""The engine plays every golden seeded random game exactly as the unoptimised engine did (tests/games/golden.py)."""

from __future__ import annotations

from tests.games.golden import cases, expected_digests, mismatches


def test_golden_file_covers_every_case() -> None:
    assert len(expected_digests("citadels")) == len(cases("citadels"))


def test_random_playouts_match_the_golden_digests() -> None:
    assert mismatches("citadels") == []
