"""The moves a search bot considers for a player: a few of the legal moves, those a strong player would weigh.

    first    the move the caller trusts most (its rollout policy's move), if it gives one;
    COMPLETE the richest trees first, once at most `sl_complete_max_left` days are left; on the last day only
             when its points beat the sun bonus its 4 sun points would have given;
    GROW     never on the last day (a bigger tree scores nothing more), a seed or a size-1 tree only while at least
             two days are left (it could not pay back); the largest trees first, then the richest cells; at most
             `sl_max_grows`;
    WAIT     always;
    SEED     while at least `sl_seed_min_left` days are left and a seed costs at most `sl_seed_max_cost`, never
             next to its own trees (they would shade each other and the cell is better used by a tree further
             out); the best cells first (richness, minus two per own tree on the target's shadow lines), each from
             the smallest ready tree that reaches it; at most `sl_max_seeds`. On the last day, one seed that costs
             no point of sun bonus (a tree more for the tie-break).

At most `sl_max_moves` moves in all (WAIT always among them). Pruning trades a move that is rarely right for
iterations on the others: the search's budget is small. The caps are parameters of the bot that searches
(`shortlist_params`), read from its parameter vector from index `first` on.
"""
from __future__ import annotations

from bots.contract.schema import Param
from bots.shared.cells import reach_of, seed_source, spread
from bots.shared.sunlight import LINES
from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount

SL_MAX_MOVES, SL_MAX_GROWS, SL_MAX_SEEDS, SL_SEED_MIN_LEFT, SL_SEED_MAX_COST, SL_COMPLETE_MAX_LEFT = range(6)
SHORTLIST_PARAMS = 6
FIRST_SHORTLIST_PARAM = "sl_max_moves"  # where a bot's schema holds the shortlist's caps
MAX_SHORTLIST = 12  # the most moves a shortlist holds, whatever its parameters


def shortlist_params(max_moves: int = 6, seed_max_cost: int = 1, complete_max_left: int = 12) -> list[Param]:
    """The shortlist's caps as parameters, in the order `shortlist` reads them (one bot's copy, its defaults)."""
    return [
        Param("sl_max_moves", "int", 2, MAX_SHORTLIST, max_moves, "moves considered per player and position at most"),
        Param("sl_max_grows", "int", 0, 8, 3, "GROWs considered per position at most (largest, then richest)"),
        Param("sl_max_seeds", "int", 0, 6, 2, "SEEDs considered per position at most (best cells)"),
        Param("sl_seed_min_left", "int", 0, 23, 4, "SEEDs considered only while at least this many days are left"),
        Param("sl_seed_max_cost", "int", 0, 6, seed_max_cost, "SEEDs considered only while a seed costs at most this"),
        Param("sl_complete_max_left", "int", 0, 23, complete_max_left,
              "COMPLETEs considered (before the last day) only once at most this many days are left"),
    ]


@hot
def add(out, n, move, limit):
    """Append `move` unless it is already listed or the list is full; returns the new length."""
    if n >= limit:
        return n
    for i in range(n):
        if out[i] == move:
            return n
    out[n] = move
    return n + 1


@hot
def add_completes(mp, s, p, out, n, limit, left):
    sun = s.sun[p]
    if sun < rules.COMPLETE_COST:
        return n
    bits = s.mine[p] & ~s.dormant & s.trees[3]
    for r in range(3, 0, -1):
        rich = bits & mp.by_richness[r]
        while rich:
            c = lowest_bit(rich)
            rich &= rich - 1
            if left <= 0:
                lost = sun // 3 - (sun - rules.COMPLETE_COST) // 3
                if s.nutrients + rules.RICHNESS_BONUS[r] <= lost:
                    continue
            n = add(out, n, rules.encode_move(rules.COMPLETE, c, 0), limit)
    return n


@hot
def add_grows(mp, s, p, out, n, limit, left):
    if not mp.can_grow or left <= 0:
        return n
    mine = s.mine[p]
    ready = mine & ~s.dormant
    for k in range(2, -1, -1):
        if k < 2 and left < 2:
            continue
        if rules.GROW_BASE_COST[k + 1] + popcount(mine & s.trees[k + 1]) > s.sun[p]:
            continue
        for r in range(3, 0, -1):
            bits = ready & s.trees[k] & mp.by_richness[r]
            while bits:
                n = add(out, n, rules.encode_move(rules.GROW, lowest_bit(bits), 0), limit)
                bits &= bits - 1
    return n


@hot
def add_seeds(mp, s, p, params, first, out, n, limit, left):
    if not mp.can_seed:
        return n
    mine = s.mine[p]
    sun = s.sun[p]
    cost = popcount(mine & s.trees[0])
    if cost > sun:
        return n
    last_free = left <= 0 and sun // 3 == (sun - cost) // 3
    if not last_free and (left < params[first + SL_SEED_MIN_LEFT] or cost > params[first + SL_SEED_MAX_COST]):
        return n
    sources = mine & ~s.dormant & ~s.trees[0]
    targets = reach_of(s, sources) & ~(s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3] | mp.by_richness[0])
    if not last_free:
        targets &= ~spread(mine, 1)
    seeds = int(params[first + SL_MAX_SEEDS])
    if last_free:
        seeds = 1
    for _ in range(seeds):
        best = -1
        best_score = 0
        bits = targets
        while bits:
            t = lowest_bit(bits)
            bits &= bits - 1
            score = mp.richness[t] - 2 * popcount(LINES[t] & mine)
            if best < 0 or score > best_score:
                best = t
                best_score = score
        if best < 0:
            break
        targets &= ~(1 << best)
        n = add(out, n, rules.encode_move(rules.SEED, seed_source(s, sources, best), best), limit)
    return n


@kernel
def shortlist(mp, s, p, params, first, trusted, out):
    """Write player p's considered moves (encoded) into `out`, `trusted` first unless it is negative; returns their
    number (>= 1: WAIT is always among them)."""
    left = mp.max_days - 1 - s.day
    limit = min(int(params[first + SL_MAX_MOVES]), MAX_SHORTLIST) - 1  # one place kept for WAIT
    n = 0
    if trusted >= 0:
        n = add(out, n, trusted, limit + 1)
    if left <= params[first + SL_COMPLETE_MAX_LEFT]:
        n = add_completes(mp, s, p, out, n, limit, left)
    grows = min(n + int(params[first + SL_MAX_GROWS]), limit)
    n = add_grows(mp, s, p, out, n, grows, left)
    n = add(out, n, rules.encode_move(rules.WAIT, 0, 0), limit + 1)
    return add_seeds(mp, s, p, params, first, out, n, limit + 1, left)
