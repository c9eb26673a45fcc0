"""The `sunrate` bot's policy, compiled: every legal move scored one move ahead, the best one played.

Scores are in sun points. The projected change in daily sun income of a move is its average over the sun
directions of the next `horizon` days, the other trees as they are: the tree's own yield, and the shadows it
newly casts on (or lifts from) its own and the opponent's trees (`bots.shared.sunlight.income_change`).

  GROW      that daily change counted for `grow_days` days (at most the days left), plus a share of the
            points a COMPLETE of the tree would earn (nutrients + richness bonus) while it still has the days
            to get there, minus its cost;
  COMPLETE  before the last day: the points it secures against the nutrients expected to be lost by waiting,
            converted to sun (a point is worth more sun near the end), plus the daily change (the tree's yield
            lost, the shadows lifted) over every day left; played outright in the sell-off (size-3 trees
            >= sell_ratio * days left) and, on the last day, whenever its points beat the sun bonus it costs;
  SEED      while a seed is cheap: a score of its cell (richness, own trees on its shadow lines), minus its
            cost; on the last day a free seed (one tree more for the tie-break);
  WAIT      zero: the best move scoring above zero is played.

Written in the portable subset of `export/transpile.py`; the player p is only an index.
"""
from __future__ import annotations

from bots.shared.cells import reach_of, seed_source
from bots.shared.sunlight import LINES, income_change
from bots.sunrate.schema import SCHEMA
from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount

P_HORIZON = SCHEMA.index("horizon")
P_GROW_DAYS = SCHEMA.index("grow_days")
P_W_OPP = SCHEMA.index("w_opp")
P_W_COST = SCHEMA.index("w_cost")
P_PROG = SCHEMA.index("prog1") - 1  # + size reached
P_SUN_PER_POINT = SCHEMA.index("sun_per_point")
P_SUN_PER_POINT_LEFT = SCHEMA.index("sun_per_point_left")
P_DROP = SCHEMA.index("drop")
P_COMPLETE_MAX_LEFT = SCHEMA.index("complete_max_left")
P_COMPLETE_BIAS = SCHEMA.index("complete_bias")
P_SELL_RATIO = SCHEMA.index("sell_ratio")
P_LAST_MARGIN = SCHEMA.index("last_margin")
P_SEED_MAX_COST = SCHEMA.index("seed_max_cost")
P_SEED_MIN_LEFT = SCHEMA.index("seed_min_left")
P_SEED_BASE = SCHEMA.index("seed_base")
P_SEED_W_RICH = SCHEMA.index("seed_w_rich")
P_SEED_W_LINE = SCHEMA.index("seed_w_line")

MUST = 1000.0  # above any other score: a COMPLETE of the sell-off or of the last day


@hot
def complete_score(mp, s, p, params, c, left, n3):
    """The score of completing the size-3 tree on c."""
    points = s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]]
    if left <= 0:
        sun = s.sun[p]
        lost = sun // 3 - (sun - rules.COMPLETE_COST) // 3
        if points - lost > params[P_LAST_MARGIN]:
            return MUST + points
        return -MUST
    if n3 >= params[P_SELL_RATIO] * left:
        return MUST + points
    if left > params[P_COMPLETE_MAX_LEFT]:
        return -MUST
    days = min(int(params[P_HORIZON]), left)
    if mp.shadows:
        income = income_change(s, p, c, 3, 0, days, params[P_W_OPP]) * left / days
    else:
        income = -3.0 * left
    point_value = max(params[P_SUN_PER_POINT] - params[P_SUN_PER_POINT_LEFT] * left, 0.1)
    secured = min(float(s.nutrients), params[P_DROP] * left)
    return point_value * secured + income + params[P_COMPLETE_BIAS]


@kernel
def best_seed(mp, s, p, params, left, ready):
    """The best SEED as (score, source, target); source -1 when no seed is wanted. On the last day a seed
    that costs no point of sun bonus scores just above zero: one tree more for the tie-break."""
    mine = s.mine[p]
    sun = s.sun[p]
    cost = popcount(mine & s.trees[0])
    if cost > sun:
        return 0.0, -1, -1
    last_free = left <= 0 and sun // 3 == (sun - cost) // 3
    if not last_free and (cost > params[P_SEED_MAX_COST] or left < params[P_SEED_MIN_LEFT]):
        return 0.0, -1, -1
    sources = ready & ~s.trees[0]
    candidates = reach_of(s, sources) & ~(s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3] | mp.by_richness[0])
    target = -1
    best = 0.0
    while candidates:
        t = lowest_bit(candidates)
        candidates &= candidates - 1
        score = params[P_SEED_BASE] + params[P_SEED_W_RICH] * mp.richness[t]
        score -= params[P_SEED_W_LINE] * popcount(LINES[t] & mine) + params[P_W_COST] * cost
        if target < 0 or score > best:
            target = t
            best = score
    if target < 0:
        return 0.0, -1, -1
    if last_free:
        best = 0.001
    return best, seed_source(s, sources, target), target


@kernel
def sunrate_play(mp, s, p, params):
    """Player p's move (kind, a, b): the best-scoring legal move, WAIT when none scores above zero."""
    mine = s.mine[p]
    ready = mine & ~s.dormant
    left = mp.max_days - 1 - s.day
    sun = s.sun[p]
    kind = rules.WAIT
    a = 0
    b = 0
    best = 0.0
    ready3 = ready & s.trees[3]
    if ready3 != 0 and sun >= rules.COMPLETE_COST:
        n3 = popcount(mine & s.trees[3])
        bits = ready3
        while bits:
            c = lowest_bit(bits)
            bits &= bits - 1
            score = complete_score(mp, s, p, params, c, left, n3)
            if score > best:
                kind = rules.COMPLETE
                a = c
                best = score
    if mp.can_grow and left > 0:
        days = min(int(params[P_HORIZON]), left)
        grow_days = min(params[P_GROW_DAYS], left)
        for k in range(3):
            cost = rules.GROW_BASE_COST[k + 1] + popcount(mine & s.trees[k + 1])
            bits = ready & s.trees[k]
            if cost > sun:
                bits = 0
            prog = 0.0
            if left >= 3 - k:
                prog = params[P_PROG + k + 1]
            base = -params[P_W_COST] * cost
            while bits:
                c = lowest_bit(bits)
                bits &= bits - 1
                score = base + prog * (s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]])
                if mp.shadows:
                    score += grow_days * income_change(s, p, c, k, k + 1, days, params[P_W_OPP]) / days
                else:
                    score += grow_days
                if score > best:
                    kind = rules.GROW
                    a = c
                    best = score
    if mp.can_seed:
        score, source, target = best_seed(mp, s, p, params, left, ready)
        if source >= 0 and score > best:
            kind = rules.SEED
            a = source
            b = target
    return kind, a, b


@kernel
def sunrate_move(mp, s, p, seat):
    """The policy as the dispatch calls it, with the seat's parameters (search bots call `sunrate_play` with
    theirs)."""
    return sunrate_play(mp, s, p, seat.params)
