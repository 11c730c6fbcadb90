"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game of the contract.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012.
Every iteration samples a determinization of the real state for the bot's seat
(``state.determinize(seat, rng)``, so the bot only ever uses what its seat may know; it never reads
``history``), walks the shared tree choosing among the actions available in that sample by UCB with
availability counts, expands one node, plays on with a rollout policy and backs the result up.

Generic improvements over the plain algorithm (nothing here knows which game it plays):

- **Rollout policy**: any bot (e.g. the game's heuristic bot) plays the rollout, with probability
  ``epsilon`` of a uniformly random move instead; without one, rollouts are uniformly random.
- **Rollout cutoff**: after ``rollout_cutoff`` rollout decisions (positions with more than one legal
  action; forced moves cost nothing to choose) the position is scored by a static ``evaluator``, by
  default the running scores' margin (``state.scores()``) mapped to [0, 1] per seat; the hard level
  passes the game's fitted evaluation (``meeple/bots/evaluation.py``). With a ``rollout_boundary``
  (the name of a state attribute such as ``"turn"``), a rollout that reaches the cutoff goes on until
  that attribute changes (to at least ``rollout_boundary_from``, if given), so the evaluator scores a
  settled position (a turn's start) rather than one whose placements have not paid yet, and only as
  late in the game as it judges well. With ``rollout_to_end_from`` (a progress in [0, 1], read by the
  evaluator's own ``progress(state)``), a rollout that reaches its cutoff at or past that progress is
  played to the end instead: late in a game a rollout to the end is short, and the outcome beats any
  static estimate.
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
  a real difference from luck; below the root it is the usual ISMCTS, or with ``paired_flat`` no tree
  at all: each candidate is played out by the policy (flat Monte Carlo on common worlds).
- **World reuse** (``world_reuse=k``): one determinization serves ``k`` iterations in a row (each on
  its own ``clone()``), where sampling it costs more than cloning it. Every world is still a fresh
  sample for the bot's seat; only consecutive iterations share one.
- **Rollouts handed down**: in a world that serves several iterations, a rollout played from a node
  is kept there; when that node later expands the very action the rollout began with (the policy's
  choice, which the prior expands first), the rest of that rollout *is* a rollout from the new child
  in that world (same state, same dice ahead, same policy), so the child takes it over instead of
  playing it again: what plain ISMCTS on the same worlds would compute, computed once. Iterations
  down the policy's own line then cost no rollout, and real rollouts go to the deviations from it.
- **Cheap iterations**: the policy's choice at a node where the bot's own seat decides is worked out
  once and kept in the node (that seat knows the same there in every world); at another seat's node
  it is kept for the rest of the world it was worked out in. A node's children are scanned once per
  visit (availability, UCB and the expansion test together), and the rollout calls the policy's bot
  for the game directly. The cyclic garbage collector pauses while a search runs: the tree's nodes,
  which point to their parents, all live until it ends, and the rest of what an iteration makes is
  freed as it goes by reference counts, so its passes over the young objects found nothing to free
  (1–2% of a Citadels search's time). Only in a process whose one thread is the search's (the CLI, a
  tournament worker): the collector is the process's, so a server's bot thread must not pause it for
  the server's other threads, nor race another search to switch it back on.
- **Worlds weighed by belief** (optional, ``belief_worlds=k``): each world is the one kept of ``k``
  determinizations, drawn with chances in proportion to the policy's ``world_likelihood(world, seat)``
  (sampling-importance-resampling): how likely what the other seats did this round is in that world
  if they play as the policy would (``None`` where it has nothing to weigh: the first is kept). A
  determinization deals hidden cards at random among what the seat's knowledge allows; players'
  choices tell more (in Citadels, who took which character from the pools they were offered), and
  worlds that explain those choices better are drawn more often.
- **Other seats follow the policy** (optional, ``opponents_follow_policy``): inside the tree, a seat
  other than the bot's plays the policy's choice in the world at hand instead of being searched by
  UCB. Where the other seats *are* that policy (the hard level's measured opponents), the tree then
  models them as they play, and its iterations go to the bot's own decisions.
- **Moves the bot cannot see** (optional, ``unseen_moves``): in a world the tree sees every seat's
  moves, so below another seat's face-down pick the bot's later choices are made knowing which
  character it took, which the bot never will (the strategy fusion of single-observer ISMCTS; Cowling
  et al. group such moves, "SO-ISMCTS + POM"). With this setting, where another seat's move is one
  the bot's seat cannot see (``GameState.action_seen_by``), that seat plays the policy's choice in
  the world at hand and the child is keyed by what the bot's seat sees of it, so every hidden choice
  leads to the same subtree.
- **Trees of a bounded size** (optional, ``tree_budget``): a time budget longer than ``tree_budget`` grows
  fresh trees one after another, each for at most that long and on worlds of its own, and adds up their
  root statistics (a paired root: their worlds), as root parallelism adds up those of trees grown at
  once. A longer search then keeps the model of the game that a short one has (a tree of a few hundred
  iterations, whose nodes below the root decide little) and only averages away its noise.
- **Stop once settled** (``stop_when_settled``, under a time budget alone): the decision is the most
  visited root action, and every iteration adds exactly one visit to exactly one root child (a new
  child starts from none), so once the leader's lead over the runner-up exceeds the iterations the
  rest of the budget can still run, no outcome of them can change the choice, and the search stops
  (the "time management" of Leela Zero and Leela Chess Zero's "smart pruning"). The iterations left are
  bounded by the iterations per CPU second of the searching thread so far (the whole search's rate or
  the last stretch's, whichever is faster) times the time left on its clock for an iteration to start
  (one thread cannot get more CPU time than elapsed time) times ``SETTLED_SAFETY``, plus
  ``SETTLED_SLACK`` iterations. A paired root stops when no remaining
  worlds, with rewards in [0, 1], could change ``_paired_winner``'s answer. Either way the search
  records when it would have stopped (``RootStatistics.settled``) even when told not to.
- **Time budget**: the clock is also checked inside rollouts; a rollout cut by the deadline is scored
  statically, so a decision overshoots its budget by at most one policy decision. The budget is
  elapsed time (``budget_clock="wall"``, what a player waits) or the searching thread's CPU time
  (``"cpu"``: what the search would do on an idle core however busy the machine, for tournaments
  whose results must not depend on the machine's load).

Rewards: at the end of the game, ``win_weight`` times the win share (1/k on a k-way shared win) plus
the rest times the score margin in [0, 1]; at a cutoff, the evaluator's estimate. Everything random
comes from the bot's own seeded generator, so a seed gives the same play for an iteration budget.
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.bots.base import Bot
from meeple.core.contract import GameState
from meeple.core.rng import Rng

Evaluator = Callable[[GameState[Any]], list[float]]

#: How a search measures its time budget: "wall", the elapsed time; "cpu", the CPU time of the thread
#: that searches (``time.thread_time``), which other programs on the machine do not use up.
BUDGET_CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}



def check_budget_clock(name: str) -> None:
    """``ValueError`` unless ``name`` is one of ``BUDGET_CLOCKS``: said once for the search, the levels and
    tournaments, which each check before anything starts."""
    if name not in BUDGET_CLOCKS:
        raise ValueError(f"unknown budget clock {name!r}; available: {', '.join(BUDGET_CLOCKS)}")


#: Under the CPU clock, which costs a system call here (about 3 µs, twenty times the wall clock), the
#: clock is read only once this much elapsed time has passed since it was last read: the thread cannot
#: have used more CPU time than that meanwhile, and the margin kept before the deadline is at least it.
CPU_CLOCK_EVERY = 0.0005


#: How much faster than so far the rest of a search is assumed to iterate, at most, when it stops once
#: its choice is settled (module docstring). The rate is measured in the searching thread's CPU time, so
#: a machine's load does not change it; what can is the iterations' own cost (deeper trees, rollouts
#: handed down). ``bench/settled_stop.py`` records, at the point where each search would stop, the
#: iterations the rest of its budget really ran against the bound: docs/bots.md, "Stopping once the
#: choice is settled".
SETTLED_SAFETY = 2.0

#: Iterations added to that bound: iterations differ in cost widely (one whose rollout is handed down
#: costs a tree descent only), so near the budget's end a few may still run where the rate says less
#: than one (Caylus, docs/bots.md: two ran after a bound of 1.3).
SETTLED_SLACK = 8.0

#: A search first looks whether its choice is settled after this many iterations (a paired root: worlds),
#: when the rate so far no longer rests on the first iteration alone, which pays for what the rest reuse.
SETTLED_FIRST_LOOK = 8

#: A tree search then looks again after every ``1 + done // SETTLED_CHECK_SHARE`` more iterations: a
#: hundred or two looks a search, each a scan of the root's children and a clock reading or two, and a
#: stop at most about 3% of the iterations later than it could.
SETTLED_CHECK_SHARE = 32


#: A node's policy choice not worked out yet (``None`` is a real answer: no policy, or nonsense).
_UNKNOWN: Any = object()


class _Trail:
    """A rollout played from a node in one world: its actions (forced ones included), how many
    decisions were made before each of them, and what it was worth. ``start`` is where the rollout of
    the node holding it begins."""

    __slots__ = ("actions", "made", "rewards", "start", "world")

    def __init__(self, actions: list[Any], made: list[int], rewards: list[float], start: int, world: int) -> None:
        self.actions = actions
        self.made = made
        self.rewards = rewards
        self.start = start
        self.world = world


class _Node:
    __slots__ = ("action", "availability", "children", "favourite", "favourite_world", "mover", "parent", "reward",
                 "trail", "visits")

    def __init__(self, parent: _Node | None, action: Any, mover: int | None) -> None:
        self.parent = parent
        self.action = action
        self.mover = mover  # the seat that chose `action`
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.availability = 0
        self.reward = 0.0
        self.favourite: Any = _UNKNOWN  # the policy's choice here (see ``ISMCTSBot._favourite``)
        self.favourite_world = -1  # the world it was worked out in, where another seat decides
        self.trail: _Trail | None = None  # the last rollout from here, until a child takes it over


def _pause_collector() -> bool:
    """Pause the cyclic garbage collector for a search when this thread is the process's only one
    (module docstring, "Cheap iterations"); whether it was paused, so the caller switches it back on."""
    if threading.active_count() > 1 or not gc.isenabled():
        return False
    gc.disable()
    return True


@dataclass(frozen=True)
class SettledPoint:
    """Where a time-budgeted search's choice became settled: after ``iterations`` iterations and
    ``spent`` seconds on its budget's clock, ``leader`` (the most visited root action, or a paired
    root's sure winner) led by ``lead`` (visits; a paired root: its total reward over the next best)
    where at most ``bound`` more iterations could follow (a paired root: worlds)."""

    iterations: int
    spent: float
    leader: Any
    lead: float
    bound: float


@dataclass
class RootStatistics:
    """What a search found at the root, in a form that searches in other processes can add up.

    A plain root has visits and summed rewards per action; a paired root has its candidates (the
    policy's choice first) and one reward per candidate for every world played out."""

    legal: list[Any]
    iterations: int = 0
    rollouts: int = 0  # rollouts really played (fewer than iterations where rollouts were handed down)
    visits: dict[Any, int] = field(default_factory=dict)
    rewards: dict[Any, float] = field(default_factory=dict)
    candidates: list[Any] | None = None
    per_world: list[list[float]] = field(default_factory=list)
    settled: SettledPoint | None = None  # when the choice could no longer change (time budgets only)
    stopped_early: bool = False  # the search stopped there rather than at its budget's end

    def merge(self, other: RootStatistics) -> None:
        """Adds another search of the same position (same candidates for a paired root)."""
        self.iterations += other.iterations
        self.rollouts += other.rollouts
        for action, visits in other.visits.items():
            self.visits[action] = self.visits.get(action, 0) + visits
            self.rewards[action] = self.rewards.get(action, 0.0) + other.rewards[action]
        if self.candidates is not None and other.candidates == self.candidates:
            self.per_world += other.per_world


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
    probability ``epsilon`` of a random move. ``rollout_cutoff``: rollout decisions (positions with
    more than one legal action) before the static ``evaluator`` scores the position (``None``: play to
    the end). ``prior_weight``: progressive bias of the policy's choice at tree nodes (0 turns it off;
    needs a rollout policy). ``widening``: progressive widening constant (``None``: every action is a
    candidate, as in plain ISMCTS). ``paired_root``: compare the policy's best ``k`` root actions on
    common determinizations (module docstring); ``None`` for the usual UCB at the root.
    ``paired_margin``: how much better, in mean reward per world, another candidate must do to overrule
    the policy's own choice; ``paired_z``: and by how many standard errors of the paired differences
    (0: no such test); ``paired_flat``: each candidate's reward in a world is the rollout policy's play from
    it, with no tree below the candidates (the policy's value of each, what the z test then compares);
    ``paired_ranked``: the candidates after the policy's choice follow its ``ranked`` order (False: the
    legal order, as Palais Royal's hard level was measured).
    ``rollout_boundary``: a state attribute (e.g. ``"turn"``) whose change a rollout
    past the cutoff waits for before it is scored; ``rollout_boundary_from``: the least value of it a
    rollout may be scored at (``None``: any). ``rollout_to_end_from``: the progress (the evaluator's
    ``progress(state)``, in [0, 1]) from which a rollout past its cutoff goes on to the end (``None``:
    never). ``world_reuse``: iterations per determinization.
    ``opponents_follow_policy``: the other seats play the policy's choice inside the tree (needs a
    rollout policy). ``unseen_moves``: where another seat's move is one the bot's seat cannot see
    (``GameState.action_seen_by``), that seat plays the policy's choice and the tree goes on from what the
    bot's seat sees (needs a rollout policy). ``budget_clock``: how ``time_limit`` is measured, one of
    ``BUDGET_CLOCKS``.
    ``belief_worlds``: determinizations drawn for each world kept, weighed by the policy's
    ``world_likelihood`` (1: every determinization is kept, as in plain ISMCTS; a policy without
    ``world_likelihood`` keeps every one too). ``stop_when_settled``: with a time budget and no
    iteration budget, stop once no iterations the rest of the budget could run would change the choice
    (module docstring); when off, the search still records where it would have stopped
    (``last_settled``). ``tree_budget``: seconds of a time budget that one tree may grow for; a longer
    budget grows fresh trees one after another (each on worlds of its own) and adds up their root
    statistics (``None``: one tree for the whole budget).
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
        paired_flat: bool = False,
        paired_ranked: bool = True,
        world_reuse: int = 1,
        opponents_follow_policy: bool = False,
        unseen_moves: bool = False,
        budget_clock: str = "wall",
        rollout_boundary: str | None = None,
        rollout_boundary_from: int | None = None,
        rollout_to_end_from: float | None = None,
        stop_when_settled: bool = True,
        belief_worlds: int = 1,
        tree_budget: float | None = None,
    ) -> None:
        if iterations is None and time_limit is None:
            raise ValueError("ISMCTS needs an iteration budget or a time limit")
        if world_reuse < 1:
            raise ValueError("a determinization serves at least one iteration")
        if belief_worlds < 1:
            raise ValueError("a world is drawn from at least one determinization")
        if tree_budget is not None and tree_budget <= 0.0:
            raise ValueError("a tree's budget is a positive number of seconds")
        check_budget_clock(budget_clock)
        self._progress: Callable[[GameState[Any]], float] | None = None
        if rollout_to_end_from is not None:
            self._progress = getattr(evaluator, "progress", None)
            if self._progress is None:
                raise ValueError("rollout_to_end_from needs an evaluator with a progress(state)")
        self.rollout_to_end_from = rollout_to_end_from
        self.rng = Rng(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_rollout_actions = max_rollout_actions
        self.rollout_policy = rollout_policy
        self.epsilon = epsilon
        self.rollout_cutoff = rollout_cutoff
        self.rollout_boundary = rollout_boundary
        self.rollout_boundary_from = rollout_boundary_from
        self.evaluator: Evaluator = evaluator or margin_evaluation
        self.prior_weight = prior_weight if rollout_policy is not None else 0.0
        self.widening = widening
        self.win_weight = win_weight
        self.paired_root = paired_root
        self.paired_margin = paired_margin
        self.paired_z = paired_z
        self.paired_flat = paired_flat
        self.paired_ranked = paired_ranked
        self.world_reuse = world_reuse
        self.belief_worlds = belief_worlds
        self._likelihood: Callable[[GameState[Any], int], float | None] | None = None
        self.opponents_follow_policy = opponents_follow_policy and rollout_policy is not None
        self.unseen_moves = unseen_moves and rollout_policy is not None
        self.budget_clock = budget_clock
        self.stop_when_settled = stop_when_settled
        self.tree_budget = tree_budget
        self.clock = BUDGET_CLOCKS[budget_clock]
        self._on_cpu = budget_clock == "cpu"
        self._wall_read = 0.0  # under the CPU clock: when it was last read, in elapsed time
        self._expired = False  # the last reading of the clock found the budget spent
        self.last_iterations = 0
        self.last_rollouts = 0
        self.last_settled: SettledPoint | None = None  # where the last search's choice became settled
        self.last_stopped_early = False  # whether the last search stopped there
        self.last_trees = 0  # trees the last search grew (more than one with a ``tree_budget``)
        self._rollouts = 0
        self._started = 0.0  # the search's start on its budget's clock
        self._cpu_started = 0.0  # and on its thread's CPU clock
        self._looked = (0, 0.0)  # iterations and thread CPU time at the last look for a settled choice
        self._may_stop = False  # this search stops once its choice is settled
        self._tree_looks = True  # a tree looks for a settled choice (not one of several added up)
        self._deadline: float | None = None
        self._last_check = 0.0
        self._slowest = 0.0
        self._cut = False
        self._seat = 0
        self._policy_choose: Callable[[GameState[Any]], Any] | None = None

    def choose(self, state: GameState[Any]) -> Any:
        return self.decide(self.search(state))

    def search(self, state: GameState[Any], candidates: Sequence[Any] | None = None,
               started: float | None = None, may_stop_early: bool = True) -> RootStatistics:
        """Searches ``state`` for its current seat within the budget; ``candidates`` fixes a paired
        root's actions (else the policy's best), ``started`` when the budget's clock started (default:
        now; a reading of ``self.clock``). ``may_stop_early`` False runs the whole budget even with
        ``stop_when_settled``: a share of a search whose root statistics are added to others' (the
        expert level) cannot tell from its own visits whether the sum's choice is settled."""
        started = self.clock() if started is None else started
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over")
        legal = list(state.legal_actions())
        statistics = RootStatistics(legal)
        self.last_settled = None
        self.last_stopped_early = False
        self.last_trees = 0
        if len(legal) == 1:
            self.last_iterations = self.last_rollouts = 0
            return statistics
        # Keep a little of the budget for the final choice; every clock check also stops when the
        # slowest step seen so far (a policy decision, a determinization) would overrun the deadline.
        self._deadline = None if self.time_limit is None else started + self.time_limit * 0.97
        self._last_check = started
        # the CPU clock is read at most every CPU_CLOCK_EVERY of elapsed time: keep that much in hand
        self._slowest = CPU_CLOCK_EVERY if self._on_cpu else 0.0
        self._wall_read = time.perf_counter()
        self._expired = False
        self._started = started
        self._cpu_started = time.thread_time()
        self._looked = (0, self._cpu_started)
        self._may_stop = may_stop_early and self.stop_when_settled
        self._seat = seat
        self._rollouts = 0
        self._policy_choose = self._policy_for(state)
        self._likelihood = self._likelihood_for(state) if self.belief_worlds > 1 else None
        paused = _pause_collector()
        try:
            if self.paired_root is not None and self.rollout_policy is not None:
                chosen = list(candidates) if candidates else self.root_candidates(state, legal, self.paired_root)
                statistics.candidates = chosen
                if len(chosen) > 1:
                    self._grow_trees(lambda part: self._search_paired(state, seat, chosen, part), statistics)
            else:
                self._grow_trees(lambda part: self._search_tree(state, seat, part), statistics)
        finally:
            if paused:
                gc.enable()
        statistics.rollouts = self._rollouts
        self.last_iterations = statistics.iterations
        self.last_rollouts = statistics.rollouts
        self.last_settled = statistics.settled
        self.last_stopped_early = statistics.stopped_early
        return statistics

    def _grow_trees(self, grow: Callable[[RootStatistics], None], statistics: RootStatistics) -> None:
        """``grow(statistics)`` once or, where a ``tree_budget`` is shorter than the time budget, on fresh
        trees of at most that budget each until the whole is spent, their root statistics added up as the
        expert adds up its processes' (``RootStatistics.merge``). Why: a tree grown for long makes the
        other seats' replies and the bot's own later choices by maxima over a few dozen noisy visits, and
        more time made such a tree choose worse in Palais Royal and Caylus (docs/bots.md, "The expert
        level"); trees of the hard level's size, added up, keep its model and average away its noise. A
        tree runs to its own budget's end (its lead says nothing of the sum's); between trees the sum is
        looked at for a settled choice, and the search stops there if it may."""
        end = self._deadline
        budget = self.tree_budget
        if budget is None or end is None or self.iterations is not None or budget >= (self.time_limit or 0.0):
            self.last_trees = 1
            grow(statistics)
            return
        self._tree_looks = False  # a tree's own lead, and its own iteration count, say nothing of the sum's
        trees = 0
        try:
            while True:
                now = self.clock()
                if trees and now + self._slowest >= end:
                    break
                self._deadline = min(end, now + budget * 0.97)
                self._expired = False
                self._wall_read = 0.0  # the next look reads the clock against the new deadline
                part = RootStatistics(statistics.legal, candidates=statistics.candidates)
                grow(part)
                trees += 1
                statistics.merge(part)
                if self._deadline >= end or part.iterations == 0:
                    break
                self._deadline = end
                if statistics.settled is None and self._settled_sum(statistics) and self._may_stop:
                    statistics.stopped_early = True
                    break
        finally:
            self._deadline = end
            self._tree_looks = True
        self.last_trees = trees

    def _settled_sum(self, statistics: RootStatistics) -> bool:
        """Whether the trees' summed choice is settled against the whole budget's remaining iterations (or
        worlds), as ``_settled_tree`` and ``_settled_paired`` tell it within one tree; records the point."""
        candidates = statistics.candidates
        if candidates is not None:
            per_world = statistics.per_world
            totals = [sum(rewards[index] for rewards in per_world) for index in range(len(candidates))]
            settled = self._settled_paired(candidates, per_world, totals) if per_world else None
        else:
            settled = self._settled_visits(statistics.visits.items(), statistics.iterations)
        if settled is None:
            return False
        statistics.settled = settled
        return True

    def decide(self, statistics: RootStatistics) -> Any:
        """The action the statistics point to: the most visited (a paired root: see ``_paired_winner``)."""
        legal = statistics.legal
        if len(legal) == 1:
            return legal[0]
        if statistics.candidates is not None:
            if len(statistics.candidates) == 1:
                return statistics.candidates[0]
            return statistics.candidates[self._paired_winner(statistics.per_world, len(statistics.candidates))]
        visited = [a for a in legal if statistics.visits.get(a)]
        if not visited:
            return self.rng.choice(legal)
        return max(visited, key=lambda a: (statistics.visits[a], statistics.rewards[a]))

    def _search_tree(self, state: GameState[Any], seat: int, statistics: RootStatistics) -> None:
        root = _Node(None, None, None)
        done = 0
        reuse = self.world_reuse
        world: GameState[Any] | None = None
        worlds = 0
        uses = 0
        # Only a time budget alone is watched: an iteration budget runs exactly as it says.
        watch = self._tree_looks and self._deadline is not None and self.iterations is None
        next_look = SETTLED_FIRST_LOOK if watch else -1
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if self._out_of_time():
                break
            if done == next_look:
                next_look = done + 1 + done // SETTLED_CHECK_SHARE
                settled = self._settled_tree(root, done)
                if settled is not None:
                    statistics.settled = settled
                    next_look = -1
                    if self._may_stop:
                        statistics.stopped_early = True
                        break
            if world is None or uses >= reuse:
                world = self._sample_world(state, seat)
                worlds += 1
                uses = 0
            uses += 1
            if reuse > 1:
                self._iterate(root, world.clone(), worlds)
            else:
                self._iterate(root, world)
            done += 1
        statistics.iterations = done
        for action, child in root.children.items():
            statistics.visits[action] = child.visits
            statistics.rewards[action] = child.reward

    def _iterations_left(self, done: int) -> float:
        """An upper bound of the iterations (a paired root: worlds) the rest of the budget can run, ``done``
        so far: the iterations per CPU second of the searching thread, over the whole search or since the
        last look (whichever is faster), times the time left on the budget's clock for an iteration to
        start (not more CPU time for one thread than elapsed time), times ``SETTLED_SAFETY``, plus
        ``SETTLED_SLACK`` for the last few (one may start just before the end, and cheap ones may
        follow). Infinite before any CPU time is measured.
        Its clocks are read afresh, not the CPU clock's cached verdict (``_out_of_time``)."""
        assert self._deadline is not None
        now = self.clock()
        cpu_now = now if self._on_cpu else time.thread_time()
        # No iteration starts once the slowest step seen would overrun the deadline (``_out_of_time``;
        # under the CPU clock, up to CPU_CLOCK_EVERY after the reading that said so), and that step only grows.
        left = self._deadline - self._slowest - now + (CPU_CLOCK_EVERY if self._on_cpu else 0.0)
        if left <= 0.0:
            return SETTLED_SLACK  # a few may yet start before the clock is read again
        spent = cpu_now - self._cpu_started
        if spent <= 0.0:
            return math.inf
        rate = done / spent
        looked_done, looked_cpu = self._looked
        if cpu_now > looked_cpu and done > looked_done:
            rate = max(rate, (done - looked_done) / (cpu_now - looked_cpu))
        self._looked = (done, cpu_now)
        return SETTLED_SAFETY * rate * left + SETTLED_SLACK

    def _settled_tree(self, root: _Node, done: int) -> SettledPoint | None:
        """The settled point if the most visited root child leads the runner-up (an action not expanded
        yet has no visits) by more visits than ``_iterations_left``: each iteration adds one visit to one
        root child, so the runner-up cannot catch up, not even to a tie broken by rewards."""
        return self._settled_visits(((action, child.visits) for action, child in root.children.items()), done)

    def _settled_visits(self, visited: Iterable[tuple[Any, int]], done: int) -> SettledPoint | None:
        """``_settled_tree``'s test on root actions' visits, ``done`` iterations so far."""
        first = second = 0
        leader = None
        for action, visits in visited:
            if visits > first:
                first, second, leader = visits, first, action
            elif visits > second:
                second = visits
        lead = first - second
        if lead <= 0:
            return None
        bound = self._iterations_left(done)
        if lead <= bound:
            return None
        return SettledPoint(done, self.clock() - self._started, leader, lead, bound)

    def root_candidates(self, state: GameState[Any], legal: Sequence[Any], count: int) -> list[Any]:
        """The policy's choice first, then its ranking (or the legal order: without one, or with
        ``paired_ranked`` off), ``count`` at most."""
        policy = self.rollout_policy
        assert policy is not None
        favourite = self._policy_action(state, legal)
        ranked = getattr(policy, "ranked", None) if self.paired_ranked else None
        order = list(ranked(state)) if ranked is not None else list(legal)
        candidates = [] if favourite is None else [favourite]
        for action in order:
            if len(candidates) >= count:
                break
            if action not in candidates and action in legal:
                candidates.append(action)
        return candidates or list(legal[:count])

    def _search_paired(self, state: GameState[Any], seat: int, candidates: Sequence[Any],
                       statistics: RootStatistics) -> None:
        """Every iteration samples one world and runs one ISMCTS iteration below each candidate in it."""
        nodes = [_Node(None, action, seat) for action in candidates]
        per_world = statistics.per_world  # one reward per candidate for every world played out
        totals = [0.0] * len(nodes)
        watch = self._tree_looks and self._deadline is not None and self.iterations is None
        flat = self.paired_flat
        while True:
            if self.iterations is not None and len(per_world) * len(nodes) >= self.iterations:
                break
            if self._out_of_time():
                break
            if watch and len(per_world) >= SETTLED_FIRST_LOOK:
                settled = self._settled_paired(candidates, per_world, totals)
                if settled is not None:
                    statistics.settled = settled
                    watch = False
                    if self._may_stop:
                        statistics.stopped_early = True
                        break
            world = self._sample_world(state, seat)
            rewards = []
            for node in nodes:
                copy = world.clone()
                copy.apply(node.action)
                if flat:
                    self._cut = False
                    reward = self._rollout(copy)[seat]
                else:
                    reward = self._iterate(node, copy)[seat]
                if self._cut or (node is not nodes[-1] and self._out_of_time()):
                    break
                rewards.append(reward)
            if len(rewards) < len(nodes):  # a world not played out by every candidate would bias them
                break
            per_world.append(rewards)
            for index, reward in enumerate(rewards):
                totals[index] += reward
        statistics.iterations = len(per_world) * len(nodes)

    def _settled_paired(self, candidates: Sequence[Any], per_world: Sequence[Sequence[float]],
                        totals: Sequence[float]) -> SettledPoint | None:
        """The settled point if no worlds the rest of the budget can give (``_iterations_left``) could
        change ``_paired_winner``'s answer (``paired_sure_winner``)."""
        count = len(totals)
        best = max(range(count), key=totals.__getitem__)
        lead = totals[best] - max(totals[index] for index in range(count) if index != best)
        if lead <= 0.0:
            return None
        worlds = len(per_world)
        left = self._iterations_left(worlds)
        if self.paired_sure_winner(per_world, totals, left) is None:
            return None
        return SettledPoint(worlds * count, self.clock() - self._started, candidates[best], lead, left)

    def paired_sure_winner(self, per_world: Sequence[Sequence[float]], totals: Sequence[float],
                           worlds_left: float) -> int | None:
        """The candidate ``_paired_winner`` must name after any m' ≤ m more worlds (m = ``worlds_left``),
        every reward in [0, 1], or ``None`` if more worlds could change it; ``totals``: each candidate's
        reward summed over ``per_world``. The candidate with the best total stays best if it leads
        every other by more than m. The policy's choice (index 0) then stays the answer; another stays
        it only if it passes the margin and the z test now and would after m' worlds that each cost it
        the most a world can (a paired difference of −1: the mean stays above (S − m)/(n + m), S the
        differences' sum over the n worlds so far) with differences spread as much as any in [−1, 1]
        can (a standard error of at most √(1/(N − 1)) after N worlds). Sound, but it needs a lead of
        more than a world per world left in a sum of paired differences of a few hundredths each: it
        can hold only near the budget's end."""
        count = len(totals)
        best = max(range(count), key=totals.__getitem__)
        if any(totals[best] - totals[index] <= worlds_left for index in range(count) if index != best):
            return None
        if best == 0:
            return 0
        # it is the answer now only if it passes the tests, and must pass them after m' ≤ m more worlds:
        # its lowest mean is at m' = m, the largest standard error at m' = 1 (at m' = 0 it passed)
        worlds = len(per_world)
        if self._paired_winner(per_world, count) != best:
            return None
        remaining = math.ceil(worlds_left)
        lowest_mean = (totals[best] - totals[0] - remaining) / (worlds + remaining)
        if lowest_mean <= self.paired_margin:
            return None
        if self.paired_z > 0.0 and lowest_mean <= self.paired_z * math.sqrt(1.0 / worlds):
            return None
        return best

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
        if self._on_cpu:
            wall = time.perf_counter()
            if wall - self._wall_read < CPU_CLOCK_EVERY:
                return self._expired  # once out of time, out of time until the next search
            self._wall_read = wall
        now = self.clock()
        gap = now - self._last_check
        if gap > self._slowest:
            self._slowest = gap
        self._last_check = now
        self._expired = now + self._slowest >= self._deadline
        return self._expired

    def _policy_bot(self, state: GameState[Any]) -> Bot | None:
        """The bot that plays the policy in this game (a ``RolloutPolicy`` names the game's own)."""
        policy = self.rollout_policy
        if policy is None:
            return None
        bot_for = getattr(policy, "bot_for", None)
        return bot_for(state) if bot_for is not None else policy

    def _policy_for(self, state: GameState[Any]) -> Callable[[GameState[Any]], Any] | None:
        """The policy's ``choose`` for this game, looked up once per search rather than per decision."""
        bot = self._policy_bot(state)
        return None if bot is None else bot.choose

    def _likelihood_for(self, state: GameState[Any]) -> Callable[[GameState[Any], int], float | None] | None:
        """The policy's ``world_likelihood`` for this game, if it has one."""
        likelihood: Callable[[GameState[Any], int], float | None] | None = getattr(
            self._policy_bot(state), "world_likelihood", None)
        return likelihood

    def _sample_world(self, state: GameState[Any], seat: int) -> GameState[Any]:
        """A determinization of ``state`` for ``seat``; with a belief, the one of ``belief_worlds`` drawn
        in proportion to their likelihoods (one draw of the bot's generator per candidate, and one more)."""
        likelihood = self._likelihood
        first = state.determinize(seat, self.rng.fork())
        if likelihood is None:
            return first
        weight = likelihood(first, seat)
        if weight is None:  # nothing to weigh in this position
            return first
        candidates = [first]
        weights = [weight]
        for _ in range(self.belief_worlds - 1):
            world = state.determinize(seat, self.rng.fork())
            candidates.append(world)
            weights.append(likelihood(world, seat) or 0.0)
        total = sum(weights)
        if not total > 0.0:  # nothing explains what was seen better than anything else
            return candidates[self.rng.randbelow(len(candidates))]
        point = self.rng.random() * total
        for world, weight in zip(candidates, weights, strict=True):
            point -= weight
            if point < 0.0:
                return world
        return candidates[-1]

    def _policy_action(self, state: GameState[Any], actions: Sequence[Any]) -> Any:
        """The rollout policy's choice, or ``None`` without a policy (or if it answers nonsense)."""
        choose = self._policy_choose if self._policy_choose is not None else self._policy_for(state)
        if choose is None:
            return None
        action = choose(state)
        return action if action in actions else None

    def _favourite(self, node: _Node, state: GameState[Any], mover: int, actions: Sequence[Any], world: int) -> Any:
        """The policy's choice at ``node``. Where the bot's own seat decides, it is worked out once and
        kept (that seat knows the same there in every world); where another seat decides, it is kept
        for the rest of the world it was worked out in (``world`` ≥ 0: a world that serves several
        iterations) and asked anew in the world at hand otherwise."""
        favourite = node.favourite
        if mover != self._seat and (world < 0 or node.favourite_world != world):
            favourite = _UNKNOWN
        if favourite is _UNKNOWN or (favourite is not None and favourite not in actions):
            favourite = node.favourite = self._policy_action(state, actions)
            node.favourite_world = world
        return favourite

    def _iterate(self, root: _Node, state: GameState[Any], world: int = -1) -> list[float]:
        """One iteration on ``state``, a copy of world number ``world`` (-1: a world used once)."""
        node = root
        rng = self.rng
        self._cut = False  # set when the clock stops this iteration before its rollout ends
        use_prior = self.prior_weight > 0.0
        follow = self.opponents_follow_policy
        unseen = self.unseen_moves
        seat = self._seat
        prior_weight = self.prior_weight
        exploration = self.exploration
        widening = self.widening
        log = math.log
        sqrt = math.sqrt
        rewards: list[float] | None = None
        # Selection: descend while the node's candidates all have children; expand one otherwise.
        while not state.is_over:
            mover = state.current_player
            assert mover is not None
            actions = state.legal_actions()
            count = len(actions)
            children = node.children
            if mover != seat and (follow or (unseen and state.action_seen_by(actions[0], seat) is not actions[0])):
                # Another seat plays the policy's choice in this world: no statistics, no choice here;
                # with ``unseen_moves`` the tree goes on from what the bot's seat sees of it.
                action = actions[0] if count == 1 else self._favourite(node, state, mover, actions, world)
                if action is None:
                    action = rng.choice(actions)
                key = state.action_seen_by(action, seat) if unseen else action
                child = children.get(key)
                if child is None:
                    child = children[key] = _Node(node, key, mover)
                    rewards = self._take_over_trail(node, child, world, action)
                    node = child
                    if rewards is None:
                        state.apply(action)
                    break
                child.availability += 1
                state.apply(action)
                node = child
                if self._out_of_time():
                    self._cut = True
                    break
                continue
            favourite = self._favourite(node, state, mover, actions, world) if use_prior and count > 1 else None
            limit = count
            if widening is not None:
                limit = min(count, math.ceil(widening * sqrt(node.visits + 1)))
            # One pass: availability of every child seen here, UCB of each, how many are present.
            present = 0
            best_value = -math.inf
            best_child = node
            for action in actions:
                child = children.get(action)
                if child is None:
                    continue
                present += 1
                child.availability += 1
                visits = child.visits
                if visits == 0:  # expanded in an iteration the clock cut before its backup
                    value = math.inf
                else:
                    value = child.reward / visits + exploration * sqrt(log(child.availability) / visits)
                    if action == favourite:
                        value += prior_weight / (visits + 1)
                if value > best_value:
                    best_value, best_child = value, child
            if present < limit:
                if favourite is not None and favourite not in children:
                    action = favourite
                else:
                    action = rng.choice([a for a in actions if a not in children])
                child = _Node(node, action, mover)
                child.availability = 1
                children[action] = child
                rewards = self._take_over_trail(node, child, world, action)
                node = child
                if rewards is None:
                    state.apply(action)
                break
            state.apply(best_child.action)
            node = best_child
            if self._out_of_time():
                self._cut = True
                break
        if rewards is None:
            rewards = self._rollout(state, node if world >= 0 and not self._cut else None, world)
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

    def _take_over_trail(self, node: _Node, child: _Node, world: int, action: Any) -> list[float] | None:
        """If the rollout last played from ``node`` in this same world began with ``action`` (``child``'s,
        or the move hidden behind what the bot's seat sees of it),
        the rest of it is a rollout from ``child``: hand it over and return its rewards (no need to
        play it again). Cut-off rollouts are handed over only while at least half their decisions
        remain, so a node's estimate never rests on a much shorter look ahead than a fresh one's."""
        trail = node.trail
        if trail is None or trail.world != world or world < 0:
            return None
        start = trail.start
        actions = trail.actions
        if start >= len(actions) or actions[start] != action:
            return None
        cutoff = self.rollout_cutoff
        if cutoff is not None and 2 * (trail.made[-1] - trail.made[start + 1]) < cutoff:
            return None
        node.trail = None
        trail.start = start + 1
        child.trail = trail
        return trail.rewards

    def _rollout(self, state: GameState[Any], leaf: _Node | None = None, world: int = -1) -> list[float]:
        """The rollout policy (or random play) up to the cutoff or the end; the rewards per seat. With a
        ``leaf``, the rollout is kept in it (``_take_over_trail``) unless the clock cut it short."""
        self._rollouts += 1
        limit = self.max_rollout_actions if self.rollout_cutoff is None else self.rollout_cutoff
        choose = self._policy_choose
        rng = self.rng
        epsilon = self.epsilon
        explore = epsilon > 0.0
        decisions = 0
        out_of_time = self._out_of_time
        timed = self._deadline is not None
        legal_actions = state.legal_actions
        apply = state.apply
        keep = leaf is not None
        played: list[Any] = []
        made: list[int] = [0]
        boundary = self.rollout_boundary
        earliest = self.rollout_boundary_from
        epoch: Any = _UNKNOWN  # the boundary attribute's value when the cutoff was reached
        progress = self._progress
        to_end_from = 2.0 if self.rollout_to_end_from is None else self.rollout_to_end_from
        while not state.is_over:
            if decisions >= limit:
                if progress is not None and progress(state) >= to_end_from:
                    limit = self.max_rollout_actions  # late enough: play it out
                    continue
                if boundary is None:
                    break
                mark = getattr(state, boundary)
                if epoch is _UNKNOWN:
                    epoch = mark
                elif mark != epoch and (earliest is None or mark >= earliest):
                    break
            actions = legal_actions()
            if len(actions) == 1:
                action = actions[0]
            else:
                decisions += 1
                action = (rng.choice(actions) if choose is None or (explore and rng.random() < epsilon)
                          else choose(state))
            apply(action)
            if keep:
                played.append(action)
                made.append(decisions)
            if timed and out_of_time():
                self._cut = not state.is_over
                break
        rewards = outcome_rewards(state, self.win_weight) if state.is_over else self.evaluator(state)
        if leaf is not None and not self._cut:
            leaf.trail = _Trail(played, made, rewards, 0, world)
        return rewards
