"""The Castles of Burgundy (2011) components and boards as tables, read like the rulebook's lists.

Everything here is immutable and built once at import (reference §1, §2, §3.16). Tiles are small
integers (``code``); a tile's type (colour) is one of ``A B C K M S`` (indices 0–5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

# --- types (colours) -------------------------------------------------------------------------------

TYPE_LETTERS: Final = "ABCKMS"
A: Final = 0
B: Final = 1
C: Final = 2
K: Final = 3
M: Final = 4
S: Final = 5
TYPE_NAMES: Final = ("animal", "building", "castle", "knowledge", "mine", "ship")
REGION_NAMES: Final = ("pasture", "city", "castle area", "knowledge area", "mine area", "river")

# --- tiles -------------------------------------------------------------------------------------------

BUILDINGS: Final = ("warehouse", "watchtower", "carpenter", "church", "market", "boarding", "bank", "cityhall")
ANIMALS: Final = ("cow", "pig", "sheep", "chicken")

SHIP: Final = 0
MINE: Final = 1
CASTLE: Final = 2
FIRST_BUILDING: Final = 3  # codes 3..10 in BUILDINGS order
FIRST_ANIMAL: Final = 11  # codes 11..22: kind * 3 + (animals - 2)
FIRST_KNOWLEDGE: Final = 22  # K01 = 23 ... K26 = 48
TILE_KINDS: Final = 49

WAREHOUSE: Final = 3
WATCHTOWER: Final = 4
CARPENTER: Final = 5
CHURCH: Final = 6
MARKET: Final = 7
BOARDING: Final = 8
BANK: Final = 9
CITYHALL: Final = 10


def building_code(name: str) -> int:
    return FIRST_BUILDING + BUILDINGS.index(name)


def animal_code(kind: str, animals: int) -> int:
    return FIRST_ANIMAL + ANIMALS.index(kind) * 3 + animals - 2


def knowledge_code(number: int) -> int:
    return FIRST_KNOWLEDGE + number


def _tile_names() -> tuple[str, ...]:
    names = ["S", "M", "C"]
    names += [f"B.{b}" for b in BUILDINGS]
    names += [f"A.{a}{n}" for a in ANIMALS for n in (2, 3, 4)]
    names += [f"K{k:02d}" for k in range(1, 27)]
    return tuple(names)


TILE_NAMES: Final[tuple[str, ...]] = _tile_names()
TILE_BY_NAME: Final[Mapping[str, int]] = MappingProxyType({name: code for code, name in enumerate(TILE_NAMES)})
TILE_TYPE: Final[tuple[int, ...]] = tuple(
    S if c == SHIP else M if c == MINE else C if c == CASTLE else B if c < FIRST_ANIMAL else A if c <= 22 else K
    for c in range(TILE_KINDS)
)
#: animal kind (0–3) of an animal tile, -1 otherwise; and its number of animals.
ANIMAL_KIND: Final = tuple((c - FIRST_ANIMAL) // 3 if TILE_TYPE[c] == A else -1 for c in range(TILE_KINDS))
ANIMAL_COUNT: Final = tuple((c - FIRST_ANIMAL) % 3 + 2 if TILE_TYPE[c] == A else 0 for c in range(TILE_KINDS))
#: knowledge number 1–26 of a knowledge tile, 0 otherwise.
KNOWLEDGE_NUMBER: Final = tuple(c - FIRST_KNOWLEDGE if TILE_TYPE[c] == K else 0 for c in range(TILE_KINDS))

#: black-backed knowledge tiles (reference §1.4).
BLACK_KNOWLEDGE: Final = frozenset({7, 12, 14, 15, 24, 25})

#: (white, black) copies of each tile kind (reference §1.1–§1.5).
TILE_COUNTS: Final[tuple[tuple[int, int], ...]] = tuple(
    (20, 6) if c == SHIP
    else (10, 2) if c == MINE
    else (14, 2) if c == CASTLE
    else (5, 2) if TILE_TYPE[c] == B
    else ((2, 0), (2, 1), (1, 1))[ANIMAL_COUNT[c] - 2] if TILE_TYPE[c] == A
    else ((0, 1) if KNOWLEDGE_NUMBER[c] in BLACK_KNOWLEDGE else (1, 0))
    for c in range(TILE_KINDS)
)
HEX_TILE_TOTAL: Final = 164
GOODS_KINDS: Final = 6
GOODS_PER_KIND: Final = 7
GOODS_TOTAL: Final = 42

# --- estate boards (reference §2.1–§2.3) --------------------------------------------------------------

SPACES: Final = 37
ROW_LENGTHS: Final = (4, 5, 6, 7, 6, 5, 4)
DIE: Final = "6543216545431236126541254312612563413"
CENTRE: Final = 19

BOARD_TYPES: Final[Mapping[str, str]] = MappingProxyType(
    {
               "1": "ACCKAACKBAABKBBSSSCSSSBBMBBABMKBBMKKB",
               "2": "SBACASBABAAABKBBBBBBKCKKMKMSBBMKSCSSC",
               "3": "AAAASSCSSBMKKSBBBKCKBBBBKKBBCAMMCBASB",
               "4a": "CBSBAABSSBABSCMAAAKKMSBCKBBKBMBKBSBKC",
               "4b": "CABSAABSSBBBSCMAAAKKMSBCKBBBBMBKKSBKC",
               "5": "ABBSAABMMBCKSSSBBAKCBBKCAKSBBABCSKKBM",
               "6": "KKCSKBBSBAAMSBBKBBCSBBKBBMSBKMAASCAAC",
               "7": "KCCSKAAASSMBBMASKBBBABBKBBABBSMKBSCCK",
               "8a": "BBSBBCKCBBKMKKSSAKMAKSSAAMABBCACBBSBB",
               "8b": "BBSBSCKCBBKMKKSBAKMAKBSAAAMBBCACSBSBB",
               "9": "BBCKBBAASBBAASSCKKMSCKSSKMBAKBBBAMCBB",
    }
)


def _coordinates() -> tuple[tuple[int, int], ...]:
    coords = []
    for row, length in enumerate(ROW_LENGTHS):
        r = row - 3
        q0 = max(-3, -3 - r)
        coords += [(q0 + i, r) for i in range(length)]
    return tuple(coords)


COORDS: Final[tuple[tuple[int, int], ...]] = _coordinates()  # index = id - 1


def _neighbours() -> tuple[tuple[int, ...], ...]:
    where = {qr: i + 1 for i, qr in enumerate(COORDS)}
    result = []
    for q, r in COORDS:
        around = [(q + 1, r), (q - 1, r), (q, r - 1), (q + 1, r - 1), (q, r + 1), (q - 1, r + 1)]
        result.append(tuple(sorted(where[p] for p in around if p in where)))
    return tuple(result)


#: neighbours of space id (index = id; index 0 unused).
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = ((), *_neighbours())
SPACE_DIE: Final[tuple[int, ...]] = (0, *(int(d) for d in DIE))
#: NEIGHBOUR_BITS[id] = the neighbours of a space as a bit mask (bit = space id).
NEIGHBOUR_BITS: Final[tuple[int, ...]] = tuple(sum(1 << nb for nb in around) for around in NEIGHBOURS)
#: VALUE_SPACES[values] = bit mask of the spaces whose die number is in ``values`` (bits 1–6); the
#: same on every board, so a die's reachable spaces are one lookup.
VALUE_SPACES: Final[tuple[int, ...]] = tuple(
    sum(1 << s for s in range(1, len(SPACE_DIE)) if values >> SPACE_DIE[s] & 1) for values in range(128)
)


@dataclass(frozen=True)
class Board:
    """One estate board: space types, regions (maximal same-colour groups) and castle spaces."""

    key: str
    types: tuple[int, ...]  # index = id; [0] = -1
    region_of: tuple[int, ...]  # index = id
    regions: tuple[tuple[int, ...], ...]  # spaces of each region
    region_sizes: tuple[int, ...]
    region_type: tuple[int, ...]
    colour_total: tuple[int, ...]  # spaces of each type
    castle_spaces: tuple[int, ...]
    spaces_of_type: tuple[tuple[int, ...], ...]
    #: type_reach[type][values] = bit mask of the spaces of that type whose die number is in
    #: ``values`` (a bit mask of die values 1–6); lets legal placements be found with two ANDs.
    type_reach: tuple[tuple[int, ...], ...]
    tile_spaces: tuple[int, ...]  # per tile code: bit mask of the spaces of its type
    region_spaces: tuple[int, ...]  # per region: bit mask of its spaces


def _board(key: str, letters: str) -> Board:
    types = (-1, *(TYPE_LETTERS.index(ch) for ch in letters))
    region_of = [-1] * (SPACES + 1)
    regions: list[tuple[int, ...]] = []
    for start in range(1, SPACES + 1):
        if region_of[start] >= 0:
            continue
        index = len(regions)
        todo, members = [start], []
        region_of[start] = index
        while todo:
            s = todo.pop()
            members.append(s)
            for nb in NEIGHBOURS[s]:
                if region_of[nb] < 0 and types[nb] == types[s]:
                    region_of[nb] = index
                    todo.append(nb)
        regions.append(tuple(sorted(members)))
    type_value = [[0] * 7 for _ in range(6)]
    for s in range(1, SPACES + 1):
        type_value[types[s]][SPACE_DIE[s]] |= 1 << s
    type_reach = tuple(
        tuple(sum(type_value[t][v] for v in range(1, 7) if values >> v & 1) for values in range(128))
        for t in range(6)
    )
    return Board(
        key=key,
        types=types,
        region_of=tuple(region_of),
        regions=tuple(regions),
        region_sizes=tuple(map(len, regions)),
        region_type=tuple(types[r[0]] for r in regions),
        colour_total=tuple(letters.count(ch) for ch in TYPE_LETTERS),
        castle_spaces=tuple(s for s in range(1, SPACES + 1) if types[s] == C),
        spaces_of_type=tuple(tuple(s for s in range(1, SPACES + 1) if types[s] == t) for t in range(6)),
        type_reach=type_reach,
        tile_spaces=tuple(type_reach[TILE_TYPE[c]][127] for c in range(TILE_KINDS)),
        region_spaces=tuple(sum(1 << s for s in r) for r in regions),
    )


BOARDS: Final[Mapping[str, Board]] = MappingProxyType({key: _board(key, t) for key, t in BOARD_TYPES.items()})
#: The same boards by their 37 space-type letters, as a seat's view shows them.
BOARDS_BY_TYPES: Final = MappingProxyType({BOARD_TYPES[key]: board for key, board in BOARDS.items()})
BOARD_IDS: Final = tuple(range(1, 10))

# --- scoring constants (reference §2.4, §3.16) ----------------------------------------------------------

REGION_VP: Final = (0, 1, 3, 6, 10, 15, 21, 28, 36)
PHASE_BONUS: Final = (10, 8, 6, 4, 2)
PHASE_LETTERS: Final = "ABCDE"
PHASES: Final = 5
ROUNDS: Final = 5
START_SILVER: Final = 1
START_GOODS: Final = 3
HEX_STORAGE: Final = 3
GOODS_SLOTS: Final = 3
PURCHASE_COST: Final = 2
WATCHTOWER_VP: Final = 4
BOARDING_WORKERS: Final = 4
BANK_SILVER: Final = 2

# --- main board depots (reference §2.5) ----------------------------------------------------------------

#: per numbered depot: its hex spaces as (type, fewest players using it); depot 6's C space at n = 3
#: holds a mine in phases B and D (the seed's 3-player rule).
DEPOT_SPACES: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    (),
    ((S, 2), (B, 2), (K, 3), (A, 4)),
    ((C, 2), (K, 2), (B, 3), (B, 4)),
    ((A, 2), (B, 2), (S, 3), (K, 4)),
    ((S, 2), (B, 2), (A, 3), (M, 4)),
    ((M, 2), (K, 2), (B, 3), (B, 4)),
    ((A, 2), (B, 2), (C, 3), (S, 4)),
)
BLACK_DEPOT_SPACES: Final = 8


def depot_space_type(depot: int, index: int, players: int, phase: int) -> int:
    """The colour a depot space receives this phase (the 3-player depot-6 castle/mine rule)."""
    kind = DEPOT_SPACES[depot][index][0]
    if depot == 6 and index == 2 and players == 3 and phase in (1, 3):
        return M
    return kind


#: distance between two die faces with the 1↔6 wrap.
DIST: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(min(abs(a - b), 6 - abs(a - b)) for b in range(7)) for a in range(7)
)

#: REACH[rolled][limit] = bit mask of die values (bits 1–6) at most ``limit`` steps from ``rolled``.
REACH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << v for v in range(1, 7) if DIST[r][v] <= limit) for limit in range(4)) for r in range(7)
)
