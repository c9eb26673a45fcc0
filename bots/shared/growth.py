"""The GROW choice of the simple style bots (`rush`, `seeder`): one score per tree, linear in its size, its
cost and its cell's richness, among the trees that can still reach size 3 in the days left."""
from __future__ import annotations

from engine import rules
from engine.jit import kernel, lowest_bit, popcount


@kernel
def best_grow(mp, s, p, ready, left, spare_days, w_size, w_cost, w_rich):
    """The best of player p's `ready` trees to grow, or -1: a tree of size k is grown only while `left`, the
    days after this one, leave 3 - k + `spare_days` days; its score is w_size * k - w_cost * cost +
    w_rich * richness."""
    best = -1
    best_score = 0.0
    for k in range(3):
        cost = rules.GROW_BASE_COST[k + 1] + popcount(s.mine[p] & s.trees[k + 1])
        bits = ready & s.trees[k]
        if cost > s.sun[p] or left < 3 - k + spare_days:
            bits = 0
        base = w_size * k - w_cost * cost
        while bits:
            c = lowest_bit(bits)
            bits &= bits - 1
            score = base + w_rich * mp.richness[c]
            if best < 0 or score > best_score:
                best = c
                best_score = score
    return best
