"""A small seeded random generator whose whole state is one integer.

Every chance event of a game (shuffles, draws, dice) comes from the ``Rng`` held in its state, so a
seed plus the list of actions reproduces a game exactly, also after a JSON round trip. The state is a
single 64-bit integer, which makes snapshots tiny and ``clone()`` nearly free.

The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014): statistically sound for games, trivially serialisable. Bounded integers use
Lemire's multiply-and-reject method, so they are exactly uniform.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_to_int(seed: int | str | bytes) -> int:
    """Turn any seed into a 64-bit integer; strings and bytes are hashed so nearby seeds differ."""
    if isinstance(seed, bool):
        raise TypeError("a seed must be an int, str or bytes, not bool")
    if isinstance(seed, int):
        return seed & _MASK
    data = seed.encode() if isinstance(seed, str) else bytes(seed)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


class Rng:
    """Deterministic random numbers from a seed; ``Rng(7)`` always yields the same sequence.

    >>> rng = Rng(7)
    >>> deck = list(range(5)); rng.shuffle(deck); sorted(deck)
    [0, 1, 2, 3, 4]
    >>> Rng.from_state(Rng(7).state).randbelow(100) == Rng(7).randbelow(100)
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int | str | bytes = 0) -> None:
        self.state = seed_to_int(seed)

    @classmethod
    def from_state(cls, state: int) -> Rng:
        rng = cls.__new__(cls)
        rng.state = state & _MASK
        return rng

    def copy(self) -> Rng:
        return Rng.from_state(self.state)

    def next64(self) -> int:
        """The next raw 64-bit output."""
        self.state = z = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        threshold = (1 << 64) % n
        while True:
            product = self.next64() * n
            if (product & _MASK) >= threshold:
                return product >> 64

    def randrange(self, start: int, stop: int | None = None) -> int:
        """Like ``random.randrange`` with step 1."""
        if stop is None:
            return self.randbelow(start)
        return start + self.randbelow(stop - start)

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included (a die is ``randint(1, 6)``)."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        randbelow = self.randbelow
        for i in range(len(items) - 1, 0, -1):
            j = randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def fork(self) -> Rng:
        """An independent generator derived from this one (advances this one by one step)."""
        return Rng.from_state(self.next64() ^ 0x5DEECE66D2F1A3B7)

    def to_json(self) -> str:
        """The state as a hex string: JSON numbers above 2**53 lose precision in JavaScript."""
        return format(self.state, "016x")

    @classmethod
    def from_json(cls, data: object) -> Rng:
        if not isinstance(data, str):
            raise ValueError("an RNG state must be a hex string")
        return cls.from_state(int(data, 16))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng.from_state(0x{self.state:016x})"


def as_rng(source: Rng | int | str | None, fallback: Rng | None = None) -> Rng:
    """Accept an ``Rng``, a seed, a ``random.Random`` or ``None`` where an RNG is wanted."""
    if isinstance(source, Rng):
        return source
    if source is None:
        if fallback is None:
            raise ValueError("an RNG or a seed is required")
        return fallback.fork()
    getrandbits = getattr(source, "getrandbits", None)
    if getrandbits is not None:  # random.Random and friends
        return Rng(getrandbits(64))
    return Rng(source)
