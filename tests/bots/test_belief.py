"""Worlds weighed by belief (``ISMCTSBot(belief_worlds=k)``): the search keeps, of ``k`` determinizations,
one drawn in proportion to its policy's ``world_likelihood``; Citadels' heuristic gives that likelihood
from the characters the other seats took out of the pools they were offered (docs/bots.md, "Worlds weighed
by the draft")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple import load_game
from meeple.bots import RolloutPolicy, hard_bot
from meeple.bots.heuristics.citadels import HeuristicBot
from meeple.bots.ismcts import ISMCTSBot
from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.citadels.data import MAGICIAN
from tests.bots.walks import mid_game, same_decision_on_a_redeal
from tests.core.toy_game import Toy

HIDDEN_CARD = 9


class _NinesWithSeatOne:
    """A toy policy that plays its first legal action and believes only in worlds where seat 1 holds
    (or has played) the 9; it notes every state it is asked about."""

    name = "nines-with-seat-one"

    def __init__(self, believe: bool = True) -> None:
        self.believe = believe
        self.seen: list[tuple[list[int], list[int]]] = []

    def choose(self, state: GameState[Any]) -> Any:
        self.seen.append((list(state.hands[1]), list(state.played[1])))  # type: ignore[attr-defined]
        return state.legal_actions()[0]

    def world_likelihood(self, world: GameState[Any], seat: int) -> float:
        if not self.believe:
            return 0.0
        return 1.0 if HIDDEN_CARD in world.hands[1] else 0.0  # type: ignore[attr-defined]


def _toy_position() -> GameState[Any]:
    state = Toy().new_game(players=3, seed=1)
    assert HIDDEN_CARD not in state.hands[0]  # seat 0 cannot know where the 9 is
    return state


def _seat_one_holds_the_nine(seen: list[tuple[list[int], list[int]]]) -> list[bool]:
    return [HIDDEN_CARD in hand or HIDDEN_CARD in played for hand, played in seen]


def test_worlds_are_drawn_in_proportion_to_the_policys_likelihood() -> None:
    """Seat 1 holds the 9 in 2 of 7 deals, so of 40 deals none does once in 700,000 (the search is seeded:
    the same worlds every run)."""
    policy = _NinesWithSeatOne()
    ISMCTSBot(seed=2, iterations=200, rollout_policy=policy, epsilon=0.0, belief_worlds=40).choose(_toy_position())
    assert policy.seen and all(_seat_one_holds_the_nine(policy.seen))
    plain = _NinesWithSeatOne()
    ISMCTSBot(seed=2, iterations=200, rollout_policy=plain, epsilon=0.0).choose(_toy_position())
    assert not all(_seat_one_holds_the_nine(plain.seen))  # without the belief, the 9 goes anywhere unseen


def test_a_belief_that_explains_nothing_keeps_any_world() -> None:
    policy = _NinesWithSeatOne(believe=False)
    state = _toy_position()
    action = ISMCTSBot(seed=2, iterations=100, rollout_policy=policy, epsilon=0.0, belief_worlds=4).choose(state)
    assert action in state.legal_actions()
    assert not all(_seat_one_holds_the_nine(policy.seen))


def test_belief_worlds_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least one determinization"):
        ISMCTSBot(iterations=10, belief_worlds=0)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_draft_picks_are_the_logged_picks_and_follow_a_redeal(players: int) -> None:
    """On a real state a seat's ``draft_picks`` are its logged ``offered_pools``; on a determinization for
    another seat they are the pools and picks of the characters the redeal dealt, which that seat holds."""
    game = load_game("citadels")
    for seed in range(3):
        state = game.new_game(players=players, seed=seed)
        policy = RolloutPolicy(seed)
        ply = 0
        while not state.is_over:
            for seat in range(players):
                assert state.lens(seat).draft_picks == state.lens(seat).offered_pools
            if ply % 7 == 3:
                observer = state.current_player
                assert observer is not None
                world = state.determinize(observer, Rng(ply))
                assert world.lens(observer).draft_picks == state.lens(observer).draft_picks
                for other in range(players):
                    lens = world.lens(other)
                    for pool, took in lens.draft_picks:
                        assert took in pool and took in lens.my_characters
            state.apply(policy.choose(state))
            ply += 1


def test_the_true_deal_explains_heuristic_picks_better_than_most_redeals() -> None:
    """Where every seat drafts as the heuristic does, the real characters make its picks likelier than
    most of the deals a determinization makes up, in the draft and the first three ranks' turns (a
    likelihood that could not tell them apart would sit at the middle half the time); later in a round
    it says it has nothing to weigh."""
    game = load_game("citadels")
    bot = HeuristicBot(0)
    above = compared = later = 0
    for seed in range(12):
        state = game.new_game(players=4, seed=seed)
        policy = RolloutPolicy(seed)
        ply = 0
        while not state.is_over and ply < 200:
            seat = state.current_player
            assert seat is not None
            if ply % 3 == 1:
                truth = bot.world_likelihood(state, seat)
                if state.lens(seat).character > MAGICIAN:
                    assert truth is None
                    later += 1
                else:
                    redeals = sorted(weigh(bot, state.determinize(seat, Rng(k)), seat) for k in range(15))
                    assert truth is not None and 0.0 < truth <= 1.0 and redeals[0] > 0.0
                    if redeals[0] != redeals[-1]:  # something is hidden that the picks can speak to
                        compared += 1
                        above += truth > redeals[len(redeals) // 2]
            state.apply(policy.choose(state))
            ply += 1
    assert compared >= 150 and later >= 150
    assert above >= 0.85 * compared


def weigh(bot: HeuristicBot, world: GameState[Any], seat: int) -> float:
    weight = bot.world_likelihood(world, seat)
    assert weight is not None
    return weight


@pytest.mark.parametrize("players", [2, 4])
def test_a_belief_search_decides_the_same_on_a_redeal_of_what_its_seat_cannot_see(players: int) -> None:
    redealt = [same_decision_on_a_redeal(lambda: hard_bot(5, iterations=48, time_limit=None, belief_worlds=4),
                                         mid_game("citadels", players, seed=seed, steps=15 + 10 * seed), 1000 + seed)
               for seed in (1, 2, 3)]
    assert any(redealt)


def test_the_pick_model_bench_fits_the_heuristics_own_picks() -> None:
    """``bench/pick_model.py`` on the medium level: every pick is the heuristic's favourite, and the best
    model on the grid explains the picks far better than a uniform guess."""
    script = Path(__file__).resolve().parents[2] / "bench" / "pick_model.py"
    out = subprocess.run([sys.executable, str(script), "--games", "2", "--level", "medium"], check=True,
                         capture_output=True, text=True).stdout
    figures = dict(line.rsplit(" ", 1) for line in out.splitlines())
    assert int(figures["medium: picks"]) >= 20
    assert float(figures["medium: the heuristic's favourite"]) == 1.0
    uniform = float(figures["medium: log-likelihood a pick, uniform"])
    best = next(float(value) for key, value in figures.items() if "best softness" in key)
    assert uniform < -1.0 and best > -0.1
