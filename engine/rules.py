"""The rules of Photosynthesis, compiled. Both the batch kernel and the text-protocol referee call these.

A day: `start_day` (wake up, harvest), then simultaneous turns (`resolve_turn`) until both players sleep,
then `end_day` moves the sun. The game ends when the day counter reaches the league's `max_days` or when at
most one player is still active; `final_scores` then adds the end-of-game bonuses.

Player actions are (kind, a, b): kind is one of the constants below; a is the target cell (GROW, COMPLETE)
or the source cell (SEED); b is the SEED target. Cell numbers can be anything a program wrote (up to
2^31-1): the checks reject those that are not cells, as the referee does.
"""
from __future__ import annotations

import numpy as np

from engine.geometry import CELLS, DISTANCE, SEED_TARGET_COUNT, SEED_TARGETS, SHADOW_RAY
from engine.javarandom import next_int
from engine.jit import hot, kernel, lowest_bit, popcount

# Action kinds. NO_ACTION: a player that was asked but gave nothing usable (disqualified): it falls asleep.
NO_ACTION = -1
WAIT = 0
SEED = 1
GROW = 2
COMPLETE = 3

# Why the referee rejected an action: (code, x, y) with x and y as the message needs them.
OK = 0
CELL_NOT_FOUND = 1  # x = cell
TREE_NOT_FOUND = 2  # x = cell
NOT_OWNER = 3  # x = cell
DORMANT = 4  # x = cell
ALREADY_TALL = 5  # x = cell
NOT_ENOUGH_SUN = 6  # x = cost, y = sun
NOT_TALL = 7  # x = cell
CELL_NOT_EMPTY = 8  # x = cell
IS_SEED = 9  # x = cell
TOO_FAR = 10  # x = source, y = target
CELL_NOT_VALID = 11  # x = cell

GROW_BASE_COST = np.array([0, 1, 3, 7], dtype=np.int64)  # to reach size 1, 2, 3
COMPLETE_COST = 4
STARTING_NUTRIENTS = 20
RICHNESS_BONUS = np.array([0, 0, 2, 4], dtype=np.int64)


@hot
def size_at(s, c):
    """Size of the tree on cell c (0..3), or -1 for no tree."""
    bit = 1 << c
    for k in range(4):
        if s.trees[k] & bit:
            return k
    return -1


@hot
def grow_cost(s, p, size):
    """Sun player p pays to grow one of its trees of `size`; for a size-3 tree, the COMPLETE cost."""
    if size == 3:
        return COMPLETE_COST
    return GROW_BASE_COST[size + 1] + popcount(s.mine[p] & s.trees[size + 1])


@hot
def seed_cost(s, p):
    return popcount(s.mine[p] & s.trees[0])


@hot
def new_game(mp, s):
    """The state before the first harvest: starting trees, 0 sun, 0 points, 20 nutrients, day 0."""
    for k in range(4):
        s.trees[k] = 0
    for p in range(2):
        s.mine[p] = 0
        s.sun[p] = 0
        s.score[p] = 0
        s.waiting[p] = 0
        s.active[p] = 1
    s.dormant = 0
    s.nutrients = STARTING_NUTRIENTS
    s.day = 0
    for i in range(2 * mp.starting_pairs):
        bit = 1 << mp.starting_cells[i]
        s.trees[mp.starting_size] |= bit
        s.mine[i & 1] |= bit


@hot
def shadows(s, orientation):
    """Cells in the shadow of a tree of size >= 1, >= 2 and >= 3 when the sun points to `orientation`."""
    shade = 0
    at_least3 = 0
    at_least2 = 0
    for k in range(3, 0, -1):
        bits = s.trees[k]
        while bits:
            c = lowest_bit(bits)
            bits &= bits - 1
            shade |= SHADOW_RAY[(orientation * CELLS + c) * 4 + k]
        if k == 3:
            at_least3 = shade
        elif k == 2:
            at_least2 = shade
    return shade, at_least2, at_least3


@hot
def start_day(mp, s):
    """GATHERING: both players wake up, no tree stays dormant, and every tree not in a spooky shadow yields
    its size in sun. Returns the sun each player gained."""
    s.waiting[0] = 0
    s.waiting[1] = 0
    s.dormant = 0
    spooky1 = 0
    spooky2 = 0
    spooky3 = 0
    if mp.shadows:
        spooky1, spooky2, spooky3 = shadows(s, s.day % 6)
    sunny1 = s.trees[1] & ~spooky1
    sunny2 = s.trees[2] & ~spooky2
    sunny3 = s.trees[3] & ~spooky3
    gained0 = popcount(sunny1 & s.mine[0]) + 2 * popcount(sunny2 & s.mine[0]) + 3 * popcount(sunny3 & s.mine[0])
    gained1 = popcount(sunny1 & s.mine[1]) + 2 * popcount(sunny2 & s.mine[1]) + 3 * popcount(sunny3 & s.mine[1])
    s.sun[0] += gained0
    s.sun[1] += gained1
    return gained0, gained1


@hot
def end_day(mp, s):
    """SUN_MOVE: the day counter goes up. True when the game is over (the last day has ended)."""
    s.day += 1
    return s.day >= mp.max_days


@hot
def check_own_tree(s, p, a):
    """The checks GROW and COMPLETE start with, in the referee's order: the cell, a tree on it, its owner."""
    if a < 0 or a >= CELLS:
        return CELL_NOT_FOUND
    if size_at(s, a) < 0:
        return TREE_NOT_FOUND
    if not (s.mine[p] >> a) & 1:
        return NOT_OWNER
    return OK


@hot
def check_action(mp, s, p, kind, a, b):
    """The referee's checks for one player's action, in its order. Returns (code, x, y, cost)."""
    if kind == GROW:
        code = check_own_tree(s, p, a)
        if code != OK:
            return code, a, 0, 0
        if (s.dormant >> a) & 1:
            return DORMANT, a, 0, 0
        size = size_at(s, a)
        if size >= 3:
            return ALREADY_TALL, a, 0, 0
        cost = grow_cost(s, p, size)
        if s.sun[p] < cost:
            return NOT_ENOUGH_SUN, cost, s.sun[p], 0
        return OK, 0, 0, cost
    if kind == COMPLETE:
        code = check_own_tree(s, p, a)
        if code != OK:
            return code, a, 0, 0
        if size_at(s, a) < 3:
            return NOT_TALL, a, 0, 0
        if (s.dormant >> a) & 1:
            return DORMANT, a, 0, 0
        if s.sun[p] < COMPLETE_COST:
            return NOT_ENOUGH_SUN, COMPLETE_COST, s.sun[p], 0
        return OK, 0, 0, COMPLETE_COST
    # SEED a -> b: the referee looks the target cell up first.
    if b < 0 or b >= CELLS:
        return CELL_NOT_FOUND, b, 0, 0
    if a < 0 or a >= CELLS:
        return CELL_NOT_FOUND, a, 0, 0
    if size_at(s, b) >= 0:
        return CELL_NOT_EMPTY, b, 0, 0
    size = size_at(s, a)
    if size < 0:
        return TREE_NOT_FOUND, a, 0, 0
    if size == 0:
        return IS_SEED, a, 0, 0
    if not (s.mine[p] >> a) & 1:
        return NOT_OWNER, a, 0, 0
    if (s.dormant >> a) & 1:
        return DORMANT, a, 0, 0
    if DISTANCE[a * CELLS + b] > size:
        return TOO_FAR, a, b, 0
    if mp.richness[b] == 0:
        return CELL_NOT_VALID, b, 0, 0
    cost = seed_cost(s, p)
    if s.sun[p] < cost:
        return NOT_ENOUGH_SUN, cost, s.sun[p], 0
    return OK, 0, 0, cost


@hot
def resolve_turn(mp, s, kind0, a0, b0, kind1, a1, b1):
    """One ACTIONS frame: both players' actions against the same state, players 0 then 1.

    Players who are asleep are skipped. WAIT (or NO_ACTION) puts a player to sleep; so does a rejected action,
    which changes nothing else. An accepted GROW takes effect at once; COMPLETE and SEED make their tree dormant.
    Seeds aimed at the same cell by both players are a conflict: nothing is planted and nobody pays. Completed
    trees then score the current nutrients plus the richness bonus, and nutrients drop by one per tree.

    Returns (code0, x0, y0, code1, x1, y1, conflict_cell): each player's rejection (code OK if accepted) and the
    contested cell, or -1.
    """
    available0 = s.sun[0]
    available1 = s.sun[1]
    seed_to0 = -1
    seed_to1 = -1
    dying = 0
    code0 = OK
    x0 = 0
    y0 = 0
    code1 = OK
    x1 = 0
    y1 = 0
    for p in range(2):
        if s.waiting[p]:
            continue
        kind = kind0 if p == 0 else kind1
        if kind <= WAIT:
            s.waiting[p] = 1
            continue
        a = a0 if p == 0 else a1
        b = b0 if p == 0 else b1
        code, x, y, cost = check_action(mp, s, p, kind, a, b)
        if p == 0:
            code0, x0, y0 = code, x, y
        else:
            code1, x1, y1 = code, x, y
        if code != OK:
            s.waiting[p] = 1
            continue
        if p == 0:
            available0 -= cost
        else:
            available1 -= cost
        if kind == GROW:
            size = size_at(s, a)
            s.trees[size] &= ~(1 << a)
            s.trees[size + 1] |= 1 << a
            s.dormant |= 1 << a
        elif kind == COMPLETE:
            s.dormant |= 1 << a
            dying |= 1 << a
        else:
            s.dormant |= 1 << a
            if p == 0:
                seed_to0 = b
            else:
                seed_to1 = b
    conflict = -1
    if seed_to0 >= 0 and seed_to0 == seed_to1:
        conflict = seed_to0
    else:
        if seed_to0 >= 0:
            plant(s, 0, seed_to0)
        if seed_to1 >= 0:
            plant(s, 1, seed_to1)
        s.sun[0] = available0
        s.sun[1] = available1
    if dying:
        completed = popcount(dying)
        while dying:
            c = lowest_bit(dying)
            dying &= dying - 1
            owner = 1 if (s.mine[1] >> c) & 1 else 0
            s.score[owner] += s.nutrients + RICHNESS_BONUS[mp.richness[c]]
            s.trees[3] &= ~(1 << c)
            s.mine[owner] &= ~(1 << c)
            s.dormant &= ~(1 << c)
        s.nutrients = max(0, s.nutrients - completed)
    return code0, x0, y0, code1, x1, y1, conflict


@hot
def plant(s, p, c):
    bit = 1 << c
    s.trees[0] |= bit
    s.mine[p] |= bit
    s.dormant |= bit


@hot
def disqualify(s, p):
    """A timeout or an unreadable line: the player leaves the game with a score of -1."""
    s.active[p] = 0
    s.score[p] = -1


@hot
def game_over(mp, s):
    return s.day >= mp.max_days or s.active[0] + s.active[1] <= 1


@hot
def final_scores(s):
    """End of game: each active player adds floor(sun / 3); then, if every active player has the same score,
    each adds one point per tree it owns. Returns (score0, score1, sun_bonus0, sun_bonus1, tree_bonus0,
    tree_bonus1)."""
    sun_bonus0 = s.sun[0] // 3 if s.active[0] else 0
    sun_bonus1 = s.sun[1] // 3 if s.active[1] else 0
    score0 = s.score[0] + sun_bonus0
    score1 = s.score[1] + sun_bonus1
    tie = False
    if s.active[0] and s.active[1]:
        tie = score0 == score1
    elif s.active[0] or s.active[1]:
        tie = True
    tree_bonus0 = 0
    tree_bonus1 = 0
    if tie:
        if s.active[0]:
            tree_bonus0 = popcount(s.mine[0])
        if s.active[1]:
            tree_bonus1 = popcount(s.mine[1])
    return score0 + tree_bonus0, score1 + tree_bonus1, sun_bonus0, sun_bonus1, tree_bonus0, tree_bonus1


@hot
def encode_move(kind, a, b):
    return kind | (a << 8) | (b << 16)


@hot
def decode_move(move):
    return move & 0xFF, (move >> 8) & 0xFF, (move >> 16) & 0xFF


@hot
def legal_moves(mp, s, p, out):
    """Every legal move of player p in the referee's order before shuffling: WAIT, the COMPLETEs, the GROWs,
    then the SEEDs, trees in ascending cell order. Writes encoded moves into `out` and returns
    (count, completes, grows, seeds): the size of each group."""
    out[0] = encode_move(WAIT, 0, 0)
    n = 1
    sun = s.sun[p]
    ready = s.mine[p] & ~s.dormant
    if sun >= COMPLETE_COST:
        bits = ready & s.trees[3]
        while bits:
            out[n] = encode_move(COMPLETE, lowest_bit(bits), 0)
            n += 1
            bits &= bits - 1
    completes = n - 1
    if mp.can_grow:
        for c in range(CELLS):
            if (ready >> c) & 1:
                size = size_at(s, c)
                if size < 3 and grow_cost(s, p, size) <= sun:
                    out[n] = encode_move(GROW, c, 0)
                    n += 1
    grows = n - 1 - completes
    if mp.can_seed and seed_cost(s, p) <= sun:
        occupied = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3]
        blocked = occupied | mp.by_richness[0]
        for c in range(CELLS):
            if (ready >> c) & 1:
                size = size_at(s, c)
                if size >= 1:
                    base = (size * CELLS + c) * CELLS
                    for i in range(SEED_TARGET_COUNT[size * CELLS + c]):
                        t = SEED_TARGETS[base + i]
                        if not (blocked >> t) & 1:
                            out[n] = encode_move(SEED, c, t)
                            n += 1
    seeds = n - 1 - completes - grows
    return n, completes, grows, seeds


MAX_MOVES = 1 + CELLS + CELLS + CELLS * CELLS


@kernel
def possible_moves(mp, s, p, rng, out):
    """The possible-moves list the referee sends: `legal_moves`, with each group shuffled by the game RNG
    (completes, then grows, then seeds; Collections.shuffle). Returns (count, new_rng)."""
    n, completes, grows, seeds = legal_moves(mp, s, p, out)
    start = 1
    for size in (completes, grows, seeds):
        for i in range(size, 1, -1):
            j, rng = next_int(rng, i)
            tmp = out[start + i - 1]
            out[start + i - 1] = out[start + j]
            out[start + j] = tmp
        start += size
    return n, rng
