"""The records that compiled code passes around: a game's map and its state.

Compiled functions take single records (``array[0]``), which Numba passes by reference without reference
counting. Bitboards are int64 with bit c for cell c.
"""
from __future__ import annotations

import numpy as np

from engine.geometry import CELLS

MAX_STARTING_PAIRS = 6

MAP_DTYPE = np.dtype(
    [
        ("league", np.int64),
        ("max_days", np.int64),
        ("can_grow", np.int64),
        ("can_seed", np.int64),
        ("shadows", np.int64),
        ("richness", np.int64, CELLS),
        ("by_richness", np.int64, 4),  # by_richness[0] holds the holes
        ("starting_pairs", np.int64),
        ("starting_size", np.int64),
        ("starting_cells", np.int64, 2 * MAX_STARTING_PAIRS),  # c0, m0, c1, m1, ...: player 0 gets each c
        ("rng_after_init", np.int64),
    ],
    align=True,
)

STATE_DTYPE = np.dtype(
    [
        ("trees", np.int64, 4),  # trees[k]: cells holding a tree of size k, either owner
        ("mine", np.int64, 2),  # mine[p]: cells holding player p's trees
        ("dormant", np.int64),
        ("sun", np.int64, 2),
        ("score", np.int64, 2),
        ("waiting", np.int64, 2),
        ("active", np.int64, 2),
        ("nutrients", np.int64),
        ("day", np.int64),
    ],
    align=True,
)


def new_map_array(count: int = 1) -> np.ndarray:
    return np.zeros(count, dtype=MAP_DTYPE)


def new_state_array(count: int = 1) -> np.ndarray:
    return np.zeros(count, dtype=STATE_DTYPE)
