"""Bots that take seats in the CLI, simulations and the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from meeple.bots.base import Bot
from meeple.bots.evaluation import score_evaluation
from meeple.bots.heuristics import GameHeuristicBot, has_heuristic, heuristic_bot, ranked_by
from meeple.bots.ismcts import BUDGET_CLOCKS, ISMCTSBot, SettledPoint, check_budget_clock
from meeple.bots.random_bot import RandomBot
from meeple.core.contract import GameState


class RolloutPolicy:
    """The game's heuristic bot where one exists (``meeple/bots/heuristics/<game>.py``), else random."""

    name = "rollout-policy"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self._bots: dict[str, Bot] = {}

    def choose(self, state: GameState[Any]) -> Any:
        return self.bot_for(state).choose(state)

    def ranked(self, state: GameState[Any]) -> list[Any]:
        """The legal actions best first by the heuristic (random play: the choice, then legal order)."""
        return ranked_by(self.bot_for(state), state)

    def bot_for(self, state: GameState[Any]) -> Bot:
        """The bot that plays ``state``'s game: the game's own heuristic bot, as the medium level would
        seat it (a search asks once, then calls it directly)."""
        game_name = state.game.name
        bot = self._bots.get(game_name)
        if bot is None:
            bot = heuristic_bot(game_name, self.seed) if has_heuristic(game_name) else RandomBot(self.seed)
            self._bots[game_name] = bot
        return bot


#: The settings of the "hard" level, for every game: rollouts played to the end by the game's heuristic
#: with no random moves (the heuristic is also the model of the other seats, so a rollout is the game
#: those seats would really play), the heuristic's choice as a prior, one determinization for
#: ``world_reuse`` iterations in a row (rollouts handed down the tree within it), 0.5 s a decision at
#: most: the search stops sooner once no iterations it could still run would change its choice.
HARD_SETTINGS: dict[str, Any] = {
    "iterations": None,
    "time_limit": 0.5,
    "epsilon": 0.0,
    "rollout_cutoff": None,
    "prior_weight": 1.0,
    "widening": 1.5,
    "world_reuse": 16,
    "stop_when_settled": True,
}

#: Per-game changes to ``HARD_SETTINGS``. Where the game's fitted evaluation (``meeple/bots/evaluation.py``) judges a
#: position well enough, rollouts are cut after ``rollout_cutoff`` decisions and scored by it: five to twelve times the
#: iterations for the same budget. In Burgundy the dice and draws make one world's outcome mostly luck, so the search
#: compares the heuristic's three best actions on common worlds and plays another than the heuristic's choice only when
#: it is better by a standard error of the paired differences, rewarding mostly the score margin; it gets 1 s a
#: decision. Citadels' hidden hands and characters make each determinization a guess, so it also gets 1 s (its games
#: are short), and its rollouts are cut after 20 decisions, which chose better moves than a cut after 10 on 480
#: positions (no world reuse, paired root or opponent model did: docs/bots.md, "Citadels: decision quality per
#: setting"). Palais Royal's fitted evaluation rewards holding on to servants, gold and nobles, so a search cut by it
#: grows idle the more it iterates (a faster machine made hard lose to the heuristic): its search compares the
#: heuristic's choice and the next seven legal actions in legal order (its tournaments were played so, before the
#: heuristic ranked its actions: ``paired_ranked`` off) on common worlds with rollouts played to the end, and plays
#: another than the heuristic's choice only when it is better by a standard error, 1 s a decision (docs/bots.md,
#: "Palais Royal: rollouts to the end on a paired root"). Caylus hides nothing and draws nothing after the setup:
#: every determinization is the same position, so one serves the whole decision. Its rollouts are cut only at a
#: turn's start (nothing placed and not yet paid) and only from turn 7 on, where the evaluation judges well: a
#: rollout from before turn 7 is played up to its start, one from later to the next turn's (or the end). That chose
#: as well as rollouts to the end on 80 positions, with four times the iterations, where cuts after a count of
#: decisions chose worse (docs/bots.md, "Caylus: what changed").
HARD_SETTINGS_BY_GAME: dict[str, dict[str, Any]] = {
    "burgundy": {"paired_root": 3, "paired_z": 1.0, "win_weight": 0.3, "time_limit": 1.0, "rollout_cutoff": 20},
    "citadels": {"time_limit": 1.0, "rollout_cutoff": 20, "world_reuse": 8},
    "caylus": {"rollout_cutoff": 0, "rollout_boundary": "turn", "rollout_boundary_from": 7, "world_reuse": 1_000_000},
    "palais_royal": {"paired_root": 8, "paired_z": 1.0, "rollout_cutoff": None, "time_limit": 1.0,
                     "paired_ranked": False},
}


def build_search(game_name: str, seed: int | str, overrides: dict[str, Any] | None = None,
                 base: dict[str, Any] | None = None) -> ISMCTSBot:
    """The hard level's ISMCTS for ``game_name`` (``base``: changes to its settings for that game, e.g.
    the expert's), with the heuristic as rollout policy and the game's fitted position evaluation
    (``meeple/bots/evaluation.py``) for rollouts that stop before the end."""
    settings = {**HARD_SETTINGS, **HARD_SETTINGS_BY_GAME.get(game_name, {}), **(base or {}), **(overrides or {})}
    if settings.get("evaluator") is None:  # cut-off rollouts, and rollouts the clock stops
        settings["evaluator"] = score_evaluation(game_name, settings.get("win_weight", 0.7))
    return ISMCTSBot(seed, rollout_policy=RolloutPolicy(f"{seed}/rollout"), **settings)


class HardBot:
    """The "hard" level: ISMCTS with the settings of whichever game it is handed (first move)."""

    name = "hard"

    def __init__(self, seed: int | str = 0, **overrides: Any) -> None:
        self.seed = seed
        self.overrides = overrides
        self._search: ISMCTSBot | None = None
        self._game_name: str | None = None

    @property
    def last_iterations(self) -> int:
        return 0 if self._search is None else self._search.last_iterations

    @property
    def last_rollouts(self) -> int:
        return 0 if self._search is None else self._search.last_rollouts

    @property
    def last_settled(self) -> SettledPoint | None:
        """Where the last decision's choice became settled (``ISMCTSBot.last_settled``), if it did."""
        return None if self._search is None else self._search.last_settled

    @property
    def last_stopped_early(self) -> bool:
        """Whether the last decision's search stopped there, before its budget's end."""
        return self._search is not None and self._search.last_stopped_early

    def search_for(self, game_name: str) -> ISMCTSBot:
        """The ISMCTS this bot uses for ``game_name``, built once with that game's settings."""
        if self._search is None or self._game_name != game_name:
            self._search = build_search(game_name, self.seed, self.overrides)
            self._game_name = game_name
        return self._search

    def choose(self, state: GameState[Any]) -> Any:
        return self.search_for(state.game.name).choose(state)


def hard_bot(seed: int | str = 0, **overrides: Any) -> HardBot:
    """The strong bot of the "hard" level; keyword arguments override the per-game settings."""
    return HardBot(seed, **overrides)


def expert_bot(seed: int | str = 0, **overrides: Any) -> Bot:
    """The slowest level (``meeple/bots/expert.py``): the hard search for 4.5 s a move on every core."""
    from meeple.bots.expert import ExpertBot  # it builds on this module

    return ExpertBot(seed, **overrides)


#: The bot levels, each a factory taking the bot's seed: "easy" is the random bot; "medium" plays the
#: game's own rules of thumb (meeple/bots/heuristics/<game>.py); "hard" is ISMCTS with the heuristic
#: playing the rollouts, 0.5–1 s per decision; "expert" is that search for 4.5 s on every core. Only
#: these names are offered anywhere.
BOT_KINDS: dict[str, Callable[[int | str], Bot]] = {
    "easy": RandomBot,
    "medium": GameHeuristicBot,
    "hard": hard_bot,
    "expert": expert_bot,
}

#: The levels that search under a time budget, whose factories take ``budget_clock`` (``BUDGET_CLOCKS``).
TIMED_LEVELS: dict[str, Callable[..., Bot]] = {"hard": hard_bot, "expert": expert_bot}

#: The levels' former names, kept so that old command lines and tables saved under them still work.
RENAMED_LEVELS: dict[str, str] = {"random": "easy", "heuristic": "medium", "ismcts": "hard"}


@overload
def level_name(name: str) -> str: ...
@overload
def level_name(name: None) -> None: ...
def level_name(name: str | None) -> str | None:
    """The current name of a bot level: a former name (``random``, ``heuristic``, ``ismcts``) becomes
    ``easy``, ``medium`` or ``hard``; any other name (and a human seat's None) is returned as it is."""
    return None if name is None else RENAMED_LEVELS.get(name, name)


def make_bot(kind: str, seed: int | str = 0, budget_clock: str = "wall") -> Bot:
    """A bot of the named level (or its former name) with its own seed; a searching level measures its
    time budget on ``budget_clock`` (``BUDGET_CLOCKS``: "wall" or "cpu"). Unknown names raise ``ValueError``."""
    level = level_name(kind)
    try:
        factory = BOT_KINDS[level]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; available: {', '.join(BOT_KINDS)}") from None
    check_budget_clock(budget_clock)
    if budget_clock != "wall" and level in TIMED_LEVELS:
        return TIMED_LEVELS[level](seed, budget_clock=budget_clock)
    return factory(seed)


__all__ = [
    "BOT_KINDS", "BUDGET_CLOCKS", "HARD_SETTINGS", "HARD_SETTINGS_BY_GAME", "RENAMED_LEVELS", "TIMED_LEVELS", "Bot",
    "HardBot", "ISMCTSBot", "RandomBot", "RolloutPolicy", "build_search", "check_budget_clock", "expert_bot",
    "hard_bot", "level_name", "make_bot",
]
