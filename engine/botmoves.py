"""The move of an in-engine bot, for the referee: `bots.policy.decide_once` called with the game's one-element
arrays, which Numba types from a cached fingerprint, where three record arguments cost microseconds each."""
from __future__ import annotations

from bots.policy import decide_once
from engine.jit import kernel


@kernel
def decide_in(maps, states, p, seats):
    return decide_once(maps[0], states[0], p, seats[0])
