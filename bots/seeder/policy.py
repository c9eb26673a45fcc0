"""The `seeder` bot's policy, compiled: the first move that applies, one per call.

  COMPLETE  late only: in the last `complete_max_left` days while its size-3 trees number at least
            `sell_ratio` times the days left or while it holds `sell_sun` sun, and on the last day whenever
            the points beat the sun bonus the 4 sun points would have given;
  SEED      while a seed is cheap and it owns fewer than `seed_max_trees` trees: the best free cell at
            `seed_min_dist` or more from its own trees, scored by richness, whether the opponent could seed
            it next, the opponent's and its own trees on its shadow lines; from the smallest tree reaching it;
  GROW      the best tree by size (small first by default), richness and cost, while it can still reach size
            3 in time; `seed_first` = 0 puts GROW before SEED;
  WAIT      otherwise.

Written in the portable subset of `export/transpile.py`; the player p is only an index.
"""
from __future__ import annotations

from bots.seeder.schema import SCHEMA
from bots.shared.cells import reach_of, richest, seed_source, spread
from bots.shared.growth import best_grow
from bots.shared.sunlight import LINES
from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount

P_COMPLETE_MAX_LEFT = SCHEMA.index("complete_max_left")
P_SELL_RATIO = SCHEMA.index("sell_ratio")
P_SELL_SUN = SCHEMA.index("sell_sun")
P_LAST_MARGIN = SCHEMA.index("last_margin")
P_GROW_W_SIZE = SCHEMA.index("grow_w_size")
P_GROW_W_RICH = SCHEMA.index("grow_w_rich")
P_GROW_W_COST = SCHEMA.index("grow_w_cost")
P_GROW_SPARE_DAYS = SCHEMA.index("grow_spare_days")
P_SEED_MAX_COST = SCHEMA.index("seed_max_cost")
P_SEED_MAX_TREES = SCHEMA.index("seed_max_trees")
P_SEED_MIN_LEFT = SCHEMA.index("seed_min_left")
P_SEED_MIN_DIST = SCHEMA.index("seed_min_dist")
P_SEED_W_RICH = SCHEMA.index("seed_w_rich")
P_SEED_W_BLOCK = SCHEMA.index("seed_w_block")
P_SEED_W_SHADE = SCHEMA.index("seed_w_shade")
P_SEED_W_OWN = SCHEMA.index("seed_w_own")
P_SEED_FIRST = SCHEMA.index("seed_first")


@hot
def wants_complete(mp, s, p, params, c, left):
    """Should player p complete its ready size-3 tree on c now (it has the sun)?"""
    if left <= 0:
        sun = s.sun[p]
        lost = sun // 3 - (sun - rules.COMPLETE_COST) // 3
        return s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]] - lost > params[P_LAST_MARGIN]
    if left > params[P_COMPLETE_MAX_LEFT]:
        return False
    if s.sun[p] >= params[P_SELL_SUN]:
        return True
    return popcount(s.mine[p] & s.trees[3]) >= params[P_SELL_RATIO] * left


@kernel
def best_seed(mp, s, p, params, left, ready):
    """The SEED as (source, target), or (-1, -1)."""
    mine = s.mine[p]
    opp = s.mine[1 - p]
    cost = popcount(mine & s.trees[0])
    if cost > s.sun[p] or cost > params[P_SEED_MAX_COST] or left < params[P_SEED_MIN_LEFT]:
        return -1, -1
    if popcount(mine) >= params[P_SEED_MAX_TREES]:
        return -1, -1
    sources = ready & ~s.trees[0]
    blocked = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3] | mp.by_richness[0]
    gap = int(params[P_SEED_MIN_DIST]) - 1
    if gap > 0:
        blocked |= spread(mine, gap)
    candidates = reach_of(s, sources) & ~blocked
    contested = reach_of(s, opp)
    grown_opp = opp & ~s.trees[0]
    target = -1
    best = 0.0
    while candidates:
        t = lowest_bit(candidates)
        candidates &= candidates - 1
        score = params[P_SEED_W_RICH] * mp.richness[t] + params[P_SEED_W_SHADE] * popcount(LINES[t] & grown_opp)
        score -= params[P_SEED_W_OWN] * popcount(LINES[t] & mine)
        if (contested >> t) & 1:
            score += params[P_SEED_W_BLOCK]
        if target < 0 or score > best:
            target = t
            best = score
    if target < 0:
        return -1, -1
    return seed_source(s, sources, target), target


@kernel
def seeder_move(mp, s, p, seat):
    """Player p's move (kind, a, b)."""
    params = seat.params
    ready = s.mine[p] & ~s.dormant
    left = mp.max_days - 1 - s.day
    ready3 = ready & s.trees[3]
    if ready3 != 0 and s.sun[p] >= rules.COMPLETE_COST:
        c = richest(mp, ready3)
        if wants_complete(mp, s, p, params, c, left):
            return rules.COMPLETE, c, 0
    seed_step = 1
    if params[P_SEED_FIRST] > 0.5:
        seed_step = 0
    for step in range(2):
        if step == seed_step:
            if mp.can_seed:
                a, b = best_seed(mp, s, p, params, left, ready)
                if a >= 0:
                    return rules.SEED, a, b
        elif mp.can_grow and left > 0:
            c = best_grow(mp, s, p, ready, left, params[P_GROW_SPARE_DAYS], params[P_GROW_W_SIZE],
                          params[P_GROW_W_COST], params[P_GROW_W_RICH])
            if c >= 0:
                return rules.GROW, c, 0
    return rules.WAIT, 0, 0
