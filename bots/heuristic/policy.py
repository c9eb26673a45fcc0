"""The `heuristic` bot's policy, compiled: one move from the state, the map and the parameter vector.

Order of business, one action per call (the richest tree first among several):
  COMPLETE  mid-game, once fewer days than `complete_max_left` are left, when the size-3 trees exceed a stock
            that depends on the days left (and on the opponent's size-3 trees and the nutrients lost), or in the
            sell-off (size-3 trees >= sell_ratio * days left); on the last day whenever the points beat the
            sun bonus the 4 sun points would have given;
  GROW      the best-scoring tree: a priority by size, its cost, its cell's richness, the points a COMPLETE of it
            would earn, and the change in sun income over the next `grow_horizon` days' shadows (its own yield,
            the shadows it newly casts on its own and on the opponent's trees), while enough days are left for
            its size;
  SEED      when a seed is cheap enough, on the best empty cell far enough from its own trees (richness, own
            and opponent's trees on its shadow lines, the sun a tree there would add and deny), from the smallest
            tree that reaches it; on the last day any seed that costs no point (one tree more for the tie-break);
  WAIT      otherwise. `seed_first` puts SEED before GROW.

Written in the portable subset that `export/transpile.py` exports as plain Python and C++: @hot functions, ints,
floats, bitboards, module-level int constants and 1-D int64 tables; no allocation, no numpy calls. The player p is
only used as an index, so the policy plays either side the same way.
"""
from __future__ import annotations

import numpy as np

from bots.heuristic.schema import KNOTS, SCHEMA
from bots.shared.cells import reach_of, richest, seed_source, spread
from bots.shared.sunlight import LINES, grow_income, income_change
from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount

# Parameter indexes (schema order).
P_COMPLETE_MAX_LEFT = SCHEMA.index("complete_max_left")
P_KEEP3 = SCHEMA.index("keep3_left1")  # 4 knots
P_KEEP3_PER_OPP3 = SCHEMA.index("keep3_per_opp3")
P_KEEP3_PER_LOST_NUTRIENT = SCHEMA.index("keep3_per_lost_nutrient")
P_SELL_RATIO = SCHEMA.index("sell_ratio")
P_COMPLETE_LAST_MARGIN = SCHEMA.index("complete_last_margin")
P_GROW_MIN_LEFT = SCHEMA.index("grow_min_left0")  # + size
P_GROW_PRIO = SCHEMA.index("grow_prio0")  # + size
P_GROW_W_COST = SCHEMA.index("grow_w_cost")
P_GROW_W_RICH = SCHEMA.index("grow_w_rich")
P_GROW_W_SUN = SCHEMA.index("grow_w_sun")
P_GROW_W_SUN_LEFT = SCHEMA.index("grow_w_sun_left")
P_GROW_W_OPP = SCHEMA.index("grow_w_opp")
P_GROW_HORIZON = SCHEMA.index("grow_horizon")
P_GROW_MIN_SCORE = SCHEMA.index("grow_min_score")
P_SEED_MAX_COST = SCHEMA.index("seed_max_cost")
P_SEED_MIN_LEFT = SCHEMA.index("seed_min_left")
P_SEED_MAX_TREES = SCHEMA.index("seed_max_trees")
P_SEED_MIN_DIST = SCHEMA.index("seed_min_dist")
P_SEED_W_RICH = SCHEMA.index("seed_w_rich")
P_SEED_W_OWN_LINE = SCHEMA.index("seed_w_own_line")
P_SEED_W_OPP_LINE = SCHEMA.index("seed_w_opp_line")
P_SEED_MIN_SCORE = SCHEMA.index("seed_min_score")
P_SEED_FIRST = SCHEMA.index("seed_first")
P_GROW_W_POINTS = SCHEMA.index("grow_w_points")
P_SEED_W_SUN = SCHEMA.index("seed_w_sun")
SUN_DIRECTIONS = 6

KNOT_LEFT = np.array(KNOTS, dtype=np.int64)
KNOT_COUNT = len(KNOTS)


NO_SCORE = -1.0e9  # below any score: every candidate qualifies


@hot
def by_left(params, first, left):
    """A day-dependent parameter: params[first + i] at left = KNOT_LEFT[i], linear in between."""
    if left <= KNOT_LEFT[0]:
        return params[first]
    for i in range(1, KNOT_COUNT):
        if left <= KNOT_LEFT[i]:
            x0 = KNOT_LEFT[i - 1]
            y0 = params[first + i - 1]
            y1 = params[first + i]
            return y0 + (y1 - y0) * (left - x0) / (KNOT_LEFT[i] - x0)
    return params[first + KNOT_COUNT - 1]


@hot
def want_complete(mp, s, p, params, left, mine3):
    """Before the last day: should player p complete a size-3 tree now (it has one ready and 4 sun)?"""
    if left > params[P_COMPLETE_MAX_LEFT]:
        return False
    n3 = popcount(mine3)
    if n3 >= params[P_SELL_RATIO] * left:
        return True
    keep = by_left(params, P_KEEP3, left) + params[P_KEEP3_PER_OPP3] * popcount(s.mine[1 - p] & s.trees[3])
    keep += params[P_KEEP3_PER_LOST_NUTRIENT] * (rules.STARTING_NUTRIENTS - s.nutrients)
    return n3 > keep


@hot
def best_grow(mp, s, p, params, left, ready):
    """The best tree to grow, or -1."""
    days = min(int(params[P_GROW_HORIZON]), left)
    if not mp.shadows:
        days = 0
    w_sun = params[P_GROW_W_SUN] + params[P_GROW_W_SUN_LEFT] * left
    best = -1
    best_score = params[P_GROW_MIN_SCORE]
    for k in range(3):
        bits = ready & s.trees[k]
        cost = rules.GROW_BASE_COST[k + 1] + popcount(s.mine[p] & s.trees[k + 1])
        if left < params[P_GROW_MIN_LEFT + k] or cost > s.sun[p]:
            bits = 0
        base = params[P_GROW_PRIO + k] - params[P_GROW_W_COST] * cost
        points = 0.0
        if left >= 3 - k:
            points = params[P_GROW_W_POINTS]
        while bits:
            c = lowest_bit(bits)
            bits &= bits - 1
            score = base + params[P_GROW_W_RICH] * mp.richness[c]
            score += points * (s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]])
            if days > 0:
                score += grow_income(s, p, c, k, days, w_sun, params[P_GROW_W_OPP])
            else:
                score += w_sun
            if score >= best_score and (best < 0 or score > best_score):
                best = c
                best_score = score
    return best


@hot
def best_target(mp, s, p, candidates, params, min_score):
    """The best-scoring cell of `candidates` for a seed, or -1 when none reaches min_score."""
    mine = s.mine[p]
    opp = s.mine[1 - p]
    w_sun = params[P_SEED_W_SUN]
    if not mp.shadows:
        w_sun = 0.0
    target = -1
    best_score = min_score
    while candidates:
        t = lowest_bit(candidates)
        candidates &= candidates - 1
        score = params[P_SEED_W_RICH] * mp.richness[t] - params[P_SEED_W_OWN_LINE] * popcount(LINES[t] & mine)
        score -= params[P_SEED_W_OPP_LINE] * popcount(LINES[t] & opp)
        if w_sun != 0.0:
            score += w_sun * income_change(s, p, t, 0, 1, SUN_DIRECTIONS, 1.0) / SUN_DIRECTIONS
        if score >= best_score and (target < 0 or score > best_score):
            target = t
            best_score = score
    return target


@hot
def best_seed(mp, s, p, params, left, ready):
    """The best SEED as (source, target), or (-1, -1). On the last day any seed that costs no point of sun
    bonus is taken: one tree more for the tie-break."""
    mine = s.mine[p]
    sun = s.sun[p]
    cost = popcount(mine & s.trees[0])
    gap = int(params[P_SEED_MIN_DIST]) - 1
    min_score = params[P_SEED_MIN_SCORE]
    if left <= 0 and cost <= sun and sun // 3 == (sun - cost) // 3:
        gap = 0
        min_score = NO_SCORE
    elif cost > sun or cost > params[P_SEED_MAX_COST] or left < params[P_SEED_MIN_LEFT]:
        return -1, -1
    elif popcount(mine) >= params[P_SEED_MAX_TREES]:
        return -1, -1
    sources = ready & ~s.trees[0]
    occupied = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3] | mp.by_richness[0]
    if gap > 0:
        occupied |= spread(mine, gap)
    target = best_target(mp, s, p, reach_of(s, sources) & ~occupied, params, min_score)
    if target < 0:
        return -1, -1
    return seed_source(s, sources, target), target


@kernel
def heuristic_move(mp, s, p, params):
    """Player p's move (kind, a, b)."""
    mine = s.mine[p]
    ready = mine & ~s.dormant
    left = mp.max_days - 1 - s.day
    ready3 = ready & s.trees[3]
    sun = s.sun[p]
    if ready3 != 0 and sun >= rules.COMPLETE_COST:
        c = richest(mp, ready3)
        if left <= 0:
            # The last day: the points it scores against the sun bonus it costs.
            lost = sun // 3 - (sun - rules.COMPLETE_COST) // 3
            if s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]] - lost > params[P_COMPLETE_LAST_MARGIN]:
                return rules.COMPLETE, c, 0
        elif want_complete(mp, s, p, params, left, mine & s.trees[3]):
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
        elif mp.can_grow:
            c = best_grow(mp, s, p, params, left, ready)
            if c >= 0:
                return rules.GROW, c, 0
    return rules.WAIT, 0, 0


@kernel
def heuristic_seat(mp, s, p, seat):
    """The policy as one compiled function: called, not inlined, so the kernels that can play it compile it once.
    A call costs nothing next to the policy's own work."""
    return heuristic_move(mp, s, p, seat.params)
