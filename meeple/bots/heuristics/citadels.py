"""A rule-of-thumb Citadels player: every decision scores the legal actions with a cheap evaluation.

The bot reads only what its seat may know, through its seat's lens (``state.lens(seat)``, a
``CitadelsLens``): every seat's gold, hand *count*, city and score, the face-up discards, the
revealed / murdered characters, the turn's public counters, the costs and points under the options,
its *own* hand, characters and marked cards, and its memory of this round's draft (the pools it was
offered, the leftover it saw go face down, the order of the picks). Other hands, the deck order and
unrevealed characters are out of its reach: it imports no engine module but the observation, the
interned actions and the printed data. It never searches: a decision costs a few tens of µs.

Rules of thumb it follows:

* **Draft inference.** From the pools it was offered this round it works out who may hold each
  character: a character missing from its pool went to an earlier picker (or face down), one it passed
  on went to a later picker (or face down); revealed characters and ranks that got no answer are
  certain. Each opponent's chance of holding a character is spread evenly over the candidates.
* **Character choice** by this round's expected gain in gold-equivalents (weights tuned in
  self-play against earlier versions of this bot): the Architect first (two cards, worth more with a
  thin hand, plus the extra districts it can afford to build and the finish it may allow), then the
  taxers by the districts of their colour in the city (and one of that colour it can build now): King
  (+ a little for the crown), Bishop (+ protection when the city is big), Merchant (+1), Warlord (+ a
  destroy when a rival is two districts from finishing); the Magician when its hand is poor and a
  rival's is big; the Thief by the gold it can expect to steal (mostly the richest rival's); the
  Assassin little, a bit more when a rival threatens to finish. Rich bots prefer ranks the Thief cannot
  rob; a character the leading rival would want gets a small denial bonus. In 2 players the discard
  removes the character the opponent would value most.
* **Assassin / Thief targets** by likely holders: the expected damage (the target's gain, a lost build,
  weighted by how dangerous the holder is) or the expected loot (the holder's gold).
* **Gather:** take gold while the hand holds at least two buildable districts (or one it cannot yet
  afford); draw when the hand is empty or poor and the gold is there. **Keep** the best card.
* **Build** every turn, the most valuable affordable district: its points, a missing colour toward the
  five-type bonus, the uniques' worth (University / Dragon Gate 8 points, School of Magic, Library,
  Observatory, Keep…), its type matching the character's tax. Never a name already in the city.
  The Architect builds up to three.
  It does not complete its city (which ends the game) when the public scores say it would finish
  behind.
* **Warlord:** after building, destroy in the city of a rival who is ahead (a free 1-cost district in
  anyone's): the district's points weighted by that rival's lead, much more when the city is one
  district from complete, against the price (and the gold it needs for its own next build).
* **Magician:** swap with the biggest hand when it clearly beats its own; otherwise redraw useless
  cards (names already built, duplicates). **Laboratory** trades useless cards for gold, the
  **Smithy** buys cards when the hand is thin and gold is spare, the **Graveyard** takes back a
  worthwhile district. Taxes are always collected.

Ties are broken by a tiny noise from the bot's own seeded generator, so a seed gives the same play.
"""

from __future__ import annotations

from typing import Any, cast

from meeple.bots.heuristics import noisy_best
from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.citadels.actions import (
    DRAW,
    END,
    GOLD,
    GRAVE_PASS,
    GRAVE_TAKE,
    K_BUILD,
    K_DESTROY,
    K_KILL,
    K_LAB,
    K_REDRAW,
    K_ROB,
    K_SMITHY,
    K_SWAP,
    REDRAW_DONE,
    TAX,
    Act,
)
from meeple.games.citadels.data import (
    ARCHITECT,
    ASSASSIN,
    BISHOP,
    CHARACTER_TAX,
    DISTRICT_TYPE,
    DRAGON_GATE,
    GRAVEYARD,
    GREAT_WALL,
    HAUNTED_QUARTER,
    IMPERIAL_TREASURY,
    KEEP,
    KING,
    LABORATORY,
    LIBRARY,
    MAGICIAN,
    MAP_ROOM,
    MERCHANT,
    MILITARY,
    NOBLE,
    OBSERVATORY,
    RELIGIOUS,
    SCHOOL_OF_MAGIC,
    SMITHY,
    THIEF,
    TRADE,
    UNIVERSITY,
    WARLORD,
)
from meeple.games.citadels.observation import CitadelsLens

#: Extra worth (in points) of a unique district's ability, on top of its printed points.
UNIQUE_BONUS: dict[int, float] = {
    HAUNTED_QUARTER: 1.0, KEEP: 0.5, LABORATORY: 0.5, SMITHY: 0.5, OBSERVATORY: 1.0, GRAVEYARD: 0.0,
    SCHOOL_OF_MAGIC: 1.0, LIBRARY: 1.0, GREAT_WALL: 0.3, UNIVERSITY: 0.0, DRAGON_GATE: 0.0, MAP_ROOM: 0.8,
    IMPERIAL_TREASURY: 0.8,
}
TAX_TYPE_OF: dict[int, int] = {KING: NOBLE, BISHOP: RELIGIOUS, MERCHANT: TRADE, WARLORD: MILITARY}


class _Info:
    """The public facts of one decision, read once from the seat's lens; the threats only when asked."""

    __slots__ = ("_hand_counts", "_lens", "_my_types", "_threat", "cap", "cities", "cost", "gold", "hand", "me", "n",
                 "points")

    def __init__(self, lens: CitadelsLens) -> None:
        self._lens = lens
        self.me = lens.seat
        self.n = lens.players
        self.cap = lens.complete_at
        self.cost = lens.district_costs
        self.points = lens.district_points  # under the options: a 5-gold Observatory scores 5
        self.gold = lens.gold
        self.cities = lens.cities
        self.hand = lens.hand  # our own hand only
        self._hand_counts: tuple[int, ...] | None = None
        self._my_types = -1
        self._threat: list[float] | None = None

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """[seat] cards in hand (public counts)."""
        counts = self._hand_counts
        if counts is None:
            counts = self._hand_counts = self._lens.hand_counts
        return counts

    @property
    def my_types(self) -> int:
        """The district types in our city, as bits."""
        types = self._my_types
        if types < 0:
            types = self._my_types = _types(self.cities[self.me])
        return types

    @property
    def threat(self) -> list[float]:
        """How dangerous each seat is: city points, progress toward completion, gold and cards in reserve."""
        threat = self._threat
        if threat is None:
            threat = self._threat = []
            points, gold, hand_counts, cap = self.points, self.gold, self.hand_counts, self.cap
            for s, city in enumerate(self.cities):
                size = len(city)
                t = sum([points[d] for d in city]) + 1.5 * size + 0.3 * gold[s] + 0.3 * hand_counts[s]
                if size >= cap - 1:
                    t += 6.0
                elif size >= cap - 2:
                    t += 2.5
                threat.append(t)
        return threat

    def near_completion(self, seat: int) -> bool:
        """Whether a seat other than ``seat`` is within two districts of completing its city."""
        cities, least = self.cities, self.cap - 2
        return any(s != seat and len(cities[s]) >= least for s in range(self.n))

    def leader(self) -> int:
        """The most dangerous rival."""
        threat = self.threat
        best, who = -1e9, -1
        for s in range(self.n):
            if s != self.me and threat[s] > best:
                best, who = threat[s], s
        return who

    def danger(self, s: int) -> float:
        """A weight ≥ 0.3 for hurting seat ``s``: bigger for rivals ahead of us."""
        threat = self.threat
        rel = threat[s] - threat[self.me]
        return max(0.3, 1.0 + rel / 8.0)


def _types(city: list[int]) -> int:
    mask = 0
    for d in city:
        mask |= 1 << DISTRICT_TYPE[d]
    return mask


class HeuristicBot:
    """Scores each legal action with the rules of thumb in the module docstring and plays the best."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)

    # --- entry point ---------------------------------------------------------------------------

    def choose(self, state: GameState[Any]) -> Any:
        legal = cast("tuple[Act, ...]", state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        assert me is not None
        lens = cast(CitadelsLens, state.lens(me))
        info = _Info(lens)
        phase = lens.phase
        if phase == "pick":
            return self._pick(lens, info, legal)
        if phase == "discard":
            return self._discard(lens, info, legal)
        if phase == "keep":
            return self._best(legal, lambda a: self._card_value(info, a.a, lens.character, keep=True,
                                                                drawn=lens.drawn))
        if phase == "redraw":
            useless = self._useless(info)
            marked = list(lens.marked or ())
            for a in legal:
                if a.kind == K_REDRAW and a.a in useless and useless.count(a.a) > marked.count(a.a):
                    return a
            return REDRAW_DONE
        if phase == "graveyard":
            card = lens.graveyard_card
            if card not in info.hand and not (lens.city_masks[me] >> card) & 1 and info.points[card] >= 2 \
                    and info.gold[me] >= 2:
                return GRAVE_TAKE
            return GRAVE_PASS
        if phase == "turn":
            return self._turn(lens, info, legal)
        return legal[0]

    def _best(self, legal: tuple[Act, ...], score: Any) -> Act:
        return noisy_best(legal, [score(a) for a in legal], self.rng)

    # --- cards ---------------------------------------------------------------------------------

    def _useless(self, info: _Info) -> list[int]:
        """Cards of our hand that can never be built as they stand (name built, or a second copy)."""
        city_mask = 0
        for d in info.cities[info.me]:
            city_mask |= 1 << d
        seen = 0
        out = []
        for d in info.hand:
            if (city_mask >> d) & 1 or (seen >> d) & 1:
                out.append(d)
            seen |= 1 << d
        return out

    def _card_value(self, info: _Info, d: int, rank: int, keep: bool = False, drawn: list[int] | None = None) -> float:
        """Worth of having / building district ``d`` now (roughly points-equivalent)."""
        me = info.me
        city = info.cities[me]
        if d in city:
            return -5.0
        v = float(info.points[d])
        t = DISTRICT_TYPE[d]
        if d == HAUNTED_QUARTER:
            v += 1.0
        elif not (info.my_types >> t) & 1:
            v += 1.0 if len(city) < info.cap - 2 else 1.6
        v += UNIQUE_BONUS.get(d, 0.0)
        if t == CHARACTER_TAX[rank] if rank >= 0 else False:
            v += 0.4
        if keep:
            if d in info.hand:
                v -= 4.0
            # What we can afford soon matters more than raw points.
            cost = info.cost[d]
            reach = info.gold[me] + 4
            if cost > reach:
                v -= 1.2 * (cost - reach)
            left = info.cap - len(city)
            if left <= 2:
                v -= 0.6 * max(0, cost - info.gold[me] - 2)
        return v

    # --- the draft -----------------------------------------------------------------------------

    def _holders(self, lens: CitadelsLens, me: int) -> list[list[float]]:
        """P[c][s]: the chance that seat ``s`` holds character ``c``, from what this seat saw this round."""
        n = lens.players
        my_picks = lens.offered_pools
        seen_down = lens.leftover_seen
        revealed = lens.revealed
        character = lens.character
        pick_steps = list(enumerate(lens.pick_order))
        # which pick-step index each of our picks was
        my_steps = [k for k, s in pick_steps if s == me]
        faceup = lens.face_up
        mine = lens.my_characters  # our own characters only
        P = [[0.0] * n for _ in range(8)]
        for c in range(8):
            if c in faceup or c == seen_down or c in mine:
                continue
            # A rank called this round that did not answer is held by nobody (or was murdered).
            if c < character and revealed[c] < 0:
                continue
            if revealed[c] >= 0:
                P[c][revealed[c]] = 1.0
                continue
            # Candidate pick steps, narrowed by every pool we saw.
            cands = {k for k, s in pick_steps if s != me}
            down = 1.0  # weight of "face down"
            for idx, (pool, _took) in enumerate(my_picks):
                if idx >= len(my_steps):
                    break
                k0 = my_steps[idx]
                cands = {k for k in cands if k > k0} if c in pool else {k for k in cands if k < k0}
            seats = [s for k, s in pick_steps if k in cands]
            total = len(seats) + down
            if total <= 0:
                continue
            for s in seats:
                P[c][s] += 1.0 / total
        return P

    def _char_gain(self, lens: CitadelsLens, info: _Info, seat: int, c: int) -> float:
        """This round's expected gain (gold-equivalents) of character ``c`` for ``seat``."""
        me = info.me
        n = info.n
        city = info.cities[seat]
        gold = info.gold[seat]
        size = len(city)
        cap = info.cap
        if c in TAX_TYPE_OF:
            t = TAX_TYPE_OF[c]
            school = (lens.city_masks[seat] >> SCHOOL_OF_MAGIC) & 1
            v = float(sum(1 for d in city if DISTRICT_TYPE[d] == t) + school)
            # Districts of that type we may build this turn also pay (tax after building).
            if seat == me and any(
                DISTRICT_TYPE[d] == t and info.cost[d] <= gold + 2 for d in info.hand if d not in city
            ):
                v += 0.6
            if c == KING:
                v += 0.2 if n >= 4 else 0.0
            elif c == BISHOP:
                v += 1.0 if size >= cap - 3 else 0.0
            elif c == MERCHANT:
                v += 1.0
            elif c == WARLORD:
                v += 0.4
                if info.near_completion(seat):
                    v += 1.5
            return v
        if c == ARCHITECT:
            hand_n = len(info.hand) if seat == me else info.hand_counts[seat]
            v = 4.0 if hand_n < 3 else 2.5
            if seat == me:
                costs = sorted(info.cost[d] for d in set(info.hand) if d not in city)
                budget = gold + 2
                builds = 0
                for cost in costs:
                    if cost <= budget and builds < 3:
                        budget -= cost
                        builds += 1
                v += 2.5 * max(0, builds - 1)
                if size + builds >= cap:
                    v += 2.0
            else:
                v += min(2.0, max(0.0, (gold - 2) / 2.5))
            return v
        if c == MAGICIAN:
            hand_n = len(info.hand) if seat == me else info.hand_counts[seat]
            best_other = max((info.hand_counts[s] for s in range(n) if s != seat), default=0)
            useful = len(info.hand) - len(self._useless(info)) if seat == me else hand_n
            return max(0.6, (best_other - useful) * 0.9)
        if c == THIEF:
            golds = sorted((info.gold[s] for s in range(n) if s != seat), reverse=True)
            return 0.8 * golds[0] + 0.3 * sum(golds[1:3]) if golds else 0.0
        if c == ASSASSIN:
            v = 0.5
            if info.near_completion(seat):
                v += 1.0
            return v
        return 0.0

    def _pick(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        me = info.me
        gold = info.gold[me]
        leader = info.leader()
        # Deny what the leading rival would want, if that rival is ahead of us (else it counts 0).
        deny = max(0.0, info.danger(leader) - 1.0) if leader >= 0 else 0.0

        def score(a: Act) -> float:
            c = a.a
            v = self._char_gain(lens, info, me, c)
            # A rich hand is a Thief's target: ranks the Thief cannot rob are safer.
            if gold >= 5 and c in (ASSASSIN, THIEF):
                v += 0.3 * (gold - 4)
            elif gold >= 5:
                v -= 0.1 * (gold - 4)
            if deny > 0.0:
                v += 0.15 * self._char_gain(lens, info, leader, c) * deny
            return v
        return self._best(legal, score)

    def _discard(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        opp = 1 - info.me if info.n == 2 else info.leader()
        return self._best(legal, lambda a: self._char_gain(lens, info, opp, a.a))

    # --- the turn ------------------------------------------------------------------------------

    def _turn(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        me = info.me
        rank = lens.character
        kinds = {a.kind for a in legal}
        if K_KILL in kinds:
            return self._kill(lens, info, legal)
        if K_ROB in kinds:
            return self._rob(lens, info, legal)
        if TAX in legal:
            return TAX
        if K_SWAP in kinds and not lens.gathered:
            swap = self._swap(info, legal)
            if swap is not None:
                return swap
        if K_LAB in kinds:
            useless = self._useless(info)
            for a in legal:
                if a.kind == K_LAB and a.a in useless:
                    return a
        if not lens.gathered:
            return self._gather(lens, info, legal)
        builds = [a for a in legal if a.kind == K_BUILD]
        if builds:
            best = self._best(tuple(builds), lambda a: self._card_value(info, a.a, rank))
            if self._card_value(info, best.a, rank) > 0 and self._should_build(lens, info, best.a):
                return best
        if K_SMITHY in kinds and lens.builds_left:
            useful = len(info.hand) - len(self._useless(info))
            if useful <= 1 and info.gold[me] >= lens.smithy_price + 2:
                for a in legal:
                    if a.kind == K_SMITHY:
                        return a
        if K_DESTROY in kinds:
            d = self._destroy(lens, info, legal)
            if d is not None:
                return d
        if K_REDRAW in kinds:
            useless = self._useless(info)
            if useless:
                for a in legal:
                    if a.kind == K_REDRAW and a.a in useless:
                        return a
        return END

    def _should_build(self, lens: CitadelsLens, info: _Info, d: int) -> bool:
        """Completing the city ends the game: only do it if we would not finish behind."""
        me = info.me
        if len(info.cities[me]) + 1 < info.cap:
            return True
        scores = lens.scores
        mine = scores[me] + info.points[d] + (4 if lens.first_complete < 0 else 2)
        if (info.my_types | 1 << DISTRICT_TYPE[d]) == 31 and info.my_types != 31:
            mine += 3
        best_other = max(scores[s] for s in range(info.n) if s != me)
        return mine >= best_other or lens.first_complete >= 0

    def _gather(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        if DRAW not in legal:
            return GOLD
        me = info.me
        gold = info.gold[me]
        city = info.cities[me]
        useful = sorted({d for d in info.hand if d not in city}, key=lambda d: info.cost[d])
        if lens.character == ARCHITECT:
            return GOLD if useful else DRAW
        if not useful:
            return DRAW
        affordable_now = [d for d in useful if info.cost[d] <= gold]
        if len(useful) >= 2:
            # Enough cards: gold, unless we are rich enough to build everything we hold soon.
            total = sum(info.cost[d] for d in useful[:2])
            if gold >= total + 2 and len(useful) <= 2:
                return DRAW
            return GOLD
        if affordable_now and gold - info.cost[useful[0]] >= 2:
            return DRAW
        return GOLD

    def _kill(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        me = info.me
        P = self._holders(lens, me)
        def score(a: Act) -> float:
            c = a.a
            v = 0.0
            for s in range(info.n):
                p = P[c][s]
                if p and s != me:
                    v += p * info.danger(s) * (self._char_gain(lens, info, s, c) + 3.0)
            return v
        return self._best(tuple(a for a in legal if a.kind == K_KILL), score)

    def _rob(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        me = info.me
        P = self._holders(lens, me)
        def score(a: Act) -> float:
            c = a.a
            v = 0.0
            for s in range(info.n):
                p = P[c][s]
                if p and s != me:
                    g = info.gold[s] + (1 if c == MERCHANT else 0)
                    v += p * (g + 0.5) * (0.7 + 0.3 * info.danger(s))
            return v
        return self._best(tuple(a for a in legal if a.kind == K_ROB), score)

    def _swap(self, info: _Info, legal: tuple[Act, ...]) -> Act | None:
        useful = len(info.hand) - len(self._useless(info))
        best: Act | None = None
        best_v = 0.0
        for a in legal:
            if a.kind != K_SWAP:
                continue
            s = a.a
            v = info.hand_counts[s] - useful - 1.5 + 0.1 * info.danger(s)
            if v > best_v:
                best_v, best = v, a
        return best

    def _destroy(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act | None:
        me = info.me
        gold = info.gold[me]
        best: Act | None = None
        best_v = 0.0
        for a in legal:
            if a.kind != K_DESTROY:
                continue
            target, card = a.a, a.b
            if target == me:
                continue
            price = lens.destroy_cost(target, card)
            size = len(info.cities[target])
            danger = info.danger(target)
            if danger < 1.0 and price > 0:
                continue
            v = (info.points[card] * 0.5 + (4.0 if size >= info.cap - 1 else 0.0)) * danger
            v -= price * 1.1
            if gold - price < 2 and size < info.cap - 1:
                v -= 2.0
            if v > best_v:
                best_v, best = v, a
        return best
