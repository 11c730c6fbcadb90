"""A rule-of-thumb Palais Royal player: every legal action gets a cheap score, the best one is played.

The bot reads only what its seat may know, through its seat's lens (``state.lens(seat)``, a
``PalaisLens``): the rooms, pools, gold, the garden and its servants, everyone's privileges, the
turn's public counters, the nobles' numbers and the limits under the options, its *own* hand, and the
engine's rules for a recruit's cost and the garden edges' points. Other hands, the deck and another
seat's draw are out of its reach: it imports no engine module but the observation, the interned
actions and the printed data. It never
searches: the most expensive decision (a Stairway move) scores at most a few dozen hypothetical
servant relocations with a closed-form evaluation, and a step-4 card is tried on one clone.

Rules of thumb it follows:

* **Recruit every turn it can, the best noble first.** A noble is worth its VP, plus its privilege
  times the turns still to come (none in the final round), plus what its garden servant does to the
  four edge majorities (when it stands on an edge), minus the gold (about half a VP a coin, nothing in
  the final round) and the seal and Office servants it sends back to the pool.
* **Plan the Stairway for this turn's recruit.** Before each move it looks for the one servant
  relocation (along a shortest path through the palace, within the points left) that most improves
  ``this turn's best recruit + the long-term worth of the servants' rooms``, and takes its first step.
  This turn's best recruit is estimated greedily from the gold after the Mint (and a ``PURSE`` in
  hand), the King's and Pompadour's seals (with the bonus servant of their majority), the Office
  slots and the seals, slots and discounts of its nobles and cards.
* **Long-term worth of a room** falls with each extra servant there: a few on the Stairway (movement)
  and the Parade ground (servants out of the pool, only while the pool holds some), the Mint (gold),
  the King and Pompadour (seals), one or two in the Office and at the Back door, little in the
  Cardinal's room, nothing at the Gate; holding a room's majority adds its bonus.
* **Never empty the Stairway or the Parade ground** before the final round: their first servant is
  worth far more than any recruit, because a seat with none there can never move or bring a servant
  in again (random players stall that way; the bot's early drafts did too).
* **Always bring servants in** at the Parade ground, take the Mint's gold and the King's and
  Pompadour's bonus servant (from the pool, else from the least useful room).
* **Cards:** a ``FAVOUR`` is played at once (2 VP instead of 1 in hand); ``PURSE``, the letters,
  ``RECOMMEND`` and ``PATRON`` only when they make this turn's recruit better by more than the VP the
  card would score in hand; ``PASSAGE`` and ``REINF`` while the game goes on; ``TIE`` is kept
  (played only once the hand is over the scoring cap). At the Back door it draws every time and
  keeps the most useful cards (every card in hand is a VP, up to the cap).
* **Setup:** the five servants go where the same room values say (the Mint, the Office and the two
  seal rooms first).

Ties are broken by a tiny noise from the bot's own seeded generator, so a seed gives the same play.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.palais_royal import actions as A
from meeple.games.palais_royal.actions import PalaisAction
from meeple.games.palais_royal.data import (
    BAC,
    BACKDOOR,
    CAR,
    CARDINAL,
    DISCOUNT,
    FAVOUR,
    GAT,
    KIN,
    KLETTER,
    KSEAL,
    MIN,
    OFF,
    P_GATE,
    P_GOLD,
    P_MOVE,
    P_RECRUIT,
    PAR,
    PASSAGE,
    PATRON,
    POM,
    PURSE,
    RECOMMEND,
    REINF,
    STA,
    SUPPLY,
    TIE,
    VLETTER,
    VSEAL,
)
from meeple.games.palais_royal.observation import PalaisLens

#: Worth (VP per turn to come) of one unit of each privilege, in PRIVILEGE_CODES order.
PRIVILEGE_RATE = {P_GATE: 0.35, P_MOVE: 0.45, P_GOLD: 0.5, KSEAL: 0.55, VSEAL: 0.55, CARDINAL: 0.15,
                  DISCOUNT: 0.5, BACKDOOR: 0.3, P_RECRUIT: 0.6}
#: Long-term worth of the 1st, 2nd, ... servant in a room (the last value repeats).
ROOM_CURVE: dict[int, tuple[float, ...]] = {
    PAR: (5.0, 2.0, 1.2, 0.6, 0.3, 0.15),
    STA: (6.0, 2.5, 1.5, 1.0, 0.7, 0.4, 0.2, 0.05),
    MIN: (0.85, 0.8, 0.7, 0.5, 0.3, 0.15),
    KIN: (0.7, 0.6, 0.45, 0.25, 0.1),
    POM: (0.7, 0.6, 0.45, 0.25, 0.1),
    OFF: (0.7, 0.35, 0.1, 0.02),
    BAC: (0.45, 0.25, 0.05),
    CAR: (0.2, 0.1, 0.02),
    GAT: (0.0,),
}
#: Worth of holding a room's majority (its bonus), for the rooms whose bonus matters.
MAJORITY_WORTH = {PAR: 0.5, STA: 0.8, MIN: 0.8, KIN: 1.0, POM: 1.0}
#: Worth of keeping a drawn card (besides the VP it scores in hand).
CARD_USE = {REINF: 0.4, PASSAGE: 0.7, PURSE: 1.2, KLETTER: 0.8, VLETTER: 0.8, RECOMMEND: 0.9,
            PATRON: 0.9, TIE: 0.2, FAVOUR: 1.5}
STEP4_CARDS = (KLETTER, VLETTER, RECOMMEND, PATRON)
#: The least gain (see ``_relocations``) a Stairway move must bring, else the seat ends its moves.
MOVE_THRESHOLD = 0.02
#: A worth above any other, for what a rule of thumb always plays first.
FIRST = 1000.0
#: Below any worth: the actions no rule of thumb values, ranked last.
UNVALUED = -1e9

_CURVES = tuple(
    tuple(sum(ROOM_CURVE[r][min(i, len(ROOM_CURVE[r]) - 1)] for i in range(n)) for n in range(40))
    for r in range(9)
)


def _distances(adjacent: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    out = []
    for start in range(9):
        dist = [99] * 9
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for r in frontier:
                for t in adjacent[r]:
                    if dist[t] == 99:
                        dist[t] = dist[r] + 1
                        nxt.append(t)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


class _Facts:
    """The lens's facts that the evaluations read hundreds of times a decision, read once."""

    __slots__ = ("active", "gold", "hand", "king_done", "me", "mint_done", "patron", "players", "pomp_done", "pool",
                 "rooms", "step", "tie", "v_slots", "v_turquoise", "v_violet")

    def __init__(self, s: PalaisLens) -> None:
        self.me = me = s.seat
        self.players = s.players
        self.rooms = s.rooms
        self.active = s.active_privileges
        self.tie = s.tie_card  # played by the seat on turn, which is ours
        self.hand = s.hand
        self.gold = s.gold[me]
        self.pool = s.pool[me]
        self.step = s.step
        self.mint_done = s.mint_done
        self.king_done = s.king_done
        self.pomp_done = s.pomp_done
        self.v_turquoise = s.virtual_turquoise
        self.v_violet = s.virtual_violet
        self.v_slots = s.virtual_slots
        self.patron = s.patron_discount


class HeuristicBot:
    """Scores each legal action with the rules of thumb of the module docstring and plays the best."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)
        self._dist_cache: tuple[Any, tuple[tuple[int, ...], ...]] | None = None

    # --- the decision ---------------------------------------------------------------------------

    def choose(self, state: GameState[Any]) -> Any:
        legal = cast("Sequence[PalaisAction]", state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player
        assert seat is not None
        s = cast(PalaisLens, state.lens(seat))
        self.noise = self.rng.random() * 1e-6
        self._facts: _Facts | None = None
        if s.phase == "setup":
            return self._setup(s, legal)
        if s.edge_square >= 0:
            return self._edge(s, legal)
        hand = s.hand
        if hand[FAVOUR] and A.PLAY_CARD[FAVOUR] in legal:
            return A.PLAY_CARD[FAVOUR]
        step = s.step
        if step == 1:
            return self._gate(s, legal)
        if step == 2:
            return self._stairs(s, legal)
        if step == 3:
            return self._step3(s, legal)
        if step == 4:
            return self._recruit(state, s, legal)
        return self._backdoor(s, legal)

    def ranked(self, state: GameState[Any]) -> list[Any]:
        """Every legal action, best first by the valuations ``choose`` plays by (a search's candidates).

        Draws nothing from the generator, so ranking a position leaves the bot's later choices as they
        were; the order may differ from ``choose`` in a tie or where ``choose`` follows a fixed rule
        (a search puts ``choose``'s own pick first). Actions no rule values come last, in legal order."""
        legal = cast("Sequence[PalaisAction]", state.legal_actions())
        if len(legal) <= 1:
            return list(legal)
        seat = state.current_player
        assert seat is not None
        s = cast(PalaisLens, state.lens(seat))
        self._facts = None
        worth = self._worths(state, s, legal)
        order = sorted(range(len(legal)), key=lambda index: (-worth.get(legal[index], UNVALUED), index))
        return [legal[index] for index in order]

    def _worths(self, state: GameState[Any], s: PalaisLens, legal: Sequence[PalaisAction]) -> dict[PalaisAction, float]:
        """A comparable worth for the legal actions of this step that its rule of thumb values."""
        me = s.seat
        worth: dict[PalaisAction, float] = {A.END_ACTION: 0.0}
        if s.phase == "setup":
            counts = s.rooms[me]
            for action in legal:
                trial = list(counts)
                trial[action.a] += 1
                worth[action] = self._rooms_worth(s, me, trial, 10) + (0.25 if action.a in (KIN, POM, OFF) else 0.0)
            return worth
        if s.edge_square >= 0:
            worth[A.EDGE_FROM_POOL] = FIRST
            for action in legal:
                if action.kind == A.EDGE_FROM:
                    worth[action] = -self._source_loss(s, me, action.a)
            return worth
        future = self._rounds_left(s)
        hand = s.hand
        if hand[FAVOUR]:
            worth[A.PLAY_CARD[FAVOUR]] = FIRST
        step = s.step
        if step == 1:
            worth[A.GATE_POOL] = 1.0
            reinforce = future > 1 and s.pool[me] >= s.gate_allowance + 2
            worth[A.PLAY_CARD[REINF]] = FIRST if reinforce else -0.5
        elif step == 2:
            worth[A.PLAY_CARD[PASSAGE]] = FIRST if future > 0 else -1.0
            if s.movement_points > 0:
                worth[A.END_ACTION] = MOVE_THRESHOLD
                dist = self._distances_for(s)
                adjacent = s.adjacent
                for gain, a, b, d in self._relocations(s, me, future):
                    for step_to in adjacent[a]:  # every first step of a shortest path earns the gain
                        if dist[step_to][b] == d - 1:
                            move = A.MOVE_BETWEEN[(a, step_to)]
                            if gain > worth.get(move, UNVALUED):
                                worth[move] = gain
        elif step == 3:
            for action in (A.MINT_ACTION, A.KING_POOL, A.POMP_POOL):
                worth[action] = FIRST
            for action in legal:
                if (action.kind == A.KING_FROM and action.a != KIN) or (action.kind == A.POMP_FROM and action.a != POM):
                    worth[action] = FIRST / 2 - self._source_loss(s, me, action.a)
            if hand[PURSE]:
                worth[A.PLAY_CARD[PURSE]] = FIRST if self._purse_pays(s, me, future) else -0.5
        elif step == 4:
            for value, action in self._recruit_worths(s, legal, me, future):
                worth[action] = value
            keep_worth = 1.0 if sum(hand) <= s.hand_cap else 0.0
            for card in STEP4_CARDS:
                play = A.PLAY_CARD[card]
                if hand[card] and play in legal:
                    played = state.clone()
                    played.apply(play)
                    after = cast(PalaisLens, played.lens(me))
                    best_after = max((value for value, _ in self._recruit_worths(
                        after, cast("Sequence[PalaisAction]", played.legal_actions()), me, future)), default=0.0)
                    worth[play] = best_after - keep_worth - 0.2
        else:
            worth[A.DRAW_ACTION] = FIRST
            hand_size = sum(hand)
            for action in legal:
                if action.kind == A.KEEP:
                    worth[action] = self._keep_worth(s, action.a, future, hand_size)
            worth[A.PLAY_CARD[TIE]] = 0.01 if hand_size > s.hand_cap else -0.5
        return worth

    # --- estimates ------------------------------------------------------------------------------

    def _rounds_left(self, s: PalaisLens) -> int:
        """Turns this seat still plays after the current one (0 in the final round)."""
        if s.final_round:
            return 0
        rate = 0.55 * s.players
        left = max(1, int((s.garden_nobles_left - s.end_trigger_nobles) / rate + 0.999))
        if s.round_limit > 0:
            left = min(left, max(0, s.round_limit - s.round))
        return left

    def _noble_worth(self, s: PalaisLens, tile: int, future: int) -> float:
        value = float(s.noble_vp[tile])
        privilege = s.noble_privilege[tile]
        if privilege >= 0 and future > 0:
            param = s.noble_param[tile]
            if privilege == SUPPLY:
                value += 0.35 * min(param, s.general_supply[s.seat]) if future > 1 else 0.0
            else:
                value += PRIVILEGE_RATE[privilege] * param * min(future, 7) * 1.0
        return value

    def _edge_worth(self, s: PalaisLens, square: int, me: int, before: list[int]) -> float:
        """What our servant on ``square`` does to the edges' points; ``before``: their points now."""
        if not s.is_edge[square]:
            return 0.0
        after_servants = list(s.garden_servants)
        after_servants[square] = me
        after = s.edge_points(after_servants)
        worth = float(after[me] - before[me])
        others = [before[q] - after[q] for q in range(s.players) if q != me]
        if others:
            worth += 0.5 * max(others)
        return worth + 0.4

    def _candidates(self, s: PalaisLens, me: int, future: int) -> list[tuple[float, int, int, int, int]]:
        """(net worth before gold, turquoise, violet, cost, square) of every noble in the garden."""
        out = []
        seal_cost = 0.3 if future > 0 else 0.0
        turquoise, violet = s.noble_turquoise, s.noble_violet
        edges_now = s.edge_points(s.garden_servants)
        for q, tile in enumerate(s.garden):
            if tile < 0:
                continue
            t = turquoise[tile]
            v = violet[tile]
            worth = self._noble_worth(s, tile, future) + self._edge_worth(s, q, me, edges_now)
            worth -= seal_cost * (t + v + 1)
            out.append((worth, t, v, s.recruit_cost(q), q))
        out.sort(reverse=True)
        return out

    def _facts_of(self, s: PalaisLens) -> _Facts:
        """This decision's ``_Facts`` (``choose`` forgets the last decision's)."""
        facts = self._facts
        if facts is None:
            facts = self._facts = _Facts(s)
        return facts

    def _majority(self, s: PalaisLens, me: int, counts: Sequence[int], room: int) -> bool:
        mine = counts[room]
        if mine == 0:
            return False
        f = self._facts or self._facts_of(s)
        tied = False
        rooms = f.rooms
        players = f.players
        for q in range(players):
            if q != me:
                theirs = rooms[q][room]
                if theirs > mine:
                    return False
                if theirs == mine:
                    tied = True
        if not tied:
            return True
        if f.tie and f.me == me:
            return True
        active = f.active
        strength = counts[CAR] + active[me][CARDINAL]
        for q in range(players):
            if q != me and rooms[q][room] == mine and rooms[q][CAR] + active[q][CARDINAL] >= strength:
                return False
        return True

    def _recruit_value(self, s: PalaisLens, me: int, counts: Sequence[int],
                       cands: Sequence[tuple[float, int, int, int, int]], gold_worth: float,
                       extra_gold: int = 0) -> float:
        """Greedy estimate of this turn's best recruits from the servants ``counts`` (before step 3)."""
        f = self._facts_of(s)
        active = f.active[me]
        hand = f.hand
        gold = f.gold + extra_gold
        before3 = f.step <= 3
        if before3 and not f.mint_done:
            gold += counts[MIN] + self._majority(s, me, counts, MIN) + active[P_GOLD]
        if f.step <= 3:
            gold += 3 * hand[PURSE]
        turquoise = counts[KIN] + hand[KLETTER]
        violet = counts[POM] + hand[VLETTER]
        slots = counts[OFF] + hand[RECOMMEND]
        if before3:
            if not f.king_done and self._majority(s, me, counts, KIN):
                turquoise += 1
            if not f.pomp_done and self._majority(s, me, counts, POM):
                violet += 1
            turquoise += active[KSEAL]
            violet += active[VSEAL]
            slots += active[P_RECRUIT]
        else:
            turquoise += f.v_turquoise
            violet += f.v_violet
            slots += f.v_slots
        patron = 3 * hand[PATRON] + (f.patron if f.step == 4 else 0)
        discount = 0
        total = 0.0
        for worth, t, v, cost, _q in cands:
            if slots <= 0:
                break
            if t > turquoise or v > violet:
                continue
            price = max(0, cost - discount)
            if price > gold + patron:
                continue
            paid = max(0, price - patron)
            net = worth - gold_worth * paid
            if net <= 0:
                continue
            if price > 0:
                patron = 0
            gold -= paid
            turquoise -= t
            violet -= v
            slots -= 1
            total += net
        return total

    def _rooms_worth(self, s: PalaisLens, me: int, counts: Sequence[int], future: int) -> float:
        if future <= 0:
            return 0.0
        worth = 0.0
        for r in range(9):
            c = counts[r]
            worth += _CURVES[r][c if c < 40 else 39]
        pool = self._facts_of(s).pool
        if pool <= 0:  # the Parade ground brings nothing in while the pool is empty
            par = min(counts[PAR], 39)
            worth -= (_CURVES[PAR][par] - _CURVES[PAR][min(par, 1)]) * 0.6
        for room, bonus in MAJORITY_WORTH.items():
            if self._majority(s, me, counts, room):
                worth += bonus
        return worth * (0.5 if future == 1 else 1.0)

    def _gold_worth(self, future: int) -> float:
        return 0.45 if future > 0 else 0.01

    # --- steps ----------------------------------------------------------------------------------

    def _setup(self, s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        me = s.seat
        counts = s.rooms[me]
        future = 10
        best, best_value = legal[0], -1e9
        for action in legal:
            room = action.a
            trial = list(counts)
            trial[room] += 1
            value = self._rooms_worth(s, me, trial, future) + self.rng.random() * 0.05
            if room in (KIN, POM, OFF):
                value += 0.25  # this turn's first recruit
            if value > best_value:
                best, best_value = action, value
        return best

    def _edge(self, s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        if A.EDGE_FROM_POOL in legal:
            return A.EDGE_FROM_POOL
        me = s.seat
        return self._cheapest_source(s, me, [a for a in legal if a.kind == A.EDGE_FROM]) or legal[0]

    def _cheapest_source(self, s: PalaisLens, me: int, actions: Sequence[PalaisAction]) -> PalaisAction | None:
        """The action taking a servant out of the room where it is worth least."""
        best, best_loss = None, 1e9
        for action in actions:
            loss = self._source_loss(s, me, action.a)
            if loss < best_loss:
                best, best_loss = action, loss
        return best

    def _source_loss(self, s: PalaisLens, me: int, room: int) -> float:
        """What a servant taken out of ``room`` costs in the rooms' long-term worth."""
        counts = s.rooms[me]
        c = counts[room]
        loss = _CURVES[room][min(c, 39)] - _CURVES[room][min(c - 1, 39)]
        if room in MAJORITY_WORTH:
            trial = list(counts)
            trial[room] -= 1
            if self._majority(s, me, counts, room) and not self._majority(s, me, trial, room):
                loss += MAJORITY_WORTH[room]
        return loss

    def _gate(self, s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        me = s.seat
        future = self._rounds_left(s)
        pool = s.pool[me]
        hand = s.hand
        if hand[REINF] and future > 1 and pool >= s.gate_allowance + 2 and A.PLAY_CARD[REINF] in legal:
            return A.PLAY_CARD[REINF]
        if A.GATE_POOL in legal and (future > 0 or s.step == 1):
            return A.GATE_POOL
        return A.END_ACTION

    def _distances_for(self, s: PalaisLens) -> tuple[tuple[int, ...], ...]:
        cache = self._dist_cache
        adjacent = s.adjacent
        if cache is None or cache[0] is not adjacent:
            cache = (adjacent, _distances(adjacent))
            self._dist_cache = cache
        return cache[1]

    def _stairs(self, s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        me = s.seat
        future = self._rounds_left(s)
        hand = s.hand
        if hand[PASSAGE] and future > 0 and A.PLAY_CARD[PASSAGE] in legal:
            return A.PLAY_CARD[PASSAGE]
        if s.movement_points <= 0:
            return A.END_ACTION
        dist = self._distances_for(s)
        adjacent = s.adjacent
        best_gain, best_move = MOVE_THRESHOLD, None
        random = self.rng.random
        for gain, a, b, d in self._relocations(s, me, future):
            gain += random() * 1e-6
            if gain > best_gain:
                best_gain = gain
                # The first step along a shortest path from a to b.
                step = next(t for t in adjacent[a] if dist[t][b] == d - 1)
                best_move = A.MOVE_BETWEEN[(a, step)]
        return best_move if best_move is not None and best_move in legal else A.END_ACTION

    def _relocations(self, s: PalaisLens, me: int, future: int) -> Iterator[tuple[float, int, int, int]]:
        """(gain, from, to, distance) of every servant relocation within this turn's movement points:
        what it adds to this turn's best recruit and the rooms' worth, over the square root of the steps."""
        points = s.movement_points
        dist = self._distances_for(s)
        gold_worth = self._gold_worth(future)
        cands = self._candidates(s, me, future)
        counts = list(s.rooms[me])

        def value(c: list[int]) -> float:
            return self._recruit_value(s, me, c, cands, gold_worth) + self._rooms_worth(s, me, c, future)

        base = value(counts)
        for a in range(9):
            if not counts[a]:
                continue
            counts[a] -= 1
            da = dist[a]
            for b in range(9):
                d = da[b]
                if b == a or d > points:
                    continue
                counts[b] += 1
                gain = (value(counts) - base) / (d ** 0.5)
                counts[b] -= 1
                yield gain, a, b, d
            counts[a] += 1

    def _step3(self, s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        me = s.seat
        future = self._rounds_left(s)
        if A.MINT_ACTION in legal:
            return A.MINT_ACTION
        if A.KING_POOL in legal:
            return A.KING_POOL
        if A.POMP_POOL in legal:
            return A.POMP_POOL
        hand = s.hand
        if hand[PURSE] and A.PLAY_CARD[PURSE] in legal and self._purse_pays(s, me, future):
            return A.PLAY_CARD[PURSE]
        for kind, room in ((A.KING_FROM, KIN), (A.POMP_FROM, POM)):
            options = [a for a in legal if a.kind == kind and a.a != room]
            if options:
                source = self._cheapest_source(s, me, options)
                if source is not None:
                    return source
        return A.END_ACTION

    def _purse_pays(self, s: PalaisLens, me: int, future: int) -> bool:
        """Whether playing the ``PURSE`` in hand makes this turn's recruits better by more than the VP it
        scores kept (or the hand is over the cap with turns to come)."""
        hand = s.hand
        gold_worth = self._gold_worth(future)
        cands = self._candidates(s, me, future)
        counts = s.rooms[me]
        # _recruit_value already counts the purse in hand: compare with it taken away.
        with_it = self._recruit_value(s, me, counts, cands, gold_worth)
        without = self._recruit_value(s, me, counts, cands, gold_worth, extra_gold=-3)
        keep_worth = 1.0 if sum(hand) <= s.hand_cap else 0.0
        return with_it - without > keep_worth or (future > 2 and sum(hand) > s.hand_cap)

    def _best_recruit(self, s: PalaisLens, legal: Sequence[PalaisAction], me: int,
                      future: int) -> tuple[float, PalaisAction | None]:
        best_value: float = 0.0
        best: PalaisAction | None = None
        random = self.rng.random
        for value, action in self._recruit_worths(s, legal, me, future):
            value += random() * 1e-6
            if value > best_value:
                best_value, best = value, action
        return best_value, best

    def _recruit_worths(self, s: PalaisLens, legal: Sequence[PalaisAction], me: int,
                        future: int) -> Iterator[tuple[float, PalaisAction]]:
        """(worth, action) of every legal recruit: the noble and its garden square, less the gold and
        the seals and Office slot it uses up."""
        gold_worth = self._gold_worth(future)
        seal_cost = 0.3 if future > 0 else 0.0
        edges_now: list[int] | None = None
        for action in legal:
            if action.kind != A.RECRUIT_KIND:
                continue
            if edges_now is None:
                edges_now = s.edge_points(s.garden_servants)
            q = action.a
            tile = s.garden[q]
            t, v = s.noble_turquoise[tile], s.noble_violet[tile]
            used_t = max(0, t - s.virtual_turquoise)
            used_v = max(0, v - s.virtual_violet)
            slot = 0 if s.virtual_slots else 1
            yield (self._noble_worth(s, tile, future) + self._edge_worth(s, q, me, edges_now)
                   - gold_worth * s.recruit_cost(q) - seal_cost * (used_t + used_v + slot)), action

    def _recruit(self, state: GameState[Any], s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        me = s.seat
        future = self._rounds_left(s)
        hand = s.hand
        value, best = self._best_recruit(s, legal, me, future)
        keep_worth = 1.0 if sum(hand) <= s.hand_cap else 0.0
        for card in STEP4_CARDS:
            play = A.PLAY_CARD[card]
            if not hand[card] or play not in legal:
                continue
            trial = state.clone()
            trial.apply(play)
            trial_lens = cast(PalaisLens, trial.lens(me))
            trial_value, _ = self._best_recruit(trial_lens, cast("Sequence[PalaisAction]", trial.legal_actions()),
                                                me, future)
            if trial_value > value + keep_worth + 0.2:
                return play
        if best is not None:
            return best
        return A.END_ACTION

    def _backdoor(self, s: PalaisLens, legal: Sequence[PalaisAction]) -> PalaisAction:
        if A.DRAW_ACTION in legal:
            return A.DRAW_ACTION
        future = self._rounds_left(s)
        hand_size = sum(s.hand)
        best, best_value = None, 0.0
        for action in legal:
            if action.kind != A.KEEP:
                continue
            value = self._keep_worth(s, action.a, future, hand_size)
            if value > best_value:
                best, best_value = action, value
        if best is not None:
            return best
        if s.hand[TIE] and A.PLAY_CARD[TIE] in legal and hand_size > s.hand_cap:
            return A.PLAY_CARD[TIE]
        return A.END_ACTION

    def _keep_worth(self, s: PalaisLens, card: int, future: int, hand_size: int) -> float:
        """What keeping a drawn ``card`` at the Back door is worth (at most 0: not worth keeping)."""
        value = 1.0 if hand_size < s.hand_cap else 0.0
        if card == FAVOUR:
            value += 1.0
        elif future > 0:
            value += CARD_USE[card] * 0.5
        # Keeping costs a Back door servant (back to the pool) unless a BACKDOOR noble pays.
        if not s.backdoor_virtual_left and future > 0:
            value -= 0.3
        return value


__all__ = ["HeuristicBot"]
