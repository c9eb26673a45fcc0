"""The `greedy` bot of the speed yardstick (`shared/bench/README.md` §5): COMPLETE from complete_day, else
GROW the largest affordable size, else SEED where it is free and not next to its own trees, else WAIT."""
from __future__ import annotations

from bots.shared.cells import reach_of, richest, spread
from engine import rules
from engine.geometry import CELLS, DISTANCE
from engine.jit import hot, lowest_bit, popcount


@hot
def greedy_move(mp, s, p, complete_day, max_seeds):
    mine = s.mine[p]
    ready = mine & ~s.dormant
    sun = s.sun[p]
    if s.day >= complete_day and sun >= rules.COMPLETE_COST and ready & s.trees[3]:
        return rules.COMPLETE, richest(mp, ready & s.trees[3]), 0
    if mp.can_grow:
        for k in range(2, -1, -1):
            if ready & s.trees[k] and rules.GROW_BASE_COST[k + 1] + popcount(mine & s.trees[k + 1]) <= sun:
                return rules.GROW, richest(mp, ready & s.trees[k]), 0
    seeds = popcount(mine & s.trees[0])
    if mp.can_seed and seeds < max_seeds and seeds <= sun:
        next_to_mine = spread(mine, 1)
        reach = reach_of(s, ready)
        occupied = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3]
        candidates = reach & ~mp.by_richness[0] & ~occupied & ~next_to_mine
        if candidates:
            target = richest(mp, candidates)
            sources = ready & ~s.trees[0]
            while sources:
                c = lowest_bit(sources)
                sources &= sources - 1
                if DISTANCE[c * CELLS + target] <= rules.size_at(s, c):
                    return rules.SEED, c, target
    return rules.WAIT, 0, 0


@hot
def greedy_seat(mp, s, p, seat):
    return greedy_move(mp, s, p, int(seat.params[0]), int(seat.params[1]))
