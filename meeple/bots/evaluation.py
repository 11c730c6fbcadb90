"""Position evaluations for rollouts cut off before the end: each seat's final score predicted from a
few figures of the position, fitted on games that the heuristic bots play against each other.

A rollout of the "hard" level is the heuristic playing every seat, so what a cut-off rollout needs is
the final score that heuristic play would reach from the position. Per game, ``FEATURES`` reads a
handful of figures per seat (running score, what the seat would score if the game ended now, money,
goods, buildings, …) and ``PROGRESS`` how far the game is, in [0, 1]. The predicted final score is
the figures times weights that depend on the progress (one weight vector per progress bucket, linearly
interpolated between bucket centres), fitted by ridge least squares on heuristic self-play
(``python -m meeple.bots.evaluation_fit``, weights in ``meeple/bots/evaluation_weights.py``).

The reward has the same form as at the end of a game: ``win_weight`` × the chance to win, estimated as
a softmax of the predicted scores with a fitted temperature, plus the rest × the predicted margin over
the best other seat mapped to [0, 1]. The evaluation runs on determinizations, so it may read any
field of the state it is given: what its seat cannot see there was sampled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import mul
from typing import Any

from meeple.core.contract import GameState

Features = Callable[[Any], list[list[float]]]
Progress = Callable[[Any], float]
Predicted = Callable[[Any, Sequence[float]], list[float]]


def _caylus_features(state: Any) -> list[list[float]]:
    from meeple.games.caylus.data import PRESTIGE, RESIDENCE, TILES

    liquid = state.final_scores()
    owned = [[0, 0, 0] for _ in range(state.players)]  # buildings, residences, prestige buildings
    tile = state.tile
    for space, seat in enumerate(state.owner):
        if seat >= 0 and tile[space] >= 0:
            kind = TILES[tile[space]].kind
            counts = owned[seat]
            counts[0] += 1
            if kind == RESIDENCE:
                counts[1] += 1
            elif kind == PRESTIGE:
                counts[2] += 1
    rows = []
    for p in range(state.players):
        cubes = state.cubes[p]
        houses = state.houses[0][p] + state.houses[1][p] + state.houses[2][p]
        rows.append([1.0, float(state.pp[p]), float(liquid[p]), float(state.money[p]), float(cubes[0]),
                     float(cubes[1]), float(cubes[2]), float(cubes[3]), float(cubes[4]), float(owned[p][0]),
                     float(owned[p][1]), float(owned[p][2]), float(sum(state.fav[p])), float(houses)])
    return rows


def _caylus_progress(state: Any) -> float:
    return min(1.0, float(state.turn - 1 + state.phase / 8.0) / 13.0)


def _burgundy_features(state: Any) -> list[list[float]]:
    from meeple.games.burgundy.data import MINE

    rows = []
    for seat in range(state.players):
        estate = state.estate[seat]
        goods = state.goods[seat]
        liquid = sum(state.final_breakdown(seat).values())
        filled = bin(state.occupied[seat]).count("1")
        rows.append([1.0, float(state.vp[seat]), float(liquid), float(state.silver[seat]), float(state.workers[seat]),
                     float(sum(goods)), float(sum(1 for g in goods if g)), float(len(state.storage[seat])),
                     float(filled), float(estate.count(MINE)), float(bin(state.kmask[seat]).count("1"))])
    return rows


def _burgundy_progress(state: Any) -> float:
    from meeple.games.burgundy.data import PHASES, ROUNDS

    return min(1.0, float(state.phase * ROUNDS + state.round) / (PHASES * ROUNDS))


def _palais_royal_features(state: Any) -> list[list[float]]:
    scores = state.scores()
    majority = state.holds_majority
    rows = []
    for p in range(state.players):
        privileges = state.active[p]
        waiting = state.waiting[p]
        rows.append([1.0, float(scores[p]), float(state.gold[p]), float(len(state.owned[p])),
                     float(sum(state.hands[p])), float(state.pool[p]), *(float(count) for count in state.rooms[p]),
                     *(1.0 if majority(p, room) else 0.0 for room in range(5)),  # PAR STA MIN KIN POM
                     *(float(privileges[k] + waiting[k]) for k in range(len(privileges)))])
    return rows


def _palais_royal_progress(state: Any) -> float:
    from meeple.games.palais_royal.data import GARDEN_SIZE

    span = max(1, GARDEN_SIZE - int(state.rules.trigger))
    return min(1.0, float(GARDEN_SIZE - state.garden_left) / span)


def _citadels_features(state: Any) -> list[list[float]]:
    scores = state.scores()
    cost = state.rules.cost.__getitem__
    holder = state.holder
    revealed = state.revealed
    killed = state.killed
    # the seat holding each character this round that is still to play (a cut-off often falls mid-round)
    to_play = [holder[c] if not revealed >> c & 1 and c != killed else -1 for c in range(8)]
    rows = []
    for seat, (hand, city, gold) in enumerate(zip(state.hands, state.cities, state.gold, strict=True)):
        rows.append([1.0, float(scores[seat]), float(gold), float(len(hand)), float(sum(map(cost, hand))),
                     float(len(city)), float(state.crown == seat), *[1.0 if p == seat else 0.0 for p in to_play]])
    return rows


def _citadels_predicted(state: Any, weights: Sequence[float]) -> list[float]:
    """``_citadels_features`` times ``weights`` per seat without building the rows, at every rollout's cut:
    the same products added in the same order, less those of the features that are 0 there (the crown
    and the characters still to play, for all but one seat each), which add nothing."""
    if len(weights) != 15:
        raise ValueError(f"15 features for {len(weights)} weights")
    scores = state.scores()
    cost = state.rules.cost.__getitem__
    bias, w_score, w_gold, w_hand, w_cost, w_city, w_crown = weights[:7]
    predicted = [bias + w_score * score + w_gold * gold + w_hand * len(hand) + w_cost * sum(map(cost, hand))
                 + w_city * len(city)
                 for score, hand, city, gold in zip(scores, state.hands, state.cities, state.gold, strict=True)]
    if state.crown >= 0:
        predicted[state.crown] += w_crown
    holder = state.holder
    revealed = state.revealed
    killed = state.killed
    for c in range(8):  # each seat's characters in rank order, as in the row
        seat = holder[c]
        if seat >= 0 and not revealed >> c & 1 and c != killed:
            predicted[seat] += weights[7 + c]
    return predicted


def _citadels_progress(state: Any) -> float:
    cap = state.rules.cap
    return min(1.0, max(map(len, state.cities)) / float(cap))


#: Per game: the figures per seat, and the progress in [0, 1] that picks the weights.
FEATURES: dict[str, tuple[Features, Progress]] = {
    "caylus": (_caylus_features, _caylus_progress),
    "burgundy": (_burgundy_features, _burgundy_progress),
    "palais_royal": (_palais_royal_features, _palais_royal_progress),
    "citadels": (_citadels_features, _citadels_progress),
}


#: Per game, where one is worth it: the features times the weights read straight from the state (the
#: same figures as ``FEATURES`` multiplies, without its rows).
PREDICTED: dict[str, Predicted] = {"citadels": _citadels_predicted}


def softmax(values: Sequence[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def margins(predicted: Sequence[float]) -> list[float]:
    """Per seat, in [0, 1]: 0.5 + 0.5·tanh(margin over the best other seat / scale), as at the end."""
    n = len(predicted)
    if n < 2:
        return [0.5] * n
    scale = max(2.0, 0.25 * sum(abs(s) for s in predicted) / n)
    ordered = sorted(predicted, reverse=True)
    first, second = ordered[0], ordered[1]
    return [0.5 + 0.5 * math.tanh((s - (second if s == first else first)) / scale) for s in predicted]


class ScoreEvaluation:
    """Predicted final scores from fitted weights, turned into rewards in [0, 1] per seat."""

    def __init__(self, game_name: str, buckets: Sequence[Sequence[float]], temperatures: Sequence[float],
                 win_weight: float = 0.7) -> None:
        self.features, self.progress = FEATURES[game_name]
        self._predicted = PREDICTED.get(game_name)
        self.buckets = [list(weights) for weights in buckets]
        self.temperatures = list(temperatures)
        self.win_weight = win_weight
        self._blended: dict[float, tuple[list[float], float]] = {}

    def _blend(self, progress: float) -> tuple[int, int, float]:
        """The two buckets around ``progress`` and the share of the second."""
        count = len(self.buckets)
        position = min(max(progress * count - 0.5, 0.0), count - 1.0)
        low = int(position)
        high = min(low + 1, count - 1)
        return low, high, position - low

    def weights(self, progress: float) -> tuple[list[float], float]:
        """(the weights blended for ``progress``, the temperature there), worked out once per progress:
        a game's progress takes few values (Citadels: the longest city's length)."""
        blended = self._blended.get(progress)
        if blended is None:
            low, high, share = self._blend(progress)
            first, second = self.buckets[low], self.buckets[high]
            weights = [a + (b - a) * share for a, b in zip(first, second, strict=True)]
            temperature = self.temperatures[low] + (self.temperatures[high] - self.temperatures[low]) * share
            if len(self._blended) >= 4096:  # a game whose progress is continuous after all
                self._blended.clear()
            blended = self._blended[progress] = (weights, temperature)
        return blended

    def predicted(self, state: GameState[Any]) -> tuple[list[float], float]:
        """(each seat's predicted final score, the softmax temperature at this progress)."""
        weights, temperature = self.weights(self.progress(state))
        if self._predicted is not None:
            return self._predicted(state, weights), temperature
        rows = self.features(state)
        if rows and len(rows[0]) != len(weights):  # every row comes from the same features
            raise ValueError(f"{len(rows[0])} features for {len(weights)} weights")
        return [sum(map(mul, weights, row)) for row in rows], temperature

    def __call__(self, state: GameState[Any]) -> list[float]:
        predicted, temperature = self.predicted(state)
        chances = softmax(predicted, temperature)
        rest = 1.0 - self.win_weight
        return [self.win_weight * c + rest * m for c, m in zip(chances, margins(predicted), strict=True)]


def score_evaluation(game_name: str, win_weight: float = 0.7) -> ScoreEvaluation | None:
    """The fitted evaluation of ``game_name``, or ``None`` when the game has none."""
    from meeple.bots.evaluation_weights import WEIGHTS

    fitted = WEIGHTS.get(game_name)
    if fitted is None or game_name not in FEATURES:
        return None
    return ScoreEvaluation(game_name, fitted["buckets"], fitted["temperatures"], win_weight)
