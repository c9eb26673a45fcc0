"""Opponents that are a distribution, not a point: `NAME~J` draws the bot's parameters anew for each game seed.

Each parameter that describes the bot's style is moved, uniformly, by up to J of its range around the bot's own
value (its default, or a parameter file's), clipped to its range; integers and choices are rounded, parameters on
a log scale are moved on that scale. Parameters that are resources rather than style (a search budget: `Param(...,
perturbed=False)`) and those the name sets itself (`search:20`, `greedy:12,2`, `NAME:k=v`) stay as given.

The draw depends only on the game seed and the bot's own seed: both games of a seed pair (sides swapped) meet
the same opponent, every candidate of a study meets the same opponents on the same seeds, and another seed
brings another opponent. A tuner that exploits one parameter set of a style gains little against the style's
neighbourhood: it has to beat the style, not one point of it.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from bots.contract.schema import Schema
from engine.javarandom import next31, seed_state
from engine.jit import hot

FIXED, LINEAR, INTEGER, LOG, LOG_INTEGER = range(5)
MIX = 0x9E3779B97F4A7C15 - (1 << 64)  # the golden ratio's 64 bits, as an int64: spreads consecutive seeds apart


@hot
def uniform(rng):
    """A number in [-1, 1) and the new state."""
    r, rng = next31(rng)
    return r / 1073741824.0 - 1.0, rng


@hot
def perturb_params(seat, game_seed):
    """Draw the seat's parameters for a game on `game_seed` around `seat.base` (nothing when seat.jitter is 0)."""
    if seat.jitter <= 0.0:
        return
    rng = seed_state(game_seed * MIX + seat.seed)
    for i in range(seat.params.shape[0]):
        scale = seat.scale[i]
        if scale == FIXED:
            continue
        u, rng = uniform(rng)
        low = seat.low[i]
        high = seat.high[i]
        if scale >= LOG:
            value = math.exp(math.log(seat.base[i]) + u * seat.jitter * (math.log(high) - math.log(low)))
        else:
            value = seat.base[i] + u * seat.jitter * (high - low)
        value = min(max(value, low), high)
        if scale == INTEGER or scale == LOG_INTEGER:
            value = math.floor(value + 0.5)
        seat.params[i] = value


def set_perturbation(seat: np.ndarray, schema: Schema, jitter: float, fixed: Iterable[str] = ()) -> None:
    """Make a one-seat array draw its parameters around its current ones: by up to `jitter` of each range, but for
    the parameters named in `fixed` and those that are not style (`Param.perturbed`)."""
    record = seat[0]
    record["jitter"] = jitter
    record["base"][:] = record["params"]
    keep = set(fixed)
    for i, param in enumerate(schema):
        if not param.perturbed or param.name in keep:
            continue
        if param.type == "choice":
            low, high, scale = 0, len(param.choices) - 1, INTEGER
        else:
            low, high = param.bounds()
            integer = param.type == "int"
            scale = (LOG_INTEGER if integer else LOG) if param.log else (INTEGER if integer else LINEAR)
        if high > low:
            record["low"][i], record["high"][i], record["scale"][i] = low, high, scale


def drawn_params(seat: np.ndarray, game_seed: int) -> np.ndarray:
    """The parameter vector a seat plays a game on `game_seed` with (for tools and tests)."""
    copy = seat.copy()
    perturb_params(copy[0], np.int64(game_seed))
    return copy[0]["params"].copy()
