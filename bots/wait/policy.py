"""The `wait` bot's policy."""
from __future__ import annotations

from engine import rules
from engine.jit import hot


@hot
def wait_move(mp, s, p, seat):
    return rules.WAIT, 0, 0
