"""The `mcts` bot's tree, kept in its seat's `memory` arrays from one move to the next within a game.

A node holds no game state, only moves and statistics: the search replays the states from the root's (kept in
the seat's scratch `states`), a few turns per iteration. Its words in `seat.memory`:

    CHILD    its first child (-1: none); the children are a list through SIBLING
    SIBLING  the next child of its parent
    KEY      the joint move that leads to it from its parent: its parent's edge of player 0, plus 256 times its
             edge of player 1 (NONE for a player who was asleep)
    EDGES    its first edge; player 0's COUNT0 edges, then player 1's COUNT1 (0 for a player asleep; a node
             without edges is the end of the game)

An edge is a move of one player at a node, with its statistics (decoupled: each player's move is chosen from its
own edges, both are played together): the move (encoded) in `seat.memory[MOVES + e]`, its visits in
`seat.memory_floats[2 * e]` and the sum of its rewards (for its player, in [0, 1]) in `memory_floats[2 * e + 1]`.

Nodes and edges are allocated in order and counted in the seat's `ints` (zeroed at a game's start: an empty
tree). When a move's iterations could overflow them, the tree starts again from the position played.
"""
from __future__ import annotations

from bots.contract.seat import MEMORY_FLOATS, MEMORY_INTS
from bots.shared.simulation import step
from engine import rules
from engine.jit import hot

CHILD, SIBLING, KEY, EDGES, COUNT0, COUNT1 = range(6)
NODE_WORDS = 6
MAX_NODES = 512
MAX_EDGES = MEMORY_FLOATS // 2
MOVES = NODE_WORDS * MAX_NODES  # the edges' moves
MAX_DEPTH = 48  # the deepest path an iteration follows, or the search for the position played
PATH = MOVES + MAX_EDGES  # an iteration's path: node, edge of player 0, edge of player 1 per depth
NEXT = PATH + 3 * MAX_DEPTH  # the search for the position played: the next child to try per depth
NONE = 255  # the edge of a player who is asleep
if NEXT + MAX_DEPTH > MEMORY_INTS:
    raise ValueError("the mcts tree does not fit the seat's memory")

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


@hot
def edge_count(memory, node, q):
    if q == 0:
        return memory[node * NODE_WORDS + COUNT0]
    return memory[node * NODE_WORDS + COUNT1]


@hot
def first_edge(memory, node, q):
    """The first edge of player q at `node`."""
    if q == 0:
        return memory[node * NODE_WORDS + EDGES]
    return memory[node * NODE_WORDS + EDGES] + memory[node * NODE_WORDS + COUNT0]


@hot
def edge_move(memory, node, q, i):
    """The move of player q's edge i at `node` (WAIT for NONE: a player asleep)."""
    if i == NONE:
        return rules.encode_move(rules.WAIT, 0, 0)
    return memory[MOVES + first_edge(memory, node, q) + i]


@hot
def find_child(memory, node, key):
    """The child of `node` reached by the joint move `key`, or -1."""
    child = memory[node * NODE_WORDS + CHILD]
    while child >= 0:
        if memory[child * NODE_WORDS + KEY] == key:
            return child
        child = memory[child * NODE_WORDS + SIBLING]
    return -1


@hot
def play_key(mp, memory, node, key, t):
    """Play the joint move `key` of `node` on the state t (node's position); True when the game is over."""
    kind0, a0, b0 = rules.decode_move(edge_move(memory, node, 0, key % 256))
    kind1, a1, b1 = rules.decode_move(edge_move(memory, node, 1, key // 256))
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
    return ints[I_NODES] + nodes <= MAX_NODES and ints[I_EDGES] + nodes * edges_per_node <= MAX_EDGES
