"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game of the contract.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
Every iteration samples a determinization of the real state for the bot's seat
(``state.determinize(seat, rng)``, so the bot only ever uses what its seat may know; it never reads
``history``), walks the shared tree choosing among the actions available in that sample by UCB with
availability counts, expands one node, plays on with a rollout policy and backs the result up.

Generic improvements over the plain algorithm (nothing here knows which game it plays):

- **Rollout policy**: any bot (e.g. the game's heuristic bot) plays the rollout, with probability
  ``epsilon`` of a uniformly random move instead; without one, rollouts are uniformly random.
- **Rollout cutoff**: after ``rollout_cutoff`` rollout actions the position is scored by a static
  evaluation, by default the running scores' margin (``state.scores()``) mapped to [0, 1] per seat.
- **Policy prior**: at each tree node the rollout policy's own choice in that determinization is
  expanded first and gets a progressive bias ``prior_weight / (visits + 1)``; a policy exposing
  ``action_scores(state) -> dict`` is not needed (a one-hot prior from ``choose`` is used).
- **Progressive widening** (optional): a node with n visits considers at most
  ``ceil(widening * sqrt(n + 1))`` children, the policy's choice first, so a small budget is spent on
  a few actions rather than one visit each on thirty.
- **Paired root** (optional, ``paired_root=k``): for games with dice or shuffled draws, where one
  world's outcome is mostly luck, the root considers only the policy's ``k`` best actions (its
  ``ranked(state)`` order when it has one) and every iteration plays *each* of them in the same
  determinization (its future dice and draws included), one ISMCTS iteration in each candidate's
  subtree. The candidates are thus compared on common random numbers, so a handful of worlds tells
  a real difference from luck; below the root it is the usual ISMCTS.
- **Time budget**: the clock is also checked inside rollouts; a rollout cut by the deadline is scored
  statically, so a decision overshoots its budget by at most one policy decision.

Rewards: at the end of the game, ``win_weight`` times the win share (1/k on a k-way shared win) plus
the rest times the score margin in [0, 1]; at a cutoff, the score margin alone. Everything random
comes from the bot's own seeded generator, so a seed gives the same play for an iteration budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from meeple.bots.base import Bot
from meeple.core.contract import GameState
from meeple.core.rng import Rng

Evaluator = Callable[[GameState[Any]], list[float]]


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


def margin_evaluation(state: GameState[Any]) -> list[float]:
    """Per seat, in [0, 1]: 0.5 + 0.5·tanh(margin over the best other seat / scale).

    The scale is a quarter of the mean absolute score (at least 2 points), so the same margin counts
    for more early, when scores are small, than at the end.
    """
    scores = state.scores()
    n = len(scores)
    if n < 2:
        return [0.5] * n
    scale = max(2.0, 0.25 * sum(abs(s) for s in scores) / n)
    ordered = sorted(scores, reverse=True)
    first, second = ordered[0], ordered[1]
    out = []
    for score in scores:
        best_other = second if score == first else first
        out.append(0.5 + 0.5 * math.tanh((score - best_other) / scale))
    return out


def outcome_rewards(state: GameState[Any], win_weight: float = 0.7) -> list[float]:
    """Per seat at the end: ``win_weight`` × win share + (1 − ``win_weight``) × the score margin."""
    winners = state.winners()
    margins = margin_evaluation(state)
    rest = 1.0 - win_weight
    return [
        win_weight * (1.0 / len(winners) if seat in winners else 0.0) + rest * margin
        for seat, margin in enumerate(margins)
    ]


class ISMCTSBot:
    """Search bot with an iteration budget, a time budget, or both (whichever ends first).

    ``rollout_policy``: a bot playing every seat in rollouts (``None``: uniformly random), with
    probability ``epsilon`` of a random move. ``rollout_cutoff``: rollout actions before the static
    ``evaluator`` scores the position (``None``: play to the end). ``prior_weight``: progressive bias
    of the policy's choice at tree nodes (0 turns it off; needs a rollout policy). ``widening``:
    progressive widening constant (``None``: every action is a candidate, as in plain ISMCTS).
    ``paired_root``: compare the policy's best ``k`` root actions on common determinizations (module
    docstring); ``None`` for the usual UCB at the root. ``paired_margin``: how much better, in mean
    reward per world, another candidate must do to overrule the policy's own choice; ``paired_z``: and
    by how many standard errors of the paired differences (0: no such test).
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | str = 0,
        iterations: int | None = 1000,
        time_limit: float | None = None,
        exploration: float = 0.7,
        max_rollout_actions: int = 100_000,
        rollout_policy: Bot | None = None,
        epsilon: float = 0.1,
        rollout_cutoff: int | None = None,
        evaluator: Evaluator | None = None,
        prior_weight: float = 0.0,
        widening: float | None = None,
        win_weight: float = 0.7,
        paired_root: int | None = None,
        paired_margin: float = 0.0,
        paired_z: float = 0.0,
    ) -> None:
        if iterations is None and time_limit is None:
            raise ValueError("ISMCTS needs an iteration budget or a time limit")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_rollout_actions = max_rollout_actions
        self.rollout_policy = rollout_policy
        self.epsilon = epsilon
        self.rollout_cutoff = rollout_cutoff
        self.evaluator: Evaluator = evaluator or margin_evaluation
        self.prior_weight = prior_weight if rollout_policy is not None else 0.0
        self.widening = widening
        self.win_weight = win_weight
        self.paired_root = paired_root
        self.paired_margin = paired_margin
        self.paired_z = paired_z
        self.last_iterations = 0
        self._deadline: float | None = None
        self._last_check = 0.0
        self._slowest = 0.0
        self._cut = False

    def choose(self, state: GameState[Any]) -> Any:
        started = time.perf_counter()
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over")
        legal = list(state.legal_actions())
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = _Node(None, None, None)
        # Keep a little of the budget for the final choice; every clock check also stops when the
        # slowest step seen so far (a policy decision, a determinization) would overrun the deadline.
        self._deadline = None if self.time_limit is None else started + self.time_limit * 0.97
        self._last_check = started
        self._slowest = 0.0
        if self.paired_root is not None and self.rollout_policy is not None:
            return self._choose_paired(state, seat, legal, self.paired_root)
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if self._out_of_time():
                break
            self._iterate(root, state.determinize(seat, self.rng.fork()))
            done += 1
        self.last_iterations = done
        visited = [root.children[a] for a in legal if a in root.children]
        if not visited:
            return self.rng.choice(legal)
        return max(visited, key=lambda node: (node.visits, node.reward)).action

    def _root_candidates(self, state: GameState[Any], legal: Sequence[Any], count: int) -> list[Any]:
        """The policy's choice first, then its ranking (or the legal order), ``count`` at most."""
        policy = self.rollout_policy
        assert policy is not None
        favourite = self._policy_action(state, legal)
        ranked = getattr(policy, "ranked", None)
        order = list(ranked(state)) if ranked is not None else list(legal)
        candidates = [] if favourite is None else [favourite]
        for action in order:
            if len(candidates) >= count:
                break
            if action not in candidates and action in legal:
                candidates.append(action)
        return candidates or list(legal[:count])

    def _choose_paired(self, state: GameState[Any], seat: int, legal: Sequence[Any], count: int) -> Any:
        """Every iteration samples one world and runs one ISMCTS iteration below each candidate in it."""
        candidates = self._root_candidates(state, legal, count)
        if len(candidates) == 1:
            self.last_iterations = 0
            return candidates[0]
        nodes = [_Node(None, action, seat) for action in candidates]
        per_world: list[list[float]] = []  # one reward per candidate for every world played out
        while True:
            if self.iterations is not None and len(per_world) * len(nodes) >= self.iterations:
                break
            if self._out_of_time():
                break
            world = state.determinize(seat, self.rng.fork())
            rewards = []
            for node in nodes:
                copy = world.clone()
                copy.apply(node.action)
                reward = self._iterate(node, copy)[seat]
                if self._cut or (node is not nodes[-1] and self._out_of_time()):
                    break
                rewards.append(reward)
            if len(rewards) < len(nodes):  # a world not played out by every candidate would bias them
                break
            per_world.append(rewards)
        self.last_iterations = len(per_world) * len(nodes)
        return candidates[self._paired_winner(per_world, len(nodes))]

    def _paired_winner(self, per_world: Sequence[Sequence[float]], count: int) -> int:
        """The candidate with the best mean over the common worlds, if it beats the policy's choice
        (index 0) by more than ``paired_margin`` per world and by ``paired_z`` standard errors of the
        paired differences; else the policy's choice."""
        worlds = len(per_world)
        if worlds == 0:
            return 0
        totals = [sum(rewards[index] for rewards in per_world) for index in range(count)]
        best = max(range(count), key=totals.__getitem__)
        if best == 0:
            return 0
        differences = [rewards[best] - rewards[0] for rewards in per_world]
        mean = sum(differences) / worlds
        if mean <= self.paired_margin:
            return 0
        if self.paired_z > 0.0:
            if worlds < 2:
                return 0
            variance = sum((d - mean) ** 2 for d in differences) / (worlds - 1)
            if mean <= self.paired_z * math.sqrt(variance / worlds):
                return 0
        return best

    def _out_of_time(self) -> bool:
        if self._deadline is None:
            return False
        now = time.perf_counter()
        self._slowest = max(self._slowest, now - self._last_check)
        self._last_check = now
        return now + self._slowest >= self._deadline

    def _policy_action(self, state: GameState[Any], actions: Sequence[Any]) -> Any:
        """The rollout policy's choice, or ``None`` without a policy (or if it answers nonsense)."""
        if self.rollout_policy is None:
            return None
        action = self.rollout_policy.choose(state)
        return action if action in actions else None

    def _iterate(self, root: _Node, state: GameState[Any]) -> list[float]:
        node = root
        rng = self.rng
        self._cut = False  # set when the clock stops this iteration before its rollout ends
        use_prior = self.prior_weight > 0.0
        # Selection: descend while the node's candidates all have children; expand one otherwise.
        while not state.is_over:
            mover = state.current_player
            actions = state.legal_actions()
            favourite = self._policy_action(state, actions) if use_prior and len(actions) > 1 else None
            for action in actions:
                child = node.children.get(action)
                if child is not None:
                    child.availability += 1
            limit = len(actions)
            if self.widening is not None:
                limit = min(limit, math.ceil(self.widening * math.sqrt(node.visits + 1)))
            present = [a for a in actions if a in node.children]
            if len(present) < limit:
                if favourite is not None and favourite not in node.children:
                    action = favourite
                else:
                    action = rng.choice([a for a in actions if a not in node.children])
                child = _Node(node, action, mover)
                child.availability = 1
                node.children[action] = child
                state.apply(action)
                node = child
                break
            log_factor = self.exploration
            best_value = -math.inf
            best_child = node
            for action in present:
                child = node.children[action]
                value = child.reward / child.visits + log_factor * math.sqrt(
                    math.log(child.availability) / child.visits
                )
                if action == favourite:
                    value += self.prior_weight / (child.visits + 1)
                if value > best_value:
                    best_value, best_child = value, child
            state.apply(best_child.action)
            node = best_child
            if self._out_of_time():
                self._cut = True
                break
        # Simulation: the rollout policy (or random play) up to the cutoff or the end.
        limit = self.max_rollout_actions if self.rollout_cutoff is None else self.rollout_cutoff
        policy = self.rollout_policy
        epsilon = self.epsilon
        steps = 0
        while not state.is_over and steps < limit:
            actions = state.legal_actions()
            if len(actions) == 1:
                action = actions[0]
            elif policy is None or rng.random() < epsilon:
                action = rng.choice(actions)
            else:
                action = policy.choose(state)
            state.apply(action)
            steps += 1
            if self._out_of_time():
                self._cut = not state.is_over
                break
        rewards = outcome_rewards(state, self.win_weight) if state.is_over else self.evaluator(state)
        # Backpropagation: each node is credited from the viewpoint of the seat that chose it.
        while node is not root:
            node.visits += 1
            if node.mover is not None:
                node.reward += rewards[node.mover]
            parent = node.parent
            assert parent is not None
            node = parent
        root.visits += 1
        return rewards
