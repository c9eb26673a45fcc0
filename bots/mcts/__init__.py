"""`mcts[:N]`: Monte Carlo tree search over the whole game for simultaneous moves (decoupled PUCT: each player's
move picked from its own statistics, both played together; the opponent's moves searched as its own), N
iterations per move (default 2: a sparring partner's pace), each a rollout to the end of the game by its own
copy of the heuristic bot, and its tree kept from one move to the next (`policy`).

Exported in C++ only (`tuner export --bot mcts --lang cpp [--time-ms T]`), its tree carried in the seat's
`memory` arrays as in the engine: its rollouts in plain Python would not fit CodinGame's 100 ms a turn. With a time
limit, it iterates while the move's deadline is ahead (`bots.contract.budget.within_budget`) instead of N times,
in a seat whose memory holds a tree of TIMED_TREE_NODES nodes (the engine's holds 512), and it searches on its
first turn too (1,000 ms on CodinGame, where its only move is WAIT), for the tree it keeps, with noisier rollouts
(ROLLOUT_NOISE_TIMED) and more moves a position (SHORTLIST_TIMED) where the bot's own values are the defaults."""
from bots.contract.plugin import BotPlugin, Setup, TimedExport, int_argument
from bots.mcts.policy import mcts_move
from bots.mcts.schema import SCHEMA
from bots.mcts.tree import I_EDGES, I_MOVE_ITERATIONS, I_NODES, MAX_EDGES_PER_NODE, NODE_WORDS, NODES

# A move ended by the clock plays thousands of iterations, where more random rollouts and more moves a position pay
# (docs/bots.md: at 90 ms, noise 0.10 won 54.5% of 500 games against the defaults' 0.05, and with it the wider
# shortlist 66.0% of 100); in the engine's tree at 200 iterations the noise loses.
ROLLOUT_NOISE_TIMED = 0.10
SHORTLIST_TIMED = {"sl_max_moves": 10, "sl_max_grows": 5, "sl_max_seeds": 4}
TIMED_TREE_NODES = 524_288  # 120 MB of seat memory (CodinGame allows 768 MB); a 90 ms move adds 4,000 to 25,000


def _iterations(name: str, arg: str, league: int) -> Setup:
    iterations = SCHEMA.by_name["iterations"]
    return Setup({"iterations": int_argument(arg, "iterations", name, iterations.low, iterations.high)})


PLUGIN = BotPlugin("mcts", "Monte Carlo tree search over simultaneous moves (decoupled PUCT, both players' moves "
                   "searched), rollouts by its own copy of the heuristic, N iterations per move (default 2)",
                   mcts_move, SCHEMA, argument="N", parse_argument=_iterations, languages=("cpp",),
                   timed=TimedExport(seat={"memory": NODES + (NODE_WORDS + MAX_EDGES_PER_NODE) * TIMED_TREE_NODES,
                                           "memory_floats": 2 * MAX_EDGES_PER_NODE * TIMED_TREE_NODES},
                                     params={"search_forced": 1, "rollout_epsilon": ROLLOUT_NOISE_TIMED,
                                             "rollout_jitter": ROLLOUT_NOISE_TIMED, **SHORTLIST_TIMED}),
                   stats=(("iterations", I_MOVE_ITERATIONS), ("nodes", I_NODES), ("edges", I_EDGES)),
                   not_exportable="its rollouts in plain Python would not fit CodinGame's 100 ms a turn, and the "
                   "Python file has no seat memory for its tree")
