"""Playing a bot against opponents on seed pairs: compiled batches on K processes that persist across trials.

A trial's games take milliseconds (tens of thousands of games per second per core), so starting processes
per trial would cost more than the games. `GameRunner` keeps K - 1 loky (joblib) worker processes for the
whole run and plays one share of every batch in its own process; batches too small to be worth splitting
are played in-process. Results do not depend on K: every game is a function of its seed and sides.
"""
from __future__ import annotations

import signal
from dataclasses import dataclass

import numpy as np

from bots.seat import new_seat_array
from engine.batch import play_batch
from tuner.stats import Tally, tally

MIN_GAMES_PER_PROCESS = 400  # below this a batch is not split (dispatch would cost more than the games)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops the run cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    from bots.registry import parse_bot

    bot = parse_bot("greedy", league).seat
    _play_segments(bot, [(bot, np.array([1, 1], np.int64), np.array([False, True]))], league)
    return True


class GameRunner:
    """Plays seed pairs (each seed twice, sides swapped) between one bot and several opponents."""

    def __init__(self, league: int, jobs: int = 1):
        self.league = league
        self.jobs = max(1, int(jobs))
        self._executor = None
        self.games_played = 0

    def _pool(self):
        if self._executor is None and self.jobs > 1:
            from joblib.externals.loky import get_reusable_executor

            self._executor = get_reusable_executor(max_workers=self.jobs - 1, initializer=_ignore_sigint,
                                                   timeout=600)
        return self._executor

    def warm_up(self) -> None:
        """Compile (or load from the cache) the kernel here first, then in the workers."""
        _warm(self.league)
        pool = self._pool()
        if pool is not None:
            for future in [pool.submit(_warm, self.league) for _ in range(self.jobs - 1)]:
                future.result()

    def play(self, seat: np.ndarray, opponents: list, pair_seeds) -> np.ndarray:
        """Margins (bot's final score minus the opponent's), shape (opponents, pairs, 2): game 0 of a pair has
        the bot as player 0, game 1 as player 1."""
        pair_seeds = np.asarray(pair_seeds, dtype=np.int64)
        n_pairs = len(pair_seeds)
        seeds = np.repeat(pair_seeds, 2)
        swapped = np.tile(np.array([False, True]), n_pairs)
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

        def store(segments, results):
            for (o, _, _, _, lo), result in zip(segments, results):
                margins[o, lo:lo + len(result) // 2] = result.reshape(-1, 2)

        pool = self._pool() if parts > 1 else None
        futures = [pool.submit(_play_segments, seat, [s[1:4] for s in task], self.league) for task in tasks[1:]] \
            if pool is not None else []
        store(tasks[0], _play_segments(seat, [s[1:4] for s in tasks[0]], self.league))
        for task, future in zip(tasks[1:], futures):
            store(task, future.result())
        self.games_played += games
        return margins

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None


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

