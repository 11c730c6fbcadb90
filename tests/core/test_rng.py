"""The seeded generator: reproducible, serialisable, uniform enough to trust for shuffles and dice."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.core.rng import Rng, as_rng


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_state_round_trips_through_json(seed: int) -> None:
    rng = Rng(seed)
    rng.next64()
    copy = Rng.from_json(rng.to_json())
    assert [copy.next64() for _ in range(5)] == [rng.next64() for _ in range(5)]


@given(st.integers(min_value=1, max_value=10**12), st.integers(min_value=0, max_value=2**63))
def test_randbelow_stays_in_range(bound: int, seed: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.randbelow(bound) < bound for _ in range(20))


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_random_is_the_top_53_bits_of_next64(seed: int) -> None:
    """``random`` inlines ``next64``: the same floats and the same state after them."""
    rng, reference = Rng(seed), Rng(seed)
    assert [rng.random() for _ in range(5)] == [(reference.next64() >> 11) / 2**53 for _ in range(5)]
    assert rng.state == reference.state


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=150))
def test_random_at_reads_ahead_without_drawing(seed: int, count: int) -> None:
    """``random_at(k)`` is the value of the (k+1)-th ``random`` call from now; it draws nothing, and
    ``skip(count)`` then leaves the state where ``count`` calls of ``random`` would."""
    rng, reference = Rng(seed), Rng(seed)
    ahead = [rng.random_at(k) for k in range(count)]
    assert rng.state == Rng(seed).state
    assert ahead == [reference.random() for _ in range(count)]
    rng.skip(count)
    assert rng.state == reference.state


def test_a_die_is_fair() -> None:
    rng = Rng(2026)
    counts = Counter(rng.randint(1, 6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10_000) < 400 for c in counts.values())  # ~4 standard deviations


def test_shuffle_is_a_permutation_and_reaches_every_order() -> None:
    rng = Rng(1)
    orders = set()
    for _ in range(600):
        items = [1, 2, 3]
        rng.shuffle(items)
        orders.add(tuple(items))
    assert orders == {(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)}


def test_string_seeds_and_random_sources_are_accepted() -> None:
    import random

    assert Rng("table-7").state == Rng("table-7").state != Rng("table-8").state
    assert isinstance(as_rng(random.Random(3)), Rng)
    assert as_rng(5).state == Rng(5).state


def _reference_below(rng: Rng, n: int) -> int:
    """Lemire's method one raw output at a time: what ``randbelow`` always meant."""
    threshold = (1 << 64) % n
    while True:
        product = rng.next64() * n
        if product & ((1 << 64) - 1) >= threshold:
            return product >> 64


@pytest.mark.parametrize("size", [0, 1, 2, 3, 20, 63, 64, 65, 130, 300])
def test_shuffle_sample_and_dice_match_one_draw_at_a_time(size: int) -> None:
    for seed in range(40):
        fast, slow = Rng(seed * 7919 + size), Rng(seed * 7919 + size)
        items, expected = list(range(size)), list(range(size))
        fast.shuffle(items)
        for i in range(size - 1, 0, -1):
            j = _reference_below(slow, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and fast.state == slow.state
        k = size // 3
        pool = list(range(size))
        for i in range(k):
            j = i + _reference_below(slow, size - i)
            pool[i], pool[j] = pool[j], pool[i]
        assert fast.sample(range(size), k) == pool[:k] and fast.state == slow.state
        assert fast.dice(size) == [1 + _reference_below(slow, 6) for _ in range(size)]
        assert fast.outputs(size) == [slow.next64() for _ in range(size)]
        assert fast.state == slow.state


def test_rejected_draws_are_redrawn_exactly() -> None:
    # bounds just above 2**63 reject about half of all draws, so every batched path falls back
    huge = 2**63 + 12345
    fast, slow = Rng(11), Rng(11)
    assert fast.dice(70, huge) == [1 + _reference_below(slow, huge) for _ in range(70)]
    assert fast.below_each([huge, 5, huge]) == [_reference_below(slow, n) for n in (huge, 5, huge)]
    assert fast._descending(huge, 70) == [_reference_below(slow, huge - k) for k in range(70)]
    assert fast.state == slow.state


def test_skip_moves_on_like_draws() -> None:
    fast, slow = Rng(5), Rng(5)
    fast.skip(100)
    for _ in range(100):
        slow.next64()
    assert fast.state == slow.state


def _reference_shuffle_each(rng: Rng, piles: list[list[int] | int]) -> None:
    """Fisher–Yates for each pile in turn, one raw output per draw (an int pile only draws)."""
    for pile in piles:
        size = pile if isinstance(pile, int) else len(pile)
        for i in range(size - 1, 0, -1):
            j = _reference_below(rng, i + 1)
            if not isinstance(pile, int):
                pile[i], pile[j] = pile[j], pile[i]


_PILE_SIZES = [
    (),
    (0,),
    (1, 1),
    (2,),
    (20, 40, 14, 20, 10, 20, 40, 42),  # Burgundy's setup
    (0, 1, 2, 3, 64, 65),
    (130, 2, 0, 7),
    (300,),
    (5, 700, 700),  # past _SHUFFLE_LANES_MAX: the plain way
]


def _piles(sizes: tuple[int, ...], alike: int) -> list[list[int] | int]:
    """Lists to shuffle, except an int (a pile of alike items) at none, even, odd or all positions."""
    return [size if alike == 3 or (alike and k % 2 == alike - 1) else list(range(size)) for k, size in enumerate(sizes)]


@pytest.mark.parametrize("sizes", _PILE_SIZES)
def test_shuffle_each_matches_shuffles_one_by_one(sizes: tuple[int, ...]) -> None:
    for seed in range(30):
        for alike in range(4):
            fast, plain, slow = Rng(seed * 104729 + alike), Rng(seed * 104729 + alike), Rng(seed * 104729 + alike)
            got, expected, reference = _piles(sizes, alike), _piles(sizes, alike), _piles(sizes, alike)
            fast.shuffle_each(got)
            for pile in expected:
                if isinstance(pile, int):
                    plain.shuffle_indices(pile)
                else:
                    plain.shuffle(pile)
            _reference_shuffle_each(slow, reference)
            assert got == expected == reference
            assert fast.state == plain.state == slow.state


def test_shuffle_each_takes_odd_entries_like_shuffle_indices() -> None:
    fast, plain = Rng(3), Rng(3)
    pile = list(range(9))
    fast.shuffle_each([-4, True, pile, 0, [], ["a"]])
    plain.shuffle_indices(-4)
    expected = list(range(9))
    plain.shuffle(expected)
    assert pile == expected and fast.state == plain.state


@pytest.mark.parametrize("lane", [0, 5, 19, 60, 100, 196])
def test_shuffle_each_redraws_a_rejected_lane_exactly(lane: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the state after lane + 1 steps is 0, whose output is 0: 0 * n has low word 0 < 2**64 % n, so
    # that draw is rejected whenever its bound n is not a power of two (true for each lane chosen here;
    # lane 60 is in a pile given as an int)
    sizes = (20, 40, 14, 20, 10, 20, 40, 42)
    bounds = [n for size in sizes for n in range(size, 1, -1)]
    assert bounds[lane] & (bounds[lane] - 1)
    state = -(lane + 1) * 0x9E3779B97F4A7C15 % 2**64
    plain_calls: list[int] = []
    plain = Rng._shuffle_each_plain

    def spy(self: Rng, piles: list[list[int] | int]) -> None:
        plain_calls.append(1)
        plain(self, piles)

    monkeypatch.setattr(Rng, "_shuffle_each_plain", spy)
    fast, slow = Rng.from_state(state), Rng.from_state(state)
    piles: list[list[int] | int] = [size if k in (2, 4, 5) else list(range(size)) for k, size in enumerate(sizes)]
    reference: list[list[int] | int] = [size if k in (2, 4, 5) else list(range(size)) for k, size in enumerate(sizes)]
    fast.shuffle_each(piles)
    _reference_shuffle_each(slow, reference)
    assert plain_calls == [1]  # the batch saw the rejection and went the plain way
    assert piles == reference and fast.state == slow.state
    assert fast.state != (state + len(bounds) * 0x9E3779B97F4A7C15) % 2**64  # one draw more than lanes


@pytest.mark.parametrize("sides", [6, 2, 7, 1 << 40, 3 << 40])
@pytest.mark.parametrize("count", [0, 1, 5, 63, 64, 65, 125, 225, 300, 1000])
def test_dice_match_one_draw_at_a_time(count: int, sides: int) -> None:
    for seed in range(12):
        start = seed * 0x2545F4914F6CDD1D + count  # full 64-bit states, as in a game, and small ones
        for state in (start, seed):
            fast, slow = Rng.from_state(state), Rng.from_state(state)
            assert fast.dice(count, sides) == [1 + _reference_below(slow, sides) for _ in range(count)]
            assert fast.state == slow.state


def test_dice_of_every_count_up_to_a_batch_and_past_the_plan_cache() -> None:
    for count in range(1, 300):
        fast, slow = Rng(count), Rng(count)
        assert fast.dice(count) == [1 + _reference_below(slow, 6) for _ in range(count)]
        assert fast.state == slow.state


def test_dice_without_sides_or_count() -> None:
    rng = Rng(4)
    with pytest.raises(ValueError):
        rng.dice(3, 0)
    assert rng.dice(-2) == [] and rng.dice(0, 0) == [] and rng.state == Rng(4).state


@pytest.mark.parametrize(("count", "sides", "at"), [(125, 6, 0), (125, 6, 62), (125, 6, 124), (225, 7, 113),
                                                   (5, 3 << 40, 4), (1000, 6, 600)])  # fmt: skip
def test_dice_redraw_a_rejected_die_exactly(count: int, sides: int, at: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the state after at + 1 steps is 0, whose output is 0: 0 * sides has low word 0 < 2**64 % sides,
    # so die number ``at`` is rejected (sides is not a power of two) and drawn again from the next output
    assert sides & (sides - 1)
    state = -(at + 1) * 0x9E3779B97F4A7C15 % 2**64
    plain_calls: list[int] = []
    plain = Rng.below_each

    def spy(self: Rng, bounds: list[int]) -> list[int]:
        plain_calls.append(len(bounds))
        return plain(self, bounds)

    monkeypatch.setattr(Rng, "below_each", spy)
    fast, slow = Rng.from_state(state), Rng.from_state(state)
    assert fast.dice(count, sides) == [1 + _reference_below(slow, sides) for _ in range(count)]
    assert fast.state == slow.state
    assert fast.state != (state + count * 0x9E3779B97F4A7C15) % 2**64  # one draw more than dice
    assert plain_calls == [min(count - at // 256 * 256, 256)]  # only the batch that saw it went the plain way


def test_bounds_beyond_one_64_bit_output_are_refused_rather_than_looping() -> None:
    """Lemire's method draws from one 64-bit output, so 2**64 is the largest bound it can serve;
    a larger one used to loop forever."""
    rng = Rng(5)
    assert 0 <= rng.randbelow(1 << 64) < 1 << 64
    start = rng.state
    for call in (lambda: rng.randbelow((1 << 64) + 1), lambda: rng.below_each([6, (1 << 64) + 1]),
                 lambda: rng.dice(3, (1 << 64) + 1), lambda: rng.randint(0, 1 << 64)):
        with pytest.raises(ValueError, match="2\\*\\*64"):
            call()
        assert rng.state == start
