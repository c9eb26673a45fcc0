"""The `rush` bot's policy, compiled: the first move that applies, one per call.

  COMPLETE  the richest ready size-3 tree, once at most `complete_max_left` days are left, whenever its
            size-3 trees exceed the small stock it keeps (`keep3`, none in the last `keep_until_left` days);
            on the last day whenever the points beat the sun bonus the 4 sun points would have given;
  GROW      the best tree by size (largest first), richness and cost, while it can still reach size 3 and be
            completed in time;
  SEED      while it owns few trees and a seed is cheap: the richest free cell far enough from its own trees
            (the lowest cell number among equals: toward the centre), from the smallest tree that reaches it;
  WAIT      otherwise.

Written in the portable subset of `export/transpile.py`; the player p is only an index.
"""
from __future__ import annotations

from bots.rush.schema import SCHEMA
from bots.shared.cells import reach_of, richest, seed_source, spread
from bots.shared.growth import best_grow
from engine import rules
from engine.jit import hot, kernel, popcount

P_COMPLETE_MAX_LEFT = SCHEMA.index("complete_max_left")
P_KEEP3 = SCHEMA.index("keep3")
P_KEEP_UNTIL_LEFT = SCHEMA.index("keep_until_left")
P_LAST_MARGIN = SCHEMA.index("last_margin")
P_GROW_W_SIZE = SCHEMA.index("grow_w_size")
P_GROW_W_RICH = SCHEMA.index("grow_w_rich")
P_GROW_W_COST = SCHEMA.index("grow_w_cost")
P_GROW_SPARE_DAYS = SCHEMA.index("grow_spare_days")
P_SEED_MAX_TREES = SCHEMA.index("seed_max_trees")
P_SEED_MAX_COST = SCHEMA.index("seed_max_cost")
P_SEED_MIN_LEFT = SCHEMA.index("seed_min_left")
P_SEED_MIN_DIST = SCHEMA.index("seed_min_dist")


@hot
def wants_complete(mp, s, p, params, c, left):
    """Should player p complete its ready size-3 tree on c now (it has the sun)?"""
    if left <= 0:
        sun = s.sun[p]
        lost = sun // 3 - (sun - rules.COMPLETE_COST) // 3
        return s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]] - lost > params[P_LAST_MARGIN]
    if left > params[P_COMPLETE_MAX_LEFT]:
        return False
    keep = 0
    if left > params[P_KEEP_UNTIL_LEFT]:
        keep = int(params[P_KEEP3])
    return popcount(s.mine[p] & s.trees[3]) > keep


@kernel
def best_seed(mp, s, p, params, left, ready):
    """The SEED as (source, target), or (-1, -1)."""
    mine = s.mine[p]
    cost = popcount(mine & s.trees[0])
    if cost > s.sun[p] or cost > params[P_SEED_MAX_COST] or left < params[P_SEED_MIN_LEFT]:
        return -1, -1
    if popcount(mine) >= params[P_SEED_MAX_TREES]:
        return -1, -1
    sources = ready & ~s.trees[0]
    reach = reach_of(s, sources)
    blocked = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3] | mp.by_richness[0]
    gap = int(params[P_SEED_MIN_DIST]) - 1
    if gap > 0:
        blocked |= spread(mine, gap)
    candidates = reach & ~blocked
    if candidates == 0:
        return -1, -1
    target = richest(mp, candidates)
    return seed_source(s, sources, target), target


@kernel
def rush_move(mp, s, p, seat):
    """Player p's move (kind, a, b)."""
    params = seat.params
    ready = s.mine[p] & ~s.dormant
    left = mp.max_days - 1 - s.day
    ready3 = ready & s.trees[3]
    if ready3 != 0 and s.sun[p] >= rules.COMPLETE_COST:
        c = richest(mp, ready3)
        if wants_complete(mp, s, p, params, c, left):
            return rules.COMPLETE, c, 0
    if mp.can_grow and left > 0:
        c = best_grow(mp, s, p, ready, left, params[P_GROW_SPARE_DAYS], params[P_GROW_W_SIZE], params[P_GROW_W_COST],
                      params[P_GROW_W_RICH])
        if c >= 0:
            return rules.GROW, c, 0
    if mp.can_seed:
        a, b = best_seed(mp, s, p, params, left, ready)
        if a >= 0:
            return rules.SEED, a, b
    return rules.WAIT, 0, 0
