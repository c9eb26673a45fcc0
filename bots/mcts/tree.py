"""The `mcts` bot's tree, kept in its seat's `memory` arrays from one move to the next within a game.

A node holds no game state, only moves and statistics: the search replays the states from the root's (kept in
the seat's scratch `states`), a few turns per iteration. The seat's `memory` holds, in order:

    PATH     an iteration's path: node, edge of player 0, edge of player 1 per depth (3 MAX_DEPTH words)
    NEXT     the search for the position played: the next child to try per depth (MAX_DEPTH words)
    nodes    NODE_WORDS words each, from NODES on:
             CHILD    its first child (-1: none); the children are a list through SIBLING
             SIBLING  the next child of its parent
             KEY      the joint move that leads to it from its parent: its parent's edge of player 0, plus 256 times
                      its edge of player 1 (NONE for a player who was asleep)
             EDGES    its first edge; player 0's COUNT0 edges, then player 1's COUNT1 (0 for a player asleep; a
                      node without edges is the end of the game)
    moves    the edges' moves (encoded), from `seat.ints[I_MOVES]` on: one word an edge

An edge is a move of one player at a node, with its statistics (decoupled: each player's move is chosen from its
own edges, both are played together): its visits in `seat.memory_floats[2 * e]` and the sum of its rewards (for
its player, in [0, 1]) in `memory_floats[2 * e + 1]`.

**The tree's capacity is the seat's** (`capacity`): as many edges as `memory_floats` holds, and as many nodes as
the rest of `memory` holds beside their moves. The engine's seats hold 512 nodes and 2,048 edges; a C++ export
with a time limit carries larger arrays (the plug-in's `TimedExport`), so that its tree grows to what a move's
time fills. Nodes and edges are allocated in order and counted in the seat's `ints` (zeroed at a game's start: an
empty tree). A node's children and edges come after it, so the subtree kept from one move to the next can be slid
down in place (`compact`) when the tree is more than half full.
"""
from __future__ import annotations

from bots.shared.simulation import step
from engine import rules
from engine.jit import hot, kernel

CHILD, SIBLING, KEY, EDGES, COUNT0, COUNT1 = range(6)
NODE_WORDS = 6
MAX_DEPTH = 48  # the deepest path an iteration follows, or the search for the position played
PATH = 0
NEXT = PATH + 3 * MAX_DEPTH
NODES = NEXT + MAX_DEPTH
MAX_EDGES_PER_NODE = 8  # a tree uses at most this many edges per node of its capacity (5 to 7 in the opening)
NONE = 255  # the edge of a player who is asleep
RANKED = 65536  # above any KEY: `compact` numbers the kept nodes in KEY's high part

# The tree's counters in seat.ints.
I_NODES = 0  # nodes in use
I_EDGES = 1  # edges in use
I_ROOT = 2  # the node of the position of the last move
I_PLAYED = 3  # the edge the bot played there
I_REUSED = 4  # visits found in the tree at its moves, over the game (the tree reuse's counter)
I_BANK = 5  # iterations saved from the moves that needed none
I_ITERATIONS = 6  # iterations over the game
I_SEARCHED = 7  # moves searched (more than one move considered) over the game
I_PLAYER = 8  # the player the bot plays
I_TURNS = 9  # simulated turns over the game (its iterations' paths and rollouts)
I_CAP_NODES = 10  # the tree's capacity: nodes
I_CAP_EDGES = 11  # and edges
I_MOVES = 12  # where the edges' moves start in seat.memory
I_COMPACTED = 13  # compactions of the kept tree over the game
I_MOVE_ITERATIONS = 14  # iterations of the last move
I_RNG = 15  # the bot's random state (java.util.Random's), seeded at its first move (`bots.shared.draws`)


@hot
def at(node, word):
    """The index in seat.memory of one of `node`'s words."""
    return NODES + node * NODE_WORDS + word


@hot
def set_capacity(seat):
    """The tree's capacity from the seat's arrays: every edge `memory_floats` holds (2 floats an edge), and the
    nodes that fit in `memory` beside their moves, at most MAX_EDGES_PER_NODE edges a node."""
    edges = len(seat.memory_floats) // 2
    nodes = (len(seat.memory) - NODES - edges) // NODE_WORDS
    edges = min(edges, MAX_EDGES_PER_NODE * nodes)
    seat.ints[I_CAP_NODES] = nodes
    seat.ints[I_CAP_EDGES] = edges
    seat.ints[I_MOVES] = NODES + NODE_WORDS * nodes


@hot
def edge_count(memory, node, q):
    if q == 0:
        return memory[at(node, COUNT0)]
    return memory[at(node, COUNT1)]


@hot
def first_edge(memory, node, q):
    """The first edge of player q at `node`."""
    if q == 0:
        return memory[at(node, EDGES)]
    return memory[at(node, EDGES)] + memory[at(node, COUNT0)]


@hot
def edge_move(seat, node, q, i):
    """The move of player q's edge i at `node` (WAIT for NONE: a player asleep)."""
    if i == NONE:
        return rules.encode_move(rules.WAIT, 0, 0)
    return seat.memory[seat.ints[I_MOVES] + first_edge(seat.memory, node, q) + i]


@hot
def find_child(memory, node, key):
    """The child of `node` reached by the joint move `key`, or -1."""
    child = memory[at(node, CHILD)]
    while child >= 0:
        if memory[at(child, KEY)] == key:
            return child
        child = memory[at(child, SIBLING)]
    return -1


@hot
def play_key(mp, seat, node, key, t):
    """Play the joint move `key` of `node` on the state t (node's position); True when the game is over."""
    kind0, a0, b0 = rules.decode_move(edge_move(seat, node, 0, key % 256))
    kind1, a1, b1 = rules.decode_move(edge_move(seat, node, 1, key // 256))
    return step(mp, t, kind0, a0, b0, kind1, a1, b1)


@hot
def node_visits(seat, node, q):
    """The visits of `node` from player q's edges."""
    memory = seat.memory
    e = first_edge(memory, node, q)
    total = 0.0
    for i in range(edge_count(memory, node, q)):
        total += seat.memory_floats[2 * (e + i)]
    return total


@hot
def room_for(seat, nodes, edges_per_node):
    """Whether `nodes` more nodes with up to `edges_per_node` edges each fit."""
    ints = seat.ints
    return ints[I_NODES] + nodes <= ints[I_CAP_NODES] and ints[I_EDGES] + nodes * edges_per_node <= ints[I_CAP_EDGES]


@hot
def more_than_half_full(seat):
    ints = seat.ints
    return ints[I_NODES] > ints[I_CAP_NODES] // 2 or ints[I_EDGES] > ints[I_CAP_EDGES] // 2


@kernel
def compact(seat, root):
    """Keep only the subtree of `root`, slid down to the start of the tree (root at 0, the nodes and their edges in
    the same order); returns the new root, 0. A child comes after its parent and a node's edges after those of the
    nodes before it, so one pass marks the subtree and numbers it, one rewrites its links, one moves it."""
    memory = seat.memory
    floats = seat.memory_floats
    ints = seat.ints
    moves = ints[I_MOVES]
    nodes = ints[I_NODES]
    memory[at(root, KEY)] += RANKED
    kept = 0
    for i in range(root, nodes):
        if memory[at(i, KEY)] >= RANKED:
            kept += 1
            memory[at(i, KEY)] = memory[at(i, KEY)] % RANKED + RANKED * kept
            child = memory[at(i, CHILD)]
            while child >= 0:
                memory[at(child, KEY)] += RANKED
                child = memory[at(child, SIBLING)]
    for i in range(root, nodes):
        if memory[at(i, KEY)] >= RANKED:
            child = memory[at(i, CHILD)]
            if child >= 0:
                memory[at(i, CHILD)] = memory[at(child, KEY)] // RANKED - 1
            sibling = memory[at(i, SIBLING)]
            if i == root or sibling < 0:
                memory[at(i, SIBLING)] = -1
            else:
                memory[at(i, SIBLING)] = memory[at(sibling, KEY)] // RANKED - 1
    edges = 0
    for i in range(root, nodes):
        if memory[at(i, KEY)] >= RANKED:
            d = memory[at(i, KEY)] // RANKED - 1
            e = memory[at(i, EDGES)]
            n = memory[at(i, COUNT0)] + memory[at(i, COUNT1)]
            for k in range(n):
                memory[moves + edges + k] = memory[moves + e + k]
                floats[2 * (edges + k)] = floats[2 * (e + k)]
                floats[2 * (edges + k) + 1] = floats[2 * (e + k) + 1]
            memory[at(d, CHILD)] = memory[at(i, CHILD)]
            memory[at(d, SIBLING)] = memory[at(i, SIBLING)]
            memory[at(d, KEY)] = memory[at(i, KEY)] % RANKED
            memory[at(d, EDGES)] = edges
            memory[at(d, COUNT0)] = memory[at(i, COUNT0)]
            memory[at(d, COUNT1)] = memory[at(i, COUNT1)]
            edges += n
    ints[I_NODES] = kept
    ints[I_EDGES] = edges
    ints[I_COMPACTED] += 1
    return 0
