"""Choosing among cells: what several policies share."""
from __future__ import annotations

from engine.jit import hot, lowest_bit


@hot
def richest(mp, bits):
    """The richest cell of a non-empty set; among equally rich cells, the lowest index."""
    for r in range(3, 0, -1):
        rich = bits & mp.by_richness[r]
        if rich:
            return lowest_bit(rich)
    return lowest_bit(bits)
