"""Rule-of-thumb bots, one module per game (``meeple.bots.heuristics.<game>``), each exposing
``HeuristicBot``; the docstring of each says which rules of thumb it follows."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, TypeVar

from meeple.core.contract import GameState
from meeple.core.rng import Rng

T = TypeVar("T")


def has_heuristic(game_name: str) -> bool:
    try:
        importlib.import_module(f"meeple.bots.heuristics.{game_name}")
    except ModuleNotFoundError:
        return False
    return True


def noisy_best(actions: Sequence[T], scores: Sequence[float], rng: Rng, noise: float = 1e-6) -> T:
    """The action with the highest ``score + rng.random() * noise``, drawing one number per action in
    their order (the first wins a tie): what the loop ``for a in actions: v = score(a) + rng.random() *
    noise; if v > best: …`` picks, with the same draws, but an action scored more than twice ``noise``
    below the best cannot win whatever its draw, so only the draws of the few close to the best are
    computed (``Rng.random_at``), none when only one is, and the rest skipped."""
    if len(scores) == 1:
        rng.skip(1)
        return actions[0]
    ordered = sorted(scores, reverse=True)
    top = ordered[0]
    floor = top - 2.0 * noise
    runner_up = ordered[1]
    if runner_up <= floor and runner_up != top:  # the only one that can win: its draw does not matter
        best = actions[scores.index(top)]
    else:
        close = [index for index, score in enumerate(scores) if score > floor or score == top]
        best = actions[0]
        best_value = -1e18
        random_at = rng.random_at
        for index in close:
            value = scores[index] + random_at(index) * noise
            if value > best_value:
                best, best_value = actions[index], value
    rng.skip(len(scores))
    return best


def ranked_by(bot: Any, state: GameState[Any]) -> list[Any]:
    """The legal actions best first: the bot's own ``ranked(state)`` where it has one, else its
    choice first and the rest in legal order."""
    ranked = getattr(bot, "ranked", None)
    if ranked is not None:
        return list(ranked(state))
    choice = bot.choose(state)
    return [choice, *(action for action in state.legal_actions() if action != choice)]


class GameHeuristicBot:
    """Plays with the heuristic bot of whichever game it is handed (chosen on the first move)."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self._bot: Any = None
        self._game_name: str | None = None

    def choose(self, state: GameState[Any]) -> Any:
        return self._for(state).choose(state)

    def ranked(self, state: GameState[Any]) -> list[Any]:
        """The legal actions best first, where the game's bot can rank them (else its choice first)."""
        return ranked_by(self._for(state), state)

    def _for(self, state: GameState[Any]) -> Any:
        game_name = state.game.name
        if self._bot is None or self._game_name != game_name:
            self._bot = heuristic_bot(game_name, self.seed)
            self._game_name = game_name
        return self._bot


def heuristic_bot(game_name: str, seed: int | str = 0) -> Any:
    """The ``HeuristicBot`` of ``game_name``'s module with ``seed`` (``ValueError`` if the game has none)."""
    try:
        module = importlib.import_module(f"meeple.bots.heuristics.{game_name}")
    except ModuleNotFoundError:
        raise ValueError(f"there is no heuristic bot for {game_name!r} yet") from None
    return module.HeuristicBot(seed)
