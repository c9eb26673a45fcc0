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
SCRATCH_INTS = 64
SCRATCH_FLOATS = 64
# A search bot's memory from one move to the next within a game (a tree). Not zeroed at a game's start, which
# would cost every bot's every game: the bot keeps in `ints` (zeroed) what part of it is in use.
MEMORY_INTS = 5312
MEMORY_FLOATS = 4096

SEAT_DTYPE = np.dtype(
    [
        ("kind", np.int64),
        ("seed", np.int64),  # the bot's own seed (random bot)
        ("rng", np.int64),  # its java.util.Random-style state during a game
        ("params", np.float64, MAX_PARAMS),
        ("moves", np.int64, MAX_MOVES),  # scratch space for move lists (a record field: no reference counting)
        ("states", STATE_DTYPE, SCRATCH_STATES),  # scratch game states (search bots)
        ("ints", np.int64, SCRATCH_INTS),
        ("floats", np.float64, SCRATCH_FLOATS),
        ("memory", np.int64, MEMORY_INTS),
        ("memory_floats", np.float64, MEMORY_FLOATS),
        # A distribution of opponents (`bots.contract.perturbation`): each game's params drawn around `base`.
        ("jitter", np.float64),  # 0: the params as they are
        ("base", np.float64, MAX_PARAMS),
        ("low", np.float64, MAX_PARAMS),
        ("high", np.float64, MAX_PARAMS),
        ("scale", np.int64, MAX_PARAMS),  # how each parameter is drawn (bots.contract.perturbation.FIXED, LINEAR, ...)
    ],
    align=True,
)


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
