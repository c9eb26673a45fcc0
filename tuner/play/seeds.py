"""Game seeds derived from a user's seed: the same seeds for the same (seed, stream), on every machine.

SplitMix64 is written out here so the derivation never changes with a library version. Streams keep seed
lists apart: a study's search seeds and its held-out validation seeds come from different streams.
"""
from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
STREAMS = {"match": 0, "search": 1, "validation": 2, "gauntlet": 3}


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def game_seeds(seed: int, count: int, stream: str = "match", start: int = 0) -> list[int]:
    """`count` game seeds (signed 64-bit, as Java longs) for `seed` in `stream`, from position `start`."""
    base = splitmix64((seed & MASK64) ^ (STREAMS[stream] << 56))
    out = []
    for i in range(start, start + count):
        value = splitmix64(base ^ splitmix64(i))
        out.append(value - (1 << 64) if value >= 1 << 63 else value)
    return out


def paired_schedule(pair_seeds) -> tuple[np.ndarray, np.ndarray]:
    """Every seed twice: first with the evaluated bot as player 0, then with sides swapped. Returns the game
    seeds and, per game, whether the evaluated bot is player 1."""
    seeds = np.repeat(np.asarray(pair_seeds, dtype=np.int64), 2)
    swapped = np.tile(np.array([False, True]), len(seeds) // 2)
    return seeds, swapped
