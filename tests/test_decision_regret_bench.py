"""``bench/decision_regret.py``: a chosen action outside the valued candidates (docs/bots.md, "Palais Royal:
rollouts to the end on a paired root")."""

from __future__ import annotations

from tests.bench_modules import bench_module


def test_an_action_outside_the_candidates_is_valued_on_their_playouts_when_asked() -> None:
    bench = bench_module("decision_regret")
    positions = bench.sample_positions("citadels", 2, games=3, per_game=3, max_actions=2)
    position = next(p for p in positions if len(p.state.legal_actions()) > 2)  # one with an action left out
    bench.load_or_value([position], rollouts=3, path=None)
    outside = next(a for a in position.state.legal_actions() if a not in position.candidates)
    best, worst = max(position.values), min(position.values)
    assert bench.regret(position, outside) == best - worst  # not valued: charged the worst candidate's regret
    bench.value_outside(position, outside, 3, bench.WIN_WEIGHT)
    seat = position.state.current_player
    outcomes = [bench.rollout_outcome(position.state, outside, seat, f"gold/{position.number}/{r}") for r in range(3)]
    win, margin = sum(w for w, _ in outcomes) / 3, sum(m for _, m in outcomes) / 3
    value = bench.WIN_WEIGHT * win + (1 - bench.WIN_WEIGHT) * margin  # as the candidates' values are weighed
    assert position.outside == {str(outside): value}
    assert bench.regret(position, outside) == max(0.0, best - value)
    for action, candidate_value in zip(position.candidates, position.values, strict=True):  # candidates unchanged
        assert bench.regret(position, action) == best - candidate_value
