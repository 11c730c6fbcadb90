"""Palais Royal actions: interned values whose ``str()`` is the notation of the rules reference §8.

Every distinct action is built once at import, so equality is identity and the hot path never
formats a string. ``parse_action`` turns a notation back into the same object.

>>> str(parse_action("move:STA-KIN")), parse_action("recruit:c3") is RECRUIT[14]
('move:STA-KIN', True)
"""

from __future__ import annotations

from meeple.core.actions import InternedAction
from meeple.games.palais_royal.data import CARD_CODES, ROOM_CODES, SQUARE_NAMES

# Action kinds.
PLACE, PLAY, GATE, GATE_FROM, MOVE, MINT, KING, KING_FROM, POMP, POMP_FROM = range(10)
RECRUIT_KIND, EDGE_POOL, EDGE_FROM, DRAW, KEEP, END = range(10, 16)


class PalaisAction(InternedAction):
    """One decision: ``kind`` plus up to two integer arguments (room, card kind or square index)."""

    __slots__ = ()

    @classmethod
    def from_notation(cls, notation: str) -> PalaisAction:
        return parse_action(notation)


_BY_NOTATION: dict[str, PalaisAction] = {}


def _make(kind: int, a: int, b: int, notation: str) -> PalaisAction:
    action = PalaisAction(kind, a, b, notation)
    _BY_NOTATION[notation] = action
    return action


PLACE_IN = tuple(_make(PLACE, r, 0, f"place:{code}") for r, code in enumerate(ROOM_CODES))
PLAY_CARD = tuple(_make(PLAY, c, 0, f"play:{code}") for c, code in enumerate(CARD_CODES))
GATE_POOL = _make(GATE, 0, 0, "gate")
GATE_FROM_ROOM = tuple(_make(GATE_FROM, r, 0, f"gate:{code}") for r, code in enumerate(ROOM_CODES))
MOVE_BETWEEN: dict[tuple[int, int], PalaisAction] = {
    (f, t): _make(MOVE, f, t, f"move:{ROOM_CODES[f]}-{ROOM_CODES[t]}")
    for f in range(9)
    for t in range(9)
    if f != t
}
MINT_ACTION = _make(MINT, 0, 0, "mint")
KING_POOL = _make(KING, 0, 0, "king")
KING_FROM_ROOM = tuple(_make(KING_FROM, r, 0, f"king:{code}") for r, code in enumerate(ROOM_CODES))
POMP_POOL = _make(POMP, 0, 0, "pomp")
POMP_FROM_ROOM = tuple(_make(POMP_FROM, r, 0, f"pomp:{code}") for r, code in enumerate(ROOM_CODES))
RECRUIT = tuple(_make(RECRUIT_KIND, q, 0, f"recruit:{name}") for q, name in enumerate(SQUARE_NAMES))
EDGE_FROM_POOL = _make(EDGE_POOL, 0, 0, "edge:pool")
EDGE_FROM_ROOM = tuple(_make(EDGE_FROM, r, 0, f"edge:{code}") for r, code in enumerate(ROOM_CODES))
DRAW_ACTION = _make(DRAW, 0, 0, "draw")
KEEP_CARD = tuple(_make(KEEP, c, 0, f"keep:{code}") for c, code in enumerate(CARD_CODES))
END_ACTION = _make(END, 0, 0, "end")


def parse_action(notation: str) -> PalaisAction:
    """The action written ``notation``; ``ValueError`` names the notation if there is none."""
    try:
        return _BY_NOTATION[notation]
    except (KeyError, TypeError):
        raise ValueError(f"{notation!r} is not Palais Royal notation (see docs/games/palais_royal.md)") from None


def all_actions() -> list[PalaisAction]:
    """Every action the notation can write, legal or not (for docs and tests)."""
    return list(_BY_NOTATION.values())
