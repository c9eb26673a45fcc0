"""Playouts for the search: the compiled rules, both players moved by the base policy (the heuristic bot with
its default parameters), and the state helpers they need (copy, compare)."""
from __future__ import annotations

from bots.heuristic.policy import heuristic_move
from bots.heuristic.schema import SCHEMA as HEURISTIC_SCHEMA
from engine import rules
from engine.jit import hot, kernel

BASE_PARAMS = HEURISTIC_SCHEMA.vector({}, len(HEURISTIC_SCHEMA))


@kernel
def base_move(mp, s, p):
    """The base policy's move for player p: the search's model of both players' later moves."""
    return heuristic_move(mp, s, p, BASE_PARAMS)


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


@kernel
def playout(mp, s, p, kind, a, b, ok, oa, ob, states, first, keep):
    """Player p plays (kind, a, b) and its opponent (ok, oa, ob) this turn, then both play the base policy to
    the end of the game, on states[first]. The states at p's next `keep` decisions are kept in
    states[first + 1 ...]. Returns (p's final score margin, decisions kept, turns played)."""
    t = states[first]
    copy_state(s, t)
    if p == 0:
        over = step(mp, t, kind, a, b, ok, oa, ob)
    else:
        over = step(mp, t, ok, oa, ob, kind, a, b)
    kept = 0
    turns = 1
    while not over:
        if kept < keep and not t.waiting[p]:
            kept += 1
            copy_state(t, states[first + kept])
        kind0, a0, b0 = rules.WAIT, 0, 0
        kind1, a1, b1 = rules.WAIT, 0, 0
        if not t.waiting[0]:
            kind0, a0, b0 = base_move(mp, t, 0)
        if not t.waiting[1]:
            kind1, a1, b1 = base_move(mp, t, 1)
        over = step(mp, t, kind0, a0, b0, kind1, a1, b1)
        turns += 1
    f0, f1, _, _, _, _ = rules.final_scores(t)
    margin = f0 - f1 if p == 0 else f1 - f0
    return float(margin), kept, turns
