"""The one reward rule of every research adapter: a finished game as zero-sum payoffs.

Winners share the win: seat ``s`` gets ``(1/w if s wins else 0) − 1/n``, scaled by ``n/(n − 1)``, for
``w`` winners among ``n`` seats. A sole winner gets +1 and each other seat −1/(n − 1) (−1 with two
players); a shared win gives each winner less than 1 and never changes the zero sum. Scores do not
count, only who won (the games' own tie-breaks decide that).
"""

from __future__ import annotations

from typing import Any

from meeple.core.contract import GameState


def outcome(state: GameState[Any]) -> list[float]:
    """Each seat's payoff of a finished game (all zero before the end)."""
    n = state.players
    if not state.is_over:
        return [0.0] * n
    winners = state.winners()
    share = 1.0 / len(winners)
    scale = n / (n - 1)
    return [((share if seat in winners else 0.0) - 1.0 / n) * scale for seat in range(n)]
