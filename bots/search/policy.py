"""The `search` bot's policy: rollout improvement over the heuristic bot, with a budget of simulated turns.

At each decision the candidate moves (`candidates`: the base policy's move first, then the others by a cheap
prior) are each played out to the end of the game, the bot then following its base policy (the heuristic bot
with default parameters) and its opponent an opponent model, and the move whose playouts end with the best
margin is played. The base move's playout is the principal variation: its value is kept with the states it
predicts at the player's next decisions, so while the game follows the prediction (the opponent plays as the
first model does) the base move needs no new playout, and each move's budget goes to alternatives.

Opponent models (`opponent`): the search of old moved the opponent as the default heuristic, so any opponent
that deviates from it fooled every comparison: a heuristic tuned against it went from 5% to 49% (the parameter
file `tests/data/search_exploiter.json`). By default a move's value is now the mean of two playouts, the
opponent as the default heuristic in one and as the default `sunrate` bot in the other: two styles far apart
(each beats the other's model-matched search), so a move must be good against both. The same exploiter gains
a few points against it, and a new exploiter tuned against it the same way gains about half as much as
against the search of old (`benchmarks/search_bots.py` has the figures). The mean rather than the worst case:
the worst case made the search timid (it lost to the heuristic it plays out).

Budget: `budget` simulated turns per move, saved in a bank (capped at `bank_cap` moves' worth) and spent on
playouts: the base playout when the prediction broke, then alternatives, one more while the bank is
positive (`within_budget`: in a C++ export with a time limit, while the move's deadline is ahead instead). A
playout from the start of the game costs about 90 turns, one on the last day a few.

Scratch memory (the seat's record arrays): states[0 .. 2 * (KEEP + 1)) hold two principal-variation
buffers (a playout's working state and the KEEP states it predicts), ints the bookkeeping below, floats[0]
the principal variation's value.
"""
from __future__ import annotations

from bots.contract.budget import within_budget
from bots.search.candidates import candidates
from bots.search.schema import OPPONENT_MODELS, SCHEMA
from bots.search.simulate import HEURISTIC_MODEL, SUNRATE_MODEL, playout
from bots.shared.simulation import same_state
from engine import rules
from engine.jit import kernel

P_BUDGET = SCHEMA.index("budget")
P_MIN_GAIN = SCHEMA.index("min_gain")
P_MAX_ALTERNATIVES = SCHEMA.index("max_alternatives")
P_BANK_CAP = SCHEMA.index("bank_cap")
P_OPPONENT = SCHEMA.index("opponent")
BOTH = OPPONENT_MODELS.index("both")

KEEP = 31  # predicted decisions kept per playout: two buffers of KEEP + 1 states fill SCRATCH_STATES
I_PV = 0  # which buffer holds the principal variation (0 or 1)
I_POS = 1  # index in it of the state expected at this decision
I_KEPT = 2  # predicted states it holds
I_BANK = 3  # simulated turns the bot may still spend
I_TURNS = 4  # simulated turns over the game (its cost, for benchmarks)
F_VALUE = 0


@kernel
def move_value(mp, s, p, kind, a, b, seat, first):
    """(value, decisions kept, turns played) of player p's move (kind, a, b): the mean margin of its playouts over
    the opponent models; the playout of the first model keeps its predicted states from states[first]."""
    opponent = int(seat.params[P_OPPONENT])
    if opponent != BOTH:
        return playout(mp, s, p, kind, a, b, seat.states, first, KEEP, opponent)
    value, kept, turns = playout(mp, s, p, kind, a, b, seat.states, first, KEEP, HEURISTIC_MODEL)
    other, _, more = playout(mp, s, p, kind, a, b, seat.states, first, 0, SUNRATE_MODEL)
    return 0.5 * (value + other), kept, turns + more


@kernel
def search_move(mp, s, p, seat):
    """Player p's move (kind, a, b)."""
    ints = seat.ints  # zeroed at each game's start (`bots.contract.seat.start_seat`)
    budget = int(seat.params[P_BUDGET])
    ints[I_BANK] = min(ints[I_BANK] + budget, budget * int(seat.params[P_BANK_CAP]))
    pv = ints[I_PV]
    pos = ints[I_POS]
    valid = 1 <= pos <= ints[I_KEPT] and same_state(s, seat.states[pv * (KEEP + 1) + pos])
    n = candidates(mp, s, p, seat.moves)
    if n == 1:
        if valid:
            ints[I_POS] = pos + 1
        else:
            ints[I_KEPT] = 0
        return rules.decode_move(seat.moves[0])
    if valid:
        best = seat.floats[F_VALUE]
        ints[I_POS] = pos + 1
    else:
        kind, a, b = rules.decode_move(seat.moves[0])
        best, kept, turns = move_value(mp, s, p, kind, a, b, seat, pv * (KEEP + 1))
        ints[I_POS] = 1
        ints[I_KEPT] = kept
        ints[I_BANK] -= turns
        ints[I_TURNS] += turns
    best_move = seat.moves[0]
    bar = best + seat.params[P_MIN_GAIN]
    n = min(n, 1 + int(seat.params[P_MAX_ALTERNATIVES]))
    i = 1
    while i < n and within_budget(ints[I_BANK]):
        kind, a, b = rules.decode_move(seat.moves[i])
        spare = 1 - pv
        value, kept, turns = move_value(mp, s, p, kind, a, b, seat, spare * (KEEP + 1))
        ints[I_BANK] -= turns
        ints[I_TURNS] += turns
        if value > bar:
            best = value
            bar = value
            best_move = seat.moves[i]
            pv = spare
            ints[I_PV] = pv
            ints[I_POS] = 1
            ints[I_KEPT] = kept
        i += 1
    seat.floats[F_VALUE] = best
    return rules.decode_move(best_move)
