"""Choosing among cells: what several policies share."""
from __future__ import annotations

from engine.geometry import CELLS, SPREAD, WITHIN
from engine.jit import hot, lowest_bit


@hot
def richest(mp, bits):
    """The richest cell of a non-empty set; among equally rich cells, the lowest index."""
    for r in range(3, 0, -1):
        rich = bits & mp.by_richness[r]
        if rich:
            return lowest_bit(rich)
    return lowest_bit(bits)


@hot
def spread(bits, r):
    """The cells within distance r (1, 2 or 3) of the cells of `bits`: one table lookup per byte of the
    bitboard instead of one per cell (`engine.geometry.SPREAD`)."""
    base = (r - 1) * 1280
    return (SPREAD[base + (bits & 0xFF)] | SPREAD[base + 256 + ((bits >> 8) & 0xFF)]
            | SPREAD[base + 512 + ((bits >> 16) & 0xFF)] | SPREAD[base + 768 + ((bits >> 24) & 0xFF)]
            | SPREAD[base + 1024 + ((bits >> 32) & 0xFF)])


@hot
def reach_of(s, trees):
    """The cells the trees among `trees` can seed (a tree of size k reaches k cells away; seeds reach none)."""
    return spread(trees & s.trees[1], 1) | spread(trees & s.trees[2], 2) | spread(trees & s.trees[3], 3)


@hot
def seed_source(s, sources, target):
    """The smallest of the trees `sources` that reaches `target` (a tree of size k reaches k cells away); -1 when
    none does, which a target in `reach_of(s, sources)` never is."""
    for k in range(1, 4):
        bits = sources & s.trees[k] & WITHIN[k * CELLS + target]
        if bits:
            return lowest_bit(bits)
    return -1
