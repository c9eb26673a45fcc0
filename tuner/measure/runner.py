"""Playing a bot against opponents on seed pairs: compiled batches on K processes that persist across trials.

A trial's games take milliseconds (tens of thousands of games per second per core), so starting processes
per trial would cost more than the games. `GameRunner` plays on the run's process pool (`tuner.measure.pool`),
one share of every batch in its own process; batches too small to be worth splitting are played in-process.
Results do not depend on K: every game is a function of its seed and sides.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bots.arena import play_batch
from bots.names import parse_bot
from bots.seat import new_seat_array
from tuner.measure.pool import ProcessPool
from tuner.measure.seeds import paired_schedule
from tuner.measure.stats import Tally, tally

MIN_GAMES_PER_PROCESS = 400  # below this a batch is not split (dispatch would cost more than the games)


def _play_segments(seat: np.ndarray, segments: list, league: int) -> list:
    """Margins of the bot in `seat` for each (opponent seat, seeds, swapped) segment."""
    out = []
    seats = new_seat_array(2)
    seats[0] = seat[0]
    for opponent, seeds, swapped in segments:
        seats[1] = opponent[0]
        score = play_batch(seeds, league, seats, swapped).score
        me = swapped.astype(np.int64)
        rows = np.arange(len(seeds))
        out.append(score[rows, me] - score[rows, 1 - me])
    return out


def _warm(league: int) -> bool:
    bot = parse_bot("greedy", league).seat
    _play_segments(bot, [(bot, np.array([1, 1], np.int64), np.array([False, True]))], league)
    return True


class GameRunner:
    """Plays seed pairs (each seed twice, sides swapped) between one bot and several opponents."""

    def __init__(self, league: int, jobs: int = 1):
        self.league = league
        self.jobs = max(1, int(jobs))
        self.pool = ProcessPool(self.jobs)
        self.games_played = 0

    def warm_up(self) -> None:
        """Compile (or load from the cache) the kernel here first, then in the workers."""
        self.pool.on_every_worker(_warm, self.league)

    def play(self, seat: np.ndarray, opponents: list, pair_seeds) -> np.ndarray:
        """Margins (bot's final score minus the opponent's), shape (opponents, pairs, 2): game 0 of a pair has
        the bot as player 0, game 1 as player 1."""
        pair_seeds = np.asarray(pair_seeds, dtype=np.int64)
        n_pairs = len(pair_seeds)
        seeds, swapped = paired_schedule(pair_seeds)
        units = [(o, i) for o in range(len(opponents)) for i in range(n_pairs)]  # (opponent, pair)
        games = 2 * len(units)
        parts = max(1, min(self.jobs, games // MIN_GAMES_PER_PROCESS, len(units)))
        bounds = [len(units) * k // parts for k in range(parts + 1)]
        tasks = []
        for k in range(parts):
            chunk = units[bounds[k]:bounds[k + 1]]
            segments = []
            for o in range(len(opponents)):
                pairs = [i for oo, i in chunk if oo == o]
                if pairs:
                    lo, hi = pairs[0], pairs[-1] + 1
                    segments.append((o, opponents[o], seeds[2 * lo:2 * hi], swapped[2 * lo:2 * hi], lo))
            tasks.append(segments)
        margins = np.zeros((len(opponents), n_pairs, 2), dtype=np.int64)
        results = self.pool.map(_play_segments, [(seat, [s[1:4] for s in task], self.league) for task in tasks])
        for segments, result in zip(tasks, results):
            for (o, _, _, _, lo), part in zip(segments, result):
                margins[o, lo:lo + len(part) // 2] = part.reshape(-1, 2)
        self.games_played += games
        return margins

    def close(self) -> None:
        self.pool.close()


def pair_points(margins: np.ndarray) -> np.ndarray:
    """A seed pair's result: the points of its two games (win 1, draw 1/2, loss 0) divided by 2."""
    points = (margins > 0) + 0.5 * (margins == 0)
    return points.mean(axis=-1)


@dataclass
class Evaluation:
    """A bot's results against named opponents."""

    overall: Tally
    per_opponent: dict  # name -> Tally

    def to_json(self) -> dict:
        return {"overall": self.overall.to_json(),
                "per_opponent": {name: t.to_json() for name, t in self.per_opponent.items()}}


def evaluate(runner: GameRunner, seat: np.ndarray, opponents: dict, pair_seeds) -> Evaluation:
    """Play every seed pair against every opponent ({name: seat}) and tally the results."""
    names = list(opponents)
    margins = runner.play(seat, [opponents[n] for n in names], pair_seeds)
    per = {name: tally(margins[i].ravel().tolist()) for i, name in enumerate(names)}
    return Evaluation(tally(margins.ravel().tolist()), per)

