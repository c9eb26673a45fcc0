"""The arena: many games between in-engine bots in one compiled call.

The fast path skips what only a program needs: no input text, no possible-moves lists, no RNG after the map.
The rules are the same compiled functions the text-protocol referee calls; each seat's policy is reached
through the generated dispatch (`bots/running/dispatch.py`).

Compiling the arena compiles every registered bot's policy, about a minute on an empty cache. Until the cache
has it, games between a few bots are played by an arena for those bots alone (`pairings_for`): the same code
calling a dispatch that reaches only their policies, cached apart, so that a first `tuner match` compiles what it
plays.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Optional

import numpy as np

from bots.contract.seat import start_seat
from bots.registry import REGISTERED, plugin
from bots.running.dispatch import decide
from engine import rules
from engine.cache import is_cached
from engine.javarandom import seed_state
from engine.jit import hot, kernel, popcount, rebound
from engine.maps import generate_map
from engine.records import new_map_array, new_state_array

DRAW = 2


@hot
def play_compiled_game(mp, s, seed, league, seat0, seat1):
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


# The columns of `play_pairings`'s results, indexed by player (0: the side that moved first, not a seat).
SCORE0, SCORE1, TURNS, DECISIONS, SUN0, SUN1, TREES0, TREES1 = range(8)
RESULT_COLUMNS = 8


@kernel
def play_pairings(seeds, league, seats, first, second, mp_array, s_array, results):
    """Game g: seats[first[g]] as player 0 against seats[second[g]] as player 1, on seeds[g]. Writes row g of
    `results` (games x RESULT_COLUMNS): the final scores, the simultaneous turns, the bot decisions (both
    players), and each player's sun and trees at the end."""
    mp = mp_array[0]
    s = s_array[0]
    for g in range(seeds.shape[0]):
        final0, final1, n_turns, n_decisions = play_compiled_game(mp, s, seeds[g], league, seats[first[g]],
                                                                  seats[second[g]])
        results[g, SCORE0] = final0
        results[g, SCORE1] = final1
        results[g, TURNS] = n_turns
        results[g, DECISIONS] = n_decisions
        results[g, SUN0] = s.sun[0]
        results[g, SUN1] = s.sun[1]
        results[g, TREES0] = popcount(s.mine[0])
        results[g, TREES1] = popcount(s.mine[1])


@kernel
def unplayed(mp, s, p, seat):
    """The move of a bot an arena for other bots does not play."""
    return rules.WAIT, 0, 0


def pairings_for(kinds: frozenset) -> object:
    """`play_pairings`, or while the cache lacks it, `arena_for` these seat kinds (see the module's docstring)."""
    if kinds >= set(range(len(REGISTERED))) or play_pairings.signatures or is_cached(play_pairings):
        return play_pairings
    return arena_for(kinds)


@cache
def arena_for(kinds: frozenset) -> object:
    """`play_pairings` for seats of these kinds alone: its code, calling a dispatch in which the policies of the
    other bots are `unplayed`, cached apart under their names."""
    names = sorted(REGISTERED[kind] for kind in kinds)
    variant = "+".join(names)
    others = {plugin(name).policy.py_func.__name__: unplayed for name in REGISTERED if name not in names}
    game = rebound(play_compiled_game, variant, {"decide": rebound(decide, variant, others)})
    return rebound(play_pairings, variant, {"play_compiled_game": game})


def seat_kinds(seats: np.ndarray) -> frozenset:
    return frozenset(int(kind) for kind in np.unique(seats["kind"]))


def play_results(seeds, league: int, seats: np.ndarray, first, second, pairings: Optional[object] = None
                 ) -> np.ndarray:
    """`play_pairings`'s results (int64 arrays in, a fresh games x RESULT_COLUMNS array out), played by
    `pairings` (default: `pairings_for` the seats' kinds)."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    results = np.zeros((seeds.shape[0], RESULT_COLUMNS), dtype=np.int64)
    pairings = pairings or pairings_for(seat_kinds(seats))
    pairings(seeds, league, seats, np.ascontiguousarray(first, dtype=np.int64),
             np.ascontiguousarray(second, dtype=np.int64), new_map_array(), new_state_array(), results)
    return results


def pairing_margins(seeds, league: int, seats: np.ndarray, first, second) -> np.ndarray:
    """Each game's margin from the first seat's side: its final score minus the other's."""
    results = play_results(seeds, league, seats, first, second)
    return results[:, SCORE0] - results[:, SCORE1]


def winners(results: np.ndarray) -> np.ndarray:
    """0 or 1 for the player that won each game, DRAW for a draw."""
    score0, score1 = results[:, SCORE0], results[:, SCORE1]
    return np.where(score0 > score1, 0, np.where(score1 > score0, 1, DRAW))


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
    """Play `seeds` (int64) in league `league` between `seats` (a 2-seat array): seat 0 is player 0 unless
    `swapped[g]`."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    n = seeds.shape[0]
    swapped = np.zeros(n, dtype=np.bool_) if swapped is None else np.ascontiguousarray(swapped, dtype=np.bool_)
    first = swapped.astype(np.int64)
    results = play_results(seeds, league, seats.copy(), first, 1 - first)
    return BatchResult(seeds, swapped, results[:, SCORE0:SCORE1 + 1].copy(), winners(results),
                       results[:, TURNS].copy(), results[:, DECISIONS].copy(), results[:, SUN0:SUN1 + 1].copy(),
                       results[:, TREES0:TREES1 + 1].copy())
