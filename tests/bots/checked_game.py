"""One game through the rules functions with every decision of both bots checked against the legal moves: the
shared core of the bots' "every decision is legal" tests."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from bots.contract.seat import start_seat
from bots.running.dispatch import decide
from engine import rules
from engine.javarandom import seed_state
from engine.maps import generate_map
from engine.records import new_map_array, new_state_array


class CheckedGame(NamedTuple):
    decisions: int
    scores: list[int]


def play_checked(seed: int, league: int, seats) -> CheckedGame:
    """Play one game between two one-seat arrays; every decision must be a legal move (or WAIT) that the
    rules accept."""
    mp_array, s_array = new_map_array(), new_state_array()
    mp, s = mp_array[0], s_array[0]
    generate_map(seed_state(seed), league, mp)
    rules.new_game(mp, s)
    for p in range(2):
        start_seat(seats[p][0], seed, p)
    legal = np.zeros(rules.MAX_MOVES, np.int64)
    rules.start_day(mp, s)
    decisions = 0
    while True:
        moves = []
        for p in range(2):
            if s["waiting"][p]:
                moves.append((rules.WAIT, 0, 0))
                continue
            kind, a, b = (int(v) for v in decide(mp, s, p, seats[p][0]))
            count = int(rules.legal_moves(mp, s, p, legal)[0])
            where = (seed, league, int(s["day"]), p, (kind, a, b))
            assert int(rules.encode_move(kind, a, b)) in set(legal[:count].tolist()), where
            if kind != rules.WAIT:
                assert int(rules.check_action(mp, s, p, kind, a, b)[0]) == rules.OK, where
            moves.append((kind, a, b))
            decisions += 1
        (k0, a0, b0), (k1, a1, b1) = moves
        codes = rules.resolve_turn(mp, s, k0, a0, b0, k1, a1, b1)
        assert int(codes[0]) == rules.OK and int(codes[3]) == rules.OK
        if s["waiting"][0] and s["waiting"][1]:
            if rules.end_day(mp, s):
                return CheckedGame(decisions, [int(v) for v in rules.final_scores(s)[:2]])
            rules.start_day(mp, s)
