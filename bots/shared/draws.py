"""A search bot's random draws: java.util.Random's generator kept in one of its seat's ints, seeded at the bot's first
draw of a game from what a program sees too (the map's richness, its trees and the opponent's), not from the game's
seed, which a program does not know. So a bot's engine games and its fixed-budget export's are the same games."""
from __future__ import annotations

from engine.geometry import CELLS
from engine.javarandom import next31, seed_state
from engine.jit import hot


@hot
def seed_draws(mp, s, p, seat, at):
    """Seed the random state kept at seat.ints[at] from player p's view of the game, unless the bot has drawn this
    game already (the state is 0 at a game's start, `bots.contract.seat.start_seat`)."""
    if seat.ints[at] != 0:
        return
    h = 12345
    for c in range(CELLS):
        h = (h * 8191 + mp.richness[c]) % 140737488355328
    h = (h * 8191 + s.mine[p]) % 140737488355328
    h = (h * 8191 + s.mine[1 - p]) % 140737488355328
    seat.ints[at] = max(seed_state(h), 1)  # 0 is the state of a bot that has not drawn yet


@hot
def uniform(seat, at):
    """A float in [0, 1) from the random state kept at seat.ints[at]."""
    r, state = next31(seat.ints[at])
    seat.ints[at] = state
    return r / 2147483648.0
