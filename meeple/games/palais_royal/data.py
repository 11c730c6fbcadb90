"""Component tables of Palais Royal, read from the TOML files in ``data/`` and validated on load.

The printed noble list and the card texts could not be found (rules reference §4), so the numbers
live in data files that an owner of the game can correct without touching code. Every error names
the file, the row and the field, e.g. ``nobles.toml: row 3 (N03): field 'gold' must be ...``.

>>> components().nobles[0].id, len(components().nobles), components().card_total
('N01', 42, 36)
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Final

# Fixed codes: the engine implements each by code, the data files give the numbers.
ROOM_CODES: Final[tuple[str, ...]] = ("PAR", "STA", "MIN", "KIN", "POM", "OFF", "BAC", "CAR", "GAT")
CARD_CODES: Final[tuple[str, ...]] = (
    "REINF", "PASSAGE", "PURSE", "KLETTER", "VLETTER", "RECOMMEND", "PATRON", "TIE", "FAVOUR",
)
PRIVILEGE_CODES: Final[tuple[str, ...]] = (
    "SUPPLY", "GATE", "MOVE", "GOLD", "KSEAL", "VSEAL", "CARDINAL", "DISCOUNT", "BACKDOOR", "RECRUIT",
)
# Their indexes, which the engine and the observations use: rooms, card kinds, noble privileges.
PAR: Final = 0
STA: Final = 1
MIN: Final = 2
KIN: Final = 3
POM: Final = 4
OFF: Final = 5
BAC: Final = 6
CAR: Final = 7
GAT: Final = 8
REINF: Final = 0
PASSAGE: Final = 1
PURSE: Final = 2
KLETTER: Final = 3
VLETTER: Final = 4
RECOMMEND: Final = 5
PATRON: Final = 6
TIE: Final = 7
FAVOUR: Final = 8
SUPPLY: Final = 0
P_GATE: Final = 1
P_MOVE: Final = 2
P_GOLD: Final = 3
KSEAL: Final = 4
VSEAL: Final = 5
CARDINAL: Final = 6
DISCOUNT: Final = 7
BACKDOOR: Final = 8
P_RECRUIT: Final = 9
CARD_WINDOWS: Final[tuple[str, ...]] = ("step1", "step2", "step3", "step4", "any")
STATUSES: Final[tuple[str, ...]] = ("printed", "reconstructed")
FILES: Final = "abcdef"
RANKS: Final = 6
SQUARE_NAMES: Final[tuple[str, ...]] = tuple(f"{FILES[i % 6]}{i // 6 + 1}" for i in range(36))
EDGE_NAMES: Final[tuple[str, ...]] = ("N", "S", "W", "E")
NOBLE_COUNT: Final = 42
GARDEN_SIZE: Final = 36
CARD_COUNT: Final = 36
MAX_TILES_PER_PRIVILEGE: Final = 2


class DataError(ValueError):
    """A component data file that does not describe a playable game; the message says where."""


@dataclass(frozen=True)
class Noble:
    id: str
    gold: int
    turquoise: int
    violet: int
    vp: int
    privilege: str  # "" for none
    param: int
    status: str
    note: str


@dataclass(frozen=True)
class CardKind:
    code: str
    name: str
    copies: int
    window: str
    effect: str
    param: int
    after_play: str
    vp_if_played: int
    status: str


@dataclass(frozen=True)
class Edge:
    name: str
    squares: tuple[int, ...]
    points: tuple[int, ...]
    status: str


@dataclass(frozen=True)
class Room:
    code: str
    name: str
    step: str
    bonus: str


@dataclass(frozen=True)
class Components:
    """Everything the data files say, in engine order (rooms and cards in the order of the codes)."""

    nobles: tuple[Noble, ...]
    cards: tuple[CardKind, ...]
    rooms: tuple[Room, ...]
    edges: tuple[Edge, ...]
    first_game_layout: tuple[str, ...]
    pool_servants: int
    general_supply_servants: int
    coins: tuple[tuple[int, int], ...]

    @property
    def card_total(self) -> int:
        return sum(card.copies for card in self.cards)

    @property
    def gold_total(self) -> int:
        return sum(value * count for value, count in self.coins)

    @property
    def servants_per_colour(self) -> int:
        return self.pool_servants + self.general_supply_servants

    def privilege_overuse(self) -> list[str]:
        """Privileges on more than 2 tiles, which only ``allow_nonstandard_data`` accepts."""
        counts = Counter(n.privilege for n in self.nobles if n.privilege)
        return [
            f"privilege {code} is on {count} tiles ("
            + ", ".join(n.id for n in self.nobles if n.privilege == code)
            + f"), more than {MAX_TILES_PER_PRIVILEGE}"
            for code, count in sorted(counts.items())
            if count > MAX_TILES_PER_PRIVILEGE
        ]


def _where(file: str, row: int | None, label: str | None) -> str:
    if row is None:
        return f"{file}:"
    return f"{file}: row {row}" + (f" ({label})" if label else "") + ":"


def _field(
    record: dict[str, Any], name: str, kind: type, file: str, row: int | None, label: str | None
) -> Any:
    if name not in record:
        raise DataError(f"{_where(file, row, label)} field {name!r} is missing")
    value = record[name]
    if type(value) is not kind:
        raise DataError(
            f"{_where(file, row, label)} field {name!r} must be {kind.__name__}, not {value!r}"
        )
    return value


def _count(record: dict[str, Any], name: str, file: str, row: int | None, label: str | None) -> int:
    value: int = _field(record, name, int, file, row, label)
    if value < 0:
        raise DataError(f"{_where(file, row, label)} field {name!r} must be >= 0, not {value}")
    return value


def _choice(
    record: dict[str, Any], name: str, allowed: tuple[str, ...], file: str, row: int | None, label: str | None
) -> str:
    value: str = _field(record, name, str, file, row, label)
    if value not in allowed:
        raise DataError(
            f"{_where(file, row, label)} field {name!r} must be one of {', '.join(allowed)}, not {value!r}"
        )
    return value


def _rows(document: dict[str, Any], key: str, file: str) -> list[dict[str, Any]]:
    rows = document.get(key)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise DataError(f"{file}: {key!r} must be a list of rows ({{ field = value, ... }})")
    return rows


def _unknown_fields(record: dict[str, Any], known: tuple[str, ...], file: str, row: int, label: str) -> None:
    extra = sorted(set(record) - set(known))
    if extra:
        raise DataError(f"{_where(file, row, label)} unknown field {extra[0]!r}")


def parse_nobles(text: str, file: str = "nobles.toml") -> tuple[Noble, ...]:
    """The 42 noble tiles; rows are numbered from 1 in file order."""
    document = _load_toml(text, file)
    known = ("id", "gold", "turquoise", "violet", "vp", "privilege", "param", "status", "note")
    nobles: list[Noble] = []
    seen: set[str] = set()
    for row, record in enumerate(_rows(document, "nobles", file), start=1):
        label = record.get("id") if isinstance(record.get("id"), str) else None
        noble_id: str = _field(record, "id", str, file, row, label)
        if not noble_id or noble_id in seen:
            raise DataError(f"{_where(file, row, label)} field 'id' must be unique and non-empty")
        seen.add(noble_id)
        _unknown_fields(record, known, file, row, noble_id)
        privilege: str = _field(record, "privilege", str, file, row, label)
        if privilege and privilege not in PRIVILEGE_CODES:
            raise DataError(
                f"{_where(file, row, label)} field 'privilege' must be empty or one of "
                f"{', '.join(PRIVILEGE_CODES)}, not {privilege!r}"
            )
        param = _count(record, "param", file, row, label)
        if privilege and param < 1:
            raise DataError(f"{_where(file, row, label)} field 'param' must be >= 1 for privilege {privilege}")
        if not privilege and param != 0:
            raise DataError(f"{_where(file, row, label)} field 'param' must be 0 when there is no privilege")
        nobles.append(
            Noble(
                id=noble_id,
                gold=_count(record, "gold", file, row, label),
                turquoise=_count(record, "turquoise", file, row, label),
                violet=_count(record, "violet", file, row, label),
                vp=_count(record, "vp", file, row, label),
                privilege=privilege,
                param=param,
                status=_choice(record, "status", STATUSES, file, row, label),
                note=_field(record, "note", str, file, row, label) if "note" in record else "",
            )
        )
    if len(nobles) != NOBLE_COUNT:
        raise DataError(f"{file}: there must be {NOBLE_COUNT} noble rows, not {len(nobles)}")
    return tuple(nobles)


def parse_cards(text: str, file: str = "cards.toml") -> tuple[CardKind, ...]:
    """The privilege-card kinds, returned in ``CARD_CODES`` order whatever the file order."""
    document = _load_toml(text, file)
    known = ("code", "name", "copies", "window", "effect", "param", "after_play", "vp_if_played", "status")
    by_code: dict[str, CardKind] = {}
    for row, record in enumerate(_rows(document, "cards", file), start=1):
        label = record.get("code") if isinstance(record.get("code"), str) else None
        code = _choice(record, "code", CARD_CODES, file, row, label)
        if code in by_code:
            raise DataError(f"{_where(file, row, label)} field 'code' repeats {code}")
        _unknown_fields(record, known, file, row, code)
        after_play = _choice(record, "after_play", ("discard", "keep"), file, row, label)
        vp = _count(record, "vp_if_played", file, row, label)
        if vp and after_play != "keep":
            raise DataError(
                f"{_where(file, row, label)} field 'vp_if_played' needs after_play = \"keep\" "
                "(a discarded card cannot score)"
            )
        by_code[code] = CardKind(
            code=code,
            name=_field(record, "name", str, file, row, label),
            copies=_count(record, "copies", file, row, label),
            window=_choice(record, "window", CARD_WINDOWS, file, row, label),
            effect=_field(record, "effect", str, file, row, label),
            param=_count(record, "param", file, row, label),
            after_play=after_play,
            vp_if_played=vp,
            status=_choice(record, "status", STATUSES, file, row, label),
        )
    missing = [c for c in CARD_CODES if c not in by_code]
    if missing:
        raise DataError(f"{file}: card kind {missing[0]} has no row")
    cards = tuple(by_code[c] for c in CARD_CODES)
    total = sum(c.copies for c in cards)
    if total != CARD_COUNT:
        raise DataError(f"{file}: the copies must add up to {CARD_COUNT} cards, not {total}")
    return cards


def parse_board(text: str, file: str = "board.toml") -> dict[str, Any]:
    """Rooms, first-game layout, edges and supplies, as keyword arguments of ``Components``."""
    document = _load_toml(text, file)
    layout = document.get("first_game_layout")
    if not isinstance(layout, list) or sorted(map(str, layout)) != sorted(ROOM_CODES) or len(layout) != 9:
        raise DataError(f"{file}: 'first_game_layout' must list the 9 room codes {', '.join(ROOM_CODES)} once each")
    rooms: dict[str, Room] = {}
    for row, record in enumerate(_rows(document, "rooms", file), start=1):
        label = record.get("code") if isinstance(record.get("code"), str) else None
        code = _choice(record, "code", ROOM_CODES, file, row, label)
        if code in rooms:
            raise DataError(f"{_where(file, row, label)} field 'code' repeats {code}")
        _unknown_fields(record, ("code", "name", "step", "bonus"), file, row, code)
        rooms[code] = Room(
            code=code,
            name=_field(record, "name", str, file, row, label),
            step=_field(record, "step", str, file, row, label),
            bonus=_field(record, "bonus", str, file, row, label),
        )
    if len(rooms) != 9:
        raise DataError(f"{file}: 'rooms' must have a row for each of {', '.join(ROOM_CODES)}")
    edges_table = document.get("edges")
    if not isinstance(edges_table, dict) or sorted(edges_table) != sorted(EDGE_NAMES):
        raise DataError(f"{file}: 'edges' must have exactly the tables N, S, W and E")
    edges: list[Edge] = []
    for name in EDGE_NAMES:
        record = edges_table[name]
        where = f"edges.{name}"
        if not isinstance(record, dict):
            raise DataError(f"{file}: {where} must be a table")
        squares = record.get("squares")
        if not isinstance(squares, list) or len(squares) != 6 or len(set(map(str, squares))) != 6:
            raise DataError(f"{file}: {where}: field 'squares' must list 6 different squares")
        for square in squares:
            if square not in SQUARE_NAMES or not _is_ring(SQUARE_NAMES.index(square)):
                raise DataError(
                    f"{file}: {where}: field 'squares': {square!r} is not a square on the garden's outer ring"
                )
        points = record.get("points")
        if not isinstance(points, list) or not points or not all(type(p) is int and p >= 0 for p in points):
            raise DataError(f"{file}: {where}: field 'points' must be a list of non-negative integers")
        status = record.get("status")
        if status not in STATUSES:
            raise DataError(f"{file}: {where}: field 'status' must be printed or reconstructed, not {status!r}")
        edges.append(Edge(name, tuple(SQUARE_NAMES.index(s) for s in squares), tuple(points), str(status)))
    supplies = document.get("supplies")
    if not isinstance(supplies, dict):
        raise DataError(f"{file}: the [supplies] table is missing")
    pool = _count(supplies, "pool_servants", file, None, None)
    general = _count(supplies, "general_supply_servants", file, None, None)
    if pool < 10:
        raise DataError(f"{file}: [supplies] field 'pool_servants' must be at least 10 (setup places 10)")
    coins_raw = supplies.get("coins")
    if not isinstance(coins_raw, list) or not coins_raw:
        raise DataError(f"{file}: [supplies] field 'coins' must be a list of {{ value, count }} rows")
    coins: list[tuple[int, int]] = []
    for row, coin in enumerate(coins_raw, start=1):
        if not isinstance(coin, dict):
            raise DataError(f"{file}: [supplies] coins row {row} must be a table")
        value = _count(coin, "value", f"{file} [supplies] coins", row, None)
        count = _count(coin, "count", f"{file} [supplies] coins", row, None)
        coins.append((value, count))
    if sum(v * c for v, c in coins) < 6:
        raise DataError(f"{file}: [supplies] the coins must hold at least the 6 gold of the starting money")
    return {
        "rooms": tuple(rooms[c] for c in ROOM_CODES),
        "edges": tuple(edges),
        "first_game_layout": tuple(layout),
        "pool_servants": pool,
        "general_supply_servants": general,
        "coins": tuple(coins),
    }


def _is_ring(square: int) -> bool:
    file, rank = square % 6, square // 6
    return file in (0, 5) or rank in (0, 5)


def _load_toml(text: str, file: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{file}: not valid TOML: {error}") from error


def _read(name: str) -> str:
    try:
        return (files("meeple.games.palais_royal") / "data" / name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{name}: cannot read the data file: {error}") from error


@cache
def components() -> Components:
    """The shipped data files, loaded once; a broken file raises ``DataError`` naming it."""
    return Components(
        nobles=parse_nobles(_read("nobles.toml")),
        cards=parse_cards(_read("cards.toml")),
        **parse_board(_read("board.toml")),
    )
