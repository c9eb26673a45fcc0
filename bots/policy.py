"""One entry point for every in-engine bot: `decide` picks the seat's policy."""
from __future__ import annotations

from bots.greedy import greedy_move
from bots.heuristic.policy import heuristic_move
from bots.random_bot import random_move
from bots.seat import GREEDY_BOT, HEURISTIC_BOT, RANDOM_BOT
from engine import rules
from engine.jit import hot, kernel


@kernel
def heuristic_seat(mp, s, p, seat):
    """The heuristic policy as one compiled function: called, not inlined, so the kernels that can play it
    compile it once. A call costs nothing next to the policy's own work."""
    return heuristic_move(mp, s, p, seat.params)


@hot
def decide(mp, s, p, seat):
    """The move (kind, a, b) of the bot in `seat` playing as player p."""
    if seat.kind == GREEDY_BOT:
        return greedy_move(mp, s, p, int(seat.params[0]), int(seat.params[1]))
    if seat.kind == RANDOM_BOT:
        return random_move(mp, s, p, seat)
    if seat.kind == HEURISTIC_BOT:
        return heuristic_seat(mp, s, p, seat)
    return rules.WAIT, 0, 0


@kernel
def decide_once(mp, s, p, seat):
    """`decide` for callers in Python (the text-protocol referee)."""
    return decide(mp, s, p, seat)
