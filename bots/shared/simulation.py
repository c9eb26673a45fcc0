"""What the search bots simulate with: one simultaneous turn with the day's end, and copies and comparisons of
game states (records of `engine.records.STATE_DTYPE`, such as a seat's scratch `states`)."""
from __future__ import annotations

from engine import rules
from engine.jit import hot, kernel


@hot
def copy_state(src, dst):
    for k in range(4):
        dst.trees[k] = src.trees[k]
    for p in range(2):
        dst.mine[p] = src.mine[p]
        dst.sun[p] = src.sun[p]
        dst.score[p] = src.score[p]
        dst.waiting[p] = src.waiting[p]
        dst.active[p] = src.active[p]
    dst.dormant = src.dormant
    dst.nutrients = src.nutrients
    dst.day = src.day


@hot
def same_state(a, b):
    for k in range(4):
        if a.trees[k] != b.trees[k]:
            return False
    for p in range(2):
        if (a.mine[p] != b.mine[p] or a.sun[p] != b.sun[p] or a.score[p] != b.score[p]
                or a.waiting[p] != b.waiting[p] or a.active[p] != b.active[p]):
            return False
    return a.dormant == b.dormant and a.nutrients == b.nutrients and a.day == b.day


@kernel
def step(mp, s, kind0, a0, b0, kind1, a1, b1):
    """One simultaneous turn, then the day's end (and the next day's harvest) when both players sleep.
    True when the game is over."""
    rules.resolve_turn(mp, s, kind0, a0, b0, kind1, a1, b1)
    if s.waiting[0] and s.waiting[1]:
        if rules.end_day(mp, s):
            return True
        rules.start_day(mp, s)
    return False


@hot
def final_margin(s, p):
    """Player p's final score minus its opponent's, at the end of the game."""
    f0, f1, _, _, _, _ = rules.final_scores(s)
    if p == 0:
        return f0 - f1
    return f1 - f0
