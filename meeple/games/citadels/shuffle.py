"""A Fisher–Yates shuffle that asks the game's ``Rng`` for one 64-bit word per several swaps.

``Rng.shuffle`` costs one bounded draw per card, which for a 68-card deck and a character shuffle
every round was the largest single cost of a random playout. Here consecutive swaps are grouped so
that the product of their ranges stays below 2**32; one 64-bit word, scaled to that product
(Lemire's multiply-shift), is split into mixed-radix digits, one per swap. Each group's outcome is
off uniform by less than 2**-32 (relative), and randomness still comes only from the state's
``Rng``, so seeds and replays stay exact.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TypeVar

from meeple.core.rng import Rng

T = TypeVar("T")

_LIMIT = 1 << 32
_MAX_PLANNED = 256
_ONE_BY_ONE = 2  # groups of swaps up to which ``shuffle`` draws its words one by one


def _plan(length: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """For a list of ``length`` items, one entry per group of swaps: the product of the group's ranges,
    and for each swap the index it fills and its range (index + 1), from the end of the list down."""
    groups = []
    i = length - 1
    while i > 0:
        product = i + 1
        k = i - 1
        while k > 0 and product * (k + 1) < _LIMIT:
            product *= k + 1
            k -= 1
        groups.append((product, tuple((j, j + 1) for j in range(i, k, -1))))
        i = k
    return tuple(groups)


_PLANS = tuple(_plan(n) for n in range(_MAX_PLANNED))


def shuffle(rng: Rng, items: list[T]) -> None:
    """Shuffle ``items`` in place from ``rng``: ``shuffle_by_swaps``, read from a table of outcomes for a
    list of 2 to 7 items (the characters set back after the King was dealt face up, every few rounds).

    >>> deck = list(range(10)); shuffle(Rng(3), deck); sorted(deck) == list(range(10))
    True
    """
    n = len(items)
    if 1 < n < _TABLED:  # one group of swaps (n! < 2**32): one word, one table read
        items[:] = _ORDERS[n][(rng.next64() * _OUTCOMES[n]) >> 64](items)
        return
    shuffle_by_swaps(rng, items)


def shuffle_by_swaps(rng: Rng, items: list[T]) -> None:
    """The shuffle itself: Fisher–Yates over the plan's groups of swaps, one word a group."""
    n = len(items)
    plan = _PLANS[n] if n < _MAX_PLANNED else _plan(n)
    # A deck's dozen or more words are drawn side by side (``Rng.outputs``: the same words as one
    # ``next64`` after another, a fraction of the work); a handful of characters' one word by itself.
    words = rng.outputs(len(plan)) if len(plan) > _ONE_BY_ONE else [rng.next64() for _ in plan]
    for (product, swaps), word in zip(plan, words, strict=True):
        r = (word * product) >> 64
        for i, size in swaps:
            j = r % size
            r //= size
            items[i], items[j] = items[j], items[i]


def _after_swaps(swaps: tuple[tuple[int, int], ...], digits: int, items: list[int]) -> list[int]:
    """``items`` after ``swaps`` with their mixed-radix ``digits``, as ``shuffle`` makes them."""
    for i, size in swaps:
        digits, j = divmod(digits, size)
        items[i], items[j] = items[j], items[i]
    return items


# Lists of 2 to 7 items (one group of swaps each): by length, the n! outcomes of the group's one draw, each
# as the reordering its swaps make.
_TABLED = 8
_OUTCOMES: tuple[int, ...] = tuple(_PLANS[n][0][0] if n > 1 else 1 for n in range(_TABLED))
_ORDERS: tuple[tuple[itemgetter[tuple[int, ...]], ...], ...] = tuple(
    tuple(itemgetter(*_after_swaps(_PLANS[n][0][1], digits, list(range(n)))) for digits in range(_OUTCOMES[n]))
    if n > 1 else () for n in range(_TABLED))

# The shuffle of the 8 characters, from ``range(8)`` at every round, as two tables: its one group's 7 swaps
# (8! < 2**32) split into the 4 that fill positions 7–4 (8·7·6·5 = 1680 outcomes, the low digits) and the
# 3 that then only reorder positions 0–3 (24 outcomes).
((_EIGHT_PRODUCT, _EIGHT_SWAPS),) = _PLANS[8]
_LOW_OUTCOMES = 8 * 7 * 6 * 5
_AFTER_LOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(_after_swaps(_EIGHT_SWAPS[:4], low, list(range(8)))) for low in range(_LOW_OUTCOMES))
_FIRST_FOUR: tuple[itemgetter[tuple[int, ...]], ...] = tuple(
    itemgetter(*_after_swaps(_EIGHT_SWAPS[4:], high, list(range(4))))
    for high in range(_EIGHT_PRODUCT // _LOW_OUTCOMES))


def shuffled_eight(rng: Rng) -> list[int]:
    """``range(8)`` shuffled, exactly as ``shuffle(rng, list(range(8)))`` would (one draw, two table reads
    instead of seven swaps).

    >>> sorted(shuffled_eight(Rng(5)))
    [0, 1, 2, 3, 4, 5, 6, 7]
    """
    high, low = divmod((rng.next64() * _EIGHT_PRODUCT) >> 64, _LOW_OUTCOMES)
    order = _AFTER_LOW[low]
    return [*_FIRST_FOUR[high](order), *order[4:]]
