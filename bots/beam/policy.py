"""The `beam` bot's policy: a day planner. At each decision it searches its own sequences of actions for the rest of
the day, the opponent assumed to wait, by a beam: from each of the `width` best positions so far, each shortlisted
action (`bots.shared.shortlist`) is played and the position reached is valued (`bots.shared.evaluation`: points,
sun, the harvest of the days left under the shadows the trees cast, what the trees may become); the `width` best
positions go on, up to `depth` actions. Stopping (WAIT) is a plan at every step. The bot plays the first action of
the best plan found, and plans again at its next decision (the opponent's moves may have changed the day).

Why the opponent waits: within a day the players' actions interact little (a contested seed, the nutrients a
COMPLETE takes), while the shadows that matter are those of the coming days, which the evaluation projects.

Scratch memory: seat.states holds two layers of the beam (positions), seat.ints their plans' first actions
and seat.floats their values; nothing is kept from one decision to the next.
"""
from __future__ import annotations

from bots.beam.schema import MAX_WIDTH, SCHEMA
from bots.shared.evaluation import FIRST_EVALUATION_PARAM, evaluate
from bots.shared.shortlist import FIRST_SHORTLIST_PARAM, shortlist
from bots.shared.simulation import copy_state, same_state
from engine import rules
from engine.jit import hot, kernel

P_WIDTH = SCHEMA.index("width")
P_DEPTH = SCHEMA.index("depth")
P_SHORTLIST = SCHEMA.index(FIRST_SHORTLIST_PARAM)
P_EVALUATION = SCHEMA.index(FIRST_EVALUATION_PARAM)

NEXT_LAYER = MAX_WIDTH  # seat.states, ints and floats: [0, MAX_WIDTH) one layer, [MAX_WIDTH, 2 MAX_WIDTH) the next
SPARE = 2 * MAX_WIDTH  # the state a move is tried on
I_TRIED = 2 * MAX_WIDTH  # seat.ints: the actions tried over the game (its cost, for benchmarks)


@hot
def insert(seat, base, kept, width, t, value, first):
    """Keep position t (its value, its plan's first move) among the layer's `kept` best at `base`, at most `width`
    of them, best first, unless the same position is there; returns the new count."""
    states = seat.states
    for i in range(kept):
        if same_state(states[base + i], t):
            return kept
    if kept == width and value <= seat.floats[base + kept - 1]:
        return kept
    i = min(kept, width - 1)
    while i > 0 and seat.floats[base + i - 1] < value:
        copy_state(states[base + i - 1], states[base + i])
        seat.floats[base + i] = seat.floats[base + i - 1]
        seat.ints[base + i] = seat.ints[base + i - 1]
        i -= 1
    copy_state(t, states[base + i])
    seat.floats[base + i] = value
    seat.ints[base + i] = first
    return min(kept + 1, width)


@kernel
def beam_move(mp, s, p, seat):
    """Player p's move (kind, a, b)."""
    params = seat.params
    states = seat.states
    width = min(int(params[P_WIDTH]), MAX_WIDTH)
    wait = rules.encode_move(rules.WAIT, 0, 0)
    copy_state(s, states[0])
    states[0].waiting[1 - p] = 1  # the opponent is assumed to wait
    best = evaluate(mp, states[0], p, params, P_EVALUATION)
    best_first = wait
    seat.ints[0] = wait
    kept = 1
    layer = 0
    t = states[SPARE]
    for depth in range(int(params[P_DEPTH])):
        nxt = NEXT_LAYER - layer
        count = 0
        for e in range(kept):
            n = shortlist(mp, states[layer + e], p, params, P_SHORTLIST, -1, seat.moves)
            for i in range(n):
                move = seat.moves[i]
                if move == wait:
                    continue
                kind, a, b = rules.decode_move(move)
                copy_state(states[layer + e], t)
                if p == 0:
                    rules.resolve_turn(mp, t, kind, a, b, rules.WAIT, 0, 0)
                else:
                    rules.resolve_turn(mp, t, rules.WAIT, 0, 0, kind, a, b)
                seat.ints[I_TRIED] += 1
                value = evaluate(mp, t, p, params, P_EVALUATION)
                first = seat.ints[layer + e]
                if depth == 0:
                    first = move
                if value > best:
                    best = value
                    best_first = first
                count = insert(seat, nxt, count, width, t, value, first)
        if count == 0:
            break
        kept = count
        layer = nxt
    return rules.decode_move(best_first)
