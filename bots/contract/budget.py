"""The hook that ends a search bot's work on a move: a count of work in the engine, the clock in an export.

A search bot's loop asks `within_budget(count)` before each unit of work (a playout, an iteration), `count`
being the work its budget still allows. In the engine, and in an export without a time limit, the answer is
`count > 0`: the bot spends its fixed budget and plays the same game. The C++ export's runtime replaces this
function (`export/transpile.py` HOOKS): with `--time-ms T` it answers whether the move's wall-clock deadline is
still ahead, whatever the count.
"""
from __future__ import annotations

from engine.jit import hot


@hot
def within_budget(count):
    """Whether a search may do one more unit of work on this move."""
    return count > 0
