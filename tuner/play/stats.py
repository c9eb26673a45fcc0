"""Statistics for noisy games: win rates with Wilson intervals, Elo differences, score margins.

A game counts 1 for a win, 1/2 for a draw and 0 for a loss. The win-rate interval is Wilson's score
interval at 95%, which stays inside [0, 1] and is honest for rates near 0 or 1. The Elo difference is the
logistic transform of the win rate; its interval is the transform of the win-rate interval. Rates of
exactly 0 or 1 are pulled in by half a game so that the Elo figure stays finite.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = points / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(rate: float, games: int) -> float:
    """Elo difference for a win rate, with rates of 0 or 1 pulled in by half a game."""
    if games == 0:
        return 0.0
    edge = 0.5 / games
    rate = min(max(rate, edge), 1 - edge)
    return 400.0 * math.log10(rate / (1 - rate))


@dataclass
class Tally:
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_rate_ci: tuple
    elo: float
    elo_ci: tuple
    mean_margin: float
    margin_ci: tuple

    @classmethod
    def from_json(cls, data: dict) -> Tally:
        return cls(data["games"], data["wins"], data["draws"], data["losses"], data["win_rate"],
                   tuple(data["win_rate_ci"]), data["elo"], tuple(data["elo_ci"]), data["mean_margin"],
                   tuple(data["margin_ci"]))

    def to_json(self) -> dict:
        return {
            "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": round(self.win_rate, 6), "win_rate_ci": [round(x, 6) for x in self.win_rate_ci],
            "elo": round(self.elo, 2), "elo_ci": [round(x, 2) for x in self.elo_ci],
            "mean_margin": round(self.mean_margin, 4), "margin_ci": [round(x, 4) for x in self.margin_ci],
        }


def tally(margins) -> Tally:
    """Statistics from one side's score margins (its final score minus the opponent's), one per game: a list or
    an integer array of any shape."""
    m = np.asarray(margins, dtype=np.int64).ravel()
    games = int(m.size)
    wins = int(np.count_nonzero(m > 0))
    draws = int(np.count_nonzero(m == 0))
    points = wins + draws / 2
    rate = points / games if games else 0.0
    low, high = wilson_interval(points, games)
    total = int(m.sum())
    mean = total / games if games else 0.0
    if games > 1:
        squares = int(np.dot(m, m))  # exact in integers: the variance is not cancelled away
        sd = math.sqrt(max(0.0, (squares - total * total / games) / (games - 1)))
        half = Z95 * sd / math.sqrt(games)
    else:
        half = float("inf")
    return Tally(games, wins, draws, games - wins - draws, **_rated(rate, (low, high), games), mean_margin=mean,
                 margin_ci=(mean - half, mean + half))


def _rated(rate: float, interval: tuple, games: int) -> dict:
    """A Tally's win rate, its interval, and the Elo difference of each."""
    low, high = interval
    return {"win_rate": rate, "win_rate_ci": (low, high), "elo": elo_difference(rate, games),
            "elo_ci": (elo_difference(low, games), elo_difference(high, games))}


def opponent_mean(pooled: Tally, per_opponent: list) -> Tally:
    """`pooled` (every game counted once) with its win rate replaced by the mean over opponents of the win rate
    against each, for results where opponents were met on different numbers of games: each opponent weighs the
    same. Its interval is the normal one of a mean of independent rates (sum of p(1 - p) / games over m^2)."""
    rates = np.array([t.win_rate for t in per_opponent])
    games = np.array([max(1, t.games) for t in per_opponent])
    rate = float(rates.mean())
    half = Z95 * math.sqrt(float(np.sum(rates * (1 - rates) / games))) / len(rates)
    return replace(pooled, **_rated(rate, (max(0.0, rate - half), min(1.0, rate + half)), pooled.games))


def pair_points(margins: np.ndarray) -> np.ndarray:
    """A seed pair's result: the points of its two games (win 1, draw 1/2, loss 0) divided by 2."""
    points = (margins > 0) + 0.5 * (margins == 0)
    return points.mean(axis=-1)


def pair_value(margins: np.ndarray, margin_weight: float = 0.0, margin_scale: float = 20.0) -> np.ndarray:
    """A seed pair's score: its points (`pair_points`), blended with weight `margin_weight` with its games' mean
    margin reward, 1/2 + m / (2 (|m| + margin_scale)): bounded as the points are, and rising with the margin where
    every game is lost (or won), so that a search from a start that loses every game sees which way is up."""
    points = pair_points(margins)
    if margin_weight == 0:
        return points
    reward = (0.5 + margins / (2.0 * (np.abs(margins) + margin_scale))).mean(axis=-1)
    return (1.0 - margin_weight) * points + margin_weight * reward
