"""The `random` bot: a uniformly random legal move (WAIT included), from its own seeded generator."""
from __future__ import annotations

from engine import rules
from engine.javarandom import next_int
from engine.jit import hot


@hot
def random_move(mp, s, p, seat):
    count, _, _, _ = rules.legal_moves(mp, s, p, seat.moves)
    k, rng = next_int(seat.rng, count)
    seat.rng = rng
    return rules.decode_move(seat.moves[k])
