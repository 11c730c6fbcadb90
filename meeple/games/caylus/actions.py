"""Caylus actions: interned values whose ``str()`` is the notation of rules/caylus.md §7.

Every distinct action is built once at import; ``ACTIONS`` maps a notation to its action, and the
``*_ACT`` tables give the hot path direct access without formatting any string. Because actions are
interned, identity is equality, which keeps membership tests in C.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from meeple.core.actions import InternedAction
from meeple.games.caylus.data import (
    CASTLE_BATCHES,
    CUBES,
    LAST_SPACE,
    PLAIN,
    PRESTIGE_IDS,
    ROWS,
    SPECIAL_NAMES,
    STONE_IDS,
    TILES,
    WOOD_IDS,
    Cubes,
    cubes,
    target_name,
)

(K_PASS, K_PLACE, K_GATE, K_GUILD, K_JOUST, K_INN, K_PROVOST, K_PRODUCE, K_BONUS, K_SELL, K_BUY, K_CHURCH,
 K_TAILOR, K_BANK, K_ALCH, K_JEWEL, K_BUILD, K_LAWYER, K_SKIP, K_CASTLE, K_DONE, K_FAVOUR, K_RES,
 K_TRADE) = range(24)

NO_CUBES: Cubes = (0, 0, 0, 0, 0)


class Act(InternedAction):
    """One atomic decision. ``kind`` is a K_* code; ``a``/``b`` its integer arguments; ``c`` cubes."""

    __slots__ = ("c",)
    c: Cubes

    def __init__(self, kind: int, notation: str, a: int = -1, b: int = -1, c: Cubes = NO_CUBES) -> None:
        super().__init__(kind, a, b, notation)
        object.__setattr__(self, "c", c)

    @classmethod
    def from_notation(cls, notation: str) -> Act:
        return action(notation)


ACTIONS: dict[str, Act] = {}


def _make(kind: int, note: str, x: int = -1, y: int = -1, c: Cubes = NO_CUBES) -> Act:
    act = Act(kind, note, x, y, c)
    ACTIONS[note] = act
    return act


def action(note: str) -> Act:
    """The interned action with this notation; ``KeyError`` if there is none."""
    return ACTIONS[note]


def _signed(k: int) -> str:
    return f"{k:+d}" if k else "0"


PASS = _make(K_PASS, "pass")
SKIP = _make(K_SKIP, "skip")
CASTLE_DONE = _make(K_DONE, "castle:done")
ALL_TARGETS = (*range(1, LAST_SPACE + 1), *SPECIAL_NAMES)
PLACE = {t: _make(K_PLACE, f"place:{target_name(t)}", t) for t in ALL_TARGETS}
GATE = {t: _make(K_GATE, f"gate:{target_name(t)}", t) for t in ALL_TARGETS if target_name(t) != "gate"}
GATE_BACK = _make(K_GATE, "gate:back", 0)
GUILD = {k: _make(K_GUILD, f"guild:{_signed(k)}", k) for k in range(-3, 4)}
PROVOST = {k: _make(K_PROVOST, f"provost:{_signed(k)}", k) for k in range(-3, 4)}
JOUST_YES = _make(K_JOUST, "joust:yes", 1)
JOUST_NO = _make(K_JOUST, "joust:no", 0)
INN_STAY = _make(K_INN, "inn:stay", 1)
INN_LEAVE = _make(K_INN, "inn:leave", 0)
#: Production outputs by cube string (the auto ones too: they are applied as single-option steps).
PRODUCE = {
    cubes(text): _make(K_PRODUCE, f"produce:{text}", c=cubes(text))
    for text in ("f", "c", "w", "s", "g", "ff", "cc", "ww", "ss", "ffc", "fww", "ssc")
}
BONUS = {k: _make(K_BONUS, f"bonus:{CUBES[k]}", k) for k in range(5)}
SELL = {k: _make(K_SELL, f"sell:{CUBES[k]}", k) for k in range(5)}
BUY1 = {k: _make(K_BUY, f"buy:{CUBES[k]}", 1, c=cubes(CUBES[k])) for k in PLAIN}
BUY2 = {
    (a, b): _make(K_BUY, f"buy:{CUBES[a]}{CUBES[b]}", 2, c=cubes(CUBES[a] + CUBES[b]))
    for a, b in combinations_with_replacement(PLAIN, 2)
}
CHURCH = {k: _make(K_CHURCH, f"church:{k}", k) for k in (2, 4)}
TAILOR = {k: _make(K_TAILOR, f"tailor:{k}", k) for k in (2, 3)}
BANK = {k: _make(K_BANK, f"bank:{k}", k) for k in (2, 5)}
JEWEL = {k: _make(K_JEWEL, f"jewel:{k}", k) for k in (1, 2)}
ALCH = [
    _make(K_ALCH, "alch:" + "".join(CUBES[k] for k in combo), len(combo) // 2,
          c=cubes("".join(CUBES[k] for k in combo)))
    for size in (2, 4)
    for combo in combinations_with_replacement(PLAIN, size)
]
#: build:<wood|stone> (no any-cube) -> BUILD[tile]; build:<wood>:<x> -> BUILD_ANY[tile][x];
#: build:<prestige>:<space> -> BUILD_ON[tile][space].
BUILD = {t: _make(K_BUILD, f"build:{TILES[t].slug}", t) for t in (*WOOD_IDS, *STONE_IDS) if not TILES[t].any_cube}
BUILD_ANY = {
    t: {x: _make(K_BUILD, f"build:{TILES[t].slug}:{CUBES[x]}", t, x) for x in range(5)}
    for t in WOOD_IDS
    if TILES[t].any_cube
}
BUILD_ON = {
    t: {s: _make(K_BUILD, f"build:{TILES[t].slug}:{s}", t, s) for s in range(1, LAST_SPACE + 1)}
    for t in PRESTIGE_IDS
}
LAWYER = {s: _make(K_LAWYER, f"lawyer:{s}", s) for s in range(1, LAST_SPACE + 1)}
CASTLE = [_make(K_CASTLE, f"castle:{text}", c=cubes(text)) for text in CASTLE_BATCHES]
FAVOUR = {row: _make(K_FAVOUR, f"favour:{name}", row) for row, name in enumerate(ROWS)}
RES = {k: _make(K_RES, f"res:{CUBES[k]}", k) for k in range(5)}
#: res:trade:<give>:<get2> -> TRADE[give][(a, b)]
TRADE = {
    give: {
        (a, b): _make(K_TRADE, f"res:trade:{CUBES[give]}:{CUBES[a]}{CUBES[b]}", give,
                      c=cubes(CUBES[a] + CUBES[b]))
        for a, b in combinations_with_replacement(PLAIN, 2)
    }
    for give in range(5)
}
