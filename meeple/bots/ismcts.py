"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game of the contract.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
Every iteration samples a determinization of the real state for the bot's seat (so the bot only ever
uses what its seat may know), walks the shared tree choosing among the actions available in that
sample by UCB with availability counts, expands one node, finishes the game with random play, and
backs the result up. Rewards are 1 for a win (split on a shared win) plus a small score-margin term
that breaks ties between lines that all win or all lose.
"""

from __future__ import annotations

import math
import time
from typing import Any

from meeple.core.contract import GameState
from meeple.core.rng import Rng


class _Node:
    __slots__ = ("action", "availability", "children", "mover", "parent", "reward", "visits")

    def __init__(self, parent: _Node | None, action: Any, mover: int | None) -> None:
        self.parent = parent
        self.action = action
        self.mover = mover  # the seat that chose `action`
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.availability = 0
        self.reward = 0.0


def outcome_rewards(state: GameState[Any]) -> list[float]:
    """Per seat: the win share (1, or 1/k on a k-way shared win) plus a score-margin term below 0.1."""
    scores = state.scores()
    winners = state.winners()
    best, worst = max(scores), min(scores)
    spread = (best - worst) or 1
    return [
        (1.0 / len(winners) if seat in winners else 0.0) + 0.1 * (score - worst) / spread - 0.05
        for seat, score in enumerate(scores)
    ]


class ISMCTSBot:
    """Search bot with an iteration budget, a time budget, or both (whichever ends first)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | str = 0,
        iterations: int | None = 1000,
        time_limit: float | None = None,
        exploration: float = 0.7,
        max_rollout_actions: int = 100_000,
    ) -> None:
        if iterations is None and time_limit is None:
            raise ValueError("ISMCTS needs an iteration budget or a time limit")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_rollout_actions = max_rollout_actions
        self.last_iterations = 0

    def choose(self, state: GameState[Any]) -> Any:
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over")
        legal = list(state.legal_actions())
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = _Node(None, None, None)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.determinize(seat, self.rng.fork()))
            done += 1
        self.last_iterations = done
        visited = [root.children[a] for a in legal if a in root.children]
        if not visited:
            return self.rng.choice(legal)
        return max(visited, key=lambda node: (node.visits, node.reward)).action

    def _iterate(self, root: _Node, state: GameState[Any]) -> None:
        node = root
        rng = self.rng
        # Selection: descend while every available action already has a child.
        while not state.is_over:
            mover = state.current_player
            actions = state.legal_actions()
            untried = [a for a in actions if a not in node.children]
            for action in actions:
                child = node.children.get(action)
                if child is not None:
                    child.availability += 1
            if untried:
                action = rng.choice(untried)
                child = _Node(node, action, mover)
                child.availability = 1
                node.children[action] = child
                state.apply(action)
                node = child
                break
            log_factor = self.exploration
            best_value = -math.inf
            best_child = node
            for action in actions:
                child = node.children[action]
                value = child.reward / child.visits + log_factor * math.sqrt(
                    math.log(child.availability) / child.visits
                )
                if value > best_value:
                    best_value, best_child = value, child
            state.apply(best_child.action)
            node = best_child
        # Simulation: random play to the end.
        steps = 0
        while not state.is_over and steps < self.max_rollout_actions:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        rewards = outcome_rewards(state) if state.is_over else [0.0] * state.players
        # Backpropagation: each node is credited from the viewpoint of the seat that chose it.
        while node is not root:
            node.visits += 1
            if node.mover is not None:
                node.reward += rewards[node.mover]
            parent = node.parent
            assert parent is not None
            node = parent
        root.visits += 1
