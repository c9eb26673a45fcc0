"""The arena: many games between in-engine bots in one compiled call.

The fast path skips what only a program needs: no input text, no possible-moves lists, no RNG after the map.
The rules are the same compiled functions the text-protocol referee calls; each seat's policy is reached
through the generated dispatch (`bots/dispatch.py`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bots.dispatch import decide
from bots.seat import start_seat
from engine import rules
from engine.javarandom import seed_state
from engine.jit import kernel, popcount
from engine.maps import generate_map
from engine.records import new_map_array, new_state_array

DRAW = 2


@kernel
def play_game(mp, s, seed, league, seat0, seat1):
    """Play one whole game between the bots in seat0 (player 0) and seat1 (player 1), in the records mp and s.
    Returns (final score 0, final score 1, simultaneous turns, bot decisions)."""
    generate_map(seed_state(seed), league, mp)
    rules.new_game(mp, s)
    start_seat(seat0, seed, 0)
    start_seat(seat1, seed, 1)
    rules.start_day(mp, s)
    n_turns = 0
    n_decisions = 0
    while True:
        kind0, a0, b0 = rules.WAIT, 0, 0
        kind1, a1, b1 = rules.WAIT, 0, 0
        if not s.waiting[0]:
            kind0, a0, b0 = decide(mp, s, 0, seat0)
            n_decisions += 1
        if not s.waiting[1]:
            kind1, a1, b1 = decide(mp, s, 1, seat1)
            n_decisions += 1
        n_turns += 1
        rules.resolve_turn(mp, s, kind0, a0, b0, kind1, a1, b1)
        if s.waiting[0] and s.waiting[1]:
            if rules.end_day(mp, s):
                break
            rules.start_day(mp, s)
    final0, final1, _, _, _, _ = rules.final_scores(s)
    return final0, final1, n_turns, n_decisions


@kernel
def play_games(seeds, league, seats, swapped, mp_array, s_array, score, winner, turns, decisions, sun, trees):
    """Play one game per seed. Seat 0 is player 0 unless `swapped[g]`. Outputs are indexed by player and written
    into the given arrays: final `score` (n, 2), `winner` (0, 1 or 2 = draw), `turns` (simultaneous turns),
    `decisions` (bot moves, both players), `sun` and `trees` (n, 2) at the end."""
    mp = mp_array[0]
    s = s_array[0]
    for g in range(seeds.shape[0]):
        first = 1 if swapped[g] else 0
        final0, final1, n_turns, n_decisions = play_game(mp, s, seeds[g], league, seats[first], seats[1 - first])
        score[g, 0] = final0
        score[g, 1] = final1
        winner[g] = 0 if final0 > final1 else (1 if final1 > final0 else DRAW)
        turns[g] = n_turns
        decisions[g] = n_decisions
        sun[g, 0] = s.sun[0]
        sun[g, 1] = s.sun[1]
        trees[g, 0] = popcount(s.mine[0])
        trees[g, 1] = popcount(s.mine[1])


@kernel
def play_pairings(seeds, league, seats, first, second, mp_array, s_array, margin):
    """Game g: seats[first[g]] as player 0 against seats[second[g]] as player 1, on seeds[g]. Writes each game's
    margin from the first seat's side (its final score minus the other's) into `margin`."""
    mp = mp_array[0]
    s = s_array[0]
    for g in range(seeds.shape[0]):
        final0, final1, _, _ = play_game(mp, s, seeds[g], league, seats[first[g]], seats[second[g]])
        margin[g] = final0 - final1


def pairing_margins(seeds, league: int, seats: np.ndarray, first, second) -> np.ndarray:
    """Margins of `play_pairings` (int64 arrays in, a fresh int64 array out)."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    margin = np.zeros(seeds.shape[0], dtype=np.int64)
    play_pairings(seeds, league, seats, np.ascontiguousarray(first, dtype=np.int64),
                  np.ascontiguousarray(second, dtype=np.int64), new_map_array(), new_state_array(), margin)
    return margin


@dataclass
class BatchResult:
    """Per-game results, indexed by player (0 = the side that moved first in the input, not a seat)."""

    seeds: np.ndarray
    swapped: np.ndarray
    score: np.ndarray
    winner: np.ndarray
    turns: np.ndarray
    decisions: np.ndarray
    sun: np.ndarray
    trees: np.ndarray


def play_batch(seeds, league: int, seats: np.ndarray, swapped=None) -> BatchResult:
    """Play `seeds` (int64) in league `league` between `seats` (a 2-seat array); see `play_games`."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    n = seeds.shape[0]
    swapped = np.zeros(n, dtype=np.bool_) if swapped is None else np.ascontiguousarray(swapped, dtype=np.bool_)
    result = BatchResult(seeds, swapped, np.zeros((n, 2), np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                         np.zeros(n, np.int64), np.zeros((n, 2), np.int64), np.zeros((n, 2), np.int64))
    play_games(seeds, league, seats.copy(), swapped, new_map_array(), new_state_array(), result.score, result.winner,
               result.turns, result.decisions,
               result.sun, result.trees)
    return result
