"""A rule-of-thumb Castles of Burgundy player: every legal action gets a cheap score, the best is played.

The bot reads only ``state.view(seat)`` (one call per decision) and the public notation of the legal
actions, so it knows exactly what its seat may know; in the secret-setup variant the hidden choices
of the other seats are simply absent from its view. The only lookahead is at the start of a die
choice: the bot applies ``die:r`` to a ``clone()`` to list what that die could do, and values the die
by the best of those actions. Everything is valued in victory points (VP) now or expected later.

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

from collections.abc import Sequence
from typing import Any

from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.burgundy.data import (
    ANIMAL_COUNT,
    ANIMAL_KIND,
    BANK,
    BOARDING,
    BOARDS_BY_TYPES,
    CARPENTER,
    CHURCH,
    CITYHALL,
    DIST,
    FIRST_BUILDING,
    KNOWLEDGE_NUMBER,
    MARKET,
    NEIGHBOURS,
    PHASE_BONUS,
    REGION_VP,
    SPACE_DIE,
    SPACES,
    TILE_BY_NAME,
    TILE_TYPE,
    TYPE_LETTERS,
    WAREHOUSE,
    WATCHTOWER,
)

A_, B_, C_, K_, M_, S_ = range(6)  # tile types (colours), in TYPE_LETTERS order "ABCKMS"

WORKER_VP = 0.7
SILVER_VP = 1.0
STORE_DISCOUNT = 0.6  # a stored tile still needs a die (and maybe workers) to be placed
CASTLE_ACTION_VP = 4.0

#: what a Carpenter's Workshop, Church or Market may take (tile types).
_BUILD_TAKES = {CARPENTER: (B_,), CHURCH: (C_, M_, K_), MARKET: (S_, A_)}
#: the free ±1 knowledge tile that helps placing each type: K09 B, K10 S/A, K11 C/M/K.
_FREE_PLACE_K = {B_: 9, S_: 10, A_: 10, C_: 11, M_: 11, K_: 11}

Parsed = tuple[str, int, int]
_PARSED: dict[str, Parsed] = {}


def _parse(text: str) -> Parsed:
    """(verb, a, b) of a notation: die r; take d tile; place tile space; sell g; buy d tile; discard tile;
    ship mask; keep mask; board b; start space. Cached per notation."""
    found = _PARSED.get(text)
    if found is not None:
        return found
    verb, _, rest = text.partition(":")
    rest = rest.split("~", 1)[0]
    a = b = 0
    if verb in ("die", "sell", "board", "start"):
        a = int(rest)
    elif verb in ("take", "buy"):
        d, _, tile = rest.partition(":")
        a, b = int(d), TILE_BY_NAME[tile]
    elif verb == "place":
        tile, _, space = rest.partition("@")
        a, b = TILE_BY_NAME[tile], int(space)
    elif verb == "discard":
        a = TILE_BY_NAME[rest]
    elif verb == "ship":
        for d in rest.split("+"):
            a |= 1 << int(d)
    elif verb == "keep":
        for g in rest.split(","):
            a |= 1 << int(g)
    parsed = (verb, a, b)
    _PARSED[text] = parsed
    return parsed


class _Ctx:
    """What the deciding seat knows, decoded once per decision from its view."""

    def __init__(self, view: dict[str, Any], seat: int, options: dict[str, Any]) -> None:
        me = view["players"][seat]
        self.n = len(view["players"])
        self.seat = seat
        self.phase = int(view["phase_index"])
        self.round = int(view["round"])  # 1-based
        self.turns_left = (4 - self.phase) * 5 + (5 - self.round)  # own turns after this one
        turn = view.get("turn")
        #: unused dice of this turn (for a die being resolved: the dice still left after it)
        self.dice_left: list[int] = list(turn["dice_left"]) if turn and turn.get("seat") == seat else []
        self.other_dice: tuple[int, ...] = tuple(self.dice_left)
        self.sale_per_tile = options.get("sale_vp", "per_tile") == "per_tile"
        letters = me.get("board_types")
        self.geo = BOARDS_BY_TYPES[letters] if letters else None
        estate = [-1] * (SPACES + 1)
        for space, name in me["estate"].items():
            estate[int(space)] = TILE_BY_NAME[name]
        self.estate = estate
        self.storage = [TILE_BY_NAME[t] for t in me["storage"]]
        self.goods = [0] * 7
        for g, count in me["goods"].items():
            self.goods[int(g)] = int(count)
        self.sold_set = {int(g) for g in me["sold"]}
        self.sold_kinds = len(self.sold_set)
        self.sold_tiles = sum(int(c) for c in me["sold"].values())
        self.workers = int(me["workers"])
        self.silver = int(me["silverlings"])
        self.know = {int(k[1:]) for k in me["knowledge"]}
        self.my_bonus = len(me["bonus_tiles"])
        # bonus tile left for completing a colour: n+3 (large), n (small) or 0
        self.colour_bonus = [0.0] * 6
        for letter, owners in view["bonus_tiles"].items():
            t = TYPE_LETTERS.index(letter)
            if owners["large"] is None:
                self.colour_bonus[t] = self.n + 3
            elif owners["small"] is None and owners["large"] != seat:
                self.colour_bonus[t] = self.n
        self.depot_goods = [[0] * 7 for _ in range(7)]
        for d, kinds in view["depot_goods"].items():
            row = self.depot_goods[int(d)]
            for g in kinds:
                row[g] += 1
        self.depots = {int(d): [TILE_BY_NAME[t] for t in tiles] for d, tiles in view["depots"].items()}
        geo = self.geo
        self.region_left: list[int] = []
        self.colour_left = [0] * 6
        self.frontier = [False] * (SPACES + 1)
        self.city_has: list[set[int]] = []
        if geo is not None:
            for members in geo.regions:
                self.region_left.append(sum(1 for s in members if estate[s] < 0))
                self.city_has.append({estate[s] for s in members if estate[s] >= 0})
            for s in range(1, SPACES + 1):
                if estate[s] < 0:
                    self.colour_left[geo.types[s]] += 1
                    if any(estate[nb] >= 0 for nb in NEIGHBOURS[s]):
                        self.frontier[s] = True
        self.animal_kinds = {ANIMAL_KIND[t] for t in estate if t >= 0 and ANIMAL_KIND[t] >= 0}
        self.buildings = [0] * 12
        for t in estate:
            if t >= 0 and TILE_TYPE[t] == B_:
                self.buildings[t] += 1
        self.mines = sum(1 for t in estate if t >= 0 and TILE_TYPE[t] == M_)
        self._tile_cache: dict[tuple[int, tuple[int, ...]], float] = {}
        self._best_ship: float | None = None  # constant within a decision, asked for once per ship

    # --- small valuations ---------------------------------------------------------------------------

    @property
    def late(self) -> float:
        """1 at the start of the game, 0 on the last turn."""
        return self.turns_left / 24

    def worker_vp(self) -> float:
        return WORKER_VP + (0.4 if self.workers <= 1 else 0.0)

    def cost(self, rolled: int, target: int, free: int) -> int:
        need = DIST[rolled][target] - free
        if need <= 0:
            return 0
        return (need + 1) >> 1 if 8 in self.know else need

    def goods_tile_vp(self) -> float:
        """A goods tile held now: its 1 VP at the end, or more if it can still be sold."""
        if self.turns_left <= 0:
            return 1.0
        sale = self.n if self.sale_per_tile else 1.0
        return 1.0 + 0.55 * (sale - 1.0) * min(1.0, self.turns_left / 4)

    def sale_vp(self, g: int) -> float:
        count = self.goods[g]
        if count <= 0:
            return -1.0
        vp = float(self.n * count if self.sale_per_tile else self.n)
        vp += (2 if 3 in self.know else 1) * SILVER_VP
        if 4 in self.know:
            vp += self.worker_vp()
        if 25 in self.know:
            vp += count
        if 15 in self.know and g not in self.sold_set:
            vp += 3.0
        return vp - count * self.goods_tile_vp() * 0.55

    def ship_goods(self, mask: int) -> tuple[float, int]:
        """VP of the goods a ship would take from the depots in ``mask`` (and how many new kinds)."""
        goods = self.goods
        held = sum(1 for g in range(1, 7) if goods[g])
        free = 3 - held
        gain = 0
        new_counts = []
        for g in range(1, 7):
            total = sum(self.depot_goods[d][g] for d in range(1, 7) if mask >> d & 1)
            if not total:
                continue
            if goods[g]:
                gain += total
            else:
                new_counts.append(total)
        new_counts.sort(reverse=True)
        gain += sum(new_counts[:free])
        return gain * self.goods_tile_vp(), len(new_counts)

    def best_ship_vp(self) -> float:
        if self._best_ship is None:
            masks = [1 << d for d in range(1, 7)]
            if 5 in self.know:
                masks += [(1 << d) | (1 << (d % 6 + 1)) for d in range(1, 7)]
            self._best_ship = max(self.ship_goods(m)[0] for m in masks)
        return self._best_ship

    def best_take_vp(self, types: Sequence[int]) -> float:
        best = 0.0
        for d in range(1, 7):
            for t in self.depots.get(d, ()):
                if TILE_TYPE[t] in types:
                    best = max(best, self.store_vp(t))
        return best

    def knowledge_vp(self, number: int) -> float:
        late = self.late
        if number == 1:
            return 1.5 * late
        if number == 2:
            return (self.mines + 1.5 * late) * (4 - self.phase) * 0.5
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
            return 3.0 * min(6, self.sold_kinds + 3 * late + (1 if any(self.goods) else 0))
        if 16 <= number <= 23:
            building = FIRST_BUILDING + number - 16
            return 4.0 * (self.buildings[building] + 1.2 * late)
        if number == 24:
            return 4.0 * min(4, len(self.animal_kinds) + 2 * late)
        if number == 25:
            return self.sold_tiles + 8 * late
        if number == 26:
            return 2.0 * (self.my_bonus + 2 * late)
        return 0.0

    # --- placements ---------------------------------------------------------------------------------

    def place_vp(self, tile: int, space: int) -> float:
        """VP now plus expected later from putting ``tile`` on empty ``space`` (without worker costs)."""
        geo = self.geo
        if geo is None:
            return 0.0
        t = TILE_TYPE[tile]
        region = geo.region_of[space]
        members = geo.regions[region]
        size = len(members)
        left = self.region_left[region] - 1
        full = REGION_VP[size] + PHASE_BONUS[self.phase]
        if left <= 0:
            vp = float(full)
        else:
            # a share of the region's value, larger the nearer it is to completion
            future_bonus = PHASE_BONUS[min(4, self.phase + (left + 1) // 3)]
            vp = (REGION_VP[size] + future_bonus) / (left + 1) * (0.45 + 0.3 * self.late)
        if self.colour_left[t] == 1:
            vp += self.colour_bonus[t]
        elif self.colour_bonus[t]:
            vp += self.colour_bonus[t] / (self.colour_left[t] + 1) * 0.3
        vp += 0.3  # one empty space fewer (final tie-break, and board presence)
        estate = self.estate
        opened = sum(1 for nb in NEIGHBOURS[space] if estate[nb] < 0 and not self.frontier[nb])
        vp += 0.08 * opened * self.late
        if t == A_:
            kind = ANIMAL_KIND[tile]
            animals = ANIMAL_COUNT[tile]
            tiles = 1
            for s in members:
                other = estate[s]
                if other >= 0 and ANIMAL_KIND[other] == kind:
                    animals += ANIMAL_COUNT[other]
                    tiles += 1
            vp += animals + (tiles if 7 in self.know else 0)
            if 24 in self.know and kind not in self.animal_kinds:
                vp += 4
        elif t == S_:
            vp += 0.8 * self.late + self.best_ship_vp()
        elif t == C_:
            vp += CASTLE_ACTION_VP * (0.6 + 0.4 * self.late)
        elif t == M_:
            phase_ends = 5 - self.phase
            vp += phase_ends * (SILVER_VP + (self.worker_vp() if 2 in self.know else 0.0)) * 0.9
        elif t == K_:
            vp += self.knowledge_vp(KNOWLEDGE_NUMBER[tile])
        else:
            vp += self.building_vp(tile)
            k = 16 + tile - FIRST_BUILDING
            if k in self.know:
                vp += 4
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
        return 0.8 * self.best_take_vp(_BUILD_TAKES.get(tile, ()))

    def placeable(self, tile: int, space: int) -> bool:
        geo = self.geo
        if geo is None or self.estate[space] >= 0 or geo.types[space] != TILE_TYPE[tile]:
            return False
        # once per city, unless K01
        return TILE_TYPE[tile] != B_ or 1 in self.know or tile not in self.city_has[geo.region_of[space]]

    def place_vp_best(self, tile: int, nested: bool = False) -> float:
        """Best placement of ``tile`` anywhere legal now (frontier), for castles and City Hall."""
        best = 0.0
        t = TILE_TYPE[tile]
        if nested and t in (B_, C_):  # avoid chains of estimates
            return 2.0
        for s in range(1, SPACES + 1):
            if self.frontier[s] and self.placeable(tile, s):
                best = max(best, self.place_vp(tile, s))
        return best

    def store_vp(self, tile: int) -> float:
        """Worth of holding ``tile`` in storage: its placement with a die still left this turn, or a
        share of its best future placement."""
        key = (tile, self.other_dice)
        cached = self._tile_cache.get(key)
        if cached is not None:
            return cached
        t = TILE_TYPE[tile]
        free = 1 if _FREE_PLACE_K[t] in self.know else 0
        best = -1.0
        now = -1.0  # placed with a die left this turn
        for s in range(1, SPACES + 1):
            if self.placeable(tile, s):
                # buildings and castles: no recursion into nested effects
                v = self.place_vp_shallow(tile, s) if t in (B_, C_) else self.place_vp(tile, s)
                if self.frontier[s]:
                    for die in self.other_dice:
                        spend = self.cost(die, SPACE_DIE[s], free)
                        if spend <= self.workers:
                            now = max(now, 0.9 * v - spend * self.worker_vp())
                else:
                    v *= 0.6
                best = max(best, v)
        later = best * STORE_DISCOUNT if best > 0 else -1.0
        value = max(0.0 if self.turns_left <= 0 else later, now)
        self._tile_cache[key] = value
        return value

    def place_vp_shallow(self, tile: int, space: int) -> float:
        t = TILE_TYPE[tile]
        if t == C_:
            return self.place_vp(tile, space)
        # buildings: region and colour part plus a flat effect estimate
        base = self.place_vp(WATCHTOWER, space) - 4.0 if tile != WATCHTOWER else self.place_vp(tile, space)
        if tile == WATCHTOWER:
            return base
        if tile in (CARPENTER, CHURCH, MARKET):
            return base + 2.5 * (0.4 + 0.6 * self.late)
        if tile == CITYHALL:
            return base + 3.5 * (0.4 + 0.6 * self.late)
        if tile == WAREHOUSE:
            return base + self.building_vp(tile) * 0.8
        return base + self.building_vp(tile)

    def storage_penalty(self, extra: int = 1) -> float:
        """Cost of storage overflow: the least valuable tile has to go."""
        if len(self.storage) + extra <= 3:
            return 0.0
        return max(0.0, min(self.store_vp(t) for t in self.storage))


class HeuristicBot:
    """Castles of Burgundy rules of thumb (module docstring); one view and at most two clones a decision."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState[Any]) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        ctx = _Ctx(view, seat, dict(state.options))
        pending = view.get("pending") or {}
        kind = pending.get("kind")
        rolled = int(pending.get("die", 0)) if kind == "die" else 0
        noise = self.rng.random
        if kind is None:  # the turn: a worthwhile purchase first (a die may then place it), dice, pass
            buys = [(self._score(state, ctx, x, 0, kind), x) for x in legal if _parse(str(x))[0] == "buy"]
            dice = [x for x in legal if _parse(str(x))[0] == "die"]
            if buys:
                score, action = max(buys, key=lambda item: item[0] + noise() * 1e-3)
                if score > 0.0:
                    return action
            if dice:
                if len(dice) == 1:
                    return dice[0]
                return max(dice, key=lambda x: self._die_vp(state, ctx, x, _parse(str(x))[1]) + noise() * 1e-3)
            return next(x for x in legal if str(x) == "pass")
        best = legal[0]
        best_score = float("-inf")
        for action in legal:
            score = self._score(state, ctx, action, rolled, kind) + noise() * 1e-3
            if score > best_score:
                best, best_score = action, score
        return best

    def ranked(self, state: GameState[Any]) -> list[Any]:
        """Every legal action, best first by the same valuation as ``choose`` (for search candidates).

        At the start of a turn a worthwhile purchase ranks above the dice, as ``choose`` plays it."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return list(legal)
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        ctx = _Ctx(view, seat, dict(state.options))
        pending = view.get("pending") or {}
        kind = pending.get("kind")
        rolled = int(pending.get("die", 0)) if kind == "die" else 0
        scored: list[tuple[float, int, Any]] = []
        for index, action in enumerate(legal):
            if kind is None:
                verb, a, _ = _parse(str(action))
                if verb == "buy":
                    value = self._score(state, ctx, action, 0, kind)
                    value = 1000.0 + value if value > 0.0 else value - 1000.0
                elif verb == "die":
                    value = self._die_vp(state, ctx, action, a)
                else:  # pass
                    value = -500.0
            else:
                value = self._score(state, ctx, action, rolled, kind)
            scored.append((value, -index, action))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [action for _, _, action in scored]

    # ------------------------------------------------------------------------------------------------

    def _score(self, state: GameState[Any], ctx: _Ctx, action: Any, rolled: int, kind: str | None) -> float:
        verb, a, b = _parse(str(action))
        if verb == "die":
            return self._die_vp(state, ctx, action, a)
        if verb == "pass":
            return 0.0
        if verb == "buy":
            return ctx.store_vp(b) - 2 * SILVER_VP - 0.8 - ctx.storage_penalty()
        if verb in ("take", "place", "sell", "workers"):
            return self._action_vp(ctx, verb, a, b, rolled if kind == "die" else 0)
        if verb == "discard":
            return -ctx.store_vp(a)
        if verb == "ship":
            gain, _ = ctx.ship_goods(a)
            return gain
        if verb == "keep":
            total = 0
            for g in range(1, 7):
                if a >> g & 1:
                    total += sum(ctx.depot_goods[d][g] for d in range(1, 7)) + 3 * ctx.goods[g]
            return float(total)
        if verb == "skip":
            return 0.0
        if verb == "board":
            return 1.0 if a == 1 else -a * 0.01
        if verb == "start":
            return float(len(NEIGHBOURS[a]))
        return 0.0

    def _action_vp(self, ctx: _Ctx, verb: str, a: int, b: int, rolled: int) -> float:
        """A die action (``rolled`` > 0, workers charged) or a free one (castle bonus, building effect)."""
        if verb == "workers":
            gained = 4 if 14 in ctx.know else 2
            vp = gained * ctx.worker_vp() * (0.45 + 0.35 * ctx.late)
            if ctx.workers == 0:
                vp += 0.8
            if 13 in ctx.know:
                vp += SILVER_VP
            return vp
        if verb == "take":
            vp = ctx.store_vp(b) - ctx.storage_penalty()
            if rolled:
                vp -= ctx.cost(rolled, a, 1 if 12 in ctx.know else 0) * ctx.worker_vp()
            return vp
        if verb == "place":
            vp = ctx.place_vp(a, b)
            if rolled:
                free = 1 if _FREE_PLACE_K[TILE_TYPE[a]] in ctx.know else 0
                vp -= ctx.cost(rolled, SPACE_DIE[b], free) * ctx.worker_vp()
            return vp
        # sell
        vp = ctx.sale_vp(a)
        if rolled:
            vp -= ctx.cost(rolled, a, 0) * ctx.worker_vp()
        return vp

    def _die_vp(self, state: GameState[Any], ctx: _Ctx, action: Any, r: int) -> float:
        """A die is worth the best action it allows (one clone, one legal-action listing)."""
        child = state.clone()
        child.apply(action)
        others = list(ctx.dice_left)
        if r in others:
            others.remove(r)
        ctx.other_dice = tuple(others)
        best = float("-inf")
        for follow in child.legal_actions():
            verb, a, b = _parse(str(follow))
            if verb in ("take", "place", "sell", "workers"):
                best = max(best, self._action_vp(ctx, verb, a, b, r))
        return best
