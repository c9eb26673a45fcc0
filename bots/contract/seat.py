"""A seat: which in-engine bot plays a side (its kind: `bots.registry.kind_of`), with its parameter vector and
its random state.

Compiled code receives a seat as a record, as it receives the map and the state.
"""
from __future__ import annotations

import numpy as np

from bots.contract.perturbation import perturb_params
from engine.javarandom import seed_state
from engine.jit import hot
from engine.records import STATE_DTYPE
from engine.rules import MAX_MOVES

MAX_PARAMS = 64
SCRATCH_STATES = 64  # scratch game states, integers and floats of a seat: what a search bot works in
SCRATCH_INTS = 112
SCRATCH_FLOATS = 64
# A search bot's memory from one move to the next within a game (a tree). Not zeroed at a game's start, which
# would cost every bot's every game: the bot keeps in `ints` (zeroed) what part of it is in use.
MEMORY_INTS = 5312
MEMORY_FLOATS = 4096

def seat_dtype(states: int = SCRATCH_STATES, ints: int = SCRATCH_INTS, floats: int = SCRATCH_FLOATS,
               memory: int = MEMORY_INTS, memory_floats: int = MEMORY_FLOATS) -> np.dtype:
    """A seat record with scratch and memory arrays of these sizes. The engine's seats are all `SEAT_DTYPE`; a C++
    export with a time limit may carry a seat with larger arrays for a search bot (its plug-in's `TimedExport`),
    whose policy then sizes its work by the arrays' lengths (`len(seat.memory)`)."""
    return np.dtype(
        [
            ("kind", np.int64),
            ("seed", np.int64),  # the bot's own seed (random bot)
            ("rng", np.int64),  # its java.util.Random-style state during a game
            ("params", np.float64, MAX_PARAMS),
            ("moves", np.int64, MAX_MOVES),  # scratch space for move lists (a record field: no reference counting)
            ("states", STATE_DTYPE, states),  # scratch game states (search bots)
            ("ints", np.int64, ints),
            ("floats", np.float64, floats),
            ("memory", np.int64, memory),
            ("memory_floats", np.float64, memory_floats),
            # A distribution of opponents (`bots.contract.perturbation`): each game's params drawn around `base`.
            ("jitter", np.float64),  # 0: the params as they are
            ("base", np.float64, MAX_PARAMS),
            ("low", np.float64, MAX_PARAMS),
            ("high", np.float64, MAX_PARAMS),
            ("scale", np.int64, MAX_PARAMS),  # how each parameter is drawn (bots.contract.perturbation.FIXED, ...)
        ],
        align=True,
    )


SEAT_DTYPE = seat_dtype()


def new_seat_array(count: int = 1) -> np.ndarray:
    return np.zeros(count, dtype=SEAT_DTYPE)


@hot
def start_seat(seat, game_seed, player):
    """Reset a seat's random state and its scratch numbers for one game, so a game's moves depend on (bot seed, game
    seed, side) only, never on the games the seat played before; a distribution of opponents draws its
    parameters for the game (the same on both sides of a seed pair)."""
    perturb_params(seat, game_seed)
    seat.rng = seed_state(seat.seed * 1000003 + game_seed * 8191 + player)
    for i in range(SCRATCH_INTS):
        seat.ints[i] = 0
    for i in range(SCRATCH_FLOATS):
        seat.floats[i] = 0.0
