"""Observation encoders: a game's typed ``Observation`` as a flat float vector or a dict of arrays.

An encoder reads the ``Observation`` only (plus the game's static component tables), never the state,
so it can show nothing its seat may not know. Every value lies in [0, 1]: flags and one-hots are 0/1,
counts are divided by a documented cap and saturate at 1. Seats are relative to the observer: index 0
of every per-seat axis is the observer, 1 the next seat clockwise, and so on; a "seat one-hot" is all
zero for "nobody". The fields, their shapes, caps and meaning are in ``fields`` (and docs/research.md).

Encoding is mostly sparse: a game's ``_fill`` lists flat positions and raw values (whole rows at once
where they are dense, single entries for one-hots), or writes big tables into the raw vector with
numpy, so its cost follows what is on the table more than the size of the vector.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from meeple.core.contract import GameState
from meeple.core.observation import Observation

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Field:
    """One named part of the encoding: its shape, the cap its raw counts are divided by (1 for flags
    and one-hots), and what it means. ``shape_doc`` writes the shape with ``n`` for the player count."""

    name: str
    shape: tuple[int, ...]
    cap: float
    doc: str
    shape_doc: str = ""

    @property
    def size(self) -> int:
        return prod(self.shape)


class Encoder(ABC):
    """The encoding of one game's observations at one player count (see the module docstring)."""

    game: ClassVar[str]
    #: Bumped whenever the layout or meaning of a field changes.
    version: ClassVar[int]

    def __init__(self, players: int) -> None:
        self.players = players
        self.fields: tuple[Field, ...] = tuple(self._fields())
        self.offset: dict[str, int] = {}
        at = 0
        scale: list[float] = []
        for f in self.fields:
            if f.name in self.offset:
                raise ValueError(f"field {f.name!r} twice")
            self.offset[f.name] = at
            at += f.size
            scale.extend([1.0 / f.cap] * f.size)
        self.size = at
        self._scale: Vector = np.array(scale, np.float32)
        self._spaces: tuple[Any, Any] | None = None

    @abstractmethod
    def _fields(self) -> Iterable[Field]:
        """The fields in vector order."""

    @abstractmethod
    def _fill(self, obs: Any, at: list[int], values: list[float], raw: Vector) -> None:
        """Write the raw values: append flat positions and values (each position once), or write into
        ``raw`` (zeros; the listed values are set after ``_fill`` returns)."""

    def relative(self, obs: Observation) -> list[int]:
        """``relative[seat]``: the seat's index on every per-seat axis (the observer first)."""
        me = obs.seat or 0
        n = self.players
        return [(seat - me) % n for seat in range(n)]

    def order(self, obs: Observation) -> list[int]:
        """The seats in relative order: ``order[r]`` is the seat at index ``r`` (the inverse of ``relative``)."""
        me = obs.seat or 0
        n = self.players
        return [(me + r) % n for r in range(n)]

    def encode(self, obs: Observation) -> Vector:
        """The flat vector (float32, values in [0, 1])."""
        if obs.players != self.players or obs.game != self.game:
            raise ValueError(f"a {obs.players}-player {obs.game} observation given to the "
                             f"{self.players}-player {self.game} encoder")
        at: list[int] = []
        values: list[float] = []
        out = np.zeros(self.size, np.float32)
        self._fill(obs, at, values, out)
        return self._scatter(at, values, out)

    def _scatter(self, at: list[int], values: list[float], raw: Vector | None = None) -> Vector:
        """The vector: ``values`` written at the positions ``at`` into ``raw`` (zeros when not given),
        then scaled by the caps and clipped to [0, 1]. Converting only the non-zero entries is the
        cheap way: numpy converts Python numbers one by one, at about the cost of the rest together."""
        if raw is None:
            raw = np.zeros(self.size, np.float32)
        count = len(at)  # fromiter converts Python numbers several times faster than np.array
        raw[np.fromiter(at, np.intp, count)] = np.fromiter(values, np.float32, count)
        raw *= self._scale
        np.minimum(raw, 1.0, out=raw)  # two ufuncs cost a third of np.clip's Python-level dispatch
        np.maximum(raw, 0.0, out=raw)
        return raw

    def encode_state(self, state: GameState[Any], seat: int) -> Vector:
        """``encode(state.observation(seat))`` for a seat (not a spectator). A game's encoder may
        override it with a fast path that writes the vector straight from the state, skipping the
        ``Observation``; the fast path must give exactly the same vector for every position and seat
        (tests/research/test_fast_paths.py proves it on random games), so the Observation stays the
        definition of what a seat sees."""
        return self.encode(state.observation(seat))

    def split(self, vector: Vector) -> dict[str, Vector]:
        """A flat vector as named arrays of the fields' shapes (views, no copy)."""
        offset = self.offset
        return {f.name: vector[offset[f.name]:offset[f.name] + f.size].reshape(f.shape) for f in self.fields}

    def encode_dict(self, obs: Observation) -> dict[str, Vector]:
        """The encoding as named arrays (an element of ``dict_space()``)."""
        return self.split(self.encode(obs))

    def _make_spaces(self) -> tuple[Any, Any]:
        if self._spaces is None:
            from gymnasium import spaces

            flat = spaces.Box(0.0, 1.0, (self.size,), np.float32)
            named = spaces.Dict({f.name: spaces.Box(0.0, 1.0, f.shape, np.float32) for f in self.fields})
            self._spaces = flat, named
        return self._spaces

    def flat_space(self) -> Any:
        """``gymnasium.spaces.Box(0, 1, (size,), float32)``."""
        return self._make_spaces()[0]

    def dict_space(self) -> Any:
        """``gymnasium.spaces.Dict`` of one ``Box(0, 1)`` per field."""
        return self._make_spaces()[1]

    def markdown(self) -> str:
        """The fields as a Markdown table (docs/research.md)."""
        rows = ["| field | shape | cap | meaning |", "|---|---|---|---|"]
        for f in self.fields:
            shape = f.shape_doc or " × ".join(map(str, f.shape))
            cap = "1" if f.cap == 1 else f"{f.cap:g}"
            rows.append(f"| `{f.name}` | {shape} | {cap} | {f.doc} |")
        return "\n".join(rows)


def one_hot(at: list[int], values: list[float], start: int, index: int) -> None:
    """A 1 at ``start + index`` when ``index >= 0`` (nothing for -1, "none")."""
    if index >= 0:
        at.append(start + index)
        values.append(1.0)


def dense(at: list[int], values: list[float], start: int, numbers: Sequence[float]) -> None:
    """Raw values at ``start``, ``start + 1``, … (one C-level extend each)."""
    at.extend(range(start, start + len(numbers)))
    values.extend(numbers)


def rows(
    at: list[int], values: list[float], start: int, table: Sequence[Sequence[float]], order: Sequence[int]
) -> None:
    """A per-seat table, its rows in relative order: row ``r`` is ``table[order[r]]``."""
    width = len(table[0])
    for r, seat in enumerate(order):
        at.extend(range(start + width * r, start + width * (r + 1)))
        values.extend(table[seat])


def per_seat(at: list[int], values: list[float], start: int, numbers: Sequence[float], order: Sequence[int]) -> None:
    """One number per seat, in relative order."""
    at.extend(range(start, start + len(order)))
    values.extend([numbers[seat] for seat in order])
