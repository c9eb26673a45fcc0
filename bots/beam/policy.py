"""The `beam` bot's policy: a day planner. At each decision it searches its own sequences of actions for the rest of
the day, the opponent assumed to wait, by a beam: from each of the `width` best positions so far, each shortlisted
action (`bots.shared.shortlist`) is played and the position reached is valued (`bots.shared.evaluation`: points,
sun, the harvest of the days left under the shadows the trees cast, what the trees may become); the `width` best
positions go on, up to `depth` actions. Stopping (WAIT) is a plan at every step. The bot plays the first action of
the best plan found, and plans again at its next decision (the opponent's moves may have changed the day).

Rollouts (`rollout_days` > 0): the day's plan values what the evaluation sees at the end of today; what the
opponent does and the days after are the evaluation's guess. So the `rollout_candidates` first moves whose plans
value best are each played out: the bot plays it, and from there both players follow their own day plans (a beam
`rollout_width` wide, each assuming the other waits) turn by turn, for a horizon of days; the candidate whose
rollout ends in the best position (valued by the evaluation; the final margin if the game ended) is played. With
`rollout_replies` R > 1, each candidate is played out R times, the opponent's first move in each being one of the
first moves of its own R best day plans, and valued by the mean of its R rollouts rather than by one guess of the
opponent's move. The horizon deepens, 1, 2, 4, 8 ... `rollout_days` days, while the budget lasts (`within_budget`):
in the engine and a fixed-budget export, up to `rollout_days` (a fixed amount of work); in a C++ export with a time
limit, until the move's deadline, a pass the deadline cuts short being dropped. With `rollout_days` = 0 (the
default) the bot plays its plan's first move: `beam:W` is the fixed-work day planner the studies know.

Passes (`rollout_samples` S > 1 and `rollout_spread` K > 1): a rollout guesses each later move of the opponent by its
day plan, the same guess every time. With passes, S - 1 more passes of rollouts follow at the last horizon, in which
the opponent's later moves are drawn among the first moves of its K best day plans (the bot's random state,
`bots.shared.draws`), and each candidate is valued by its sum over the passes: S passes in the engine, as many as
the deadline allows in a timed export. Those passes are what a longer move buys (docs/bots.md, "Passes").

Why the opponent waits: within a day the players' actions interact little (a contested seed, the nutrients a
COMPLETE takes), while the shadows that matter are those of the coming days, which the evaluation projects.

Scratch memory: seat.states holds two layers of the beam (positions) and a rollout's position, seat.ints their
plans' first actions, the candidates' first moves, the opponent's replies and the random state, seat.floats their
values and the candidates' sums over passes; nothing but the random state is kept from one decision to the next.
"""
from __future__ import annotations

from bots.beam.schema import MAX_REPLIES, MAX_WIDTH, SCHEMA
from bots.contract.budget import within_budget
from bots.shared.draws import seed_draws, uniform
from bots.shared.evaluation import FIRST_EVALUATION_PARAM, evaluate
from bots.shared.shortlist import FIRST_SHORTLIST_PARAM, shortlist
from bots.shared.simulation import copy_state, final_margin, same_state, step
from engine import rules
from engine.jit import hot, kernel

P_WIDTH = SCHEMA.index("width")
P_DEPTH = SCHEMA.index("depth")
P_SHORTLIST = SCHEMA.index(FIRST_SHORTLIST_PARAM)
P_EVALUATION = SCHEMA.index(FIRST_EVALUATION_PARAM)
P_ROLLOUT_DAYS = SCHEMA.index("rollout_days")
P_CANDIDATES = SCHEMA.index("rollout_candidates")
P_ROLLOUT_WIDTH = SCHEMA.index("rollout_width")
P_REPLIES = SCHEMA.index("rollout_replies")
P_SAMPLES = SCHEMA.index("rollout_samples")
P_SPREAD = SCHEMA.index("rollout_spread")

NEXT_LAYER = MAX_WIDTH  # seat.states, ints and floats: [0, MAX_WIDTH) one layer, [MAX_WIDTH, 2 MAX_WIDTH) the next
SPARE = 2 * MAX_WIDTH  # the state a move is tried on
ROLLOUT = SPARE + 1  # the state a rollout plays on
I_TRIED = 2 * MAX_WIDTH  # seat.ints: the actions tried over the game (its cost, for benchmarks)
MAX_FIRSTS = 16  # first moves of today's plans recorded (a shortlist holds at most 12)
I_FIRSTS = I_TRIED + 1  # seat.ints: those first moves
I_FIRST_COUNT = I_FIRSTS + MAX_FIRSTS  # and their number
I_HORIZON = I_FIRST_COUNT + 1  # the days the last move's completed rollouts looked ahead (for benchmarks)
I_ROLLOUT_DAYS = I_HORIZON + 1  # the days the last move's rollouts played out, all of them (for benchmarks)
I_REPLIES = I_ROLLOUT_DAYS + 1  # seat.ints: the opponent's first moves a candidate's rollouts begin with
I_REPLY_COUNT = I_REPLIES + MAX_REPLIES  # and their number
I_CANDIDATES = I_REPLY_COUNT + MAX_FIRSTS  # seat.ints: the candidates played out (their plans' record, I_FIRSTS,
# is rewritten by the opponent's plans in sampled rollouts)
I_RNG = I_CANDIDATES + MAX_FIRSTS  # seat.ints: the bot's random state (`bots.shared.draws`; 0: not drawn yet)
I_PASSES = I_RNG + 1  # seat.ints: the passes of rollouts the last move completed at its last horizon (benchmarks)
F_FIRSTS = 2 * MAX_WIDTH  # seat.floats: the value of the best plan that starts with each first move
F_SUMS = F_FIRSTS + MAX_FIRSTS  # seat.floats: the candidates' sums over sampled passes
NO_VALUE = -1.0e18
RAN, ENDED, CUT = 0, 1, 2  # how a rollout stopped: its horizon reached, the game over, the budget spent


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


@hot
def record_first(seat, move, value):
    """Note `value` for a plan starting with `move`: its first move's best value so far."""
    count = seat.ints[I_FIRST_COUNT]
    for i in range(count):
        if seat.ints[I_FIRSTS + i] == move:
            if value > seat.floats[F_FIRSTS + i]:
                seat.floats[F_FIRSTS + i] = value
            return
    if count < MAX_FIRSTS:
        seat.ints[I_FIRSTS + count] = move
        seat.floats[F_FIRSTS + count] = value
        seat.ints[I_FIRST_COUNT] = count + 1


@kernel
def plan(mp, s, p, seat, width, record):
    """Player p's day plan from s, the opponent assumed to wait: the first move of the best plan a beam `width` wide
    finds (encoded). With `record`, each first move's best plan value is kept in the seat (`record_first`)."""
    params = seat.params
    states = seat.states
    wait = rules.encode_move(rules.WAIT, 0, 0)
    copy_state(s, states[0])
    states[0].waiting[1 - p] = 1
    best = evaluate(mp, states[0], p, params, P_EVALUATION)
    best_first = wait
    if record:
        seat.ints[I_FIRST_COUNT] = 0
        record_first(seat, wait, best)
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
                if record:
                    record_first(seat, first, value)
                if value > best:
                    best = value
                    best_first = first
                count = insert(seat, nxt, count, width, t, value, first)
        if count == 0:
            break
        kept = count
        layer = nxt
    return best_first


@kernel
def rollout(mp, s, p, seat, first, reply, days, width, spread):
    """Player p plays `first` from s, then both players follow their day plans for `days` day ends: (the value
    for p of the position reached, the final margin if the game ended; RAN, ENDED or CUT). With `spread` > 1 the
    opponent's later moves are drawn among the first moves of its `spread` best day plans."""
    wait = rules.encode_move(rules.WAIT, 0, 0)
    r = seat.states[ROLLOUT]
    copy_state(s, r)
    last_day = s.day + days
    mine = first
    theirs = reply
    while within_budget(1):
        if theirs < 0:
            theirs = wait
            if not r.waiting[1 - p]:
                theirs = plan(mp, r, 1 - p, seat, width, spread > 1)
                if spread > 1:
                    sort_firsts(seat)
                    n = min(spread, seat.ints[I_FIRST_COUNT])
                    k = min(int(uniform(seat, I_RNG) * n), n - 1)
                    if seat.ints[I_FIRSTS + k] != wait:
                        theirs = seat.ints[I_FIRSTS + k]
        kind, a, b = rules.decode_move(mine)
        their_kind, their_a, their_b = rules.decode_move(theirs)
        day = r.day
        if p == 0:
            over = step(mp, r, kind, a, b, their_kind, their_a, their_b)
        else:
            over = step(mp, r, their_kind, their_a, their_b, kind, a, b)
        if over:
            return float(final_margin(r, p)), ENDED
        if r.day != day:
            seat.ints[I_ROLLOUT_DAYS] += 1
            if r.day >= last_day:
                return evaluate(mp, r, p, seat.params, P_EVALUATION), RAN
        mine = wait
        if not r.waiting[p]:
            mine = plan(mp, r, p, seat, width, False)
        theirs = -1
    return NO_VALUE, CUT


@hot
def sort_firsts(seat):
    """The recorded first moves, best plan value first (selection sort: at most MAX_FIRSTS of them)."""
    count = seat.ints[I_FIRST_COUNT]
    for i in range(count):
        top = i
        for j in range(i + 1, count):
            if seat.floats[F_FIRSTS + j] > seat.floats[F_FIRSTS + top]:
                top = j
        if top != i:
            move = seat.ints[I_FIRSTS + i]
            seat.ints[I_FIRSTS + i] = seat.ints[I_FIRSTS + top]
            seat.ints[I_FIRSTS + top] = move
            value = seat.floats[F_FIRSTS + i]
            seat.floats[F_FIRSTS + i] = seat.floats[F_FIRSTS + top]
            seat.floats[F_FIRSTS + top] = value


@kernel
def play_out(mp, s, p, seat, candidates, horizon, width, spread, first):
    """One pass of rollouts: each candidate played out once against each of the opponent's replies, the mean over
    the replies set as its value (the `first` pass at a horizon) or added to the sum of its passes. ENDED if every
    rollout ended the game, RAN if some did not, CUT if the budget cut the pass short."""
    replies = seat.ints[I_REPLY_COUNT]
    passed = ENDED
    for i in range(candidates):
        value = 0.0
        for j in range(replies):
            v, how = rollout(mp, s, p, seat, seat.ints[I_CANDIDATES + i], seat.ints[I_REPLIES + j], horizon, width,
                             spread)
            if how == CUT:
                return CUT
            if how != ENDED:
                passed = RAN
            value += v / replies
        if first:
            seat.floats[F_SUMS + i] = value
        else:
            seat.floats[F_SUMS + i] += value
    return passed


@hot
def best_candidate(seat, candidates):
    """The candidate whose passes sum highest (the first of equals)."""
    best = 0
    for i in range(1, candidates):
        if seat.floats[F_SUMS + i] > seat.floats[F_SUMS + best]:
            best = i
    return seat.ints[I_CANDIDATES + best]


@kernel
def rolled_out_choice(mp, s, p, seat, chosen):
    """The candidate first move whose rollouts end best, at the deepest horizon whose pass the budget let finish
    (`chosen`, the plan's first move, if none did). With `rollout_samples` S > 1 and `rollout_spread` K > 1, more
    passes follow at that horizon, in which the opponent's later moves are drawn among the first moves of its K best
    day plans (`rollout`), and the candidates are valued by their sums over the passes the budget let finish: S
    passes in the engine, as many as the deadline allows in a timed export."""
    params = seat.params
    days = int(params[P_ROLLOUT_DAYS])
    width = min(int(params[P_ROLLOUT_WIDTH]), MAX_WIDTH)
    sort_firsts(seat)
    candidates = min(int(params[P_CANDIDATES]), seat.ints[I_FIRST_COUNT])
    for i in range(candidates):
        seat.ints[I_CANDIDATES + i] = seat.ints[I_FIRSTS + i]
    done = 0
    while done < days and within_budget(days - done):
        horizon = min(days, max(1, 2 * done))
        passed = play_out(mp, s, p, seat, candidates, horizon, width, 1, True)
        if passed == CUT:
            return chosen
        chosen = best_candidate(seat, candidates)
        done = horizon
        seat.ints[I_HORIZON] = horizon
        seat.ints[I_PASSES] = 1
        if passed == ENDED:
            break
    samples = int(params[P_SAMPLES])
    spread = int(params[P_SPREAD])
    if done == 0 or samples < 2 or spread < 2:
        return chosen
    seed_draws(mp, s, p, seat, I_RNG)
    while within_budget(samples - seat.ints[I_PASSES]):
        if play_out(mp, s, p, seat, candidates, done, width, spread, False) == CUT:
            return chosen
        chosen = best_candidate(seat, candidates)
        seat.ints[I_PASSES] += 1
    return chosen


@kernel
def opponent_replies(mp, s, p, seat, width, most):
    """The opponent's `most` best first moves (those of its best day plans) kept for the rollouts to begin with."""
    if s.waiting[1 - p]:
        return
    plan(mp, s, 1 - p, seat, width, True)
    sort_firsts(seat)
    count = min(most, seat.ints[I_FIRST_COUNT])
    for j in range(count):
        seat.ints[I_REPLIES + j] = seat.ints[I_FIRSTS + j]
    seat.ints[I_REPLY_COUNT] = count


@kernel
def beam_move(mp, s, p, seat):
    """Player p's move (kind, a, b)."""
    params = seat.params
    width = min(int(params[P_WIDTH]), MAX_WIDTH)
    seat.ints[I_HORIZON] = 0
    seat.ints[I_ROLLOUT_DAYS] = 0
    seat.ints[I_PASSES] = 0
    rolls = int(params[P_ROLLOUT_DAYS]) > 0
    seat.ints[I_REPLY_COUNT] = 1
    seat.ints[I_REPLIES] = -1
    if rolls and int(params[P_REPLIES]) > 1:
        opponent_replies(mp, s, p, seat, width, min(int(params[P_REPLIES]), MAX_REPLIES))
    chosen = plan(mp, s, p, seat, width, rolls)
    if rolls and seat.ints[I_FIRST_COUNT] > 1:
        chosen = rolled_out_choice(mp, s, p, seat, chosen)
    return rules.decode_move(chosen)
