"""How much of the hard level's budget a stop once the choice is settled saves, and whether it ever
changes a choice.

    python bench/settled_stop.py                          # all four games, 2 and 4 players, 12 positions each
    python bench/settled_stop.py caylus --players 4 --positions 30
    python bench/settled_stop.py --look-cost --players 4 --positions 4   # what the looks cost
    python bench/settled_stop.py --whole-games 2 --players 4              # whole games against medium

On the mid-game positions of ``bench/ismcts_speed.py`` (a heuristic self-play game per seed, stopped at
20–80% of its length), the hard level decides once with ``stop_when_settled=False`` under its budget in
CPU time: a probe, which runs the whole budget and records where it would have stopped
(``last_settled``: after how much of the budget, and what led then) and every look it took on the
way. Then the same bot seed decides again with the stop on (``--no-stop-run`` skips it). One line per
game and player count, ``<game> <n>p:`` then

- ``settled a/b``: decisions whose choice became settled before the budget's end;
- ``saved x% a decision (y% where settled)``: the budget left at the settled point, on average over
  all decisions and over the settled ones;
- ``probe leader = full choice a/b``: the leader at the settled point against the choice the full
  budget made from the same tree (any disagreement is printed above the line);
- ``stopped early a/b, = full choice c/d``: the decisions where the run with the stop on stopped
  early, and how many of the d of them that stopped before the probe's budget ended chose what the
  probe's full budget did. The same seed grows the same tree up to the stop, but a budget of CPU time
  holds a count of iterations that varies by 10–20% from run to run on a loaded machine, so the stop
  may come at another look than the probe's, or after the probe's own end (then the probe is no
  continuation of that tree and the decision is not counted); a run that did not stop early is a
  second full budget, not a test of the stop;
- ``after settled <= r of the bound``: the most, over settled decisions, of the iterations (a paired
  root: worlds) the full budget ran after the settled point over the bound the search then put on
  them (the stop is sound where this stays at or below 1);
- ``rest ran <= f x the rate``: the most, over every look of every decision, of the iterations really
  run after the look over the unscaled estimate (the rate so far times the budget left, plus one): the
  safety factor that look would have needed (``SETTLED_SAFETY`` is what the search uses); in brackets
  the same over the looks where the bound was below the iterations done so far, the only ones where a
  lead (at most those iterations) can exceed it.

With ``--whole-games N`` it plays N whole games of hard (stop on) against medium bots on every other seat
instead, seeds 1…N, hard's seat rotated: ``<game> <n>p whole games: …`` its decisions, those it
searched (more than one legal action) and stopped early, the CPU seconds its searches took a game, the
mean CPU time of a search that ran its whole budget and of one that stopped, and how much less CPU time
the searches took than they would have without stops (a stopped search counted at the mean of those
that ran their whole budget, or 97% of the budget where none did) — an account within one run, which
a loaded machine does not skew, where two tournaments' CPU totals differ by their games' own lengths.

With ``--look-cost`` it measures instead what looking costs: one decision a position with the stop off
(a search then looks until its choice is settled, as one with the stop on does until it stops), the
thread's CPU time inside every look against the whole search's, in the same process, so a loaded
machine slows both alike. One line per game: ``<game> <n>p: <looks> looks a search, <µs> us a look,
<share>% of the search's CPU time (<iterations> iterations a search)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ismcts_speed import positions

from meeple import game_names, load_game
from meeple.bots import hard_bot, make_bot
from meeple.bots import ismcts as search_module

GAMES = ("citadels", "burgundy", "caylus", "palais_royal")


def probe(name: str, players: int, count: int, stop_run: bool) -> None:
    """Print one line of figures (module docstring) for ``count`` positions of ``name`` at ``players``."""
    found = positions(name, players, count)
    hard_bot(1, time_limit=0.05).choose(found[0].clone())  # imports and warms up the game's modules
    settled = agreed = stopped_same = stopped_early = comparable = 0
    saved_all = saved_settled = after_share = needed = needed_late = 0.0
    for index, state in enumerate(found):
        seed = f"settled/{index}"
        bot = hard_bot(seed, budget_clock="cpu", stop_when_settled=False)
        search = bot.search_for(name)
        budget = float(search.time_limit or 0.0)
        looks: list[tuple[int, float]] = []
        bound_of = search._iterations_left  # the probe records every look's bound as the search takes it

        def recorded(done: int, bound_of: Any = bound_of, looks: list[tuple[int, float]] = looks) -> float:
            bound = bound_of(done)
            looks.append((done, bound))
            return float(bound)

        search._iterations_left = recorded  # type: ignore[method-assign]
        statistics = search.search(state.clone())
        choice = search.decide(statistics)
        per_look = len(statistics.candidates or ()) or 1  # a paired root's bounds count worlds
        total = statistics.iterations // per_look
        point = statistics.settled
        for done, bound in looks:
            slack = search_module.SETTLED_SLACK
            if bound != float("inf") and bound > slack:
                estimate = (bound - slack) / search_module.SETTLED_SAFETY + 1.0
                needed = max(needed, (total - done) / estimate)
                if bound < done:  # a lead can exceed the bound only here (it is at most the iterations done)
                    needed_late = max(needed_late, (total - done) / estimate)
        if point is not None:
            settled += 1
            saved = max(0.0, 1.0 - point.spent / budget)
            saved_all += saved
            saved_settled += saved
            after_share = max(after_share, (total - point.iterations // per_look) / point.bound)
            if str(point.leader) == str(choice):
                agreed += 1
            else:
                print(f"  {name} {players}p position {index}: settled on {point.leader} after {point.iterations} "
                      f"iterations, the full budget chose {choice} after {total}", flush=True)
        if stop_run:
            stopping = hard_bot(seed, budget_clock="cpu")
            early_choice = stopping.choose(state.clone())
            if not stopping.last_stopped_early:
                continue  # a second full budget: another count of iterations, not a test of the stop
            stopped_early += 1
            if stopping.last_iterations > total * per_look:
                comparable -= 1  # the probe's budget ended sooner: it is no continuation of this tree
            elif str(early_choice) == str(choice):
                stopped_same += 1
            else:
                print(f"  {name} {players}p position {index}: the stopping search chose {early_choice} after "
                      f"{stopping.last_iterations} iterations (stopped early: {stopping.last_stopped_early}), "
                      f"the full budget {choice}", flush=True)
    decisions = len(found)
    stopped = ""
    if stop_run:
        stopped = (f", stopped early {stopped_early}/{decisions}, = full choice {stopped_same}/"
                   f"{stopped_early + comparable}")
    print(f"{name} {players}p: settled {settled}/{decisions}, saved {100 * saved_all / decisions:.1f}% a decision "
          f"({100 * saved_settled / max(1, settled):.1f}% where settled), probe leader = full choice "
          f"{agreed}/{settled}{stopped}, after settled <= {after_share:.2f} of the bound, "
          f"rest ran <= {needed:.2f} x the rate ({needed_late:.2f} where a stop was possible)", flush=True)


def look_cost(name: str, players: int, count: int) -> None:
    """Print what the looks for a settled choice cost in ``count`` searches of ``name`` (module docstring)."""
    found = positions(name, players, count)
    hard_bot(1, time_limit=0.05).choose(found[0].clone())
    look_cpu = search_cpu = 0.0
    looks = iterations = 0
    for index, state in enumerate(found):
        search = hard_bot(f"settled/{index}", budget_clock="cpu", stop_when_settled=False).search_for(name)
        spent = [0.0, 0.0]  # CPU seconds inside the looks, looks
        paired = search.paired_root is not None
        look = search._settled_paired if paired else search._settled_tree

        def timed(*args: Any, look: Any = look, spent: list[float] = spent) -> Any:
            started = time.thread_time()
            found_settled = look(*args)
            spent[0] += time.thread_time() - started
            spent[1] += 1
            return found_settled

        setattr(search, "_settled_paired" if paired else "_settled_tree", timed)
        started = time.thread_time()
        search.search(state.clone())
        search_cpu += time.thread_time() - started
        look_cpu += spent[0]
        looks += int(spent[1])
        iterations += search.last_iterations
    print(f"{name} {players}p: {looks / len(found):.0f} looks a search, {1e6 * look_cpu / max(1, looks):.1f} us a "
          f"look, {100 * look_cpu / search_cpu:.2f}% of the search's CPU time ({iterations / len(found):.0f} "
          f"iterations a search)", flush=True)


def whole_games(name: str, players: int, games: int) -> None:
    """Hard against ``players - 1`` medium bots, the budget in CPU time, ``games`` games from seed 1 with
    seats rotated; one line: hard's decisions, how many it searched and stopped early, the CPU seconds
    its searches took a game and the share of their budgets the stops left unspent."""
    searched = decisions = 0
    spent = 0.0
    full_searches: list[float] = []  # the CPU time of each search that ran its whole budget
    stopped_searches: list[float] = []
    for index in range(games):
        hard = hard_bot(f"{index + 1}:0", budget_clock="cpu")
        bots: list[Any] = [make_bot("medium", f"{index + 1}:{seat}") for seat in range(players)]
        bots[index % players] = hard
        state = load_game(name).new_game(players=players, seed=index + 1)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            bot = bots[seat]
            if bot is hard:
                decisions += 1
                many = len(state.legal_actions()) > 1
                started = time.thread_time()
                action = bot.choose(state)
                if many:
                    searched += 1
                    took = time.thread_time() - started
                    spent += took
                    (stopped_searches if hard.last_stopped_early else full_searches).append(took)
            else:
                action = bot.choose(state)
            state.apply(action)
    budget = float(hard_bot(1).search_for(name).time_limit or 0.0)
    # what a stopped search would have taken in full: what the others took, or 97% of the budget
    full = sum(full_searches) / len(full_searches) if full_searches else 0.97 * budget
    stopped = len(stopped_searches)
    unstopped = sum(full_searches) + full * stopped
    print(f"{name} {players}p whole games: {games} games, hard decided {decisions} times, searched {searched}, "
          f"stopped early {stopped}; its searches took {spent / games:.1f} CPU s a game "
          f"(a whole budget {full:.3f} s, a stopped one {sum(stopped_searches) / max(1, stopped):.3f} s), "
          f"{100 * (1 - spent / unstopped):.1f}% less than without stops", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games to measure (default: all four)")
    parser.add_argument("--players", type=int, action="append", help="player counts (default: 2 and 4)")
    parser.add_argument("--positions", type=int, default=12, help="mid-game positions per game and count")
    parser.add_argument("--no-stop-run", action="store_true", help="skip the second decision with the stop on")
    parser.add_argument("--look-cost", action="store_true", help="measure what the looks cost instead")
    parser.add_argument("--whole-games", type=int, default=0, metavar="N",
                        help="play this many whole games of hard against medium bots instead")
    args = parser.parse_args()
    available = set(game_names())
    for name in args.games or [g for g in GAMES if g in available]:
        for players in args.players or [2, 4]:
            if args.whole_games:
                whole_games(name, players, args.whole_games)
            elif args.look_cost:
                look_cost(name, players, args.positions)
            else:
                probe(name, players, args.positions, not args.no_stop_run)


if __name__ == "__main__":
    main()
