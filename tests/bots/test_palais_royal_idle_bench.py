"""``bench/palais_royal_idle.py``: the turn's phase figures and the fit that keeps every asset's weight at
least 0 (docs/bots.md, "The expert level")."""

from __future__ import annotations

from types import ModuleType

from meeple import load_game
from meeple.bots import RolloutPolicy
from meeple.bots.evaluation_fit import BUCKETS, Sample, fit
from meeple.core.rng import Rng
from tests.bench_modules import bench_module


def _bench() -> ModuleType:
    return bench_module("palais_royal_idle")


def test_phase_figures_name_the_acting_seat_and_the_wait_of_the_others() -> None:
    bench = _bench()
    state = load_game("palais_royal").new_game(players=3, seed=4)
    policy = RolloutPolicy(1)
    seen_steps = set()
    while not state.is_over and len(seen_steps) < 5:
        rows = bench.phase_features(state)
        acting, done, wait = zip(*(row[-3:] for row in rows), strict=True)
        if state.phase:  # setup has no steps
            assert acting == tuple(1.0 if p == state.seat else 0.0 for p in range(3))
            assert wait[state.seat] == 0.0 and sorted(wait) == [0.0, 1 / 3, 2 / 3]
            assert done[state.seat] == max(0, state.step - 1) / 4 and sum(done) == done[state.seat]
            seen_steps.add(state.step)
        assert len(rows[0]) == len(bench.BASE_FEATURES(state)[0]) + bench.PHASE_FIGURES
        state.apply(policy.choose(state))
    assert seen_steps == {1, 2, 3, 4, 5}


def test_the_asset_fit_keeps_weights_nonnegative_where_a_plain_fit_turns_one_negative() -> None:
    """Made-up tables where a seat's gold goes with fewer points to come (as holding gold did in the
    heuristic's games): the plain fit weighs gold below 0, the asset fit at 0, the score at 1 or more."""
    bench = _bench()
    rng = Rng("asset-fit")
    samples = []
    width = 4  # constant, score, gold, a free figure
    for index in range(BUCKETS * 80):
        rows, final = [], []
        for _ in range(3):
            score, gold, free = rng.randbelow(20), rng.randbelow(10), rng.random()
            rows.append([1.0, float(score), float(gold), free])
            final.append(score + 30 - 2 * gold - 5 * free + rng.random())
        winner = max(range(3), key=final.__getitem__)
        samples.append(Sample(index, (index % BUCKETS + 0.5) / BUCKETS, rows, [r[1] for r in rows], final, [winner]))
    plain, _ = fit(samples)
    assets, temperatures = bench.fit_assets_nonnegative(samples, free_last=1)
    assert len(assets) == BUCKETS and len(temperatures) == BUCKETS
    for weights_plain, weights in zip(plain, assets, strict=True):
        assert len(weights) == width
        assert weights_plain[2] < -1.5
        assert weights[2] == 0.0
        assert weights[1] >= 1.0
        assert weights[3] < -3.0  # the free figure keeps its sign (ridge shrinks it a little)
