"""Playouts for the search: the compiled rules, the searching player moved by the base policy (the heuristic bot
with its default parameters), its opponent by one of the opponent models (the default heuristic or the default
sunrate bot)."""
from __future__ import annotations

from bots.heuristic.policy import heuristic_move
from bots.heuristic.schema import SCHEMA as HEURISTIC_SCHEMA
from bots.search.schema import OPPONENT_MODELS
from bots.shared.simulation import copy_state, final_margin, step
from bots.sunrate.policy import sunrate_play
from bots.sunrate.schema import SCHEMA as SUNRATE_SCHEMA
from engine import rules
from engine.jit import kernel

BASE_PARAMS = HEURISTIC_SCHEMA.vector({}, len(HEURISTIC_SCHEMA))
SUNRATE_PARAMS = SUNRATE_SCHEMA.vector({}, len(SUNRATE_SCHEMA))
HEURISTIC_MODEL, SUNRATE_MODEL = OPPONENT_MODELS.index("heuristic"), OPPONENT_MODELS.index("sunrate")


@kernel
def base_move(mp, s, p):
    """The base policy's move for player p: the search's model of both players' later moves."""
    return heuristic_move(mp, s, p, BASE_PARAMS)


@kernel
def model_move(mp, s, p, model):
    """The move of opponent model `model` (HEURISTIC_MODEL or SUNRATE_MODEL) for player p."""
    if model == SUNRATE_MODEL:
        return sunrate_play(mp, s, p, SUNRATE_PARAMS)
    return base_move(mp, s, p)


@kernel
def playout(mp, s, p, kind, a, b, states, first, keep, model):
    """Player p plays (kind, a, b) this turn, then the base policy to the end of the game, its opponent following
    opponent model `model` throughout, on states[first]. The states at p's next `keep` decisions are kept in
    states[first + 1 ...]. Returns (p's final score margin, decisions kept, turns played)."""
    t = states[first]
    copy_state(s, t)
    ok, oa, ob = rules.WAIT, 0, 0
    if not s.waiting[1 - p]:
        ok, oa, ob = model_move(mp, s, 1 - p, model)
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
        if not t.waiting[p]:
            if p == 0:
                kind0, a0, b0 = base_move(mp, t, 0)
            else:
                kind1, a1, b1 = base_move(mp, t, 1)
        if not t.waiting[1 - p]:
            if p == 0:
                kind1, a1, b1 = model_move(mp, t, 1, model)
            else:
                kind0, a0, b0 = model_move(mp, t, 0, model)
        over = step(mp, t, kind0, a0, b0, kind1, a1, b1)
        turns += 1
    return float(final_margin(t, p)), kept, turns
