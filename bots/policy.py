"""One entry point for every in-engine bot: `decide` picks the seat's policy."""
from __future__ import annotations

from bots.greedy import greedy_move
from bots.random_bot import random_move
from bots.seat import GREEDY_BOT, RANDOM_BOT
from engine import rules
from engine.jit import hot, kernel


@hot
def decide(mp, s, p, seat, moves):
    """The move (kind, a, b) of the bot in `seat` playing as player p. `moves` is scratch space for move lists."""
    if seat.kind == GREEDY_BOT:
        return greedy_move(mp, s, p, int(seat.params[0]), int(seat.params[1]))
    if seat.kind == RANDOM_BOT:
        return random_move(mp, s, p, seat, moves)
    return rules.WAIT, 0, 0


@kernel
def decide_once(mp, s, p, seat, moves):
    """`decide` for callers in Python (the text-protocol referee)."""
    return decide(mp, s, p, seat, moves)
