"""Caylus components as data, read off the reference (rules/caylus.md §1): tiles, road, castle, favours.

Cubes are always 5-tuples of counts in the order food, wood, stone, cloth, gold (``f w s c g``).
Tiles are numbered by their position in ``TILES``; the state stores those numbers.
"""

from __future__ import annotations

from typing import Final, NamedTuple, TypeAlias

CUBES: Final = "fwscg"
F: Final = 0
W: Final = 1
S: Final = 2
C: Final = 3
G: Final = 4
PLAIN: Final = (F, W, S, C)

Cubes: TypeAlias = tuple[int, int, int, int, int]


def cubes(text: str) -> Cubes:
    """``"fws"`` -> ``(1, 1, 1, 0, 0)``: cube strings as written in the notation."""
    counts = [0, 0, 0, 0, 0]
    for letter in text:
        counts[CUBES.index(letter)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def cube_text(counts: Cubes | list[int]) -> str:
    """The inverse of ``cubes``: counts back to a sorted cube string."""
    return "".join(CUBES[k] * counts[k] for k in range(5))


# Tile kinds.
NEUTRAL: Final = 0
FIXED: Final = 1
WOOD: Final = 2
STONE: Final = 3
RESIDENCE: Final = 4
PRESTIGE: Final = 5
KIND_NAMES: Final = ("neutral", "fixed", "wood", "stone", "residential", "prestige")

# Worker effects (phase 5).
E_NONE: Final = 0
E_PRODUCE: Final = 1
E_PRODUCE_BONUS: Final = 2
E_MARKET: Final = 3
E_PEDDLER: Final = 4
E_CARPENTER: Final = 5
E_MASON: Final = 6
E_ARCHITECT: Final = 7
E_LAWYER: Final = 8
E_CHURCH: Final = 9
E_TAILOR: Final = 10
E_BANK: Final = 11
E_ALCHEMIST: Final = 12
E_JEWELLER: Final = 13


class Tile(NamedTuple):
    """One kind of building tile, as printed (§1.5)."""

    slug: str
    name: str
    kind: int
    cost: Cubes
    any_cube: bool  # the cost also holds "1 any cube", named by the builder
    prestige: int
    favours: int
    effect: int
    copies: int  # in the stock at setup (neutral: on the road; residence: unlimited)
    income: int  # extra deniers in phase 1
    produce: tuple[Cubes, ...] = ()  # production choices (one element: no choice)
    bonus: tuple[int, ...] = ()  # the owner's bracketed pair on stone production buildings


_: Final = cubes("")
TILES: Final[tuple[Tile, ...]] = (
    # Neutral: 6 pink tiles, shuffled onto spaces 1–6.
    Tile("n_farm", "Farm", NEUTRAL, _, False, 0, 0, E_PRODUCE, 1, 0, (cubes("f"), cubes("c"))),
    Tile("n_forest", "Forest", NEUTRAL, _, False, 0, 0, E_PRODUCE, 1, 0, (cubes("w"), cubes("f"))),
    Tile("n_sawmill", "Sawmill", NEUTRAL, _, False, 0, 0, E_PRODUCE, 1, 0, (cubes("w"),)),
    Tile("n_quarry", "Quarry", NEUTRAL, _, False, 0, 0, E_PRODUCE, 1, 0, (cubes("s"),)),
    Tile("n_market", "Marketplace", NEUTRAL, _, False, 0, 0, E_MARKET, 1, 0),
    Tile("n_carpenter", "Carpenter", NEUTRAL, _, False, 0, 0, E_CARPENTER, 1, 0),
    # Fixed: printed on the board.
    Tile("f_peddler", "Peddler", FIXED, _, False, 0, 0, E_PEDDLER, 0, 0),
    Tile("f_carpenter", "Carpenter", FIXED, _, False, 0, 0, E_CARPENTER, 0, 0),
    Tile("gold_mine", "Gold mine", FIXED, _, False, 0, 0, E_PRODUCE, 0, 0, (cubes("g"),)),
    # Wood: 8 brown tiles.
    Tile("w_farm_food", "Farm (food)", WOOD, cubes("fw"), False, 2, 0, E_PRODUCE, 1, 0,
                (cubes("ff"), cubes("c"))),
    Tile("w_farm_cloth", "Farm (cloth)", WOOD, cubes("fw"), False, 2, 0, E_PRODUCE, 1, 0,
                (cubes("cc"), cubes("f"))),
    Tile("w_sawmill", "Sawmill", WOOD, cubes("fw"), False, 2, 0, E_PRODUCE, 1, 0, (cubes("ww"),)),
    Tile("w_quarry", "Quarry", WOOD, cubes("fw"), False, 2, 0, E_PRODUCE, 1, 0, (cubes("ss"),)),
    Tile("w_market", "Marketplace", WOOD, cubes("w"), True, 4, 0, E_MARKET, 1, 0),
    Tile("w_peddler", "Peddler", WOOD, cubes("w"), True, 4, 0, E_PEDDLER, 1, 0),
    Tile("mason", "Mason", WOOD, cubes("fw"), False, 4, 0, E_MASON, 1, 0),
    Tile("lawyer", "Lawyer", WOOD, cubes("wc"), False, 4, 0, E_LAWYER, 1, 0),
    # Stone: 9 grey tiles (the jeweller only with the option).
    Tile("s_farm", "Farm", STONE, cubes("fs"), False, 3, 0, E_PRODUCE_BONUS, 1, 0, (cubes("ffc"),), (F, C)),
    Tile("park", "Park", STONE, cubes("fs"), False, 3, 0, E_PRODUCE_BONUS, 1, 0, (cubes("wwf"),), (W, F)),
    Tile("workshop", "Workshop", STONE, cubes("fs"), False, 3, 0, E_PRODUCE_BONUS, 1, 0, (cubes("ssc"),),
                (S, C)),
    Tile("architect", "Architect", STONE, cubes("fs"), False, 6, 0, E_ARCHITECT, 2, 0),
    Tile("church", "Church", STONE, cubes("sc"), False, 3, 1, E_CHURCH, 1, 0),
    Tile("tailor", "Tailor", STONE, cubes("ws"), False, 6, 0, E_TAILOR, 1, 0),
    Tile("bank", "Bank", STONE, cubes("ws"), False, 6, 0, E_BANK, 1, 0),
    Tile("alchemist", "Alchemist", STONE, cubes("fs"), False, 6, 0, E_ALCHEMIST, 1, 0),
    Tile("jeweller", "Jeweller", STONE, cubes("sc"), False, 6, 0, E_JEWELLER, 1, 0),
    # Residential: unlimited supply.
    Tile("residence", "Residence", RESIDENCE, _, False, 2, 0, E_NONE, 0, 1),
    # Prestige: 9 blue tiles, built on the builder's own residence.
    Tile("statue", "Statue", PRESTIGE, cubes("ssg"), False, 7, 1, E_NONE, 1, 0),
    Tile("granary", "Granary", PRESTIGE, cubes("fffg"), False, 10, 0, E_NONE, 1, 0),
    Tile("library", "Library", PRESTIGE, cubes("wwwg"), False, 10, 0, E_NONE, 1, 1),
    Tile("weaver", "Weaver", PRESTIGE, cubes("cccg"), False, 12, 0, E_NONE, 1, 0),
    Tile("theater", "Theater", PRESTIGE, cubes("wwwgg"), False, 14, 1, E_NONE, 1, 0),
    Tile("college", "College", PRESTIGE, cubes("sssgg"), False, 14, 1, E_NONE, 1, 0),
    Tile("monument", "Monument", PRESTIGE, cubes("ssssgg"), False, 14, 2, E_NONE, 1, 0),
    Tile("hotel", "Hotel", PRESTIGE, cubes("sssgg"), False, 16, 0, E_NONE, 1, 2),
    Tile("cathedral", "Cathedral", PRESTIGE, cubes("sssssggg"), False, 25, 0, E_NONE, 1, 0),
)

TILE_ID: Final[dict[str, int]] = {tile.slug: index for index, tile in enumerate(TILES)}
NEUTRAL_IDS: Final = tuple(i for i, t in enumerate(TILES) if t.kind == NEUTRAL)
WOOD_IDS: Final = tuple(i for i, t in enumerate(TILES) if t.kind == WOOD)
STONE_IDS: Final = tuple(i for i, t in enumerate(TILES) if t.kind == STONE)
PRESTIGE_IDS: Final = tuple(i for i, t in enumerate(TILES) if t.kind == PRESTIGE)
RESIDENCE_ID: Final = TILE_ID["residence"]
LAWYER_ID: Final = TILE_ID["lawyer"]
JEWELLER_ID: Final = TILE_ID["jeweller"]
#: Tiles a worker may be placed on (neutral, fixed, wood, stone).
WORKABLE: Final = tuple(t.kind in (NEUTRAL, FIXED, WOOD, STONE) for t in TILES)

# --- The road (§1.3) ----------------------------------------------------------------------------
LAST_SPACE: Final = 28
NEUTRAL_SPACES: Final = (1, 2, 3, 4, 5, 6)
FIXED_SPACES: Final = {7: TILE_ID["f_peddler"], 8: TILE_ID["f_carpenter"], 16: TILE_ID["gold_mine"]}
LOTS: Final = (9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28)
BAILIFF_START: Final = 6
PROVOST_START: Final = 6

# --- Special buildings and placement targets (§1.2, §1.4) ---------------------------------------
T_GATE: Final = 29
T_TRADING_POST: Final = 30
T_GUILD: Final = 31
T_JOUST: Final = 32
T_STABLES: Final = 33
T_INN: Final = 34
T_CASTLE: Final = 35
SPECIAL_NAMES: Final = {
    T_GATE: "gate", T_TRADING_POST: "trading_post", T_GUILD: "guild", T_JOUST: "joust",
    T_STABLES: "stables", T_INN: "inn", T_CASTLE: "castle",
}
STABLES_SPOTS: Final = 3
WORKERS: Final = 6


def target_name(target: int) -> str:
    """A placement target's notation: a road space number or a special building's slug."""
    return SPECIAL_NAMES.get(target, str(target))


# --- The castle (§1.6, §2.8) --------------------------------------------------------------------
SECTIONS: Final = ("dungeon", "walls", "towers")
SECTION_SIZE: Final = (6, 10, 14)
SECTION_PP: Final = (5, 4, 3)
SECTION_MARK: Final = (12, 18, 24)
#: Outcome of a section scoring by houses held (index = min(houses, 6)): negative = PP lost, else favours.
SECTION_SCORING: Final = (
    (-2, 0, 1, 1, 1, 1, 1),
    (-3, 0, 1, 2, 2, 3, 3),
    (-4, 0, 1, 1, 2, 2, 3),
)
#: The favour column cap by number of sections already scored.
FAVOUR_CAP: Final = (2, 4, 5, 5)
CASTLE_BATCHES: Final = ("fws", "fwc", "fwg", "fsc", "fsg", "fcg")
CASTLE_PENALTY: Final = 2

# --- The royal favour table (§2.9) --------------------------------------------------------------
ROWS: Final = ("pp", "money", "res", "bld")
ROW_PP: Final = 0
ROW_MONEY: Final = 1
ROW_RES: Final = 2
ROW_BLD: Final = 3
FAVOUR_COLUMNS: Final = 5
FAVOUR_TABLE: Final = (
    ("+1 PP", "+2 PP", "+3 PP", "+4 PP", "+5 PP"),
    ("+3 d", "+4 d", "+5 d", "+6 d", "+7 d"),
    ("+1 f", "+1 w or s", "+1 c", "1 any cube -> 2 plain", "+1 g"),
    ("nothing", "carpenter (-1 w)", "mason (-1 s)", "lawyer (1 c)", "architect"),
)
SIMPLIFIED_FAVOUR_PP: Final = 3

# --- Setup (§1.7) -------------------------------------------------------------------------------
START_CUBES: Final = cubes("ffw")
START_DENIERS: Final = (5, 6, 6, 7, 7)
START_DENIERS_2P: Final = (5, 5)
INCOME: Final = 2
FIRST_PASS_BONUS: Final = 1
TWO_PLAYER_PRICE: Final = 3

# --- Final scoring (§3.2) -----------------------------------------------------------------------
GOLD_PP: Final = 3
PLAIN_PER_PP: Final = 3
DENIERS_PER_PP: Final = 4

OVER: Final = 8  # the phase after the game's end (phases 1-7 are those of a turn, §2)

# Decision kinds (rules §7.3): what the seat on turn is asked now, by number and by the name views use.
P_NONE: Final = 0
P_PLACE: Final = 1
P_GATE: Final = 2
P_GUILD: Final = 3
P_JOUST: Final = 4
P_INN: Final = 5
P_PROVOST: Final = 6
P_ACTIVATE: Final = 7
P_BONUS: Final = 8
P_CASTLE: Final = 9
P_FAV_ROW: Final = 10
P_FAV_RES: Final = 11
P_FAV_BLD: Final = 12
PENDING_NAMES: Final = ("none", "place", "gate", "guild", "joust", "inn", "provost", "activate", "bonus", "castle",
                        "favour_row", "favour_res", "favour_bld")
