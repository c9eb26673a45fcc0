"""Playouts for the search: the compiled rules, both players moved by the base policy (the heuristic bot with
its default parameters)."""
from __future__ import annotations

from bots.heuristic.policy import heuristic_move
from bots.heuristic.schema import SCHEMA as HEURISTIC_SCHEMA
from bots.simulation import copy_state, final_margin, step
from engine import rules
from engine.jit import kernel

BASE_PARAMS = HEURISTIC_SCHEMA.vector({}, len(HEURISTIC_SCHEMA))


@kernel
def base_move(mp, s, p):
    """The base policy's move for player p: the search's model of both players' later moves."""
    return heuristic_move(mp, s, p, BASE_PARAMS)


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
    return float(final_margin(t, p)), kept, turns
