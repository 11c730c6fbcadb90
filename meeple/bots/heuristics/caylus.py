"""A rule-of-thumb Caylus player: every legal action gets a cheap score, the best one is played.

Caylus hides nothing (rules §6); the bot reads its seat's lens (``state.lens(seat)``,
``meeple/games/caylus/observation.py``: road, workers, provost, bailiff, castle, cubes, deniers, favour
markers, and the engine's answers for prices, the castle section and the lawyer's targets) and never
searches. Each decision costs a few dozen arithmetic operations; there is no clone and no lookahead.

Rules of thumb it follows:

* **Cubes are valued by need.** Food first (every castle batch needs one), then stone and wood (the
  stone and wood buildings, the prestige buildings), cloth for batches, the joust and the lawyer; gold
  is worth its 3 PP and more. The marginal value of a cube falls as the bot holds more of that colour,
  and every plain cube drops to its end-of-game worth (1/3 PP) in the last turns.
* **Worker placement** (and where the gate sends a worker): each target is worth what its activation
  would bring — the best production given the cubes the bot already has *plus* what its workers
  already on the road will produce this turn; a building for the carpenter/mason/architect only if the
  bot can pay for one; a sale only of a surplus cube — times the chance that the provost still reaches
  the space (sure well behind him, unlikely far beyond him). The price in deniers is subtracted (a
  denier is worth about half a PP, more when the purse is low, a quarter at the very end) and the bot
  passes as soon as nothing is worth its price (first to pass takes the extra denier).
* **Castle:** it sends a worker only when it can (with this turn's production) give at least one batch,
  and values the first house of a section highly (it avoids the −2/−3/−4 section penalty and earns the
  section's favours). In the castle it gives every batch it can, cheapest cubes first (gold last),
  while the section's prestige is worth the cubes.
* **Special buildings:** the trading post for its 3 d, the joust when a cloth and a denier are spare,
  the inn in games of 3+ players while many turns remain (cheap placements next turn), the stables for
  turn order, the guild for provost control when it has workers to protect, the gate as a late-fill
  worth a fraction of the best free space.
* **Buildings to build:** prestige now plus a use value over the turns left (production buildings
  earn 1 PP whenever someone else uses them, and are 1 d for the owner); the lawyer converts a
  neutral tile into a residence (+2 PP and +1 d a turn) when turns remain; the architect builds the
  biggest prestige building it can afford.
* **Provost (and the guild):** it moves the provost so that its own workers are activated and as many
  opponents' workers as possible are not, paying a denier per space only when that gains more than
  the deniers are worth.
* **Royal favours by game stage:** each row is worth what it gives now (PP, deniers, a needed cube, a
  building at a discount) plus, early in the game, a bonus for moving up the prestige and resource rows
  whose later favours pay more.
* **Phase 5 conversions:** the church, tailor, bank, alchemist and jeweller are used when the prestige
  or gold gained beats the value of what is paid; markets sell only the least needed cube; peddlers
  buy the most needed cubes.

Ties are broken by a tiny noise from the bot's own seeded generator, so a seed gives the same play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from meeple.bots.heuristics import noisy_best
from meeple.core.contract import GameState
from meeple.core.rng import Rng
from meeple.games.caylus import actions as A
from meeple.games.caylus.actions import Act
from meeple.games.caylus.data import (
    E_ALCHEMIST,
    E_ARCHITECT,
    E_BANK,
    E_CARPENTER,
    E_CHURCH,
    E_JEWELLER,
    E_LAWYER,
    E_MARKET,
    E_MASON,
    E_PEDDLER,
    E_PRODUCE,
    E_PRODUCE_BONUS,
    E_TAILOR,
    FIXED,
    LAST_SPACE,
    LOTS,
    NEUTRAL,
    PRESTIGE,
    PRESTIGE_IDS,
    RESIDENCE_ID,
    ROW_BLD,
    ROW_MONEY,
    ROW_PP,
    ROW_RES,
    SECTION_MARK,
    SECTION_PP,
    SECTION_SCORING,
    SECTION_SIZE,
    STONE,
    STONE_IDS,
    T_CASTLE,
    T_GATE,
    T_GUILD,
    T_INN,
    T_JOUST,
    T_STABLES,
    T_TRADING_POST,
    TILES,
    WOOD,
    WOOD_IDS,
    C,
    F,
    G,
    S,
    W,
)
from meeple.games.caylus.observation import CaylusLens

#: Marginal worth (in PP) of the n-th cube of a colour held, n = 0, 1, 2, ... (the last value repeats).
CUBE_CURVE: tuple[tuple[float, ...], ...] = (
    (2.2, 2.0, 1.7, 1.3, 0.9, 0.6, 0.4),  # food: one per castle batch
    (2.0, 1.8, 1.4, 1.0, 0.7, 0.5, 0.4),  # wood
    (2.2, 2.0, 1.7, 1.3, 1.0, 0.7, 0.5),  # stone
    (1.8, 1.5, 1.1, 0.8, 0.6, 0.4, 0.4),  # cloth
    (4.5, 4.2, 4.0, 3.8, 3.6, 3.5, 3.4),  # gold
)
FAVOUR_WORTH = 3.0
#: Use value per remaining turn of an owned wood/stone building, by tile slug.
USE_PER_TURN = {
    "w_farm_food": 0.5, "w_farm_cloth": 0.45, "w_sawmill": 0.45, "w_quarry": 0.6, "w_market": 0.25,
    "w_peddler": 0.3, "mason": 0.55, "lawyer": 0.3, "s_farm": 0.55, "park": 0.5, "workshop": 0.6,
    "architect": 0.5, "church": 0.35, "tailor": 0.35, "bank": 0.45, "alchemist": 0.4, "jeweller": 0.35,
}


class HeuristicBot:
    """Scores every legal action with the rules of thumb of the module docstring; plays the best."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = Rng(seed)

    # --- entry point ------------------------------------------------------------------------------

    def choose(self, state: GameState[Any]) -> Any:
        legal: Sequence[Act] = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        if me is None:
            raise ValueError("the game is over")
        ctx = _Context(cast(CaylusLens, state.lens(me)))
        # activate, bonus, favour_res and favour_bld: the effect of a building or a favour
        score = _SCORES.get(ctx.pending, _Context.effect_score)
        return noisy_best(legal, [score(ctx, act) for act in legal], self.rng)


class _Context:
    """What one decision needs to know about the position, read once from the seat's lens."""

    def __init__(self, lens: CaylusLens) -> None:
        self.lens = lens
        self.me = lens.seat
        self.n = lens.players
        self.pending = lens.pending
        self.turns_left = _turns_left(lens)
        self.held = lens.my_cubes[:]
        self.money = lens.my_deniers
        # the road as the engine keeps it, indexed by space (read-only)
        self.tiles = lens.space_tiles
        self.owners = lens.space_owners
        self.workers = lens.space_workers
        self.provost = lens.provost
        self.built_lots = lens.built_lots
        self.last = self.turns_left <= 1.0
        if self.last:
            self.mv = 0.3
        elif self.money <= 3:
            self.mv = 0.9
        else:
            self.mv = 0.7
        self._expected: list[int] | None = None
        self._stock: tuple[int, ...] | None = None
        # target_value and _best_free by (budget, target) and budget: a placement decision asks for
        # the same space again for the gate's worth (and the budget takes two values at most)
        self._targets: dict[int, float] = {}
        self._best_frees: dict[int, float] = {}
        self._builds: dict[int, float] = {}
        self._owns_residence: bool | None = None

    # --- values ---------------------------------------------------------------------------------

    def cube_value(self, k: int, have: int) -> float:
        if self.last and k != G:
            return 0.4
        curve = CUBE_CURVE[k]
        return curve[have if have < len(curve) else -1]

    def gain(self, base: Sequence[int], add: Sequence[int]) -> float:
        """Worth of adding the cubes ``add`` to a stock ``base``: the sum of ``cube_value(k, base[k] + i)``
        (inlined, in the same order: a few dozen of them a decision)."""
        total = 0.0
        last = self.last
        for k in range(5):
            count = add[k]
            if not count:
                continue
            curve = CUBE_CURVE[k]
            flat = last and k != G
            start = base[k]
            for i in range(count):
                have = start + i
                total += 0.4 if flat else curve[have if have < len(curve) else -1]
        return total

    def loss(self, base: Sequence[int], take: Sequence[int]) -> float:
        """Worth of giving up the cubes ``take`` from ``base`` (the last ones held go first): the sum of
        ``cube_value(k, max(base[k] - 1 - i, 0))``, inlined as in ``gain``."""
        total = 0.0
        last = self.last
        for k in range(5):
            count = take[k]
            if not count:
                continue
            curve = CUBE_CURVE[k]
            flat = last and k != G
            start = base[k] - 1
            for i in range(count):
                have = start - i
                if have < 0:
                    have = 0
                total += 0.4 if flat else curve[have if have < len(curve) else -1]
        return total

    def expected(self) -> list[int]:
        """The cubes held plus what the bot's workers already on the road should produce this turn."""
        if self._expected is None:
            e = self.held[:]
            provost = self.provost
            workers = self.workers
            for sp in range(1, LAST_SPACE + 1):
                if workers[sp] == self.me and sp <= provost + 1:
                    tile = TILES[self.tiles[sp]]
                    if tile.effect in (E_PRODUCE, E_PRODUCE_BONUS) and tile.produce:
                        best = max(tile.produce, key=lambda c: self.gain(e, c))
                        for k in range(5):
                            e[k] += best[k]
            self._expected = e
        return self._expected

    def building_value(self, t: int) -> float:
        """Worth of owning wood/stone tile ``t`` (prestige now, use over the turns left)."""
        tile = TILES[t]
        pp = float(self.lens.lawyer_pp if tile.slug == "lawyer" else tile.prestige)
        return pp + tile.favours * FAVOUR_WORTH + 0.6 * USE_PER_TURN.get(tile.slug, 0.3) * self.turns_left

    def prestige_value(self, t: int) -> float:
        tile = TILES[t]
        return tile.prestige + tile.favours * FAVOUR_WORTH + tile.income * self.turns_left * self.mv - 2.0

    def best_build(self, have: Sequence[int], kind: int, discount: int = -1) -> float:
        """Best net worth of building one tile of ``kind`` from the cubes ``have``; 0 if none (kept
        for the rest of the decision when ``have`` is the cubes held or expected: every carpenter,
        mason or architect space on the road asks the same)."""
        if have is self.held:
            key = (kind * 8 + discount) * 2
        elif have is self._expected:
            key = (kind * 8 + discount) * 2 + 1
        else:
            return self._best_build(have, kind, discount)
        builds = self._builds
        value = builds.get(key)
        if value is None:
            value = builds[key] = self._best_build(have, kind, discount)
        return value

    def _best_build(self, have: Sequence[int], kind: int, discount: int) -> float:
        best = 0.0
        if kind == PRESTIGE:
            if not self.owns_residence():
                return 0.0
            ids: tuple[int, ...] = PRESTIGE_IDS
        else:
            if self.built_lots >= len(LOTS):
                return 0.0
            ids = WOOD_IDS if kind == WOOD else STONE_IDS
        stock = self._stock
        if stock is None:
            stock = self._stock = self.lens.stock
        h0, h1, h2, h3, h4 = have
        for t in ids:
            if not stock[t]:
                continue
            tile = TILES[t]
            need = list(tile.cost)
            if discount >= 0 and need[discount]:
                need[discount] -= 1
            if tile.any_cube:
                cheapest = min(range(5), key=lambda k: self.cube_value(k, max(have[k] - need[k] - 1, 0))
                               if have[k] > need[k] else 99.0)
                need[cheapest] += 1
            if h0 >= need[0] and h1 >= need[1] and h2 >= need[2] and h3 >= need[3] and h4 >= need[4]:
                worth = (self.prestige_value(t) if kind == PRESTIGE else self.building_value(t))
                worth -= 0.7 * self.loss(have, need)
                best = max(best, worth)
        return best

    def owns_residence(self) -> bool:
        """Whether the seat owns a residence on the road (an architect builds only on one)."""
        owns = self._owns_residence
        if owns is None:
            tiles, owners, me = self.tiles, self.owners, self.me
            owns = self._owns_residence = any(tiles[sp] == RESIDENCE_ID and owners[sp] == me
                                              for sp in range(1, LAST_SPACE + 1))
        return owns

    def lawyer_value(self, space: int) -> float:
        t = self.tiles[space]
        worth = 2.0 + self.turns_left * self.mv + 1.0
        if TILES[t].kind != NEUTRAL:
            worth -= self.building_value(t) - TILES[t].prestige
        return worth

    def batches(self, have: Sequence[int]) -> tuple[int, float]:
        """How many castle batches ``have`` allows (cheapest first) and the worth of the cubes used."""
        h = list(have)
        count = 0
        used = 0.0
        while h[F] > 0:
            others = sorted((k for k in (W, S, C, G) if h[k] > 0), key=lambda k: self.cube_value(k, h[k] - 1))
            if len(others) < 2:
                break
            take = [0, 0, 0, 0, 0]
            take[F] = 1
            take[others[0]] = 1
            take[others[1]] = 1
            used += self.loss(h, take)
            for k in range(5):
                h[k] -= take[k]
            count += 1
        return count, used

    def castle_worth(self, have: Sequence[int]) -> float:
        lens = self.lens
        section = lens.castle_section()
        if section < 0:
            return -1.0
        count, used = self.batches(have)
        if count == 0:
            return -2.5
        room = SECTION_SIZE[section] - lens.castle_filled[section] - len(lens.castle_workers)
        worth = 0.0
        mine = lens.houses[section][self.me]
        for i in range(min(count, 3)):
            x = section if i < max(room, 1) else min(section + 1, 2)
            worth += SECTION_PP[x]
            if i == 0 and mine == 0:
                worth += -SECTION_SCORING[x][0] + FAVOUR_WORTH
        worth += 1.5  # a fair chance at the best builder's favour
        return 1.3 * worth - 0.55 * used * (min(count, 3) / count)

    def activation(self, space: int, have: Sequence[int], money: int) -> float:
        """Worth of activating road space ``space`` with the cubes ``have`` and ``money`` deniers."""
        tile = TILES[self.tiles[space]]
        effect = tile.effect
        mv = self.mv
        if effect in (E_PRODUCE, E_PRODUCE_BONUS):
            produce = tile.produce
            if len(produce) == 1:
                return self.gain(have, produce[0])
            return max(self.gain(have, c) for c in produce)
        if effect == E_MARKET:
            price = 4 if tile.kind == NEUTRAL else 6
            cheapest = min((self.cube_value(k, have[k] - 1) for k in range(5) if have[k]), default=None)
            return 0.0 if cheapest is None else max(0.0, price * mv - cheapest)
        if effect == E_PEDDLER:
            values = sorted((self.cube_value(k, have[k]) for k in (F, W, S, C)), reverse=True)
            if tile.kind == FIXED:
                return max(0.0, values[0] - 2 * mv) if money >= 2 else 0.0
            best = max(0.0, values[0] - mv) if money >= 1 else 0.0
            if money >= 2:
                best = max(best, values[0] + values[1] - 2 * mv)
            return best
        if effect == E_CARPENTER:
            return self.best_build(have, WOOD)
        if effect == E_MASON:
            return self.best_build(have, STONE)
        if effect == E_ARCHITECT:
            return self.best_build(have, PRESTIGE)
        if effect == E_LAWYER:
            if money < 1 or not have[C]:
                return 0.0
            targets = self.lens.lawyer_targets()
            if not targets:
                return 0.0
            return max(self.lawyer_value(x) for x in targets) - mv - self.cube_value(C, have[C] - 1)
        if effect == E_CHURCH:
            return max(0.0, 5 - 4 * mv if money >= 4 else 3 - 2 * mv if money >= 2 else 0.0)
        if effect == E_TAILOR:
            if have[C] >= 3:
                return max(0.0, 6 - self.loss(have, (0, 0, 0, 3, 0)))
            if have[C] >= 2:
                return max(0.0, 4 - self.loss(have, (0, 0, 0, 2, 0)))
            return 0.0
        if effect == E_BANK:
            if money >= 5:
                return max(0.0, self.gain(have, (0, 0, 0, 0, 2)) - 5 * mv)
            if money >= 2:
                return max(0.0, self.gain(have, (0, 0, 0, 0, 1)) - 2 * mv)
            return 0.0
        if effect == E_ALCHEMIST:
            surplus = sorted(self.cube_value(k, have[k] - 1 - i) for k in (F, W, S, C) for i in range(have[k]))
            if len(surplus) >= 2:
                return max(0.0, self.gain(have, (0, 0, 0, 0, 1)) - surplus[0] - surplus[1])
            return 0.0
        if effect == E_JEWELLER:
            if have[G] >= 2:
                return max(0.0, 9 - self.loss(have, (0, 0, 0, 0, 2)))
            if have[G] >= 1:
                return max(0.0, 5 - self.loss(have, (0, 0, 0, 0, 1)))
            return 0.0
        return 0.0

    # --- phase 2: placement (and the gate) ----------------------------------------------------------

    def target_value(self, target: int, budget: int) -> float:
        """Worth of a worker on ``target`` (a road space or a special building) with ``budget`` deniers
        left after paying for it (kept for the rest of the decision)."""
        key = budget * 64 + target  # targets are below 64
        value = self._targets.get(key)
        if value is None:
            value = self._targets[key] = self._target_value(target, budget)
        return value

    def _target_value(self, target: int, budget: int) -> float:
        me = self.me
        if target <= LAST_SPACE:
            have = self._expected
            if have is None:
                have = self.expected()
            value = _REACH[target - self.provost + _REACH_ZERO] * self.activation(target, have, budget)
            owner = self.owners[target]
            if owner >= 0 and owner != me:
                value -= 0.25
            return value
        if target == T_CASTLE:
            return self.castle_worth(self.expected())
        if target == T_TRADING_POST:
            return 3 * self.mv
        if target == T_JOUST:
            if self.held[C] >= 1 and budget >= 1:
                return FAVOUR_WORTH - self.mv - self.cube_value(C, self.held[C] - 1) - 0.3
            return -1.0
        if target == T_INN:
            if self.n >= 3 and self.turns_left >= 3:
                return 0.4 + 0.25 * (self.n - 2)
            return -1.0
        if target == T_STABLES:
            return 0.3 if self.turns_left >= 2 else -1.0
        if target == T_GUILD:
            provost, workers = self.provost, self.workers
            far = sum(1 for sp in range(provost + 1, min(provost + 4, LAST_SPACE + 1)) if workers[sp] == me)
            return 0.4 + 1.2 * far
        if target == T_GATE:
            return -1.0
        return -1.0

    def place_score(self, act: Act) -> float:
        if act.kind == A.K_PASS:
            return FIRST_PASS_WORTH * self.mv if not self.lens.passing_order else 0.0
        target = act.a
        price = self.lens.price(target)
        budget = self.money - price
        if target == T_GATE:
            value = 0.5 * self._best_free(budget)
        else:  # target_value, inlined: every placement decision scores a score of targets
            key = budget * 64 + target
            found = self._targets.get(key)
            value = self._targets[key] = self._target_value(target, budget) if found is None else found
        # Keep a denier or two for the activations that cost money when the purse runs dry.
        reserve = 0.4 if budget < 2 else 0.0
        return value - price * self.mv - reserve - 0.2

    def _best_free(self, budget: int) -> float:
        """The best free road space's worth with ``budget`` deniers (the gate may send a worker there)."""
        best = self._best_frees.get(budget)
        if best is None:
            best = self._best_frees[budget] = self._scan_free(budget)
        return best

    def _scan_free(self, budget: int) -> float:
        best = 0.0
        tiles, workers = self.tiles, self.workers
        for sp in range(1, LAST_SPACE + 1):
            if workers[sp] < 0 and tiles[sp] in _GATE_TILES:
                best = max(best, self.target_value(sp, budget))
        return best

    def gate_score(self, act: Act) -> float:
        if act.a == 0:
            return 0.0
        return self.target_value(act.a, self.money) - (0.0 if act.a != T_GATE else 1.0)

    # --- phase 3/4: provost, joust, inn -------------------------------------------------------------

    def provost_score(self, act: Act) -> float:
        me = self.me
        new = self.provost + act.a
        have = self.held
        value = 0.0
        workers = self.workers
        for sp in range(1, LAST_SPACE + 1):
            w = workers[sp]
            if w < 0 or sp > new:
                continue
            if w == me:
                value += self.activation(sp, have, self.money)
            else:
                value -= 0.6
        cost = abs(act.a) * self.mv if self.pending == "provost" else 0.0
        return value - cost - 0.01 * abs(act.a)

    def joust_score(self, act: Act) -> float:
        if act.a == 0:
            return 0.0
        return FAVOUR_WORTH - self.mv - self.cube_value(C, self.held[C] - 1)

    def inn_score(self, act: Act) -> float:
        if act.a == 0:
            return 0.0
        return 0.5 if self.n >= 3 and self.turns_left >= 2 else -0.5

    # --- phase 6: castle ----------------------------------------------------------------------------

    def castle_score(self, act: Act) -> float:
        lens = self.lens
        if act.kind == A.K_DONE:
            return 0.0
        section = lens.castle_section()
        worth = float(SECTION_PP[section])
        if lens.pending_batches == 0:
            worth += 2.0
        if lens.houses[section][self.me] == 0:
            worth += -SECTION_SCORING[section][0] + FAVOUR_WORTH
        return worth - 0.4 * self.loss(self.held, act.c)

    # --- favours ------------------------------------------------------------------------------------

    def row_score(self, act: Act) -> float:
        row = act.a
        col = self.lens.my_favours[row]
        if col < self.lens.favour_cap:
            col += 1
        growth = 0.35 * min(self.turns_left, 8) / 8 if col < 5 else 0.0
        if row == ROW_PP:
            return col + growth
        if row == ROW_MONEY:
            return (col + 2) * self.mv
        if row == ROW_RES:
            have = self.held
            if col == 1:
                value = self.gain(have, (1, 0, 0, 0, 0))
            elif col == 2:
                value = max(self.gain(have, (0, 1, 0, 0, 0)), self.gain(have, (0, 0, 1, 0, 0)))
            elif col == 3:
                value = max(self.gain(have, (0, 0, 0, 1, 0)), self.gain(have, (0, 1, 0, 0, 0)),
                            self.gain(have, (0, 0, 1, 0, 0)))
            elif col == 4:
                value = max(self.gain(have, (0, 0, 0, 1, 0)), self.gain(have, (0, 0, 1, 0, 0)), 2.0)
            else:
                value = self.gain(have, (0, 0, 0, 0, 1))
            return value + growth
        if row == ROW_BLD:
            have = self.held
            value = 0.0
            if col >= 2:
                value = max(value, self.best_build(have, WOOD, W))
            if col >= 3:
                value = max(value, self.best_build(have, STONE, S))
            if col >= 4 and have[C]:
                targets = self.lens.lawyer_targets()
                if targets:
                    value = max(value, max(self.lawyer_value(x) for x in targets) - self.cube_value(C, have[C] - 1))
            if col >= 5:
                value = max(value, self.best_build(have, PRESTIGE))
            return value + 0.5 * growth
        return 0.0

    # --- phase 5 effects, bonus cubes, favour follow-ups -----------------------------------------

    def effect_score(self, act: Act) -> float:
        kind = act.kind
        have = self.held
        mv = self.mv
        if kind == A.K_SKIP:
            return 0.0
        if kind == A.K_PRODUCE:
            return self.gain(have, act.c)
        if kind == A.K_BONUS or kind == A.K_RES:
            one = [0, 0, 0, 0, 0]
            one[act.a] = 1
            return self.gain(have, one)
        if kind == A.K_TRADE:
            take = [0, 0, 0, 0, 0]
            take[act.a] = 1
            rest = [have[k] - take[k] for k in range(5)]
            return self.gain(rest, act.c) - self.loss(have, take)
        if kind == A.K_SELL:
            take = [0, 0, 0, 0, 0]
            take[act.a] = 1
            price = 4 if TILES[self.tiles[self.lens.pending_space]].kind == NEUTRAL else 6
            return price * mv - self.loss(have, take)
        if kind == A.K_BUY:
            fixed = TILES[self.tiles[self.lens.pending_space]].kind == FIXED
            return self.gain(have, act.c) - (2 if fixed else act.a) * mv
        if kind == A.K_BUILD:
            t = act.a
            tile = TILES[t]
            need = list(tile.cost)
            if self.pending == "favour_bld":
                if tile.kind == WOOD and need[W]:
                    need[W] -= 1
                elif tile.kind == STONE and need[S]:
                    need[S] -= 1
            if tile.any_cube:
                need[act.b] += 1
            worth = self.prestige_value(t) if tile.kind == PRESTIGE else self.building_value(t)
            return worth - 0.7 * self.loss(have, need) + 0.5
        if kind == A.K_LAWYER:
            cost = 0.0 if self.pending == "favour_bld" else mv
            return self.lawyer_value(act.a) - cost - self.cube_value(C, have[C] - 1)
        if kind == A.K_CHURCH:
            return (3 if act.a == 2 else 5) - act.a * mv
        if kind == A.K_TAILOR:
            return (4 if act.a == 2 else 6) - self.loss(have, (0, 0, 0, act.a, 0))
        if kind == A.K_BANK:
            return self.gain(have, (0, 0, 0, 0, 1 if act.a == 2 else 2)) - act.a * mv
        if kind == A.K_ALCH:
            return self.gain(have, (0, 0, 0, 0, act.a)) - self.loss(have, act.c)
        if kind == A.K_JEWEL:
            return (5 if act.a == 1 else 9) - self.loss(have, (0, 0, 0, 0, act.a))
        return 0.0


FIRST_PASS_WORTH = 1.0


def _reach_at(d: int) -> float:
    """The chance that the provost reaches a road space ``d`` spaces beyond where he stands (sure well
    behind him, unlikely far beyond him)."""
    if d <= -3:
        return 1.0
    if d <= 0:
        return 0.92
    if d == 1:
        return 0.6
    if d == 2:
        return 0.45
    if d == 3:
        return 0.3
    return 0.05


#: ``_reach_at(d)`` for every distance between a road space and the provost, at ``d + _REACH_ZERO``.
_REACH_ZERO = LAST_SPACE + 1
_REACH: tuple[float, ...] = tuple(_reach_at(d) for d in range(-_REACH_ZERO, _REACH_ZERO + 1))
#: The tiles on which the gate may send a worker (production, fixed, wood and stone buildings).
_GATE_TILES = frozenset(t for t, tile in enumerate(TILES) if tile.kind in (NEUTRAL, FIXED, WOOD, STONE))


#: the scoring method by decision kind; any other kind (activate, bonus, favour_res, favour_bld) is
#: the effect of a building or a favour
_SCORES: dict[str, Callable[[_Context, Act], float]] = {
    "place": _Context.place_score,
    "gate": _Context.gate_score,
    "provost": _Context.provost_score,
    "guild": _Context.provost_score,
    "castle": _Context.castle_score,
    "favour_row": _Context.row_score,
    "joust": _Context.joust_score,
    "inn": _Context.inn_score,
}


def _turns_left(lens: CaylusLens) -> float:
    """A rough count of the turns left, this one included: the bailiff walks about 1.5 spaces a turn
    towards the Towers mark, and a castle close to full ends the game sooner."""
    by_bailiff = max(0.0, (SECTION_MARK[2] - lens.bailiff) / 1.5) + 1.0
    towers_left = SECTION_SIZE[2] - lens.castle_filled[2] if lens.sections_scored >= 2 else 99
    by_castle = towers_left / max(1.0, lens.players * 0.8) + 1.0
    return min(by_bailiff, by_castle)


__all__ = ["HeuristicBot"]

