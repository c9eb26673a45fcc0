"""java.util.Random, exactly as the JDK documents it. The referee seeds one with the game seed.

Compiled functions are pure: they take the 48-bit state and return ``(value, new_state)``.
`JavaRandom` wraps them for Python callers.
"""
from __future__ import annotations

from engine.jit import hot

MULTIPLIER = 0x5DEECE66D
ADDEND = 0xB
MASK = (1 << 48) - 1


@hot
def seed_state(seed):
    """The state of ``new Random(seed)`` for a Java long seed."""
    return (seed ^ MULTIPLIER) & MASK


@hot
def next31(state):
    """Java's next(31): a non-negative 31-bit value."""
    state = (state * MULTIPLIER + ADDEND) & MASK
    return state >> 17, state


@hot
def next_int(state, bound):
    """Java's nextInt(bound) for bound > 0, rejection loop included."""
    r, state = next31(state)
    m = bound - 1
    if bound & m == 0:
        return (bound * r) >> 31, state
    u = r
    r = u % bound
    while u - r + m >= 2147483648:
        u, state = next31(state)
        r = u % bound
    return r, state


class JavaRandom:
    """A Python view of the same generator, for tools and tests."""

    def __init__(self, seed: int = 0, *, state: int | None = None):
        self.state = seed_state(seed) if state is None else state

    def next_int(self, bound: int) -> int:
        value, self.state = next_int(self.state, bound)
        return int(value)
