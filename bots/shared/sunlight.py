"""Projected sunlight: what a change of one tree does to the sun both players harvest on the coming days.

Shared by the policies that weigh a move by its effect on sun income. A tree of size k on cell c shades the
k cells after c in the sun's direction; a tree in the shadow of a tree at least as tall harvests nothing that
day. The sun points to direction `day % 6`, so the six directions of the coming days are known in advance.
"""
from __future__ import annotations

import numpy as np

from engine.geometry import CELLS, SHADOW_RAY
from engine.jit import hot, kernel, lowest_bit, popcount


def _lines():
    """LINES[c]: the cells on c's six shadow lines up to distance 3 (where a tree shades c or c shades it)."""
    lines = np.zeros(CELLS, dtype=np.int64)
    for c in range(CELLS):
        for d in range(6):
            lines[c] |= int(SHADOW_RAY[(d * CELLS + c) * 4 + 3])
    return lines


LINES = _lines()


@hot
def sun_of(bits, t1, t2, t3):
    """Sun a day the trees of `bits` yield when in the sun: their sizes summed."""
    return popcount(bits & t1) + 2 * popcount(bits & t2) + 3 * popcount(bits & t3)


@hot
def yield_gain(c, m, o, b1, b2, b3):
    """Change in what the tree on c yields when the sun points to o if it grows to size m (from m - 1).
    b1, b2, b3: the cells holding trees of size >= 1, >= 2, >= 3. A tree on the sun's side of c shades it
    when it reaches c (size >= distance) and is at least as tall."""
    behind = (((o + 3) % 6) * CELLS + c) * 4
    far = SHADOW_RAY[behind + 3] & b3
    mid = SHADOW_RAY[behind + 2] & b2 | far
    near = SHADOW_RAY[behind + 1] & b1 | mid
    gain = 0
    if m == 1:
        if near == 0:
            gain = 1
    elif m == 2:
        if mid == 0:
            gain = 2
        if near == 0:
            gain -= 1
    else:
        if far == 0:
            gain = 3
        if mid == 0:
            gain -= 2
    return gain


@kernel
def grow_income(s, p, c, k, days, w_sun, w_opp):
    """Weighted change in sun income a day, averaged over `days` days from tomorrow, if the tree of size k on c
    grows: its own yield, and the shadows it newly casts on its owner's and on the opponent's trees."""
    t1 = s.trees[1]
    t2 = s.trees[2]
    t3 = s.trees[3]
    b2 = t2 | t3
    b1 = t1 | b2
    upto_m = t1
    upto_k = 0
    if k == 1:
        upto_k = t1
        upto_m = t1 | t2
    elif k == 2:
        upto_k = t1 | t2
        upto_m = b1
    total = 0.0
    for h in range(1, days + 1):
        o = (s.day + h) % 6
        ahead = (o * CELLS + c) * 4
        victims = SHADOW_RAY[ahead + k + 1] & upto_m & ~(SHADOW_RAY[ahead + k] & upto_k)
        own = yield_gain(c, k + 1, o, b1, b2, t3) - sun_of(victims & s.mine[p], t1, t2, t3)
        total += w_sun * own + w_opp * sun_of(victims & s.mine[1 - p], t1, t2, t3)
    return total / days


@hot
def shaded(c, m, o, b1, b2, b3):
    """Whether a tree of size m (1..3) on c is in a shadow when the sun points to o. b1, b2, b3: the cells
    holding the other trees of size >= 1, >= 2, >= 3 (a shadow needs a tree that reaches c and is as tall)."""
    behind = (((o + 3) % 6) * CELLS + c) * 4
    shade = SHADOW_RAY[behind + 3] & b3
    if m <= 2:
        shade |= SHADOW_RAY[behind + 2] & b2
    if m <= 1:
        shade |= SHADOW_RAY[behind + 1] & b1
    return shade != 0


@hot
def size_of(c, t1, t2, t3):
    """Size of the tree on c given the cells of sizes 1, 2 and 3 (0 for a seed or no tree)."""
    bit = 1 << c
    if t3 & bit:
        return 3
    if t2 & bit:
        return 2
    if t1 & bit:
        return 1
    return 0


@hot
def up_to(k, t1, t2, t3):
    """The trees of size 1 to k: those a tree of size k shades."""
    if k >= 3:
        return t1 | t2 | t3
    if k == 2:
        return t1 | t2
    return t1


@kernel
def day_change(mine, c, k, m, o, t1, t2, t3):
    """Change in the sun the owner of the tree on c (its trees: `mine`) and its opponent harvest on a day the
    sun points to o, if that tree goes from size k to size m (k = 0: a seed or no tree; m = 0: a seed or
    removed), the trees of sizes 1, 2 and 3 being t1, t2 and t3 otherwise: its own yield, and the trees that
    its shadow newly covers or uncovers (those still in another tree's shadow lose or gain nothing).
    Returns (owner's change, opponent's change)."""
    bit = 1 << c
    b3 = t3 & ~bit
    b2 = (t2 | t3) & ~bit
    b1 = (t1 | t2 | t3) & ~bit
    own = 0
    if k > 0 and not shaded(c, k, o, b1, b2, b3):
        own -= k
    if m > 0 and not shaded(c, m, o, b1, b2, b3):
        own += m
    ahead = (o * CELLS + c) * 4
    before = 0
    after = 0
    if k > 0:
        before = SHADOW_RAY[ahead + k] & up_to(k, t1, t2, t3)
    if m > 0:
        after = SHADOW_RAY[ahead + m] & up_to(m, t1, t2, t3)
    opp = 0
    changed = before ^ after
    while changed:
        v = lowest_bit(changed)
        changed &= changed - 1
        size = size_of(v, t1, t2, t3)
        if shaded(v, size, o, b1, b2, b3):
            continue
        delta = size
        if (after >> v) & 1:
            delta = -size
        if (mine >> v) & 1:
            own += delta
        else:
            opp += delta
    return own, opp


@kernel
def income_change(s, p, c, k, m, days, w_opp):
    """Weighted change in sun over the next `days` days (from tomorrow) if player p's tree on c goes from size
    k to size m, the other trees unchanged: p's own change minus w_opp times the opponent's."""
    mine = s.mine[p]
    t1 = s.trees[1]
    t2 = s.trees[2]
    t3 = s.trees[3]
    total = 0.0
    for h in range(1, min(days, 6) + 1):
        own, opp = day_change(mine, c, k, m, (s.day + h) % 6, t1, t2, t3)
        total += ((days - h) // 6 + 1) * (own - w_opp * opp)
    return total
