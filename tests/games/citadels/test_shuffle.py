"""The character shuffle's tables give what the plain shuffle gives, for every outcome of its one draw."""

from __future__ import annotations

from meeple.core.rng import Rng
from meeple.games.citadels.shuffle import shuffle, shuffle_by_swaps, shuffled_eight


class _FixedDraw(Rng):
    """A generator whose next 64-bit output is ``value``."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def next64(self) -> int:
        return self.value


def test_shuffled_eight_equals_the_plain_shuffle_for_every_draw() -> None:
    outcomes = 8 * 7 * 6 * 5 * 4 * 3 * 2
    for scaled in range(outcomes):
        word = -(-(scaled << 64) // outcomes)  # the least 64-bit word that scales to ``scaled``
        assert (word * outcomes) >> 64 == scaled
        plain = list(range(8))
        shuffle(_FixedDraw(word), plain)
        assert shuffled_eight(_FixedDraw(word)) == plain, scaled


def test_shuffled_eight_draws_once_like_the_plain_shuffle() -> None:
    for seed in range(50):
        fast, slow = Rng(seed), Rng(seed)
        plain = list(range(8))
        shuffle(slow, plain)
        assert shuffled_eight(fast) == plain and fast.state == slow.state


def test_a_short_list_is_shuffled_as_by_its_swaps_for_every_draw() -> None:
    # 2 to 7 items are shuffled from a table of outcomes (the characters set back after the King was dealt
    # face up); every outcome of the one draw must be the swaps' own.
    outcomes = 1
    for n in range(2, 8):
        outcomes *= n
        items = [f"c{i}" for i in range(n)]
        for scaled in range(outcomes):
            word = -(-(scaled << 64) // outcomes)
            tabled, swapped = list(items), list(items)
            shuffle(_FixedDraw(word), tabled)
            shuffle_by_swaps(_FixedDraw(word), swapped)
            assert tabled == swapped, (n, scaled)
    for seed in range(20):
        for n in range(9):
            fast, slow = Rng(seed), Rng(seed)
            numbers, same = list(range(n)), list(range(n))
            shuffle(fast, numbers)
            shuffle_by_swaps(slow, same)
            assert numbers == same and fast.state == slow.state
