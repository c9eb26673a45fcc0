"""The official map generator: richness by ring, holes (league 3) and the starting trees.

It draws from the game's java.util.Random exactly as the referee's `BoardGenerator` and
`Game.initStartingTrees` do, so any 64-bit seed gives the official map and the official RNG state after it.
"""
from __future__ import annotations

import numpy as np

from engine.geometry import ALL_CELLS, CELLS, HASH_ORDER, MIRROR, RING, WITHIN
from engine.javarandom import next_int, seed_state
from engine.jit import hot, kernel, lowest_bit, popcount
from engine.leagues import LEAGUES, league
from engine.records import new_map_array

# One row per league (index = league number): the fields of `League` that compiled code needs.
LEAGUE_TABLE = np.zeros((4, 9), dtype=np.int64)
for _n, _l in LEAGUES.items():
    LEAGUE_TABLE[_n] = (_l.max_days, _l.can_grow, _l.can_seed, _l.shadows, _l.holes, _l.starting_pairs,
                        _l.starting_size, _l.starting_distance, _l.starting_on_edge)

RING_RICHNESS = np.array([3, 3, 2, 1], dtype=np.int64)
MAX_HOLES_DRAW = 11  # nextInt(MAX_EMPTY_CELLS + 1) with MAX_EMPTY_CELLS = 10


@hot
def nth_cell(bits, n):
    """The n-th set cell (0-based) of a bitboard, in ascending cell order."""
    for _ in range(n):
        bits &= bits - 1
    return lowest_bit(bits)


@kernel
def generate_map(seed_rng_state, league_number, mp):
    """Fill the map record `mp` for a game whose RNG starts in `seed_rng_state` (see `seed_state`)."""
    rng = seed_rng_state
    row = LEAGUE_TABLE[league_number]
    mp.league = league_number
    mp.max_days = row[0]
    mp.can_grow = row[1]
    mp.can_seed = row[2]
    mp.shadows = row[3]
    for c in range(CELLS):
        mp.richness[c] = RING_RICHNESS[RING[c]]
    if row[4]:
        wanted, rng = next_int(rng, MAX_HOLES_DRAW)
        holes = 0
        while holes < wanted - 1:
            k, rng = next_int(rng, CELLS)
            c = HASH_ORDER[k]
            if mp.richness[c] != 0:
                mp.richness[c] = 0
                holes += 1
                if MIRROR[c] != c:
                    mp.richness[MIRROR[c]] = 0
                    holes += 1
    for r in range(4):
        mp.by_richness[r] = 0
    for c in range(CELLS):
        mp.by_richness[mp.richness[c]] |= 1 << c

    pairs = row[5]
    distance = row[7]
    if row[8]:
        candidates = 0
        for c in range(CELLS):
            if RING[c] == 3:
                candidates |= 1 << c
    else:
        candidates = ALL_CELLS & ~1
    candidates &= ~mp.by_richness[0]
    found = 0
    while found < pairs:  # a short attempt is thrown away; the next one continues the same RNG
        available = candidates
        found = 0
        for i in range(pairs):
            if available == 0:
                break
            k, rng = next_int(rng, popcount(available))
            c = nth_cell(available, k)
            m = MIRROR[c]
            available &= ~(WITHIN[distance * CELLS + c] | WITHIN[distance * CELLS + m])
            mp.starting_cells[2 * i] = c
            mp.starting_cells[2 * i + 1] = m
            found += 1
    mp.starting_pairs = pairs
    mp.starting_size = row[6]
    mp.rng_after_init = rng


def official_map(seed: int, league_number: int) -> np.ndarray:
    """A one-element map array for (seed, league); raises ValueError for a league that does not exist."""
    league(league_number)
    mp = new_map_array()
    generate_map(seed_state(seed), league_number, mp[0])
    return mp


def map_record(seed: int, league_number: int) -> dict:
    """The map as `maps.jsonl` of the referee records writes it."""
    from engine.geometry import NEIGHBOR

    mp = official_map(seed, league_number)[0]
    richness, neighbors, starting = mp["richness"].tolist(), NEIGHBOR.tolist(), mp["starting_cells"].tolist()
    cells = [{"index": c, "richness": richness[c], "neighbors": neighbors[c * 6:c * 6 + 6]} for c in range(CELLS)]
    size = int(mp["starting_size"])
    trees = [
        {"cell": starting[2 * i + owner], "size": size, "owner": owner}
        for i in range(int(mp["starting_pairs"]))
        for owner in (0, 1)
    ]
    trees.sort(key=lambda t: t["cell"])
    return {"seed": seed, "league": league_number, "cells": cells, "starting_trees": trees,
            "rng_after_init": int(mp["rng_after_init"])}
