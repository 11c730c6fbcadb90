"""Action index tables: every action of a game at a player count has a fixed integer index.

A learning agent outputs an index; the table turns it into the engine's notation, and a mask of the
legal indices tells it which are allowed now. The list comes from the game's components
(``game.action_notations(players)``: every notation the game can write at that table size), never from
observed play, so an index means the same action in every game, on every machine.

Each table carries a version and a digest (SHA-256 of its notations, one a line, first 16 hex digits).
``PINNED`` records both for every game and player count: if an engine change alters a table, loading
it fails until the change is acknowledged by bumping the game's version and pinning the new digest
(``python -m meeple.research.tables`` prints them), so a model trained on one table is never silently
fed another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.core.contract import GameState
from meeple.core.registry import game_names, load_game

#: Each game's table version: bumped whenever its list of notations changes.
VERSIONS: dict[str, int] = {"citadels": 1, "burgundy": 1, "caylus": 1, "palais_royal": 1}

#: (game, players) -> (version, digest) of the published tables.
PINNED: dict[tuple[str, int], tuple[int, str]] = {
    ("citadels", 2): (1, "89b5b622443aebab"),  # 222 actions
    ("citadels", 3): (1, "05f23910ff30dbc5"),  # 245 actions
    ("citadels", 4): (1, "4d30d42d24e84e26"),  # 276 actions
    ("citadels", 5): (1, "c9cbdc289891b4d0"),  # 307 actions
    ("citadels", 6): (1, "f2cd2e09108ccb5c"),  # 338 actions
    ("citadels", 7): (1, "18c6ba4767fbc938"),  # 369 actions
    ("burgundy", 2): (1, "8b5df99873d1d373"),  # 3403 actions
    ("burgundy", 3): (1, "8b5df99873d1d373"),  # 3403 actions
    ("burgundy", 4): (1, "8b5df99873d1d373"),  # 3403 actions
    ("caylus", 2): (1, "d65e2bfa9075a203"),  # 550 actions
    ("caylus", 3): (1, "d65e2bfa9075a203"),  # 550 actions
    ("caylus", 4): (1, "d65e2bfa9075a203"),  # 550 actions
    ("caylus", 5): (1, "d65e2bfa9075a203"),  # 550 actions
    ("palais_royal", 2): (1, "fc2be84cd18fb8a2"),  # 178 actions
    ("palais_royal", 3): (1, "fc2be84cd18fb8a2"),  # 178 actions
    ("palais_royal", 4): (1, "fc2be84cd18fb8a2"),  # 178 actions
}

Mask = npt.NDArray[np.int8]


class TableMismatch(RuntimeError):
    """The engine's actions no longer match the published table of that version."""


def digest(notations: Iterable[str]) -> str:
    return hashlib.sha256("".join(f"{n}\n" for n in notations).encode()).hexdigest()[:16]


@dataclass(frozen=True, eq=False)
class ActionTable:
    """The fixed action indexes of one game at one player count; see the module docstring."""

    game: str
    players: int
    version: int
    digest: str
    notations: tuple[str, ...]
    index: dict[str, int]
    #: Interned action objects seen so far -> index (filled on first sight; avoids ``str`` per action).
    _by_action: dict[Any, int] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        return len(self.notations)

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionTable:
        return self  # fixed once built (the action cache only grows with the same facts)

    def index_of(self, action: Any) -> int:
        """The index of an action (or notation); ``KeyError`` if the table has no such action."""
        found = self._by_action.get(action)
        if found is None:
            found = self._by_action[action] = self.index[str(action)]
        return found

    def indices(self, actions: Sequence[Any]) -> list[int]:
        """The indexes of ``actions``, in their order."""
        by_action = self._by_action
        out = []
        for action in actions:
            found = by_action.get(action)
            if found is None:
                found = by_action[action] = self.index[str(action)]
            out.append(found)
        return out

    def legal_indices(self, state: GameState[Any]) -> list[int]:
        """The indexes of the actions legal now, in ``legal_actions()`` order."""
        return self.indices(state.legal_actions())

    def mask(self, state: GameState[Any]) -> Mask:
        """1 at the index of every legal action, 0 elsewhere (all 0 once the game is over)."""
        mask = np.zeros(len(self.notations), np.int8)
        mask[self.indices(state.legal_actions())] = 1
        return mask

    def notation(self, index: int) -> str:
        return self.notations[index]


def _build(game_name: str, players: int) -> ActionTable:
    game = load_game(game_name)
    game.check_players(players)
    notations = tuple(game.action_notations(players))
    return ActionTable(game_name, players, VERSIONS[game_name], digest(notations), notations,
                       {n: i for i, n in enumerate(notations)})


@cache
def action_table(game_name: str, players: int) -> ActionTable:
    """The published action table of a game at a player count (checked against ``PINNED``)."""
    table = _build(game_name, players)
    pinned = PINNED.get((game_name, players))
    if pinned != (table.version, table.digest):
        raise TableMismatch(
            f"{game_name} at {players} players: the engine lists actions with digest {table.digest}, but "
            f"table version {table.version} was published as {pinned}; bump VERSIONS[{game_name!r}] and pin "
            "the new digests (python -m meeple.research.tables)"
        )
    return table


def main() -> None:
    """Print every table's pin line, for ``PINNED``."""
    for name in game_names():
        game = load_game(name)
        for players in range(game.min_players, game.max_players + 1):
            table = _build(name, players)
            print(f'    ("{name}", {players}): ({table.version}, "{table.digest}"),  # {table.size} actions')


if __name__ == "__main__":
    main()
