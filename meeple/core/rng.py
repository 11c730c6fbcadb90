"""A small seeded random generator whose whole state is one integer.

Every chance event of a game (shuffles, draws, dice) comes from the ``Rng`` held in its state, so a
seed plus the list of actions reproduces a game exactly, also after a JSON round trip. The state is a
single 64-bit integer, which makes snapshots tiny and ``clone()`` nearly free.

The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014): statistically sound for games, trivially serialisable. Bounded integers use
Lemire's multiply-and-reject method, so they are exactly uniform.

Python's big-integer arithmetic makes one output cost about half a microsecond, so shuffles and dice
compute many outputs side by side in one big integer (``outputs``): the same values, several times
faster.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_BATCH = 64  # outputs computed side by side at most


def _lanes(count: int) -> tuple[int, int, int, struct.Struct, int]:
    """Constants for ``count`` outputs side by side: lane ``k`` is bits 128k..128k+127 of one integer,
    wide enough that a lane's 64 x 64-bit product never spills into the next lane.

    Returns (1 in every lane, gamma * (k + 1) in lane k, 2**64 - 1 in every lane, the unpacker of
    the lanes as 64-bit words, 2**64 in every lane).
    """
    ones = int.from_bytes((b"\x01" + bytes(15)) * count, "little")
    steps = int.from_bytes(b"".join(((k + 1) * _GAMMA).to_bytes(16, "little") for k in range(count)), "little")
    low = int.from_bytes((b"\xff" * 8 + bytes(8)) * count, "little")
    return ones, steps, low, struct.Struct(f"<{2 * count}Q"), ones << 64


_LANES = tuple(_lanes(count) for count in range(_BATCH + 1))


def _mix_lanes(z: int, low: int) -> int:
    """SplitMix64's output function on every lane of ``z`` at once (each 128-bit lane holds a state in
    its low word; ``low`` is 2**64 - 1 in every lane): a dozen big-integer operations for all lanes."""
    z = ((z ^ ((z >> 30) & low)) * _MIX1) & low
    z = ((z ^ ((z >> 27) & low)) * _MIX2) & low
    return z ^ ((z >> 31) & low)


def _index_bits(count: int) -> tuple[int, ...]:
    """Per bit ``b`` of a lane index: every lane ``k < count`` with that bit set, all 128 bits of it."""
    lane = b"\xff" * 16
    return tuple(
        int.from_bytes(b"".join(lane if k >> b & 1 else bytes(16) for k in range(count)), "little")
        for b in range(max(count - 1, 0).bit_length())
    )


_INDEX_BITS = tuple(_index_bits(count) for count in range(_BATCH + 1))

#: (lanes, 1 in every lane, gamma * (k + 1) in lane k, 2**64 - 1 in every lane, per bit of the bounds
#: the low words of the lanes whose bound has it, 2**64 minus lane k's Lemire threshold in lane k,
#: 2**64 in every lane, the unpacker of the high words of the lanes that swap)
_ShufflePlan = tuple[int, int, int, int, tuple[int, ...], int, int, struct.Struct]
_SHUFFLE_PLANS: dict[tuple[int, ...], _ShufflePlan] = {}
_SHUFFLE_PLANS_MAX = 16  # distinct pile tuples kept; games ask with a few fixed ones
_SHUFFLE_LANES_MAX = 1024  # more draws go the sequential way: the cached constants grow with the lanes


def _shuffle_plan(key: tuple[int, ...]) -> _ShufflePlan | None:
    """Constants for ``shuffle_each``, one lane per draw, cached by ``key``: a list's size, or minus the
    size of a pile of alike items (0 for no draws), so such piles' draws are checked but not unpacked.
    ``None`` past ``_SHUFFLE_LANES_MAX`` draws.

    Lane bounds differ (each pile counts down from its size), so ``z * bound`` is summed over the
    bits of the bounds: one mask per bit instead of one multiplication per pile.
    """
    count = sum(abs(size) - 1 for size in key if size > 1 or size < -1)
    if count > _SHUFFLE_LANES_MAX:
        return None
    bounds = [n for size in key for n in range(abs(size), 1, -1)]
    ones, steps, low, _, carry = _lanes(count)
    word, empty = b"\xff" * 8 + bytes(8), bytes(16)
    bits = tuple(
        int.from_bytes(b"".join(word if n >> b & 1 else empty for n in bounds), "little")
        for b in range(max(bounds, default=0).bit_length())
    )
    # lane k is rejected exactly when its low word is below 2**64 % n: adding 2**64 minus that
    # threshold carries into bit 64 of the lane exactly when it is accepted
    accept = int.from_bytes(b"".join(((1 << 64) - (1 << 64) % n).to_bytes(16, "little") for n in bounds), "little")
    layout = "".join("8xQ" * (size - 1) if size > 1 else f"{16 * (-size - 1)}x" for size in key if abs(size) > 1)
    plan = (count, ones, steps, low, bits, accept, carry, struct.Struct("<" + layout))
    if len(_SHUFFLE_PLANS) >= _SHUFFLE_PLANS_MAX:
        _SHUFFLE_PLANS.clear()
    _SHUFFLE_PLANS[key] = plan
    return plan


#: what ``_dice_plan`` returns, in the order ``dice`` unpacks it
_DicePlan = tuple[
    int,  # 1 in each of the first few lanes, which one multiplication fills with the state
    tuple[int, ...],  # the shifts that copy the filled lanes onto the next ones until all are filled
    int,  # gamma * (i + 1) in the lane that computes die i
    int,  # 2**64 - 1 in every lane
    int,  # 2**64 minus the Lemire threshold in every lane
    int,  # 2**64 in every lane
    int,  # the first fold: its kept high words,
    int,  # its shift,
    int,  # its moved low words
    tuple[tuple[int, int], ...],  # the further folds' kept bits and shift
    int,  # bytes of the folded dice
    Callable[[bytes], Iterable[int]],  # their reader
]
_DICE_PLANS: dict[tuple[int, int], _DicePlan] = {}
_DICE_PLANS_MAX = 128  # distinct (count, sides) kept; a game asks with a few dozen counts at most
_DICE_LANES_MAX = 256  # dice in one batch; more are rolled batch by batch
_DICE_FILL_LANES = 8  # lanes the multiplication fills at most; shifts copy them to the rest
_DICE_FOLD_MIN = 512  # bits: folding a smaller integer costs more than it saves in ``to_bytes``
_WORD = {16: "H", 32: "I", 64: "Q"}  # struct's unsigned integers by width


def _dice_plan(count: int, sides: int) -> _DicePlan:
    """Constants for ``dice(count, sides)`` (1 <= count) in one batch, cached: building them costs as
    much as a few calls, and a game rolls the same few counts again and again.

    Each step of the batch costs about as much per digit (and a big integer's allocation), so the
    plan avoids digits: the state fills a few lanes by multiplication and the rest by shifts, and the
    dice (one per 128-bit lane, mostly zero bits) are folded together before ``to_bytes``, which costs
    per byte: the upper half of the lanes shifted onto the lower half's spent low words, then each
    word halved the same way while the dice fit. Any lane may compute any output, so each lane
    computes the die that its place in the folded bytes must hold, and the bytes read in order.
    """
    ones, _, low, _, carry = _lanes(count)
    filled = count
    doublings: list[int] = []
    while filled > _DICE_FILL_LANES:
        filled = (filled + 1) // 2
        doublings.insert(0, 128 * filled)  # may fill a few lanes past count: masked off at once
    # lane k is rejected exactly when its low word is below 2**64 % sides: adding 2**64 minus that
    # threshold carries into bit 64 of the lane (adding 1 to the die) exactly when it is accepted
    accept = ones * ((1 << 64) - (1 << 64) % sides)
    # first fold: lane half + j's die (its high word) to lane j's low word, for j < count - half; for
    # an odd count the last one lands past the lower half, so every 64-bit word holds a die
    half = count // 2
    keep = int.from_bytes((bytes(8) + b"\xff" * 8) * half, "little")
    move = int.from_bytes((b"\xff" * 8 + bytes(8)) * (count - half), "little")
    slots: list[int | None] = []  # the lane whose die each word holds; None (empty) only ever last
    for j in range(count - half):
        slots += [half + j, j] if j < half else [half + j]
    width = 64
    folds: list[tuple[int, int]] = []
    # then halve the words while the dice fit in half a word: word i's die stays in the low half of
    # word i, word h + i's moves to its high half
    while width > 8 and sides < 1 << (width // 2) and len(slots) * width > _DICE_FOLD_MIN:
        width //= 2
        h = (len(slots) + 1) // 2
        shift = (2 * h - 1) * width
        folds.append(((1 << shift) - 1, shift))
        slots = [lane for i in range(h) for lane in (slots[i], slots[h + i] if h + i < len(slots) else None)]
    place = [0] * count
    for i, lane in enumerate(slots):
        if lane is not None:
            place[lane] = i
    steps = int.from_bytes(b"".join(((i + 1) * _GAMMA).to_bytes(16, "little") for i in place), "little")
    read: Callable[[bytes], Iterable[int]] = bytes if width == 8 else struct.Struct(f"<{count}{_WORD[width]}").unpack
    plan = (
        _lanes(filled)[0], tuple(doublings), steps, low, accept, carry,
        keep, 128 * half + 64, move, tuple(folds), count * width // 8, read,
    )  # fmt: skip
    if len(_DICE_PLANS) >= _DICE_PLANS_MAX:
        _DICE_PLANS.clear()
    _DICE_PLANS[count, sides] = plan
    return plan


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
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK  # _MIX1, _MIX2 as literals: one output at a time
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK  # is the hot path of other games' shuffles
        return z ^ (z >> 31)

    def _mixed(self, count: int) -> int:
        """The next ``count`` (at most ``_BATCH``) raw outputs, output ``k`` in lane ``k`` of one integer.

        SplitMix64's k-th state is just ``state + k * gamma``, so all lanes are mixed at once: a dozen
        big-integer operations in all instead of a dozen per output.
        """
        ones, steps, low, _, _ = _LANES[count]
        state = self.state
        self.state = (state + count * _GAMMA) & _MASK
        return _mix_lanes((state * ones + steps) & low, low)  # lane k: the state after k + 1 steps

    def outputs(self, count: int) -> list[int]:
        """The next ``count`` raw outputs, exactly ``[next64() for _ in range(count)]``."""
        out: list[int] = []
        while count > 0:
            batch = count if count < _BATCH else _BATCH
            out += _LANES[batch][3].unpack(self._mixed(batch).to_bytes(batch << 4, "little"))[::2]
            count -= batch
        return out

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, for ``n`` up to 2**64 (one 64-bit output per draw)."""
        if not 0 < n <= 1 << 64:
            raise ValueError(f"randbelow needs a bound from 1 to 2**64, not {n}")
        while True:
            product = self.next64() * n
            low = product & _MASK
            # Lemire's rejection needs low < 2**64 % n, which is below n: test the cheap bound first
            if low >= n or low >= (1 << 64) % n:
                return product >> 64

    def below_each(self, bounds: Sequence[int]) -> list[int]:
        """``[randbelow(n) for n in bounds]`` (the same values and final state) from one ``outputs`` call."""
        if not bounds:
            return []
        if min(bounds) <= 0 or max(bounds) > 1 << 64:
            raise ValueError("randbelow needs bounds from 1 to 2**64")
        start = self.state
        products = list(map(int.__mul__, self.outputs(len(bounds)), bounds))
        # Lemire's rejection needs (product mod 2**64) < 2**64 % n, which is below n: test that first
        if min(map(_MASK.__and__, products)) < max(bounds):
            for i, (product, n) in enumerate(zip(products, bounds, strict=True)):
                low = product & _MASK
                if low < n and low < (1 << 64) % n:
                    # rejected (odds below n / 2**64): rewind to just after this draw, go on one by one
                    self.state = (start + (i + 1) * _GAMMA) & _MASK
                    return [p >> 64 for p in products[:i]] + [self.randbelow(m) for m in bounds[i:]]
        return [p >> 64 for p in products]

    def _descending(self, top: int, count: int) -> list[int]:
        """``[randbelow(top), randbelow(top - 1), ..., randbelow(top - count + 1)]``: a shuffle's or a
        sample's draws, the same values and final state, with the bounds applied side by side too."""
        start = self.state
        out: list[int] = []
        n = top
        while len(out) < count:
            batch = min(count - len(out), _BATCH)
            z = self._mixed(batch)
            # lane k times its bound n - k is z * n minus z * k, and z * k is the sum over the bits b
            # of k of (the lanes whose index has bit b) << b
            product = z * n
            for b, lanes_with_bit in enumerate(_INDEX_BITS[batch]):
                product -= (z & lanes_with_bit) << b
            words = _LANES[batch][3].unpack(product.to_bytes(batch << 4, "little"))
            if min(words[::2]) < n:  # a rejection is possible (odds below n / 2**64): the plain way
                self.state = start
                return self.below_each(range(top, top - count, -1))
            out += words[1::2]
            n -= batch
        return out

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """``count`` rolls of a die, exactly ``[randint(1, sides) for _ in range(count)]``.

        Burgundy rolls a whole game's dice at once, so they come from one batch: cached constants
        per count (see ``_dice_plan``), Lemire's check done on the big integer, only dice unpacked.
        """
        if not 0 < sides < 1 << 64:
            return [v + 1 for v in self.below_each([sides] * count)]
        if count > _DICE_LANES_MAX:  # rolls in a row are one roll each: batch by batch is the same
            out: list[int] = []
            while count > _DICE_LANES_MAX:
                out += self.dice(_DICE_LANES_MAX, sides)
                count -= _DICE_LANES_MAX
            return out + self.dice(count, sides)
        if count <= 0:
            return []
        plan = _DICE_PLANS.get((count, sides)) or _dice_plan(count, sides)
        fill, doublings, steps, low, accept, carry, keep, shift, move, folds, size, read = plan
        # fill every lane with the state, then SplitMix64 on every lane at once, as in _mixed
        state = self.state
        z = state * fill
        for filled in doublings:
            z |= z << filled
        product = _mix_lanes((z + steps) & low, low) * sides  # die i's lane: the state after i + 1 steps
        # an accepted lane's low word carries into its high word, which becomes the die; a carry
        # always flips bit 64 of the lane, so a lane without that flip was rejected
        rolled = product + accept
        if (rolled ^ product) & carry != carry:  # odds below sides / 2**64 a die: redo one by one
            return [v + 1 for v in self.below_each([sides] * count)]
        self.state = (state + count * _GAMMA) & _MASK
        rolled = (rolled & keep) | ((rolled >> shift) & move)
        for keep, shift in folds:
            rolled = (rolled & keep) | (rolled >> shift)
        return [*read(rolled.to_bytes(size, "little"))]

    def skip(self, count: int) -> None:
        """Move on as if ``count`` outputs had been drawn (the state is a counter)."""
        self.state = (self.state + count * _GAMMA) & _MASK

    def randrange(self, start: int, stop: int | None = None) -> int:
        """Like ``random.randrange`` with step 1."""
        if stop is None:
            return self.randbelow(start)
        return start + self.randbelow(stop - start)

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included (a die is ``randint(1, 6)``)."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits: ``next64() >> 11`` scaled, with ``next64``
        inlined (the heuristic bots draw one per action scored, for their tie-breaking noise)."""
        self.state = z = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)

    def random_at(self, offset: int) -> float:
        """What the call of ``random`` ``offset`` calls from now (0: the next) will return, drawing
        nothing (the state is a counter): a heuristic bot that scores every action with a tie-breaking
        draw needs only the draws of the actions close to the best, then ``skip``s the rest."""
        z = (self.state + (offset + 1) * _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place: swap ``i`` with ``randbelow(i + 1)`` for i from the end down."""
        size = len(items)
        for i, j in zip(range(size - 1, 0, -1), self.shuffle_indices(size), strict=True):
            items[i], items[j] = items[j], items[i]

    def shuffle_indices(self, size: int) -> list[int]:
        """What ``shuffle`` draws for ``size`` items: the partner of each swap, for positions
        ``size - 1`` down to 1 (useful alone where the items are all alike: the same draws, no swaps)."""
        return self._descending(size, size - 1) if size > 1 else []

    def shuffle_each(self, piles: Sequence[MutableSequence[Any] | int]) -> None:
        """Shuffle several piles one after another: exactly ``shuffle(pile)`` for each list and
        ``shuffle_indices(n)`` (the draws, nothing to swap) for each int ``n``, the same permutations
        and final state, but with every draw of every pile computed side by side in one big integer.

        Setting up a game shuffles many piles in a row; one batch for all of them costs about half.
        """
        key = tuple([(-pile if pile > 1 else 0) if isinstance(pile, int) else len(pile) for pile in piles])
        plan = _SHUFFLE_PLANS.get(key) or _shuffle_plan(key)
        if plan is None:
            self._shuffle_each_plain(piles)
            return
        count, ones, steps, low, bits, accept, carry, unpack = plan
        if not count:
            return
        state = self.state
        z = _mix_lanes((state * ones + steps) & low, low)  # SplitMix64 on every lane at once, as in _mixed
        # lane k times its bound, by Horner's rule over the bits of the bounds
        b = len(bits) - 1
        product = z & bits[b]
        while b:
            b -= 1
            product = (product << 1) + (z & bits[b])
        if ((product & low) + accept) & carry != carry:  # a lane rejects (odds n / 2**64 each): the plain way
            self._shuffle_each_plain(piles)
            return
        self.state = (state + count * _GAMMA) & _MASK
        draws = unpack.unpack(product.to_bytes(count << 4, "little"))
        start = 0
        for pile in piles:
            if not isinstance(pile, int) and len(pile) > 1:
                i = len(pile)
                stop = start + i - 1
                for j in draws[start:stop]:  # a counter and a slice: leaner than zip with a range
                    i -= 1
                    pile[i], pile[j] = pile[j], pile[i]
                start = stop

    def _shuffle_each_plain(self, piles: Sequence[MutableSequence[Any] | int]) -> None:
        """``shuffle_each`` one pile at a time, the definition it must match."""
        for pile in piles:
            if isinstance(pile, int):
                self.shuffle_indices(pile)
            else:
                self.shuffle(pile)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order."""
        pool = list(items)
        size = len(pool)
        if not 0 <= k <= size:
            raise ValueError("sample larger than population")
        for i, offset in enumerate(self._descending(size, k)):
            j = i + offset
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
