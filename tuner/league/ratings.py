"""Ratings for a league: a Bradley-Terry model fitted by maximum likelihood, on the Elo scale, with intervals from
a bootstrap over seeds.

Model: bot i beats bot j with probability 1 / (1 + 10 ** ((r_j - r_i) / 400)); a draw counts as half a win and
half a loss. The games of a league are not a time series (every pair plays the same seeds, in no meaningful
order), so the ratings are the maximum-likelihood fit to all games at once (scipy.optimize), not an incremental
rating (Elo updates, openskill) that would depend on the order the games were stored in.

Anchor: the mean rating is 0 ("Elo above or below the league's average bot"); the difference of two ratings is
an Elo difference whatever the anchor.

Prior: one virtual drawn game between every two bots. Without it a bot that wins every game has no finite
maximum-likelihood rating (greedy against `wait` wins 100%); with it the rating is finite, and its effect fades
as games accumulate (the same half-game correction as `tuner.play.stats.elo_difference`). A pair won 100% is
then a lower bound on that gap, not a measurement: `separated` finds such pairs so that the table can say so.

Intervals: 95%, percentiles of a bootstrap over seeds: the seed positions are drawn with replacement, the same
draw for every pair (all pairs play the same seeds), and the model is refitted on each draw. The observed Fisher
information would treat games as independent, and they are not: both games of a seed (sides swapped) and the
games of all pairs on one seed are correlated. `benchmarks/league_intervals.py` compares the two on real bots
(500 seeds per pair): in leagues of near-equal bots (four greedy variants; four heuristic variants) the Fisher
standard errors are 0.93 to 1.54 times the bootstrap's; with one far stronger or weaker bot in the league, 0.53
to 1.9 times, in both directions. Refits start at the full fit and take a few Newton steps, all draws at once
(numpy): 1,000 refits of 6 bots take about 0.2 s. With few seeds (under about 20) the intervals are rough.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)  # rating points per unit of log-odds
PRIOR_DRAWS = 1.0  # virtual drawn games between every two bots
GRADIENT_TOLERANCE = 1e-8  # of the total games: the fit has converged when no gradient entry is larger
BOOTSTRAP_DRAWS = 1000
BOOTSTRAP_SEED = 0  # the draws are fixed: the same games give the same table on every run
NEWTON_STEPS = 100
MAX_NEWTON_STEP = 2.0  # log-odds units per step, so that a far start cannot overshoot


@dataclass(frozen=True)
class Ratings:
    rating: np.ndarray  # Elo scale, mean 0
    low: np.ndarray  # 95% interval
    high: np.ndarray
    std: np.ndarray  # the bootstrap's standard deviation of each rating


def _check_results(points: np.ndarray, games: np.ndarray) -> None:
    """points[..., i, j]: what bot i scored against bot j (wins + draws / 2); games[..., i, j]: their games."""
    if points.ndim < 2 or points.shape[-1] != points.shape[-2] or points.shape != games.shape:
        raise ValueError(f"points and games must be square matrices of one shape, got {points.shape}, {games.shape}")
    if points.shape[-1] < 2:
        raise ValueError("a rating needs at least two bots")
    if not np.allclose(games, np.swapaxes(games, -1, -2)) or not np.allclose(points + np.swapaxes(points, -1, -2),
                                                                              games):
        raise ValueError("games must be symmetric and points[i, j] + points[j, i] == games[i, j]")
    if (points < 0).any() or np.diagonal(games, axis1=-2, axis2=-1).any():
        raise ValueError("points must be >= 0 and no bot plays itself")


def _with_prior(points: np.ndarray, prior_draws: float) -> tuple[np.ndarray, np.ndarray]:
    """(wins, totals) with the virtual draws added."""
    n = points.shape[-1]
    wins = points + prior_draws / 2 * (1.0 - np.eye(n))
    return wins, wins + np.swapaxes(wins, -1, -2)


def _probabilities(x: np.ndarray) -> np.ndarray:
    """p[..., i, j] = P(i beats j) for log-strengths x[..., i]."""
    return 1.0 / (1.0 + np.exp(x[..., None, :] - x[..., :, None]))


def _gradient(x, wins, totals):
    """Of the negative log-likelihood: expected minus actual points of each bot."""
    return (totals * _probabilities(x) - wins).sum(axis=-1)


def _hessian(x, totals):
    p = _probabilities(x)
    w = totals * p * (1.0 - p)
    n = x.shape[-1]
    w = w * (1.0 - np.eye(n))
    return np.eye(n) * w.sum(axis=-1)[..., None] - w


def _negative_log_likelihood(x, wins):
    p = _probabilities(x)
    return -float(np.where(wins > 0, wins * np.log(np.where(wins > 0, p, 1.0)), 0.0).sum())


def fit_bradley_terry(points: np.ndarray, games: np.ndarray, prior_draws: float = PRIOR_DRAWS) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry ratings (Elo scale, mean 0) from a league's results."""
    points, games = np.asarray(points, dtype=float), np.asarray(games, dtype=float)
    _check_results(points, games)
    wins, totals = _with_prior(points, prior_draws)
    n = len(points)

    def full(theta):  # the likelihood ignores a common shift: bot 0 is held at 0 during the fit
        return np.concatenate([[0.0], theta])

    from scipy.optimize import minimize  # ~0.8 s of imports: only when a league is rated, not for every command

    result = minimize(lambda t: _negative_log_likelihood(full(t), wins), np.zeros(n - 1),
                      jac=lambda t: _gradient(full(t), wins, totals)[1:],
                      hess=lambda t: _hessian(full(t), totals)[1:, 1:], method="trust-exact",
                      options={"gtol": 1e-10})
    x = full(result.x)
    # Near the optimum trust-exact may stop on rounding ("failure to predict improvement"): judge by the gradient.
    if np.abs(_gradient(x, wins, totals)).max() > GRADIENT_TOLERANCE * totals.sum():
        raise RuntimeError(f"the Bradley-Terry fit did not converge: {result.message}")
    return (x - x.mean()) * ELO_PER_NAT


def refit_many(points: np.ndarray, games: np.ndarray, start: np.ndarray,
               prior_draws: float = PRIOR_DRAWS) -> np.ndarray:
    """Ratings (Elo scale, mean 0) for many result sets at once, points[k] and games[k] (k, n, n), by Newton's
    method from `start` (ratings, Elo scale): the bootstrap's refits, which start next to their optimum."""
    points, games = np.asarray(points, dtype=float), np.asarray(games, dtype=float)
    wins, totals = _with_prior(points, prior_draws)
    x = np.broadcast_to(np.asarray(start, dtype=float) / ELO_PER_NAT, points.shape[:-1]).copy()
    limit = GRADIENT_TOLERANCE * totals.sum(axis=(-1, -2))
    for _ in range(NEWTON_STEPS):
        gradient = _gradient(x, wins, totals)
        if (np.abs(gradient).max(axis=-1) <= limit).all():
            break
        step = np.linalg.solve(_hessian(x, totals)[..., 1:, 1:], -gradient[..., 1:, None])[..., 0]
        step *= np.minimum(1.0, MAX_NEWTON_STEP / np.abs(step).max(axis=-1, keepdims=True).clip(1e-300))
        x[..., 1:] += step
    else:
        raise RuntimeError("the bootstrap's Bradley-Terry refits did not converge")
    return (x - x.mean(axis=-1, keepdims=True)) * ELO_PER_NAT


def rate(seed_points: np.ndarray, seed_games: np.ndarray, draws: int = BOOTSTRAP_DRAWS,
         prior_draws: float = PRIOR_DRAWS) -> Ratings:
    """Ratings with 95% bootstrap intervals from per-seed results: seed_points[s, i, j], seed_games[s, i, j]
    (what i scored against j, and their games, on seed position s)."""
    seed_points, seed_games = np.asarray(seed_points, dtype=float), np.asarray(seed_games, dtype=float)
    _check_results(seed_points, seed_games)
    rating = fit_bradley_terry(seed_points.sum(axis=0), seed_games.sum(axis=0), prior_draws)
    seeds = len(seed_points)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    counts = rng.multinomial(seeds, np.full(seeds, 1.0 / seeds), size=draws)
    samples = refit_many(np.tensordot(counts, seed_points, 1), np.tensordot(counts, seed_games, 1), rating,
                         prior_draws)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return Ratings(rating, low, high, samples.std(axis=0, ddof=1))


def expected_score(rating_a: float, rating_b: float) -> float:
    """The model's probability that a bot rated `rating_a` beats one rated `rating_b`."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


def win_rate_matrix(points: np.ndarray, games: np.ndarray) -> np.ndarray:
    """rate[i, j]: the share of points bot i took from its games against bot j (NaN on the diagonal and for
    pairs that never played). rate[i, j] + rate[j, i] == 1 wherever they played."""
    points, games = np.asarray(points, dtype=float), np.asarray(games, dtype=float)
    rate = np.full(points.shape, np.nan)
    np.divide(points, games, out=rate, where=games > 0)
    np.fill_diagonal(rate, np.nan)
    return rate


def separated(points: np.ndarray, games: np.ndarray) -> list[tuple[int, int]]:
    """Pairs (i, j) where i took every point from j: their rating gap rests on the prior (a lower bound)."""
    points, games = np.asarray(points), np.asarray(games)
    n = len(points)
    return [(i, j) for i in range(n) for j in range(n) if i != j and games[i, j] > 0 and points[i, j] == games[i, j]]
