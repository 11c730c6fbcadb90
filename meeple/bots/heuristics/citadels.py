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
* **Five players or more** (``MANY_PLAYERS``; nothing changes below it): the Merchant's steady gold counts
  +5 instead of +1, the Architect's two cards count nothing once the hand holds three useful cards, and
  the Assassin gets +5 when one affordable district completes our city (rank 1 builds it before anyone
  can murder us). Measured against random players at 7 players, where the bot lost its games to
  murders and destroys while it waited for gold with a hand full of cards (docs/bots.md).
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

import math
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Any

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
    OBSERVATORY,
    SCHOOL_OF_MAGIC,
    SMITHY,
    THIEF,
    UNIQUE,
    UNIVERSITY,
)
from meeple.games.citadels.observation import CitadelsLens

#: Extra worth (in points) of a unique district's ability, on top of its printed points.
UNIQUE_BONUS: dict[int, float] = {
    HAUNTED_QUARTER: 1.0, KEEP: 0.5, LABORATORY: 0.5, SMITHY: 0.5, OBSERVATORY: 1.0, GRAVEYARD: 0.0,
    SCHOOL_OF_MAGIC: 1.0, LIBRARY: 1.0, GREAT_WALL: 0.3, UNIVERSITY: 0.0, DRAGON_GATE: 0.0, MAP_ROOM: 0.8,
    IMPERIAL_TREASURY: 0.8,
}
#: [district] ``UNIQUE_BONUS`` as a table, 0 for the others: one index per card scored.
_BONUS: tuple[float, ...] = tuple(UNIQUE_BONUS.get(d, 0.0) for d in range(len(DISTRICT_TYPE)))
#: [district type] the districts of that type as bits (1 << district). A city never holds a name twice,
#: so how many districts of a type it has is the bit count of its mask's share of these.
_TYPE_BITS: tuple[int, ...] = tuple(
    sum(1 << d for d, kind in enumerate(DISTRICT_TYPE) if kind == t) for t in range(UNIQUE + 1))
#: [character] the districts of the type it taxes as bits (0 for the characters that tax none).
_TAXED_BITS: tuple[int, ...] = tuple(_TYPE_BITS[t] if t >= 0 else 0 for t in CHARACTER_TAX)
_KIND = attrgetter("kind")
#: [a city's mask] the district types it holds, as bits (printed data: the same under every rule), for the
#: cities met lately: a seat's city stays the same for many decisions. At most ``_CITIES_KEPT`` at once.
_CITY_TYPES: dict[int, int] = {}
_CITIES_KEPT = 4096
#: [the picks offered] their characters (lists to read, not to change): a draft offers at most 2**8 sets.
_CHARACTERS_OFFERED: dict[tuple[Act, ...], list[int]] = {}
#: From this many players on (at most one character face up, six rivals or fewer to outpace) the character
#: choice weighs gold in hand over cards: see ``_char_gains`` and docs/bots.md. Below it the bot decides as it
#: always did (hard-against-medium tournaments at 2-4 players were played against it).
MANY_PLAYERS = 5
#: The Merchant's gain on top of its taxes from ``MANY_PLAYERS`` on (1 below).
MANY_PLAYERS_MERCHANT = 5.0
#: The Assassin's extra gain from ``MANY_PLAYERS`` on when it can complete our city (``_char_gains``).
MANY_PLAYERS_FINISH = 5.0
#: ``world_likelihood``: how sharply another seat is taken to prefer the characters this bot would
#: pick (per gold-equivalent of its ``_pick_scores``), and the share of picks taken to be anyone's guess.
#: Fitted by likelihood to the hard level's picks (it takes this bot's favourite in 63% of them), the
#: opponent the expert is measured against; this bot's own picks would fit 20 and 0.01
#: (``bench/pick_model.py``; docs/bots.md, "Worlds weighed by the draft").
PICK_SOFTNESS = 1.0
PICK_NOISE = 0.05
#: The legal actions of a turn that has only gold or cards to choose between.
_GOLD_OR_DRAW = (GOLD, DRAW)


def pick_chance(scores: Sequence[float], taken: int, softness: float = PICK_SOFTNESS,
                noise: float = PICK_NOISE) -> float:
    """The chance that a seat scoring the characters offered ``scores`` (``HeuristicBot.pick_scores``)
    takes the one at ``taken``: a softmax of the scores times ``softness``, mixed with a uniform guess."""
    top = max(scores)
    weights = [math.exp(softness * (score - top)) for score in scores]
    return noise / len(scores) + (1.0 - noise) * weights[taken] / sum(weights)


class _Public:
    """What the public facts alone decide: each seat's threat, who nears completion, the rivals' gains of
    each character. The bot keeps it across decisions while those facts stand (``_Info.public``): every
    pick of a draft sees the same gold, cities and hand counts, and so does every determinization of
    the same position."""

    __slots__ = ("dangers", "gains", "leaders", "near", "threat")

    def __init__(self, threat: list[float], near: int) -> None:
        self.threat = threat
        self.near = near  # the seats within two districts of completing their city, as bits (1 << seat)
        self.gains: dict[int, float] = {}  # seat << 3 | character: ``_char_gains`` for a rival
        # seat: its most dangerous rival (``_Info.leader``) and how much denying it counts (``_Info.denial``)
        self.leaders: dict[int, tuple[int, float]] = {}
        self.dangers: dict[int, list[float]] = {}  # seat: ``_Info.dangers`` as it sees them


#: The most public facts a bot keeps at once (``_Info.public``); past it, it forgets them all.
_PUBLIC_KEPT = 64


class _Info:
    """The public facts of one decision, read once from the seat's lens; what is derived from them
    (threats, who nears completion, what we could build) only when a rule of thumb asks, then kept for
    the rest of the decision, which every action scored shares."""

    __slots__ = ("_bot", "_buildable", "_dangers", "_hand_counts", "_lens", "_my_types", "_public", "cap",
                 "cities", "cost", "gold", "hand", "masks", "me", "n", "points")

    def __init__(self, lens: CitadelsLens, bot: HeuristicBot) -> None:
        self._lens = lens
        self._bot = bot
        self.me = lens.seat
        # Under the options (a 5-gold Observatory scores 5). Each table's rules have their own points, so
        # the same points are the same rules: their costs and complete city as the bot read them before.
        self.points = points = lens.district_points
        if points is not bot._points:  # another table's rules: what the bot kept was for others
            bot._public.clear()
            bot._points, bot._costs, bot._cap = points, lens.district_costs, lens.complete_at
        self.cost = bot._costs
        self.cap = bot._cap
        self.gold = lens.gold
        self.n = len(self.gold)
        self.cities = lens.cities
        self.masks = lens.city_masks  # [seat] its city as bits: whether a name is built is one shift
        self.hand = lens.hand  # our own hand only
        self._hand_counts: tuple[int, ...] | None = None
        self._my_types = -1
        self._buildable = -1
        self._public: _Public | None = None
        self._dangers: list[float] | None = None

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
            mask = self.masks[self.me]
            types = _CITY_TYPES.get(mask, -1)
            if types < 0:
                types = 0
                for t, bits in enumerate(_TYPE_BITS):
                    if mask & bits:
                        types |= 1 << t
                if len(_CITY_TYPES) >= _CITIES_KEPT:
                    _CITY_TYPES.clear()
                _CITY_TYPES[mask] = types
            self._my_types = types
        return types

    @property
    def buildable_types(self) -> int:
        """The types, as bits, of the districts in our hand not built yet that cost at most our gold + 2."""
        types = self._buildable
        if types < 0:
            types = 0
            mask = self.masks[self.me]
            budget = self.gold[self.me] + 2
            cost = self.cost
            for d in self.hand:
                if not (mask >> d) & 1 and cost[d] <= budget:
                    types |= 1 << DISTRICT_TYPE[d]
            self._buildable = types
        return types

    @property
    def public(self) -> _Public:
        """The public facts' consequences, from the bot's memory when it met the same facts before.

        They are the rules' costs, points and size of a complete city, gold, the cities and the hand
        counts; a city never holds a name twice, so its mask says what it holds, and the key is gold,
        masks and hand counts (the rules are the bot's, see ``__init__``)."""
        public = self._public
        if public is None:
            bot = self._bot
            key = (*self.gold, *self.masks, *self.hand_counts)  # each part has a length per seat
            public = bot._public.get(key)
            if public is None:
                if len(bot._public) >= _PUBLIC_KEPT:
                    bot._public.clear()
                public = bot._public[key] = self._read_public()
            self._public = public
        return public

    def _read_public(self) -> _Public:
        score = self.points.__getitem__
        cap = self.cap
        last, second_last = cap - 1, cap - 2
        # How dangerous each seat is: city points, progress toward completion, gold and cards in reserve.
        threat = []
        near = 0
        for s, (city, gold, held) in enumerate(zip(self.cities, self.gold, self.hand_counts, strict=True)):
            size = len(city)
            threat.append(sum(map(score, city)) + 1.5 * size + 0.3 * gold + 0.3 * held
                          + (6.0 if size >= last else 2.5 if size >= second_last else 0.0))
            if size >= second_last:
                near |= 1 << s
        return _Public(threat, near)

    @property
    def threat(self) -> list[float]:
        """[seat] how dangerous it is (``_read_public``)."""
        return self.public.threat

    @property
    def dangers(self) -> list[float]:
        """[seat] a weight ≥ 0.3 for hurting that seat: bigger for rivals ahead of us."""
        dangers = self._dangers
        if dangers is None:
            public = self.public
            dangers = public.dangers.get(self.me)
            if dangers is None:
                threat = public.threat
                mine = threat[self.me]
                dangers = public.dangers[self.me] = [max(0.3, 1.0 + (t - mine) / 8.0) for t in threat]
            self._dangers = dangers
        return dangers

    def near_completion(self, seat: int) -> bool:
        """Whether a seat other than ``seat`` is within two districts of completing its city."""
        return bool(self.public.near & ~(1 << seat))

    def leader(self) -> int:
        """The most dangerous rival (the first in seat order among equals)."""
        return self.leading()[0]

    def leading(self) -> tuple[int, float]:
        """(the most dangerous rival, how much denying it what it wants counts: its danger to us less 1,
        if above 0), kept with the public facts."""
        public = self.public
        me = self.me
        leading = public.leaders.get(me)
        if leading is None:
            threat = public.threat
            best, who = -1e9, -1
            for s, t in enumerate(threat):
                if s != me and t > best:
                    best, who = t, s
            deny = max(0.0, max(0.3, 1.0 + (threat[who] - threat[me]) / 8.0) - 1.0) if who >= 0 else 0.0
            leading = public.leaders[me] = (who, deny)
        return leading

    def useless(self) -> list[int]:
        """Cards of our hand that can never be built as they stand (name built, or a second copy)."""
        city_mask = self.masks[self.me]
        seen = 0
        out = []
        for d in self.hand:
            if (city_mask >> d) & 1 or (seen >> d) & 1:
                out.append(d)
            seen |= 1 << d
        return out


class HeuristicBot:
    """Scores each legal action with the rules of thumb in the module docstring and plays the best."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)
        # What public facts decide, by the facts (``_Info.public``), under the rules below.
        self._public: dict[tuple[int, ...], _Public] = {}
        self._points: tuple[int, ...] | None = None
        self._costs: tuple[int, ...] = ()
        self._cap = 0

    # --- entry point ---------------------------------------------------------------------------

    def choose(self, state: GameState[Any]) -> Any:
        legal: tuple[Act, ...] = state.legal_actions()  # type: ignore[assignment]  # Citadels' are
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        assert me is not None
        lens = CitadelsLens(state, me)  # what ``state.lens(me)`` makes, without its checks: ``me`` is on turn
        phase = lens.phase
        if phase == "turn":
            return self._turn(lens, legal)
        info = _Info(lens, self)
        if phase == "pick":
            return self._pick(lens, info, legal)
        if phase == "discard":
            return self._discard(lens, info, legal)
        if phase == "keep":
            rank = lens.character
            drawn = lens.drawn
            return noisy_best(legal, [self._card_value(info, a.a, rank, keep=True, drawn=drawn) for a in legal],
                              self.rng)
        if phase == "redraw":
            useless = info.useless()
            marked = list(lens.marked or ())
            for a in legal:
                if a.kind == K_REDRAW and a.a in useless and useless.count(a.a) > marked.count(a.a):
                    return a
            return REDRAW_DONE
        if phase == "graveyard":
            card = lens.graveyard_card
            if card not in info.hand and not (info.masks[me] >> card) & 1 and info.points[card] >= 2 \
                    and info.gold[me] >= 2:
                return GRAVE_TAKE
            return GRAVE_PASS
        return legal[0]

    # --- cards ---------------------------------------------------------------------------------

    def _card_value(self, info: _Info, d: int, rank: int, keep: bool = False, drawn: list[int] | None = None) -> float:
        """Worth of having / building district ``d`` now (roughly points-equivalent)."""
        me = info.me
        if (info.masks[me] >> d) & 1:  # built already
            return -5.0
        city = info.cities[me]
        v = float(info.points[d])
        t = DISTRICT_TYPE[d]
        if d == HAUNTED_QUARTER:
            v += 1.0
        elif not (info.my_types >> t) & 1:
            v += 1.0 if len(city) < info.cap - 2 else 1.6
        v += _BONUS[d]
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

    def _build_values(self, info: _Info, builds: list[Act], rank: int) -> list[float]:
        """``_card_value`` of each build, with what they all share (our city's types, the tax type) read once."""
        me = info.me
        city_mask = info.masks[me]
        my_types = info.my_types
        points = info.points
        missing = 1.0 if len(info.cities[me]) < info.cap - 2 else 1.6
        taxed = CHARACTER_TAX[rank] if rank >= 0 else -2  # no district has type -2
        values = []
        for a in builds:
            d = a.a
            if (city_mask >> d) & 1:
                values.append(-5.0)
                continue
            v = float(points[d])
            t = DISTRICT_TYPE[d]
            if d == HAUNTED_QUARTER:
                v += 1.0
            elif not (my_types >> t) & 1:
                v += missing
            v += _BONUS[d]
            if t == taxed:
                v += 0.4
            values.append(v)
        return values

    # --- the draft -----------------------------------------------------------------------------

    def _holders(self, lens: CitadelsLens, me: int, characters: list[int]) -> dict[int, list[tuple[int, float]]]:
        """For each of ``characters``, the seats that may hold it with their chances, in seat order and
        only those above 0, from what this seat saw this round (lists to read, not to change: the
        characters no rival can hold share one). Never ``me``: what we hold we know."""
        n = lens.players
        revealed = lens.revealed
        character = lens.character
        order = lens.pick_order  # [pick step] the seat that picks
        others = [(k, s) for k, s in enumerate(order) if s != me]  # the rivals' pick steps
        # Our pick steps, each with the pool we were offered there.
        ours = list(zip([k for k, s in enumerate(order) if s == me], [pool for pool, _took in lens.offered_pools],
                        strict=False))  # a pool for each of our steps so far
        # Face up, ours, or the draft's leftover we saw go face down.
        known = {*lens.face_up, *lens.my_characters, lens.leftover_seen}
        nobody: list[tuple[int, float]] = []
        steps = len(order)
        rows: dict[int, list[tuple[int, float]]] = {}
        spans: dict[int, list[tuple[int, float]]] = {}  # the rows of each interval of pick steps
        for c in characters:
            if c in known:
                rows[c] = nobody
                continue
            holder = revealed[c]
            if holder >= 0:
                rows[c] = [(holder, 1.0)]
                continue
            # A rank called this round that did not answer is held by nobody (or was murdered).
            if c < character:
                rows[c] = nobody
                continue
            # The pick steps it may have gone to: each pool we saw puts it after our pick (it was in the
            # pool and we passed it on) or before (it was missing), an open interval of steps.
            after, before = -1, steps
            for step, pool in ours:
                if c in pool:
                    if step > after:
                        after = step
                elif step < before:
                    before = step
            span = after << 4 | before
            row = spans.get(span)
            if row is None:  # the first character of this interval (most share one or two)
                seats = [s for k, s in others if after < k < before]
                share = 1.0 / (len(seats) + 1.0)  # and the chance it went face down
                if len(set(seats)) == len(seats):  # each rival picks once in the interval (always from 4 seats)
                    seats.sort()
                    row = [(s, share) for s in seats]
                else:  # a rival's two picks: its chances added up as it picks
                    chances = [0.0] * n
                    for s in seats:
                        chances[s] += share
                    row = [(s, p) for s, p in enumerate(chances) if p]
                spans[span] = row
            rows[c] = row
        return rows

    def _char_gains(self, info: _Info, seat: int, chars: Iterable[int]) -> list[float]:
        """This round's expected gain (gold-equivalents) of each character of ``chars`` for ``seat``, with
        what they share (the seat's city, whether it is ours) read once."""
        mine = seat == info.me
        many = info.n >= MANY_PLAYERS
        mask = info.masks[seat]
        school = (mask >> SCHOOL_OF_MAGIC) & 1  # it counts as any type for the taxers
        gains: list[float] = []
        append = gains.append
        for c in chars:
            if c == ARCHITECT:
                gold = info.gold[seat]
                if not mine:
                    # Many players: three cards in hand are enough to build with, two more are worth nothing.
                    v = 4.0 if info.hand_counts[seat] < 3 else 0.0 if many else 2.5
                    v = v + min(2.0, max(0.0, (gold - 2) / 2.5))
                else:
                    hand = info.hand
                    v = 4.0 if len(hand) < 3 else 2.5
                    if many and len(hand) - len(info.useless()) >= 3:  # three useful cards (so v was 2.5)
                        v = 0.0
                    cost = info.cost
                    costs = sorted([cost[d] for d in set(hand) if not (mask >> d) & 1])
                    budget = gold + 2
                    builds = 0
                    for price in costs:  # the cheapest first: once one is out of reach, so are the rest
                        if price > budget or builds == 3:
                            break
                        budget -= price
                        builds += 1
                    v += 2.5 * max(0, builds - 1)
                    if len(info.cities[seat]) + builds >= info.cap:
                        v += 2.0
            elif c >= KING:  # the taxers: King, Bishop, Merchant, Warlord
                v = float((mask & _TAXED_BITS[c]).bit_count() + school)
                # Districts of that type we may build this turn also pay (tax after building).
                if mine and (info.buildable_types >> CHARACTER_TAX[c]) & 1:
                    v += 0.6
                if c == KING:
                    if info.n >= 4:
                        v += 0.2
                elif c == BISHOP:
                    if len(info.cities[seat]) >= info.cap - 3:
                        v += 1.0
                elif c == MERCHANT:
                    v += MANY_PLAYERS_MERCHANT if many else 1.0
                else:
                    v += 0.4
                    if info.public.near & ~(1 << seat):  # a rival nears completion
                        v += 1.5
            elif c == MAGICIAN:
                counts = info.hand_counts
                best_other = 0
                for s, count in enumerate(counts):
                    if s != seat and count > best_other:
                        best_other = count
                useful = len(info.hand) - len(info.useless()) if mine else counts[seat]
                v = max(0.6, (best_other - useful) * 0.9)
            elif c == THIEF:
                golds = list(info.gold)  # the others' gold, the richest first
                del golds[seat]
                golds.sort(reverse=True)
                v = 0.8 * golds[0] + 0.3 * sum(golds[1:3]) if golds else 0.0
            elif c == ASSASSIN:
                v = 1.5 if info.public.near & ~(1 << seat) else 0.5
                # Many players: one district from complete and able to build it, rank 1 builds it before
                # anyone can murder us (and ends the game first), which no other character is sure of.
                if many and mine and len(info.cities[seat]) >= info.cap - 1:
                    budget = info.gold[seat] + 2
                    cost = info.cost
                    if any(cost[d] <= budget and not (mask >> d) & 1 for d in info.hand):
                        v += MANY_PLAYERS_FINISH
            else:
                v = 0.0
            append(v)
        return gains

    def _rival_gain(self, info: _Info, seat: int, c: int) -> float:
        """``_char_gains`` for a seat other than ours: public facts only, so kept with them."""
        gains = info.public.gains
        key = seat << 3 | c
        v = gains.get(key)
        if v is None:
            v = gains[key] = self._char_gains(info, seat, (c,))[0]
        return v

    def _pick(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        chars = _CHARACTERS_OFFERED.get(legal)
        if chars is None:
            chars = _CHARACTERS_OFFERED[legal] = [a.a for a in legal]
        return noisy_best(legal, self._pick_scores(info, chars), self.rng)

    def pick_scores(self, lens: CitadelsLens, chars: Sequence[int]) -> list[float]:
        """How much the seat of ``lens`` would like each character of ``chars`` if this bot drafted for it
        (what ``world_likelihood`` weighs picks by, and ``bench/pick_model.py`` fits it to)."""
        return self._pick_scores(_Info(lens, self), chars)

    def _pick_scores(self, info: _Info, chars: Sequence[int]) -> list[float]:
        """How much the bot would like each character of ``chars`` offered to it in the draft."""
        me = info.me
        gold = info.gold[me]
        scores = self._char_gains(info, me, chars)
        # A rich hand is a Thief's target: ranks the Thief cannot rob are safer.
        if gold >= 5:
            safer = 0.3 * (gold - 4)
            robbable = 0.1 * (gold - 4)
            for index, c in enumerate(chars):
                if c in (ASSASSIN, THIEF):
                    scores[index] += safer
                else:
                    scores[index] -= robbable
        # Deny what the leading rival would want, if that rival is ahead of us (else it counts 0).
        leader, deny = info.leading()
        if deny > 0.0:
            rival_gains = info.public.gains
            rival = leader << 3
            for index, c in enumerate(chars):
                g = rival_gains.get(rival | c)
                if g is None:
                    g = rival_gains[rival | c] = self._char_gains(info, leader, (c,))[0]
                scores[index] += 0.15 * g * deny
        return scores

    def world_likelihood(self, world: GameState[Any], seat: int) -> float | None:
        """How likely this round's picks of the seats other than ``seat`` are in ``world`` (a
        ``determinize(seat)`` copy, which deals them characters at random among those its knowledge
        allows) if they draft as this bot would, softened by ``PICK_SOFTNESS`` and ``PICK_NOISE`` since
        they may not: a search weighing its worlds by it deals a rich player the Thief less often than
        the Architect it would rather have. Relative: only the ratio between worlds means anything.

        The picks are judged on the position as it is now, which is the one they were made in during the
        draft and nearly so in the first turns; once the Magician's rank has been called, turns have moved
        gold and cards about, and the picks no longer tell the true deal from others
        (``tests/bots/test_belief.py``): ``None``, nothing to weigh."""
        if CitadelsLens(world, seat).character > MAGICIAN:
            return None
        likelihood = 1.0
        for other in range(world.players):
            if other == seat:
                continue
            lens = CitadelsLens(world, other)
            picks = lens.draft_picks
            if not picks:
                continue
            info = _Info(lens, self)
            for pool, took in picks:
                likelihood *= pick_chance(self._pick_scores(info, pool), pool.index(took))
        return likelihood

    def _discard(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        opp = 1 - info.me if info.n == 2 else info.leader()
        return noisy_best(legal, [self._rival_gain(info, opp, a.a) for a in legal], self.rng)

    # --- the turn ------------------------------------------------------------------------------

    def _turn(self, lens: CitadelsLens, legal: tuple[Act, ...]) -> Act:
        if legal == _GOLD_OR_DRAW:  # the commonest turn decision (gathering, so not gathered): nothing else to weigh
            return self._gather(lens)
        gathered = lens.gathered
        kinds = set(map(_KIND, legal))
        if K_KILL in kinds:
            return self._kill(lens, _Info(lens, self), legal)
        if K_ROB in kinds:
            return self._rob(lens, _Info(lens, self), legal)
        if TAX in legal:
            return TAX
        if not gathered and K_SWAP not in kinds and K_LAB not in kinds:  # nothing to weigh before gathering
            return self._gather(lens) if DRAW in legal else GOLD
        info = _Info(lens, self)
        if K_SWAP in kinds and not gathered:
            swap = self._swap(info, legal)
            if swap is not None:
                return swap
        if K_LAB in kinds:
            useless = info.useless()
            for a in legal:
                if a.kind == K_LAB and a.a in useless:
                    return a
        if not gathered:
            return self._gather(lens) if DRAW in legal else GOLD
        me = info.me
        builds = [a for a in legal if a.kind == K_BUILD] if K_BUILD in kinds else None
        if builds:
            values = self._build_values(info, builds, lens.character)
            best = noisy_best(builds, values, self.rng)
            if values[builds.index(best)] > 0 and self._should_build(lens, info, best.a):
                return best
        if K_SMITHY in kinds and lens.builds_left:
            useful = len(info.hand) - len(info.useless())
            if useful <= 1 and info.gold[me] >= lens.smithy_price + 2:
                for a in legal:
                    if a.kind == K_SMITHY:
                        return a
        if K_DESTROY in kinds:
            d = self._destroy(lens, info, legal)
            if d is not None:
                return d
        if K_REDRAW in kinds:
            useless = info.useless()
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

    def _gather(self, lens: CitadelsLens) -> Act:
        """Gold or cards, both being legal."""
        me = lens.seat
        city_mask = lens.city_masks[me]
        cost = lens.district_costs
        seen = 0
        costs = []  # of the names in hand not built yet, each once; three are as many as more
        for d in lens.hand:
            if not (city_mask >> d) & 1 and not (seen >> d) & 1:
                seen |= 1 << d
                costs.append(cost[d])
                if len(costs) == 3:
                    break
        if not costs:
            return DRAW
        if lens.character == ARCHITECT:
            return GOLD
        gold = lens.gold[me]
        if len(costs) >= 2:
            # Enough cards: gold, unless we are rich enough to build everything we hold soon.
            if len(costs) == 2 and gold >= costs[0] + costs[1] + 2:
                return DRAW
            return GOLD
        if gold - costs[0] >= 2:  # the one we hold is affordable now with gold to spare
            return DRAW
        return GOLD

    def _kill(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        me = info.me
        kills = [a for a in legal if a.kind == K_KILL]
        rows = self._holders(lens, me, [a.a for a in kills])
        dangers = info.dangers
        gains = info.public.gains
        scores = []
        for a in kills:
            c = a.a
            v = 0.0
            for s, p in rows[c]:
                g = gains.get(s << 3 | c)
                if g is None:
                    g = gains[s << 3 | c] = self._char_gains(info, s, (c,))[0]
                v += p * dangers[s] * (g + 3.0)
            scores.append(v)
        return noisy_best(kills, scores, self.rng)

    def _rob(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act:
        me = info.me
        robs = [a for a in legal if a.kind == K_ROB]
        rows = self._holders(lens, me, [a.a for a in robs])
        dangers = info.dangers
        gold = info.gold
        scores = []
        for a in robs:
            c = a.a
            extra = 1 if c == MERCHANT else 0
            v = 0.0
            for s, p in rows[c]:
                v += p * (gold[s] + extra + 0.5) * (0.7 + 0.3 * dangers[s])
            scores.append(v)
        return noisy_best(robs, scores, self.rng)

    def _swap(self, info: _Info, legal: tuple[Act, ...]) -> Act | None:
        useful = len(info.hand) - len(info.useless())
        dangers = info.dangers
        best: Act | None = None
        best_v = 0.0
        for a in legal:
            if a.kind != K_SWAP:
                continue
            s = a.a
            v = info.hand_counts[s] - useful - 1.5 + 0.1 * dangers[s]
            if v > best_v:
                best_v, best = v, a
        return best

    def _destroy(self, lens: CitadelsLens, info: _Info, legal: tuple[Act, ...]) -> Act | None:
        me = info.me
        gold = info.gold[me]
        dangers = info.dangers
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
            danger = dangers[target]
            if danger < 1.0 and price > 0:
                continue
            v = (info.points[card] * 0.5 + (4.0 if size >= info.cap - 1 else 0.0)) * danger
            v -= price * 1.1
            if gold - price < 2 and size < info.cap - 1:
                v -= 2.0
            if v > best_v:
                best_v, best = v, a
        return best
