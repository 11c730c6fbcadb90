"""A rule-of-thumb Castles of Burgundy player: every legal action gets a cheap score, the best is played.

The bot reads only its seat's lens (``state.lens(seat)``, ``meeple/games/burgundy/observation.py``):
its own estate, storage, goods, workers and knowledge tiles, and the public depots, depot goods, bonus
tiles, phase, round and dice — never another seat's estate, so the hidden setup choices of the
secret-setup variant stay unseen. A lens reads the state when asked, which keeps the bot cheap enough
for search rollouts. The only lookahead is at the start of a die choice: the bot asks the lens what
that die could do (the engine's own listing, as a clone after ``die:r`` would offer it) and values the
die by the best of those actions. Everything is valued in victory points (VP) now or
expected later.

Rules of thumb it follows:

* **Fill the estate, finish regions.** A placement is worth the region it completes (size bonus plus
  the phase bonus, the earlier the better) or, short of that, a share of that region's value that
  grows as the region nears completion; finishing a colour while a bonus tile is left is worth the
  bonus. Tiles go next to as many empty spaces as possible when nothing else separates them.
* **Each tile type has its own worth.** Animals score their pasture now (more with K07); ships take the
  richest goods depot for the bot (held kinds first, free slots next) and move it up the turn order;
  castles are an extra action; mines pay a silverling for every phase end still to come; buildings by
  effect (watchtower 4 VP, boarding house 4 workers, bank 2 silverlings, warehouse the best sale,
  carpenter / church / market the best tile they can take, city hall the best placement); knowledge
  tiles by how many turns are left to use them, or by the end-game points they promise (K15–K26
  counted from the estate and sales so far plus what may still come).
* **Take only what fits.** A tile taken from a depot (or bought for 2 silverlings from the black depot)
  is worth nearly its full placement when a die still left this turn can put it on the estate's
  frontier (minus the workers that die needs), otherwise a discounted share of its best placement on
  a free space of its colour (frontier spaces preferred); nothing if its colour has no free space (or
  its city already holds that building), nor in the last turn. A full storage costs the tile that has
  to be discarded.
* **Sell big.** A sale is worth ``players`` VP per goods tile (plus the silverling, K03/K04, K15/K25)
  minus the 1 VP per tile that unsold goods would bring at the end; goods are worth holding while
  there is time to sell them.
* **Workers are a currency.** Changing a die costs about 0.7 VP per worker (more when the bot is short
  of them); "take workers" is the fallback when no die action beats it, and is worth more when the
  bot has none. Silverlings are worth about 1 VP and are spent on a purchase only when the tile is
  worth clearly more than the two coins.
* **Dice:** each die is valued by the best action it allows (with the workers it would cost), and the
  better die goes first; a purchase comes before the dice so that a die can still place the tile.
* **Follow-up choices:** the ship depot and the goods to keep maximise the goods gained, the discard is
  the least valuable stored tile, optional building effects are skipped only when nothing is worth
  having. Setup choices (variants): board 1 (or the first offered) and the most central castle space.

Ties are broken by a tiny noise from the bot's own seeded generator, so a seed gives the same play.
"""

from __future__ import annotations

from typing import Any, cast

from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.burgundy import actions as act
from meeple.games.burgundy.data import (
    ANIMAL_COUNT,
    ANIMAL_KIND,
    BANK,
    BOARDING,
    BOARDS,
    CARPENTER,
    CHURCH,
    CITYHALL,
    DIST,
    FIRST_BUILDING,
    KNOWLEDGE_NUMBER,
    MARKET,
    MINE,
    NEIGHBOURS,
    PHASE_BONUS,
    REGION_VP,
    ROUNDS,
    SPACE_DIE,
    TILE_TYPE,
    WAREHOUSE,
    WATCHTOWER,
    Board,
)
from meeple.games.burgundy.observation import BurgundyLens

A_, B_, C_, K_, M_, S_ = range(6)  # tile types (colours), in TYPE_LETTERS order "ABCKMS"
EMPTY = -1

WORKER_VP = 0.7
SILVER_VP = 1.0
STORE_DISCOUNT = 0.6  # a stored tile still needs a die (and maybe workers) to be placed
CASTLE_ACTION_VP = 4.0

#: what a Carpenter's Workshop, Church or Market may take: a bit mask of tile types.
_BUILD_TAKES = {CARPENTER: 1 << B_, CHURCH: (1 << C_) | (1 << M_) | (1 << K_), MARKET: (1 << S_) | (1 << A_)}
#: the free ±1 knowledge tile that helps placing each type: K09 B, K10 S/A, K11 C/M/K (a kmask bit).
_FREE_PLACE_K = {B_: 1 << 9, S_: 1 << 10, A_: 1 << 10, C_: 1 << 11, M_: 1 << 11, K_: 1 << 11}
#: the only tiles whose placement value depends on the dice still left (they value a take); the
#: placement value of every other tile is fixed for a decision and cached.
_TAKING = frozenset(_BUILD_TAKES)
#: _MASK_DEPOTS[mask] = the depots 1-6 whose bits are set in ``mask`` (a ship's choice).
_MASK_DEPOTS: tuple[tuple[int, ...], ...] = tuple(tuple(d for d in range(1, 7) if m >> d & 1) for m in range(128))
_SHIP_MASKS = tuple(1 << d for d in range(1, 7))
_SHIP_MASKS_K05 = _SHIP_MASKS + tuple((1 << d) | (1 << (d % 6 + 1)) for d in range(1, 7))
#: the action kinds a die (or a free action) may lead to
_DIE_KINDS = frozenset((act.TAKE, act.PLACE, act.SELL, act.WORKERS))
_NO_CITIES: frozenset[int] = frozenset()


class _Ctx:
    """What the deciding seat knows, read once per decision from its lens, with per-decision caches:
    most values are asked for many times while the actions are scored."""

    __slots__ = (
        "_animal_kinds",
        "_base",
        "_best_ship",
        "_city",
        "_place",
        "_tile_cache",
        "colour_bonus",
        "colour_left",
        "depot_goods",
        "depots",
        "dice_left",
        "estate",
        "frontier",
        "geo",
        "goods",
        "goods_vp",
        "kmask",
        "late",
        "lens",
        "my_bonus",
        "n",
        "other_dice",
        "phase",
        "region_left",
        "sale_per_tile",
        "seat",
        "share",
        "storage",
        "turns_left",
        "workers",
        "wvp",
    )

    def __init__(self, lens: BurgundyLens) -> None:
        n = lens.players
        self.n = n
        seat = lens.seat
        self.seat = seat
        phase = lens.phase
        self.phase = phase
        self.turns_left: int = (4 - phase) * 5 + (ROUNDS - lens.round)  # own turns after this one
        late: float = self.turns_left / 24
        self.late = late  # 1 at the start of the game, 0 on the last turn
        self.share: float = 0.45 + 0.3 * late  # of a region's value, for a placement that does not finish it
        #: unused dice of this turn (for a die being resolved: the dice still left after it)
        self.dice_left: list[int] = list(lens.dice_left)  # the bot decides on its own turn, if any
        self.other_dice: tuple[int, ...] = tuple(self.dice_left)
        self.sale_per_tile = lens.sale_vp_per_tile
        key = lens.my_board
        self.geo: Board | None = BOARDS[key] if key else None
        # the seat's own lists, read only
        self.estate = lens.my_estate
        self.storage = lens.my_storage
        self.goods = lens.my_goods
        self.region_left = lens.my_region_left
        self.colour_left = lens.my_colour_left
        self.frontier = lens.my_frontier  # bit mask of the empty spaces next to a tile
        workers = lens.my_workers
        self.workers = workers
        self.kmask = lens.my_knowledge_mask  # bit k: holds knowledge tile Kk
        self.wvp: float = WORKER_VP + (0.4 if workers <= 1 else 0.0)
        bonus_large, bonus_small = lens.bonus_large, lens.bonus_small
        self.my_bonus: int = bonus_large.count(seat) + bonus_small.count(seat)
        # bonus tile left for completing a colour: n+3 (large), n (small) or 0
        colour_bonus: list[float] = [0.0] * 6
        for t in range(6):
            large = bonus_large[t]
            if large == EMPTY:
                colour_bonus[t] = n + 3
            elif bonus_small[t] == EMPTY and large != seat:
                colour_bonus[t] = n
        self.colour_bonus = colour_bonus
        self.depot_goods = lens.depot_goods_counts
        self.depots = lens.depot_slots
        self.lens = lens  # for the facts few decisions need (the goods sold so far)
        # a goods tile held now: its 1 VP at the end, or more if it can still be sold
        if self.turns_left <= 0:
            self.goods_vp = 1.0
        else:
            sale = n if self.sale_per_tile else 1.0
            self.goods_vp = 1.0 + 0.55 * (sale - 1.0) * min(1.0, self.turns_left / 4)
        self._tile_cache: dict[tuple[int, tuple[int, ...]], float] = {}
        self._place: dict[int, float] = {}  # place_vp by tile * 64 + space (but _TAKING tiles)
        self._base: dict[int, float] = {}  # the region / colour / space part of place_vp by type * 64 + space
        self._best_ship: float | None = None
        self._animal_kinds: set[int] | None = None
        self._city: set[int] | None = None

    # --- small valuations ---------------------------------------------------------------------------

    def animal_kinds(self) -> set[int]:
        kinds = self._animal_kinds
        if kinds is None:
            kinds = self._animal_kinds = {ANIMAL_KIND[t] for t in self.estate if t >= 0 and ANIMAL_KIND[t] >= 0}
        return kinds

    def cost(self, rolled: int, target: int, free: int) -> int:
        need = DIST[rolled][target] - free
        if need <= 0:
            return 0
        return (need + 1) >> 1 if self.kmask & (1 << 8) else need

    def sale_vp(self, g: int) -> float:
        count = self.goods[g]
        if count <= 0:
            return -1.0
        kmask = self.kmask
        vp = float(self.n * count if self.sale_per_tile else self.n)
        vp += (2 if kmask & (1 << 3) else 1) * SILVER_VP
        if kmask & (1 << 4):
            vp += self.wvp
        if kmask & (1 << 25):
            vp += count
        if kmask & (1 << 15) and not self.lens.my_sold[g]:
            vp += 3.0
        return vp - count * self.goods_vp * 0.55

    def ship_goods(self, mask: int) -> float:
        """VP of the goods a ship would take from the depots in ``mask``."""
        goods = self.goods
        depot_goods = self.depot_goods
        depots = _MASK_DEPOTS[mask]
        free = 3
        for g in range(1, 7):
            if goods[g]:
                free -= 1
        gain = 0
        new_counts = []
        for g in range(1, 7):
            total = 0
            for d in depots:
                total += depot_goods[d][g]
            if not total:
                continue
            if goods[g]:
                gain += total
            else:
                new_counts.append(total)
        if new_counts:
            new_counts.sort(reverse=True)
            gain += sum(new_counts[:free])
        return gain * self.goods_vp

    def best_ship_vp(self) -> float:
        best = self._best_ship
        if best is None:
            masks = _SHIP_MASKS_K05 if self.kmask & (1 << 5) else _SHIP_MASKS
            best = self._best_ship = max([self.ship_goods(m) for m in masks])
        return best

    def best_take_vp(self, types: int) -> float:
        """The best tile of the types in the bit mask ``types`` on the numbered depots, as stored."""
        best = 0.0
        depots = self.depots
        for d in range(1, 7):
            for t in depots[d]:
                if t != EMPTY and types >> TILE_TYPE[t] & 1:
                    value = self.store_vp(t)
                    if value > best:
                        best = value
        return best

    def knowledge_vp(self, number: int) -> float:
        late = self.late
        if number == 1:
            return 1.5 * late
        if number == 2:
            return (self.estate.count(MINE) + 1.5 * late) * (4 - self.phase) * 0.5
        if number in (3, 4):
            return 4.0 * late
        if number in (5, 6, 7):
            return 2.5 * late
        if number == 8:
            return 3.5 * late
        if number in (9, 10, 11, 12):
            return 2.5 * late
        if number == 13:
            return 1.5 * late
        if number == 14:
            return 3.0 * late
        if number == 15:
            sold = self.lens.my_sold
            sold_kinds = sum(1 for g in range(1, 7) if sold[g])
            return 3.0 * min(6, sold_kinds + 3 * late + (1 if any(self.goods) else 0))
        if 16 <= number <= 23:
            building = FIRST_BUILDING + number - 16
            return 4.0 * (self.estate.count(building) + 1.2 * late)
        if number == 24:
            return 4.0 * min(4, len(self.animal_kinds()) + 2 * late)
        if number == 25:
            return sum(self.lens.my_sold[1:7]) + 8 * late
        if number == 26:
            return 2.0 * (self.my_bonus + 2 * late)
        return 0.0

    # --- placements ---------------------------------------------------------------------------------

    def place_base(self, geo: Board, t: int, space: int) -> float:
        """The part of a placement's value that only depends on the space: its region (finished now,
        or a share), its colour's bonus tile, and the empty spaces it opens up."""
        key = t * 64 + space
        vp = self._base.get(key)
        if vp is not None:
            return vp
        region = geo.region_of[space]
        size = len(geo.regions[region])
        left = self.region_left[region] - 1
        phase = self.phase
        if left <= 0:
            vp = float(REGION_VP[size] + PHASE_BONUS[phase])
        else:
            # a share of the region's value, larger the nearer it is to completion
            future_bonus = PHASE_BONUS[min(4, phase + (left + 1) // 3)]
            vp = (REGION_VP[size] + future_bonus) / (left + 1) * self.share
        colour_left = self.colour_left[t]
        bonus = self.colour_bonus[t]
        if colour_left == 1:
            vp += bonus
        elif bonus:
            vp += bonus / (colour_left + 1) * 0.3
        vp += 0.3  # one empty space fewer (final tie-break, and board presence)
        estate = self.estate
        frontier = self.frontier
        opened = 0
        for nb in NEIGHBOURS[space]:
            if estate[nb] < 0 and not frontier >> nb & 1:
                opened += 1
        vp += 0.08 * opened * self.late
        self._base[key] = vp
        return vp

    def place_vp(self, tile: int, space: int) -> float:
        """VP now plus expected later from putting ``tile`` on empty ``space`` (without worker costs)."""
        key = tile * 64 + space
        vp = self._place.get(key)
        if vp is not None:
            return vp
        geo = self.geo
        if geo is None:
            return 0.0
        t = TILE_TYPE[tile]
        vp = self._base.get(t * 64 + space)  # place_base's cache, read here: most calls find it
        if vp is None:
            vp = self.place_base(geo, t, space)
        kmask = self.kmask
        if t == A_:
            kind = ANIMAL_KIND[tile]
            animals = ANIMAL_COUNT[tile]
            tiles = 1
            estate = self.estate
            for s in geo.regions[geo.region_of[space]]:
                other = estate[s]
                if other >= 0 and ANIMAL_KIND[other] == kind:
                    animals += ANIMAL_COUNT[other]
                    tiles += 1
            vp += animals + (tiles if kmask & (1 << 7) else 0)
            if kmask & (1 << 24) and kind not in self.animal_kinds():
                vp += 4
        elif t == S_:
            vp += 0.8 * self.late + self.best_ship_vp()
        elif t == C_:
            vp += CASTLE_ACTION_VP * (0.6 + 0.4 * self.late)
        elif t == M_:
            phase_ends = 5 - self.phase
            vp += phase_ends * (SILVER_VP + (self.wvp if kmask & (1 << 2) else 0.0)) * 0.9
        elif t == K_:
            vp += self.knowledge_vp(KNOWLEDGE_NUMBER[tile])
        else:
            vp += self.building_vp(tile)
            if kmask >> (16 + tile - FIRST_BUILDING) & 1:
                vp += 4
            if tile in _TAKING:  # depends on the dice left: not cached
                return vp
        self._place[key] = vp
        return vp

    def building_vp(self, tile: int) -> float:
        if tile == WATCHTOWER:
            return 4.0
        if tile == BOARDING:
            return 4 * WORKER_VP * (0.5 + 0.5 * self.late) + 0.3
        if tile == BANK:
            return 2 * SILVER_VP
        if tile == WAREHOUSE:
            return max([0.0] + [self.sale_vp(g) for g in range(1, 7) if self.goods[g]])
        if tile == CITYHALL:
            return max([0.0] + [self.place_vp_best(t, nested=True) for t in self.storage])
        return 0.8 * self.best_take_vp(_BUILD_TAKES.get(tile, 0))

    def cities(self) -> set[int]:
        """The buildings in each city of the estate, as region * 64 + tile."""
        city = self._city
        if city is None:
            geo = self.geo
            assert geo is not None
            region_of = geo.region_of
            city = self._city = {
                region_of[s] * 64 + t for s, t in enumerate(self.estate) if FIRST_BUILDING <= t <= CITYHALL
            }
        return city

    def city_blocked(self, tile: int, region: int) -> bool:
        """A building may go once per city (unless K01)."""
        return region * 64 + tile in self.cities() and not self.kmask & (1 << 1)

    def place_vp_best(self, tile: int, nested: bool = False) -> float:
        """Best placement of ``tile`` anywhere legal now (frontier), for castles and City Hall."""
        best = 0.0
        t = TILE_TYPE[tile]
        if nested and t in (B_, C_):  # avoid chains of estimates
            return 2.0
        geo = self.geo
        if geo is None:
            return best
        estate = self.estate
        frontier = self.frontier
        for s in geo.spaces_of_type[t]:
            if frontier >> s & 1 and estate[s] < 0 and not (t == B_ and self.city_blocked(tile, geo.region_of[s])):
                v = self.place_vp(tile, s)
                if v > best:
                    best = v
        return best

    def store_vp(self, tile: int) -> float:
        """Worth of holding ``tile`` in storage: its placement with a die still left this turn, or a
        share of its best future placement."""
        other_dice = self.other_dice
        key = (tile, other_dice)
        cached = self._tile_cache.get(key)
        if cached is not None:
            return cached
        t = TILE_TYPE[tile]
        free = 1 if self.kmask & _FREE_PLACE_K[t] else 0
        best = -1.0
        now = -1.0  # placed with a die left this turn
        geo = self.geo
        if geo is not None:
            estate = self.estate
            frontier = self.frontier
            workers = self.workers
            wvp = self.wvp
            k08 = self.kmask & (1 << 8)
            # buildings and castles: no recursion into nested effects
            shallow = t in (B_, C_)
            # a building may go once per city (unless K01): ``city_blocked`` inlined, for the hot loop
            city = self.cities() if t == B_ and not self.kmask & (1 << 1) else _NO_CITIES
            region_of = geo.region_of
            place_vp = self.place_vp
            effect = self.shallow_effect(tile) if shallow else None  # the same for every space
            dist = DIST
            for s in geo.spaces_of_type[t]:
                if estate[s] >= 0 or (city and region_of[s] * 64 + tile in city):
                    continue
                v = place_vp(tile, s) if effect is None else place_vp(WATCHTOWER, s) - 4.0 + effect
                if frontier >> s & 1:
                    target = SPACE_DIE[s]
                    for die in other_dice:
                        spend = dist[die][target] - free
                        if spend <= 0:
                            spend = 0
                        elif k08:
                            spend = (spend + 1) >> 1
                        if spend <= workers:
                            value = 0.9 * v - spend * wvp
                            if value > now:
                                now = value
                else:
                    v *= 0.6
                if v > best:
                    best = v
        later = best * STORE_DISCOUNT if best > 0 else -1.0
        value = max(0.0 if self.turns_left <= 0 else later, now)
        self._tile_cache[key] = value
        return value

    def shallow_effect(self, tile: int) -> float | None:
        """A building's flat effect estimate for ``store_vp``: its placement there is worth the
        Watchtower's on that space, minus the Watchtower's 4 VP, plus this (no recursion into nested
        effects); ``None`` for a castle or the Watchtower, valued as placed."""
        if TILE_TYPE[tile] == C_ or tile == WATCHTOWER:
            return None
        if tile in _TAKING:
            return 2.5 * (0.4 + 0.6 * self.late)
        if tile == CITYHALL:
            return 3.5 * (0.4 + 0.6 * self.late)
        if tile == WAREHOUSE:
            return self.building_vp(tile) * 0.8
        return self.building_vp(tile)

    def storage_penalty(self, extra: int = 1) -> float:
        """Cost of storage overflow: the least valuable tile has to go."""
        if len(self.storage) + extra <= 3:
            return 0.0
        return max(0.0, min([self.store_vp(t) for t in self.storage]))


def _decision(state: GameState[Any]) -> tuple[BurgundyLens, _Ctx, bool, int]:
    """The deciding seat's lens and context, whether it decides its turn itself (no pending decision),
    and the die being resolved (0 when none)."""
    seat = state.current_player
    assert seat is not None
    lens = cast(BurgundyLens, state.lens(seat))
    pending = lens.pending
    return lens, _Ctx(lens), pending == "", lens.pending_die if pending == "die" else 0


class HeuristicBot:
    """Castles of Burgundy rules of thumb (module docstring); it reads its seat's lens (no view, no
    clone), a few dozen placement valuations a decision."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState[Any]) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        lens, ctx, turn, rolled = _decision(state)
        noise = self.rng.random
        if turn:  # the turn: a worthwhile purchase first (a die may then place it), dice, pass
            buys = [(self._score(lens, ctx, x, 0), x) for x in legal if x.kind == act.BUY]
            dice = [x for x in legal if x.kind == act.DIE]
            if buys:
                score, action = max(buys, key=lambda item: item[0] + noise() * 1e-3)
                if score > 0.0:
                    return action
            if dice:
                if len(dice) == 1:
                    return dice[0]
                return max(dice, key=lambda x: self._die_vp(lens, ctx, x.a) + noise() * 1e-3)
            return next(x for x in legal if x.kind == act.PASS)
        best = legal[0]
        best_score = float("-inf")
        action_vp = self._action_vp
        for action in legal:
            kind = action.kind
            if kind in _DIE_KINDS:  # most of them: ``_score``'s first case, without the call
                score = action_vp(ctx, kind, action.a, action.b, rolled) + noise() * 1e-3
            else:
                score = self._score(lens, ctx, action, rolled) + noise() * 1e-3
            if score > best_score:
                best, best_score = action, score
        return best

    def ranked(self, state: GameState[Any]) -> list[Any]:
        """Every legal action, best first by the same valuation as ``choose`` (for search candidates).

        At the start of a turn a worthwhile purchase ranks above the dice, as ``choose`` plays it."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return list(legal)
        lens, ctx, turn, rolled = _decision(state)
        scored: list[tuple[float, int, Any]] = []
        for index, action in enumerate(legal):
            if turn:
                if action.kind == act.BUY:
                    value = self._score(lens, ctx, action, 0)
                    value = 1000.0 + value if value > 0.0 else value - 1000.0
                elif action.kind == act.DIE:
                    value = self._die_vp(lens, ctx, action.a)
                else:  # pass
                    value = -500.0
            else:
                value = self._score(lens, ctx, action, rolled)
            scored.append((value, -index, action))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [action for _, _, action in scored]

    # ------------------------------------------------------------------------------------------------

    def _score(self, lens: BurgundyLens, ctx: _Ctx, action: Any, rolled: int) -> float:
        """An action's value; ``rolled`` is the die being resolved (0 for a free action)."""
        kind = action.kind
        a = action.a
        b = action.b
        if kind in _DIE_KINDS:
            return self._action_vp(ctx, kind, a, b, rolled)
        if kind == act.DIE:
            return self._die_vp(lens, ctx, a)
        if kind == act.BUY:
            return ctx.store_vp(b) - 2 * SILVER_VP - 0.8 - ctx.storage_penalty()
        if kind == act.DISCARD:
            return -ctx.store_vp(a)
        if kind == act.SHIP:
            return ctx.ship_goods(a)
        if kind == act.KEEP:
            total = 0
            depot_goods = ctx.depot_goods
            for g in range(1, 7):
                if a >> g & 1:
                    total += sum(depot_goods[d][g] for d in range(1, 7)) + 3 * ctx.goods[g]
            return float(total)
        if kind == act.BOARD:
            return 1.0 if a == 1 else -a * 0.01
        if kind == act.START:
            return float(len(NEIGHBOURS[a]))
        return 0.0  # pass, skip

    def _action_vp(self, ctx: _Ctx, kind: int, a: int, b: int, rolled: int) -> float:
        """A die action (``rolled`` > 0, workers charged) or a free one (castle bonus, building effect)."""
        if kind == act.WORKERS:
            gained = 4 if ctx.kmask & (1 << 14) else 2
            vp = gained * ctx.wvp * (0.45 + 0.35 * ctx.late)
            if ctx.workers == 0:
                vp += 0.8
            if ctx.kmask & (1 << 13):
                vp += SILVER_VP
            return vp
        if kind == act.TAKE:
            vp = ctx.store_vp(b) - ctx.storage_penalty()
            if rolled:
                vp -= ctx.cost(rolled, a, 1 if ctx.kmask & (1 << 12) else 0) * ctx.wvp
            return vp
        if kind == act.PLACE:
            vp = ctx.place_vp(a, b)
            if rolled:  # ctx.cost(rolled, SPACE_DIE[b], free), inlined: placements are most of a die's actions
                kmask = ctx.kmask
                need = DIST[rolled][SPACE_DIE[b]] - (1 if kmask & _FREE_PLACE_K[TILE_TYPE[a]] else 0)
                if need > 0:  # (no workers: vp - 0.0 is vp)
                    vp -= ((need + 1) >> 1 if kmask & (1 << 8) else need) * ctx.wvp
            return vp
        # sell
        vp = ctx.sale_vp(a)
        if rolled:
            vp -= ctx.cost(rolled, a, 0) * ctx.wvp
        return vp

    def _die_vp(self, lens: BurgundyLens, ctx: _Ctx, r: int) -> float:
        """A die is worth the best action it allows, with the workers it would cost.

        The actions are the engine's listing for a die of value ``r`` (``lens.die_actions``), the ones
        ``legal_actions`` of a clone after ``die:r`` would give, without the clone."""
        others = list(ctx.dice_left)
        if r in others:
            others.remove(r)
        ctx.other_dice = tuple(others)
        best = float("-inf")
        for follow in lens.die_actions(r):
            kind = follow.kind
            if kind in _DIE_KINDS:
                value = self._action_vp(ctx, kind, follow.a, follow.b, r)
                if value > best:
                    best = value
        return best
