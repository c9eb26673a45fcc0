"""The moves the search considers for a player, most promising first: the base policy's move, then the others
in an order that depends on it (measured in playouts against the heuristic bot: after a WAIT, a GROW is
rarely better; after a COMPLETE, waiting is more often better than growing):

    base WAIT      COMPLETEs, SEEDs, GROWs
    base COMPLETE  COMPLETEs, WAIT, GROWs, SEEDs
    otherwise      COMPLETEs, GROWs, WAIT, SEEDs

COMPLETEs richest cell first; GROWs largest tree first, then richest; one SEED per target cell, richest first,
from the smallest ready tree that reaches it.
"""
from __future__ import annotations

from bots.search.simulate import base_move
from bots.shared.cells import reach_of, seed_source
from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount


@hot
def add(out, n, move):
    """Append `move` unless it is the base move, out[0]."""
    if move == out[0]:
        return n
    out[n] = move
    return n + 1


@hot
def add_completes(mp, s, p, out, n):
    if s.sun[p] >= rules.COMPLETE_COST:
        ready = s.mine[p] & ~s.dormant
        for r in range(3, 0, -1):
            bits = ready & s.trees[3] & mp.by_richness[r]
            while bits:
                n = add(out, n, rules.encode_move(rules.COMPLETE, lowest_bit(bits), 0))
                bits &= bits - 1
    return n


@hot
def add_grows(mp, s, p, out, n):
    if mp.can_grow:
        mine = s.mine[p]
        ready = mine & ~s.dormant
        for k in range(2, -1, -1):
            if rules.GROW_BASE_COST[k + 1] + popcount(mine & s.trees[k + 1]) <= s.sun[p]:
                for r in range(3, 0, -1):
                    bits = ready & s.trees[k] & mp.by_richness[r]
                    while bits:
                        n = add(out, n, rules.encode_move(rules.GROW, lowest_bit(bits), 0))
                        bits &= bits - 1
    return n


@hot
def add_seeds(mp, s, p, out, n):
    mine = s.mine[p]
    if mp.can_seed and popcount(mine & s.trees[0]) <= s.sun[p]:
        sources = mine & ~s.dormant & ~s.trees[0]
        targets = reach_of(s, sources) & ~(s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3])
        for r in range(3, 0, -1):
            bits = targets & mp.by_richness[r]
            while bits:
                t = lowest_bit(bits)
                bits &= bits - 1
                source = seed_source(s, sources, t)
                if source >= 0:
                    n = add(out, n, rules.encode_move(rules.SEED, source, t))
    return n


@kernel
def candidates(mp, s, p, out):
    """Write the candidate moves (encoded) into `out`, the base move first; returns their number (>= 1)."""
    kind, a, b = base_move(mp, s, p)
    out[0] = rules.encode_move(kind, a, b)
    n = add_completes(mp, s, p, out, 1)
    wait = rules.encode_move(rules.WAIT, 0, 0)
    if kind == rules.WAIT:
        n = add_seeds(mp, s, p, out, n)
        n = add_grows(mp, s, p, out, n)
    elif kind == rules.COMPLETE:
        n = add(out, n, wait)
        n = add_grows(mp, s, p, out, n)
        n = add_seeds(mp, s, p, out, n)
    else:
        n = add_grows(mp, s, p, out, n)
        n = add(out, n, wait)
        n = add_seeds(mp, s, p, out, n)
    return n
