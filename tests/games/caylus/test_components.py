"""Component lists checked against the rulebook totals (rules §1.1, §1.3, §1.5, §1.6, §2.9)."""

from __future__ import annotations

from meeple.games.caylus.data import (
    FAVOUR_CAP,
    FAVOUR_TABLE,
    FIXED_SPACES,
    LOTS,
    NEUTRAL,
    PRESTIGE,
    RESIDENCE,
    SECTION_MARK,
    SECTION_PP,
    SECTION_SCORING,
    SECTION_SIZE,
    STONE,
    TILES,
    WOOD,
    WORKERS,
)


def _tiles(kind: int, jeweller: bool = False) -> list[object]:
    return [t for t in TILES for _ in range(t.copies) if t.kind == kind and (jeweller or t.slug != "jeweller")]


def test_forty_building_tiles() -> None:
    """§1.1: 6 neutral, 8 wood, 9 stone, 8 residential (unlimited in play), 9 prestige = 40."""
    counts = {kind: len(_tiles(kind)) for kind in (NEUTRAL, WOOD, STONE, PRESTIGE)}
    assert counts == {NEUTRAL: 6, WOOD: 8, STONE: 9, PRESTIGE: 9}
    assert sum(counts.values()) + 8 == 40
    assert [t.slug for t in TILES if t.kind == RESIDENCE] == ["residence"]
    assert len(_tiles(STONE, jeweller=True)) == 10


def test_prestige_and_favour_totals() -> None:
    """§1.5 totals: wood 24 PP, stone 42 (48 with the Jeweller) and 1 favour, prestige 122 PP and 5 favours."""
    assert sum(t.prestige for t in _tiles(WOOD)) == 24  # type: ignore[attr-defined]
    assert sum(t.prestige for t in _tiles(STONE)) == 42  # type: ignore[attr-defined]
    assert sum(t.prestige for t in _tiles(STONE, jeweller=True)) == 48  # type: ignore[attr-defined]
    assert sum(t.favours for t in _tiles(STONE)) == 1  # type: ignore[attr-defined]
    assert sum(t.prestige for t in _tiles(PRESTIGE)) == 122  # type: ignore[attr-defined]
    assert sum(t.favours for t in _tiles(PRESTIGE)) == 5  # type: ignore[attr-defined]
    assert [t.slug for t in TILES if t.copies == 2] == ["architect"]


def test_road_layout() -> None:
    """§1.3: 28 spaces, fixed buildings on 7, 8, 16; 19 lots; marks 12, 18, 24."""
    assert len(LOTS) == 19 and LOTS[0] == 9 and LOTS[-1] == 28 and 16 not in LOTS
    assert {s: TILES[t].slug for s, t in FIXED_SPACES.items()} == {7: "f_peddler", 8: "f_carpenter",
                                                                   16: "gold_mine"}
    assert SECTION_MARK == (12, 18, 24)


def test_castle_and_favour_table() -> None:
    """§1.6, §2.8, §2.9: sections 6/10/14 worth 5/4/3; 4 rows × 5 columns; caps 2, 4, 5."""
    assert SECTION_SIZE == (6, 10, 14) and SECTION_PP == (5, 4, 3)
    assert SECTION_SCORING[0][0] == -2 and SECTION_SCORING[1][0] == -3 and SECTION_SCORING[2][0] == -4
    assert SECTION_SCORING[1][2:] == (1, 2, 2, 3, 3) and SECTION_SCORING[2][2:] == (1, 1, 2, 2, 3)
    assert len(FAVOUR_TABLE) == 4 and all(len(row) == 5 for row in FAVOUR_TABLE)
    assert FAVOUR_CAP[:3] == (2, 4, 5)
    assert WORKERS == 6
