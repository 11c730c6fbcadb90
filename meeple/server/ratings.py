"""Per-game ratings: the model, the displayed number, and the rules for who is rated and how.

The model is openskill's Plackett–Luce (the one the tournaments use): it rates any number of players
from one finishing order, ties included, which Elo (two players) cannot. Each rating is a belief
``(mu, sigma)``; what a player sees is the conservative ``mu - 3 sigma`` (the rating they are very
likely at least at), on an Elo-like scale: ``DISPLAY_BASE + DISPLAY_PER_MU * (mu - 3 sigma)``. In
Plackett–Luce the chance that one settled player finishes ahead of another is logistic in
``(mu_a - mu_b) / c`` with ``c = sqrt(2) * beta`` (beta 25/6, so c ≈ 5.9): the 10:1 odds that 400 Elo
points stand for are ``c * ln 10`` ≈ 13.6 points of ``mu``, hence 30 displayed points per point of
``mu``. A newcomer (mu 25, sigma 25/3) shows ``DISPLAY_BASE``; every game narrows sigma, so the
number climbs as the system grows sure of a player, and a middling settled player shows about 1,650.

The rules (docs/web.md states them for players):

- A finished game is rated when its table is rated (chosen at creation, rated unless asked not to) and
  at least one seat is held by a person's account; bot-ladder games (``meeple ladder``) rate bots.
- Accounts are rated; a guest seat counts as an opponent with a newcomer's rating that is not kept.
  A bot seat is rated as that level's bot account (one per level), and the game is marked as
  played against bots.
- A seat whose player left or ran out of time (a bot took it over and they did not reclaim it) is
  *abandoned*: if the first abandonment came before ``MIN_MOVES_RATED`` moves, nobody is rated.
  Otherwise the player who abandoned is ranked last (behind everyone, whatever the score) and takes
  the loss; the others are ranked by the game's result, but their new rating counts only if it did
  not fall (a non-loss): nobody loses rating because someone else abandoned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DISPLAY_BASE = 1000
DISPLAY_PER_MU = 30
MIN_MOVES_RATED = 20
"""A game abandoned before this many moves (notations) is not rated for anyone."""
MIN_GAMES_LISTED = 3
"""The fewest rated games a player needs to appear on a leaderboard."""

MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma


def displayed(mu: float, sigma: float) -> int:
    """The Elo-like number a player sees for a rating: conservative, never below zero."""
    return max(0, round(DISPLAY_BASE + DISPLAY_PER_MU * (mu - 3 * sigma)))


@dataclass
class Entrant:
    """One seat of a finished game as the rating sees it: its rating before and how it ended."""

    mu: float
    sigma: float
    winner: bool
    score: int
    abandoned: bool = False


@dataclass(frozen=True)
class Outcome:
    """One seat's rating after the game, and what the game counts as for it."""

    mu: float
    sigma: float
    rank: int  # 1 = first; abandoned seats share the last rank
    result: str  # "win", "loss" or "draw" (a non-loss: neither won nor lost)


def ranks_of(entrants: Sequence[Entrant]) -> list[int]:
    """Finishing places (1 = first, equal places for ties): winners first, then by score, every
    abandoned seat last."""
    keys = [(1 if e.abandoned else 0, 0 if e.winner and not e.abandoned else 1, -e.score) for e in entrants]
    distinct = sorted(set(keys))
    return [distinct.index(key) + 1 for key in keys]


def rate(entrants: Sequence[Entrant]) -> list[Outcome]:
    """Every seat's new rating after one game (the rules of this module)."""
    ranks = ranks_of(entrants)
    teams = MODEL.rate([[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entrants], ranks=[float(r) for r in ranks])
    anyone_abandoned = any(e.abandoned for e in entrants)
    outcomes: list[Outcome] = []
    for entrant, rank, team in zip(entrants, ranks, teams, strict=True):
        mu, sigma = team[0].mu, team[0].sigma
        if entrant.abandoned:
            result = "loss"
        elif entrant.winner:
            result = "win"
        else:
            result = "draw" if anyone_abandoned else "loss"
        if anyone_abandoned and not entrant.abandoned and mu - 3 * sigma < entrant.mu - 3 * entrant.sigma:
            mu, sigma = entrant.mu, entrant.sigma  # a non-loss: someone else's abandonment costs nothing
        outcomes.append(Outcome(mu, sigma, rank, result))
    return outcomes


def abandoned_too_early(abandoned_at: Sequence[int | None]) -> bool:
    """Whether a game whose seats were abandoned at these move counts (``None``: not abandoned) is
    left unrated."""
    moments = [moment for moment in abandoned_at if moment is not None]
    return bool(moments) and min(moments) < MIN_MOVES_RATED
