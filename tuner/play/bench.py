"""The speed benchmark of `shared/bench/README.md`: seeds 1..N on official league-3 maps, timed from the
first map to the last checksum fold. `greedy` plays the yardstick's workload (greedy 12,2 against greedy
14,3); any other in-engine bot plays itself.

With several jobs the seeds are split into contiguous chunks, one per process of the pool
(`tuner.play.pools`). Each process warms up (loads or compiles the kernel) before a shared start signal (a
barrier); the time is from that signal to the last process's end, and the chunk checksums are combined in seed
order.
"""
from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass

import numpy as np

from bots.contract.names import Bot, parse_bot
from bots.contract.seat import new_seat_array
from bots.running.arena import DECISIONS, DRAW, RESULT_COLUMNS, SCORE0, SCORE1, TURNS, play_pairings, winners
from engine.jit import kernel
from engine.records import new_map_array, new_state_array
from tuner.play.pools import ProcessPool

MASK64 = (1 << 64) - 1
YARDSTICK_GREEDY = ("greedy:12,2", "greedy:14,3")
# The C++ speed yardstick's checksums (shared/bench/README.md section 7): the same games, the same results.
YARDSTICK_CHECKSUMS = {1000: "16200177822221118652", 10000: "4337446247251085928", 100000: "17108518302265787352",
                       300000: "11481929905474676003", 1000000: "2075877841124685924"}


def yardstick_check(result: dict) -> str:
    """Whether a greedy bench's checksum is the yardstick's for the same number of games."""
    if result["bot"] != "greedy":
        return "no yardstick checksum for this bot (greedy plays the yardstick's workload)"
    expected = YARDSTICK_CHECKSUMS.get(result["games"])
    if expected is None:
        return (f"the yardstick's checksum is known for N = {', '.join(f'{n:,}' for n in YARDSTICK_CHECKSUMS)} "
                f"games only")
    if expected == result["checksum"]:
        return "equals the speed yardstick's checksum for the same games"
    return f"DIFFERS from the speed yardstick's checksum {expected}: the games are not the yardstick's"


@kernel
def _fold_checksum(results):
    """h = h * 31 + x (mod 2^64) over score0, score1, winner (0, 1, 2 = draw) of every game, in order."""
    h = np.uint64(0)
    m = np.uint64(31)
    for g in range(results.shape[0]):
        score0 = results[g, SCORE0]
        score1 = results[g, SCORE1]
        h = h * m + np.uint64(score0)
        h = h * m + np.uint64(score1)
        h = h * m + np.uint64(0 if score0 > score1 else (1 if score1 > score0 else DRAW))
    return h


def _combine_checksums(parts: list) -> int:
    """The checksum of consecutive chunks, from each chunk's own checksum and game count."""
    h = 0
    for chunk_hash, games in parts:
        h = (h * pow(31, 3 * games, 1 << 64) + chunk_hash) & MASK64
    return h


def _bench_seats(bot: str) -> np.ndarray:
    names = YARDSTICK_GREEDY if bot == "greedy" else (bot, bot)
    seats = new_seat_array(2)
    for i, name in enumerate(names):
        spec: Bot = parse_bot(name, 3)
        if not spec.in_engine:
            raise ValueError(f"bench plays in-engine bots only, not {bot!r}")
        seats[i] = spec.seat[0]
    return seats


@dataclass
class ChunkResult:
    start: float
    end: float
    checksum: int
    games: int
    turns: int
    moves: int
    wins: list


def _run_chunk(seats, first_seed: int, games: int, barrier=None) -> ChunkResult:
    """Seeds first_seed.. (games of them), seat 0 as player 0, timed from the first map to the last fold."""
    seeds = np.arange(first_seed, first_seed + games, dtype=np.int64)
    first, second = np.zeros(games, np.int64), np.ones(games, np.int64)
    results = np.zeros((games, RESULT_COLUMNS), np.int64)
    buffers = (new_map_array(), new_state_array())
    warm = slice(0, min(games, 4))  # load (or compile) both kernels before the clock starts
    play_pairings(seeds[warm], 3, seats.copy(), first[warm], second[warm], *buffers, results[warm])
    _fold_checksum(results[warm])
    if barrier is not None:
        barrier.wait()
    start = time.monotonic()
    play_pairings(seeds, 3, seats.copy(), first, second, *buffers, results)
    checksum = int(_fold_checksum(results))
    end = time.monotonic()
    return ChunkResult(start, end, checksum, games, int(results[:, TURNS].sum()), int(results[:, DECISIONS].sum()),
                       np.bincount(winners(results), minlength=3).tolist())


def run_bench(bot: str = "greedy", games: int = 300_000, jobs: int = 1) -> dict:
    seats = _bench_seats(bot)
    jobs = min(jobs, games)  # a process per chunk of seeds, each with a seed at least
    if jobs == 1:
        chunks = [_run_chunk(seats, 1, games)]
    else:
        sizes = [games // jobs + (1 if i < games % jobs else 0) for i in range(jobs)]
        firsts = [1 + sum(sizes[:i]) for i in range(jobs)]
        with multiprocessing.Manager() as manager:
            barrier = manager.Barrier(jobs)
            pool = ProcessPool(jobs)
            chunks = pool.map(_run_chunk, [(seats, f, n, barrier) for f, n in zip(firsts, sizes)])
    seconds = max(c.end for c in chunks) - min(c.start for c in chunks)
    wins = [sum(c.wins[i] for c in chunks) for i in range(3)]
    return {
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_sec": round(games / seconds, 1),
        "avg_turns": round(sum(c.turns for c in chunks) / games, 4),
        "avg_moves": round(sum(c.moves for c in chunks) / games, 4),
        "wins": wins,
        "checksum": str(_combine_checksums([(c.checksum, c.games) for c in chunks])),
        "bot": bot,
        "jobs": jobs,
    }
