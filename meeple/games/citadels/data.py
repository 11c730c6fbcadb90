"""Citadels Classic components, as the rulebook lists them (reference §1).

Everything is indexed by small ints so the engine's hot path never touches strings: a district *kind*
is an index into ``DISTRICTS`` (copies of one name are interchangeable), a character is its rank − 1.
"""

from __future__ import annotations

from typing import Final

NOBLE: Final = 0
RELIGIOUS: Final = 1
TRADE: Final = 2
MILITARY: Final = 3
UNIQUE: Final = 4
TYPE_SLUGS: Final[tuple[str, ...]] = ("noble", "religious", "trade", "military", "unique")
TYPE_COLOURS: Final[tuple[str, ...]] = ("yellow", "blue", "green", "red", "purple")

#: (slug, English name, type, printed cost, points, copies in the Classic 68-card deck)
DISTRICTS: Final[tuple[tuple[str, str, int, int, int, int], ...]] = (
    ("manor", "Manor", NOBLE, 3, 3, 5),
    ("castle", "Castle", NOBLE, 4, 4, 4),
    ("palace", "Palace", NOBLE, 5, 5, 3),
    ("temple", "Temple", RELIGIOUS, 1, 1, 3),
    ("church", "Church", RELIGIOUS, 2, 2, 3),
    ("monastery", "Monastery", RELIGIOUS, 3, 3, 3),
    ("cathedral", "Cathedral", RELIGIOUS, 5, 5, 2),
    ("tavern", "Tavern", TRADE, 1, 1, 5),
    ("market", "Market", TRADE, 2, 2, 4),
    ("trading_post", "Trading Post", TRADE, 2, 2, 3),
    ("docks", "Docks", TRADE, 3, 3, 3),
    ("harbor", "Harbor", TRADE, 4, 4, 3),
    ("town_hall", "Town Hall", TRADE, 5, 5, 2),
    ("watchtower", "Watchtower", MILITARY, 1, 1, 3),
    ("prison", "Prison", MILITARY, 2, 2, 3),
    ("barracks", "Barracks", MILITARY, 3, 3, 3),
    ("fortress", "Fortress", MILITARY, 5, 5, 2),
    ("haunted_quarter", "Haunted Quarter", UNIQUE, 2, 2, 1),
    ("keep", "Keep", UNIQUE, 3, 3, 2),
    ("laboratory", "Laboratory", UNIQUE, 5, 5, 1),
    ("smithy", "Smithy", UNIQUE, 5, 5, 1),
    ("observatory", "Observatory", UNIQUE, 4, 4, 1),
    ("graveyard", "Graveyard", UNIQUE, 5, 5, 1),
    ("school_of_magic", "School of Magic", UNIQUE, 6, 6, 1),
    ("library", "Library", UNIQUE, 6, 6, 1),
    ("great_wall", "Great Wall", UNIQUE, 6, 6, 1),
    ("university", "University", UNIQUE, 6, 8, 1),
    ("dragon_gate", "Dragon Gate", UNIQUE, 6, 8, 1),
    ("map_room", "Map Room", UNIQUE, 5, 5, 1),
    ("imperial_treasury", "Imperial Treasury", UNIQUE, 5, 5, 1),
)

DISTRICT_SLUGS: Final[tuple[str, ...]] = tuple(d[0] for d in DISTRICTS)
DISTRICT_NAMES: Final[tuple[str, ...]] = tuple(d[1] for d in DISTRICTS)
DISTRICT_TYPE: Final[tuple[int, ...]] = tuple(d[2] for d in DISTRICTS)
#: Printed points (the default options); the engine scores with ``district_points`` of the active options.
DISTRICT_POINTS: Final[tuple[int, ...]] = tuple(d[4] for d in DISTRICTS)
DISTRICT_INDEX: Final[dict[str, int]] = {slug: i for i, slug in enumerate(DISTRICT_SLUGS)}
KIND_COUNT: Final = len(DISTRICTS)

MANOR: Final = 0
CASTLE: Final = 1
PALACE: Final = 2
TEMPLE: Final = 3
CHURCH: Final = 4
MONASTERY: Final = 5
CATHEDRAL: Final = 6
TAVERN: Final = 7
MARKET: Final = 8
TRADING_POST: Final = 9
DOCKS: Final = 10
HARBOR: Final = 11
TOWN_HALL: Final = 12
WATCHTOWER: Final = 13
PRISON: Final = 14
BARRACKS: Final = 15
FORTRESS: Final = 16
HAUNTED_QUARTER: Final = 17
KEEP: Final = 18
LABORATORY: Final = 19
SMITHY: Final = 20
OBSERVATORY: Final = 21
GRAVEYARD: Final = 22
SCHOOL_OF_MAGIC: Final = 23
LIBRARY: Final = 24
GREAT_WALL: Final = 25
UNIVERSITY: Final = 26
DRAGON_GATE: Final = 27
MAP_ROOM: Final = 28
IMPERIAL_TREASURY: Final = 29
assert len(DISTRICTS) == 30  # one name per district, in DISTRICTS' order


def _printed_costs(observatory_cost: int) -> tuple[int, ...]:
    return tuple(observatory_cost if i == OBSERVATORY else d[3] for i, d in enumerate(DISTRICTS))


#: Printed costs by kind, for each Observatory cost the options allow (D2).
COSTS: Final[dict[int, tuple[int, ...]]] = {4: _printed_costs(4), 5: _printed_costs(5)}

#: What a district scores beyond its cost (§3.2): 2 for the University and the Dragon Gate, else 0.
SCORE_BONUS: Final[tuple[int, ...]] = tuple(d[4] - d[3] for d in DISTRICTS)


def printed_costs(observatory_cost: int) -> tuple[int, ...]:
    """Printed costs, with the Observatory's cost taken from its option (D2)."""
    return COSTS[observatory_cost]


def district_points(observatory_cost: int) -> tuple[int, ...]:
    """What each district scores (§3.2): its cost under the options (D2), plus its bonus.

    >>> district_points(5)[OBSERVATORY], district_points(4)[UNIVERSITY]
    (5, 8)
    """
    return tuple(cost + bonus for cost, bonus in zip(COSTS[observatory_cost], SCORE_BONUS, strict=True))


#: Deck presets (option ``deck``, D1): district kinds left out of the 68-card Classic deck.
DECK_OMITS: Final[dict[str, tuple[int, ...]]] = {
    "classic68": (),
    "ffg66": (MAP_ROOM, IMPERIAL_TREASURY),
    "original65": (MAP_ROOM, IMPERIAL_TREASURY, GREAT_WALL),
}


DECKS: Final[dict[str, tuple[int, ...]]] = {
    preset: tuple(kind for kind, d in enumerate(DISTRICTS) if kind not in omit for _ in range(d[5]))
    for preset, omit in DECK_OMITS.items()
}


def deck_kinds(preset: str) -> list[int]:
    """The deck as a list of district kinds, in table order (one entry per card)."""
    return list(DECKS[preset])


def deck_size(preset: str) -> int:
    return len(deck_kinds(preset))


#: (slug, English name, taxed district type or None); the rank is the index + 1.
CHARACTERS: Final[tuple[tuple[str, str, int | None], ...]] = (
    ("assassin", "Assassin", None),
    ("thief", "Thief", None),
    ("magician", "Magician", None),
    ("king", "King", NOBLE),
    ("bishop", "Bishop", RELIGIOUS),
    ("merchant", "Merchant", TRADE),
    ("architect", "Architect", None),
    ("warlord", "Warlord", MILITARY),
)
CHARACTER_SLUGS: Final[tuple[str, ...]] = tuple(c[0] for c in CHARACTERS)
CHARACTER_NAMES: Final[tuple[str, ...]] = tuple(c[1] for c in CHARACTERS)
CHARACTER_TAX: Final[tuple[int, ...]] = tuple(-1 if c[2] is None else c[2] for c in CHARACTERS)
CHARACTER_INDEX: Final[dict[str, int]] = {slug: i for i, slug in enumerate(CHARACTER_SLUGS)}
ASSASSIN: Final = 0
THIEF: Final = 1
MAGICIAN: Final = 2
KING: Final = 3
BISHOP: Final = 4
MERCHANT: Final = 5
ARCHITECT: Final = 6
WARLORD: Final = 7

#: Face-up character discards at the start of a round, by player count (2–3 players have none).
FACE_UP_COUNT: Final[dict[int, int]] = {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0}
