"""Racing a generation of candidates on common seeds: play everyone a block of seed pairs, drop the candidates
clearly worse than the leader, play the survivors the next block, and so on until the survivors have played
every pair.

Every candidate plays the same pairs in the same order against the same opponents (common random numbers), so
two candidates are compared pair by pair: the paired differences of their points on each (opponent, pair) unit.
After each block a candidate is dropped when the one-sided Wilcoxon signed-rank test (scipy) says it is worse
than the leader (the survivor of highest mean) with p < `p_threshold` (zero differences split, as Optuna's
WilcoxonPruner does); the leader always plays on. Blocks grow (the first `first_block` pairs, then about 1.5x
more at each check), so a clearly bad candidate costs a few games and a close one is compared on many.

A slow opponent may be met on a share of the pairs only (`shares`: 0.2 meets it on every fifth pair position,
starting with the first), which leaves time for more trials: a candidate's score still weighs every opponent
the same, the mean over opponents of its points against each (with every share 1, the mean over all units).
For the test each paired difference is scaled by the inverse of its opponent's share, so that the differences'
sum is the score's difference; the leader and "behind" are judged by the score.

With the objective `min-gain` the race holds a reference, the baseline (the bot's defaults), which plays every
pair of every block beside the candidates but is never a candidate itself. A candidate's score is then the soft
minimum over opponents of its gain over the reference against each (its mean points minus the reference's, on
the same pairs): -t log(mean over opponents of exp(-gain / t)), between the worst gain (t = 0) and their mean
(t large); a gain against most opponents does not make up for a loss against one. The soft minimum is not a sum
over units, so the test is a paired bootstrap instead of Wilcoxon's: the pairs played are resampled (the same
resample for the candidate, the leader and the reference), and the p-value is the share of resamples in which
the candidate's score is not below the leader's.

A dropped candidate's value is an estimate of what it would have scored over every pair: the best survivor's
full result plus their score's difference on the pairs the dropped candidate played, kept below the best
survivor's (it was found worse). Survivors' values are their full results.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from tuner.search import portable_math

GROWTH = 1.5
BELOW_BEST = 1e-6  # a dropped candidate's estimate stays at least this far below the best survivor


def blocks(pairs: int, first_block: int, max_block: int = 0) -> list[tuple[int, int]]:
    """(start, stop) of the race's blocks of pair positions: checks after `first_block` pairs, then ~1.5x as many,
    never more than `max_block` pairs at once (0: no limit)."""
    out, start = [], 0
    stop = min(pairs, max(1, first_block))
    while start < pairs:
        if max_block:
            stop = min(stop, start + max_block)
        out.append((start, stop))
        start = stop
        stop = min(pairs, max(stop + max(1, first_block // 2), int(stop * GROWTH)))
    return out


@dataclass
class Standing:
    """A candidate's place in the race."""

    alive: bool = True
    pairs_played: int = 0
    dropped_by: Optional[int] = None  # the leader it was compared with when dropped
    p_value: Optional[float] = None


def met_positions(pairs: int, share: float) -> np.ndarray:
    """Which of the race's pair positions an opponent met on `share` of them is played on: evenly spread, the
    first position always, ceil(n * share) of the first n."""
    if share >= 1:
        return np.ones(pairs, dtype=bool)
    met_by = np.ceil(np.arange(pairs + 1) * share - 1e-9)  # positions met among the first n
    met_by[1:] = np.maximum(met_by[1:], 1)
    return np.diff(met_by) > 0


def met_table(pairs: int, shares) -> np.ndarray:
    """met[pair, opponent]: the units the race plays, for opponents met on `shares` of the pairs (every one at 1)."""
    return np.column_stack([met_positions(pairs, s) for s in shares]) if len(shares) else \
        np.ones((pairs, 0), dtype=bool)


def soft_minimum(gains: np.ndarray, softness: float) -> float:
    """-t log(mean(exp(-gains / t))): the worst gain at t = 0, tending to the mean gain as t grows."""
    return float(soft_minima(np.asarray(gains, dtype=float), softness))


def soft_minima(gains: np.ndarray, softness: float) -> np.ndarray:
    """`soft_minimum` of each row of gains (rows, opponents), with exp and log whose bits do not depend on the
    CPU (NumPy's have AVX-512 versions): a trial's score, and so the study, is the same on every machine."""
    worst = gains.min(axis=-1)
    if softness <= 0:
        return worst
    return worst - softness * portable_math.log(np.mean(portable_math.exp(-(gains - worst[..., None]) / softness),
                                                        axis=-1))


BOOTSTRAP = 400  # resamples of the min-gain race's test


class Race:
    def __init__(self, candidates: int, units_per_pair: int, pairs: int, first_block: int, p_threshold: float,
                 pruning: bool = True, max_block: int = 0, shares=None, softness: Optional[float] = None):
        """`candidates` racers; with `softness` (the objective min-gain) one more, the last, is the reference."""
        self.candidates = candidates
        self.reference = candidates if softness is not None else None
        self.softness = softness
        self.units_per_pair = units_per_pair  # opponents met on each pair
        self.pairs = pairs
        self.blocks = blocks(pairs, first_block, max_block)
        self.p_threshold = p_threshold
        self.pruning = pruning
        self.met = met_table(pairs, np.ones(units_per_pair) if shares is None else shares)
        players = candidates + (self.reference is not None)
        # points[c, pair, opponent]: the pair's points (0, 1/4, ..., 1) of candidate c; NaN until played.
        self.points = np.full((players, pairs, units_per_pair), np.nan)
        self.standings = [Standing() for _ in range(players)]
        self._means: dict = {}  # candidate -> its score so far, until it records more

    def weights(self, played: int) -> np.ndarray:
        """Per opponent, the weight of each of its units among the first `played` pairs that makes every opponent
        count the same: played / units met (exactly 1 for an opponent met on every pair)."""
        return played / np.maximum(1, self.met[:played].sum(axis=0))

    def opponent_means(self, points: np.ndarray) -> np.ndarray:
        """Per opponent, the mean of points (played, opponents) over the pairs where it was met."""
        played = len(points)
        return np.where(self.met[:played], points, 0.0).sum(axis=0) / np.maximum(1, self.met[:played].sum(axis=0))

    def gains(self, candidate: int, played: int) -> np.ndarray:
        """Per opponent, the candidate's mean points minus the reference's on its first `played` pairs."""
        reference = self.points[self.reference, :played]
        return self.opponent_means(self.points[candidate, :played]) - self.opponent_means(reference)

    def mean_points(self, points: np.ndarray) -> float:
        """The mean over opponents of the mean points against each, of points (played, opponents) (NaN where not
        met): with every opponent met on every pair, the plain mean."""
        played = len(points)
        if not played:
            return 0.0
        weighted = np.where(self.met[:played], points * self.weights(played), 0.0)
        return float(np.sum(weighted) / (played * self.units_per_pair))

    def score_of(self, candidate: int, played: int) -> float:
        """The candidate's score on its first `played` pairs: its mean points (`mean_points`), or with a reference
        the soft minimum of its gains."""
        if self.reference is None:
            return self.mean_points(self.points[candidate, :played])
        return soft_minimum(self.gains(candidate, played), self.softness) if played else 0.0

    @property
    def alive(self) -> list[int]:
        """The racers that play the next block: the surviving candidates and the reference."""
        return [c for c, s in enumerate(self.standings) if s.alive]

    @property
    def contenders(self) -> list[int]:
        """The surviving candidates."""
        return [c for c in self.alive if c != self.reference]

    def record(self, candidate: int, start: int, stop: int, points: np.ndarray) -> None:
        """Points (stop - start, units_per_pair) of a candidate on pair positions [start, stop)."""
        self.points[candidate, start:stop] = np.where(self.met[start:stop], points, np.nan)
        self.standings[candidate].pairs_played = stop
        if candidate == self.reference:  # every score is a gain over it
            self._means.clear()
        else:
            self._means.pop(candidate, None)

    def mean(self, candidate: int) -> float:
        """The candidate's score on the pairs it played."""
        if candidate not in self._means:
            self._means[candidate] = self.score_of(candidate, self.standings[candidate].pairs_played)
        return self._means[candidate]

    def leader(self) -> int:
        """The surviving candidate of highest score so far (the earliest on a tie)."""
        return max(self.contenders, key=lambda c: (self.mean(c), -c))

    def check(self) -> list[int]:
        """After a block: drop the survivors clearly worse than the leader; returns the dropped ones. After the last
        block nobody is dropped: a candidate that played every pair has its full result, not an estimate."""
        if not self.pruning or len(self.contenders) < 2:
            return []
        leader = self.leader()
        played = self.standings[leader].pairs_played
        if played >= self.pairs:
            return []
        others = [c for c in self.contenders if c != leader]
        if self.reference is not None:
            behind = np.array([self.mean(c) < self.mean(leader) for c in others])
            if not behind.any():
                return []
            p_values = self._bootstrap_p_values(np.asarray(others)[behind], leader, played)
        else:
            scaled = (self.points[others, :played] - self.points[leader, :played]) * self.weights(played)
            diffs = scaled[:, self.met[:played]]  # (others, units met): each row sums to its score's difference x units
            behind = (diffs.sum(axis=1) < 0) & diffs.any(axis=1)
            if not behind.any():
                return []
            # One call for every candidate behind the leader: each row is tested on its own (scipy's axis), the same
            # p-values as one call per candidate, 15x faster.
            from scipy.stats import wilcoxon  # 1 s of imports: not for the commands that never race (or stop early)

            p_values = wilcoxon(diffs[behind], axis=1, alternative="less", zero_method="zsplit").pvalue
        dropped = []
        for c, p in zip(np.asarray(others)[behind].tolist(), np.atleast_1d(p_values).tolist()):
            if p < self.p_threshold:
                self.standings[c] = Standing(False, played, leader, p)
                dropped.append(c)
        return dropped

    def _bootstrap_p_values(self, behind: np.ndarray, leader: int, played: int) -> np.ndarray:
        """For each candidate of `behind`, the share of resamples of the pairs played in which its score is not
        below the leader's (the resamples drawn from the race's state: the same race gives the same p-values)."""
        rng = np.random.default_rng([played, leader, len(behind)])
        sample = rng.integers(0, played, size=(BOOTSTRAP, played))
        met = self.met[:played]
        counts = np.maximum(1, met[sample].sum(axis=1))  # (resamples, opponents)

        def gains(racers) -> np.ndarray:  # (racers, resamples, opponents)
            points = np.where(met, np.nan_to_num(self.points[racers, :played]), 0.0)
            return points[:, sample].sum(axis=2) / counts

        reference = gains([self.reference])[0]
        lead = soft_minima(gains([leader])[0] - reference, self.softness)
        scores = soft_minima(gains(behind) - reference, self.softness)
        return ((scores >= lead).sum(axis=1) + 1) / (BOOTSTRAP + 1)

    def best_survivor(self) -> int:
        return self.leader()

    def value(self, candidate: int) -> float:
        """A survivor's full result; a dropped candidate's estimate against the best survivor (see module doc)."""
        if self.standings[candidate].alive:
            return self.mean(candidate)
        best = self.best_survivor()
        played = self.standings[candidate].pairs_played
        if self.reference is None:
            difference = self.mean_points(self.points[candidate, :played] - self.points[best, :played])
        else:
            difference = self.score_of(candidate, played) - self.score_of(best, played)
        estimate = self.mean(best) + difference
        floor = -1.0 if self.reference is not None else 0.0  # a gain is in [-1, 1], a win rate in [0, 1]
        return float(min(max(estimate, floor), self.mean(best) - BELOW_BEST))
