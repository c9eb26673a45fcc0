"""The `mcts` bot's policy: Monte Carlo tree search over the whole game, for simultaneous moves.

Decoupled: at a node each player who is awake picks one of its own edges (its shortlisted moves,
`bots.shared.shortlist`) from its own statistics, and both moves are played together; the opponent's moves are
searched as the bot's own are, with no model of the opponent but a prior on its rollout policy's move. The pick
is PUCT's:
the edge's mean reward plus `exploration` times its prior times sqrt(visits of the node) / (1 + its visits),
the prior `prior` on the rollout policy's move and the rest shared by the others; an untried edge's mean is the
node's, minus `first_play`. (PUCT rather than UCB1 or Exp3: no logarithm or exponential, which the exported
bot's portable subset lacks, and a prior that makes a handful of iterations count.)

An iteration goes down the tree, replaying the moves from the root's position, adds the first node it reaches
that the tree lacks, then plays a rollout from there to the end of the game: both players follow the rollout
policy (the heuristic bot's code with this bot's own copy of its parameters, which a study tunes with the rest).
The final margin becomes a reward in [0, 1] for player 0 (1 - it for player 1) on every edge of the path, and on
the new node's first edges, which the rollout's first turn played (so a node the game reaches next has a value
for the rollout policy's moves, as `search` keeps its principal variation).

Why whole rollouts and few iterations: tried at the same cost, rollouts cut after a day or two and valued by an
evaluation (least squares on game outcomes, `bots.shared.evaluation`'s first design) chose worse moves than the
heuristic itself; a rollout to the end, about 40 turns in mid-game, is what the budget of a sparring partner
(500 games/s of self-play on one core) pays for: two iterations a move by default. Against so few, the bot's own
untried moves come first (`first_play` below 0: every shortlisted move gets its rollout, as in `search`) while the
opponent keeps to its prior move until its others earn visits (`opponent_prior`, `opponent_first_play`); more
iterations search the opponent's replies and deeper (`mcts:N`).

Why random rollouts (`rollout_epsilon`: a random shortlisted move now and then; `rollout_jitter`: the rollout
policy's weights moved a little for each rollout): a deterministic rollout gives a leaf the same reward at every
visit, so once the tree stops growing more iterations add no information, and a wide tree picks the leaves whose
one fixed game was luckiest. With both at 5%, the same tree at 1,000 iterations a move beat itself without them
71.5% (100 games).

The bot plays its most visited edge, the better mean among equals. It spends `iterations` per move, saving those
of moves where it considers one move only (up to `bank_cap` moves' worth, unless `search_forced`;
`within_budget`: in a C++ export with a time limit, it iterates while the move's deadline is ahead instead), and
keeps its tree for its next move: there it looks for the position it now faces among the descendants of the move
it played (`find_position`), so the iterations that went into it are kept; a tree more than half full keeps the
subtree of that position, slid down to the start of its memory (`compact`; 0: it starts again).
`seat.ints[I_REUSED]` counts the visits found that way.

Its tree holds what the seat's memory holds (`bots.mcts.tree`): 512 nodes in the engine, which a few hundred
iterations a move fill; the C++ export with a time limit carries a seat for 524,288. Before the tree grew with the
budget and kept its subtree, more iterations bought nothing: at 2,000 a move it beat itself at 667 48.5% of 200
games; with a large tree, compaction and random rollouts, 75.2% (`docs/bots.md`).

Its random numbers come from its own state, seeded at its first move of a game from what a program sees too (the
map and the trees), so its games at a fixed budget depend on the game's seed and sides only, and the C++ export,
which does not know the seed, plays the engine's games.
"""
from __future__ import annotations

import numpy as np

from bots.contract.budget import within_budget
from bots.heuristic.policy import heuristic_move
from bots.heuristic.schema import PARAMS as HEURISTIC_PARAMS
from bots.mcts.schema import SCHEMA
from bots.mcts.tree import (
    CHILD,
    COUNT0,
    COUNT1,
    EDGES,
    I_BANK,
    I_EDGES,
    I_ITERATIONS,
    I_MOVE_ITERATIONS,
    I_MOVES,
    I_NODES,
    I_PLAYED,
    I_PLAYER,
    I_REUSED,
    I_RNG,
    I_ROOT,
    I_SEARCHED,
    I_TURNS,
    KEY,
    MAX_DEPTH,
    NEXT,
    NONE,
    PATH,
    SIBLING,
    at,
    compact,
    edge_count,
    find_child,
    first_edge,
    more_than_half_full,
    node_visits,
    play_key,
    room_for,
    set_capacity,
)
from bots.shared.draws import seed_draws, uniform
from bots.shared.shortlist import FIRST_SHORTLIST_PARAM, SL_MAX_MOVES, shortlist
from bots.shared.simulation import copy_state, final_margin, same_state, step
from engine import rules
from engine.jit import hot, kernel

P_ITERATIONS = SCHEMA.index("iterations")
P_BANK_CAP = SCHEMA.index("bank_cap")
P_REUSE = SCHEMA.index("reuse")
P_EXPLORATION = SCHEMA.index("exploration")
P_PRIOR = SCHEMA.index("prior")
P_FIRST_PLAY = SCHEMA.index("first_play")
P_OPPONENT_PRIOR = SCHEMA.index("opponent_prior")
P_OPPONENT_FIRST_PLAY = SCHEMA.index("opponent_first_play")
P_REWARD_SCALE = SCHEMA.index("reward_scale")
P_SHORTLIST = SCHEMA.index(FIRST_SHORTLIST_PARAM)
P_COMPACT = SCHEMA.index("compact")
P_ROLLOUT_EPSILON = SCHEMA.index("rollout_epsilon")
P_ROLLOUT_JITTER = SCHEMA.index("rollout_jitter")
P_SEARCH_FORCED = SCHEMA.index("search_forced")

# The rollout policy's parameters (the first of the bot's), and what `rollout_jitter` moves: the floats' ranges.
ROLLOUT_COUNT = len(HEURISTIC_PARAMS)
ROLLOUT_SPAN = np.array([p.high - p.low if p.type == "float" else 0.0 for p in HEURISTIC_PARAMS], dtype=np.float64)
ROLLOUT_LOW = np.array([float(p.low) for p in HEURISTIC_PARAMS], dtype=np.float64)
ROLLOUT_HIGH = np.array([float(p.high) for p in HEURISTIC_PARAMS], dtype=np.float64)

ROOT_STATE = 0  # seat.states: the root's position
WORK = 1  # the state an iteration plays on
TRAIL = 2  # the states of the search for the position played, one per depth

SQUARE_ROOTS = np.sqrt(np.arange(1024, dtype=np.float64))


@hot
def square_root(x):
    """sqrt(x) for x >= 0 (the portable subset has no math module): a table for whole numbers below 1024 (visit
    counts), else Newton's method from 32."""
    if x < 1023.0:
        return SQUARE_ROOTS[int(x)]
    r = 32.0
    for _ in range(60):
        nxt = 0.5 * (r + x / r)
        if nxt - r < 1e-9 and r - nxt < 1e-9:
            break
        r = nxt
    return r


@hot
def reward(margin, scale):
    """A score margin as a reward in [0, 1] (1/2 for a draw)."""
    return 0.5 + 0.5 * margin / (abs(margin) + scale)


@kernel
def new_node(mp, t, seat, parent, key, over, params):
    """Add the node of position t, reached from `parent` by the joint move `key` (parent -1: the root), with the
    shortlisted moves of each player awake as its edges. Returns its index."""
    memory = seat.memory
    ints = seat.ints
    node = ints[I_NODES]
    ints[I_NODES] = node + 1
    memory[at(node, CHILD)] = -1
    memory[at(node, SIBLING)] = -1
    memory[at(node, KEY)] = key
    memory[at(node, EDGES)] = ints[I_EDGES]
    memory[at(node, COUNT0)] = 0
    memory[at(node, COUNT1)] = 0
    if not over:
        for q in range(2):
            if not t.waiting[q]:
                kind, a, b = heuristic_move(mp, t, q, params)
                n = shortlist(mp, t, q, params, P_SHORTLIST, rules.encode_move(kind, a, b), seat.moves)
                e = ints[I_EDGES]
                for i in range(n):
                    memory[ints[I_MOVES] + e + i] = seat.moves[i]
                    seat.memory_floats[2 * (e + i)] = 0.0
                    seat.memory_floats[2 * (e + i) + 1] = 0.0
                ints[I_EDGES] = e + n
                memory[at(node, COUNT0 + q)] = n
    if parent >= 0:
        memory[at(node, SIBLING)] = memory[at(parent, CHILD)]
        memory[at(parent, CHILD)] = node
    return node


@hot
def select_edge(seat, node, q, params):
    """Player q's edge at `node` by PUCT (the first edge is the rollout policy's move), with the bot's own prior
    and first-play value for its own moves, the opponent's for the opponent's."""
    memory = seat.memory
    floats = seat.memory_floats
    n = edge_count(memory, node, q)
    if n == 1:
        return 0
    e = first_edge(memory, node, q)
    visits = 0.0
    rewards = 0.0
    for i in range(n):
        visits += floats[2 * (e + i)]
        rewards += floats[2 * (e + i) + 1]
    first_play = params[P_FIRST_PLAY]
    prior = params[P_PRIOR]
    if q != seat.ints[I_PLAYER]:
        first_play = params[P_OPPONENT_FIRST_PLAY]
        prior = params[P_OPPONENT_PRIOR]
    untried = 0.5 - first_play
    if visits > 0.0:
        untried = rewards / visits - first_play
    explore = params[P_EXPLORATION] * square_root(visits + 1.0)
    others = (1.0 - prior) / (n - 1)
    best = 0
    best_value = 0.0
    for i in range(n):
        tried = floats[2 * (e + i)]
        mean = untried
        if tried > 0.0:
            mean = floats[2 * (e + i) + 1] / tried
        share = others
        if i == 0:
            share = prior
        value = mean + explore * share / (1.0 + tried)
        if i == 0 or value > best_value:
            best = i
            best_value = value
    return best


@hot
def rollout_decision(mp, t, q, rollout, params, seat):
    """Player q's move in a rollout: the rollout policy's (parameters `rollout`), or with chance `rollout_epsilon`
    one of its shortlisted moves drawn at random."""
    kind, a, b = heuristic_move(mp, t, q, rollout)
    epsilon = params[P_ROLLOUT_EPSILON]
    if epsilon > 0.0 and uniform(seat, I_RNG) < epsilon:
        n = shortlist(mp, t, q, params, P_SHORTLIST, rules.encode_move(kind, a, b), seat.moves)
        if n > 1:
            kind, a, b = rules.decode_move(seat.moves[min(int(uniform(seat, I_RNG) * n), n - 1)])
    return kind, a, b


@kernel
def rollout_margin(mp, t, params, seat):
    """Both players follow the rollout policy from t (a game not over) to the end; player 0's final margin and
    the turns played. With `rollout_jitter`, each float parameter of the rollout policy that is not 0 (a term
    left off stays off) is moved at random by up to that share of its range for this rollout (a copy in
    seat.floats); with `rollout_epsilon`, some decisions are random shortlisted moves. The bot's own decision is
    drawn first whichever side it plays, so that a program, which always plays side 0, draws the same numbers."""
    rollout = seat.floats
    jitter = params[P_ROLLOUT_JITTER]
    for i in range(ROLLOUT_COUNT):
        v = params[i]
        if jitter > 0.0 and ROLLOUT_SPAN[i] > 0.0 and v != 0.0:
            moved = v + jitter * ROLLOUT_SPAN[i] * (2.0 * uniform(seat, I_RNG) - 1.0)
            v = min(max(moved, ROLLOUT_LOW[i]), ROLLOUT_HIGH[i])
        rollout[i] = v
    me = seat.ints[I_PLAYER]
    turns = 0
    while True:
        turns += 1
        kind_me, a_me, b_me = rules.WAIT, 0, 0
        kind_op, a_op, b_op = rules.WAIT, 0, 0
        if not t.waiting[me]:
            kind_me, a_me, b_me = rollout_decision(mp, t, me, rollout, params, seat)
        if not t.waiting[1 - me]:
            kind_op, a_op, b_op = rollout_decision(mp, t, 1 - me, rollout, params, seat)
        if me == 0:
            over = step(mp, t, kind_me, a_me, b_me, kind_op, a_op, b_op)
        else:
            over = step(mp, t, kind_op, a_op, b_op, kind_me, a_me, b_me)
        if over:
            return float(final_margin(t, 0)), turns


@kernel
def iterate(mp, seat, root, params):
    """One iteration from `root` (position seat.states[ROOT_STATE]): down the tree, one new node, a rollout, and
    the reward on every edge of the path."""
    memory = seat.memory
    floats = seat.memory_floats
    t = seat.states[WORK]
    copy_state(seat.states[ROOT_STATE], t)
    edges_per_node = 2 * int(params[P_SHORTLIST + SL_MAX_MOVES])
    node = root
    depth = 0
    margin = 0.0
    played = 0
    while True:
        n0 = memory[at(node, COUNT0)]
        n1 = memory[at(node, COUNT1)]
        if n0 + n1 == 0:  # the game is over here
            margin = float(final_margin(t, 0))
            break
        i0 = NONE
        i1 = NONE
        if n0 > 0:
            i0 = select_edge(seat, node, 0, params)
        if n1 > 0:
            i1 = select_edge(seat, node, 1, params)
        memory[PATH + 3 * depth] = node
        memory[PATH + 3 * depth + 1] = i0
        memory[PATH + 3 * depth + 2] = i1
        depth += 1
        key = i0 + 256 * i1
        over = play_key(mp, seat, node, key, t)
        played += 1
        child = find_child(memory, node, key)
        if child < 0 or depth >= MAX_DEPTH:
            if child < 0 and room_for(seat, 1, edges_per_node):
                child = new_node(mp, t, seat, node, key, over, params)
                if not over and depth < MAX_DEPTH:
                    # The rollout's first turn plays the new node's first edges (the rollout policy's moves): it
                    # counts as their visit, so the node has a value to start from when the game reaches it.
                    memory[PATH + 3 * depth] = child
                    memory[PATH + 3 * depth + 1] = first_or_none(memory, child, 0)
                    memory[PATH + 3 * depth + 2] = first_or_none(memory, child, 1)
                    depth += 1
            if over:
                margin = float(final_margin(t, 0))
            else:
                margin, turns = rollout_margin(mp, t, params, seat)
                played += turns
            break
        node = child
    r = reward(margin, params[P_REWARD_SCALE])
    for d in range(depth):
        node = memory[PATH + 3 * d]
        i0 = memory[PATH + 3 * d + 1]
        i1 = memory[PATH + 3 * d + 2]
        if i0 != NONE:
            e = first_edge(memory, node, 0) + i0
            floats[2 * e] += 1.0
            floats[2 * e + 1] += r
        if i1 != NONE:
            e = first_edge(memory, node, 1) + i1
            floats[2 * e] += 1.0
            floats[2 * e + 1] += 1.0 - r
    return played


@hot
def first_or_none(memory, node, q):
    """Player q's first edge at `node`, or NONE when it is asleep there."""
    if edge_count(memory, node, q) > 0:
        return 0
    return NONE


@hot
def may_precede(a, b):
    """Whether position a may come before position b in a game: days pass, nutrients and scores only fall and
    rise, and within a day sun only falls and a player asleep stays asleep."""
    if a.day > b.day or a.nutrients < b.nutrients:
        return False
    for q in range(2):
        if a.score[q] > b.score[q]:
            return False
        if a.day == b.day and (a.sun[q] < b.sun[q] or a.waiting[q] > b.waiting[q]):
            return False
    return True


@kernel
def find_position(mp, s, p, seat):
    """The node of position s among the descendants of the edge player p played at its last move, or -1: a
    depth-first walk from the last root, replaying the positions, into those that may come before s."""
    memory = seat.memory
    states = seat.states
    root = seat.ints[I_ROOT]
    played = seat.ints[I_PLAYED]
    copy_state(states[ROOT_STATE], states[TRAIL])
    depth = 0
    memory[PATH] = root
    memory[NEXT] = memory[at(root, CHILD)]
    while depth >= 0:
        child = memory[NEXT + depth]
        if child < 0:
            depth -= 1
            continue
        memory[NEXT + depth] = memory[at(child, SIBLING)]
        key = memory[at(child, KEY)]
        mine = key % 256
        if p == 1:
            mine = key // 256
        if depth == 0 and mine != played:
            continue
        t = states[TRAIL + depth + 1]
        copy_state(states[TRAIL + depth], t)
        if play_key(mp, seat, memory[PATH + depth], key, t):
            continue
        if same_state(t, s):
            return child
        if depth + 2 < MAX_DEPTH and may_precede(t, s):
            depth += 1
            memory[PATH + depth] = child
            memory[NEXT + depth] = memory[at(child, CHILD)]
    return -1


@hot
def most_visited(seat, node, q):
    """Player q's most visited edge at `node` (the better mean among equals)."""
    memory = seat.memory
    floats = seat.memory_floats
    e = first_edge(memory, node, q)
    best = 0
    for i in range(1, edge_count(memory, node, q)):
        visits = floats[2 * (e + i)]
        top = floats[2 * (e + best)]
        if visits > top or (visits == top and visits > 0.0
                             and floats[2 * (e + i) + 1] > floats[2 * (e + best) + 1]):
            best = i
    return best


@kernel
def mcts_move(mp, s, p, seat):
    """Player p's move (kind, a, b)."""
    params = seat.params
    ints = seat.ints  # zeroed at each game's start (`bots.contract.seat.start_seat`): an empty tree
    memory = seat.memory
    iterations = int(params[P_ITERATIONS])
    ints[I_BANK] = min(ints[I_BANK] + iterations, iterations * int(params[P_BANK_CAP]))
    set_capacity(seat)
    seed_draws(mp, s, p, seat, I_RNG)
    root = -1
    if params[P_REUSE] > 0.5 and ints[I_NODES] > 0:
        root = find_position(mp, s, p, seat)
        if root >= 0 and more_than_half_full(seat):
            if params[P_COMPACT] > 0.5:
                root = compact(seat, root)
            else:
                root = -1
        if root >= 0:
            ints[I_REUSED] += int(node_visits(seat, root, p))
    if root < 0:
        ints[I_NODES] = 0
        ints[I_EDGES] = 0
        root = new_node(mp, s, seat, -1, 0, False, params)
    copy_state(s, seat.states[ROOT_STATE])
    ints[I_ROOT] = root
    ints[I_PLAYER] = p
    ints[I_MOVE_ITERATIONS] = 0
    if edge_count(memory, root, p) > 1 or params[P_SEARCH_FORCED] > 0.5:
        ints[I_SEARCHED] += 1
        while within_budget(ints[I_BANK]):
            ints[I_TURNS] += iterate(mp, seat, root, params)
            ints[I_ITERATIONS] += 1
            ints[I_MOVE_ITERATIONS] += 1
            ints[I_BANK] -= 1
    chosen = most_visited(seat, root, p)
    ints[I_PLAYED] = chosen
    kind, a, b = rules.decode_move(memory[ints[I_MOVES] + first_edge(memory, root, p) + chosen])
    if kind != rules.WAIT and rules.check_action(mp, s, p, kind, a, b)[0] != rules.OK:
        return heuristic_move(mp, s, p, params)  # never happens: the shortlist lists legal moves only
    return kind, a, b
