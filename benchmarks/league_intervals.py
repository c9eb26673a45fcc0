"""Why `tuner league`'s rating intervals come from a bootstrap over seeds: Fisher-information standard errors treat
games as independent, and a league's games are paired (each seed twice, sides swapped) and every pair plays the
same seeds. This plays (or reads) a league and prints each rating's bootstrap standard error (as `tuner league`
computes it) beside the Fisher one.

    python benchmarks/league_intervals.py --db /tmp/intervals.db --games 1000 \\
        heuristic greedy greedy:10,3 greedy:14,2 greedy:12,3 random:1

Measured (2 cores, shared; 1,000 games per pair, 500 seeds; Fisher standard error / bootstrap standard error):

    greedy greedy:10,3 greedy:14,2 greedy:12,3                        1.16  0.93  1.01  1.19
    heuristic heuristic:seed_max_trees=8 heuristic:grow_w_opp=0.5
        heuristic:grow_w_sun=0.5                                      1.54  1.27  1.05  0.97
    the greedy four + heuristic + random:1                            0.81 (heuristic), 1.85-1.90 (greedy
                                                                      variants), 9.5 (random:1, lost every game)
    the heuristic four + heuristic:sell_ratio=1.2 + greedy            0.62-0.75 (heuristic variants), 0.53 (greedy)

A bot that wins or loses every game against some bot has no measured gap there (its rating rests on the prior):
both figures are then arbitrary, which the league's table says.
"""
from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tuner.league.ratings import BOOTSTRAP_DRAWS, ELO_PER_NAT, PRIOR_DRAWS, rate  # noqa: E402


def per_seed_points(db: Path, names: list[str]):
    """points[s, i, j]: what bot i scored against bot j on seed position s (two games), from the league file."""
    connection = sqlite3.connect(db)
    ids = {name: row for name, row in connection.execute("SELECT name, id FROM bots")}
    position = {ids[name]: k for k, name in enumerate(names)}
    rows = connection.execute("SELECT bot_a, bot_b, pair_index, score_a, score_b FROM games").fetchall()
    seeds = 1 + max(r[2] for r in rows)
    n = len(names)
    points = np.zeros((seeds, n, n))
    games = np.zeros((seeds, n, n))
    for a, b, k, score_a, score_b in rows:
        if a not in position or b not in position:
            continue
        i, j = position[a], position[b]
        win = 1.0 if score_a > score_b else 0.5 if score_a == score_b else 0.0
        points[k, i, j] += win
        points[k, j, i] += 1 - win
        games[k, i, j] += 1
        games[k, j, i] += 1
    return points, games


def fisher_std(rating: np.ndarray, points: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Standard errors from the observed Fisher information (games taken as independent), Elo scale, mean 0:
    the pseudo-inverse of the negative log-likelihood's Hessian (its null space is the shift the anchor fixes)."""
    n = len(rating)
    totals = games + PRIOR_DRAWS * (1 - np.eye(n))
    x = rating / ELO_PER_NAT
    p = 1 / (1 + np.exp(x[None, :] - x[:, None]))
    w = totals * p * (1 - p) * (1 - np.eye(n))
    hessian = np.diag(w.sum(axis=1)) - w
    return np.sqrt(np.diag(np.linalg.pinv(hessian))) * ELO_PER_NAT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "tuner.cli", "league", *args.bots, "--db", str(args.db), "--games",
                    str(args.games), "--jobs", str(args.jobs)], check=True, stdout=subprocess.DEVNULL)
    points, games = per_seed_points(args.db, args.bots)
    start = time.perf_counter()
    ratings = rate(points, games)
    seconds = time.perf_counter() - start
    fisher = fisher_std(ratings.rating, points.sum(0), games.sum(0))
    print(f"{len(points)} seeds, {int(games.sum() // 2)} games; fit and {BOOTSTRAP_DRAWS} bootstrap refits in "
          f"{seconds:.2f} s")
    width = max(len(name) for name in args.bots)
    print(f"{'bot':<{width}} {'rating':>7} {'bootstrap se':>13} {'Fisher se':>10} {'Fisher/bootstrap':>17}")
    for k, name in enumerate(args.bots):
        print(f"{name:<{width}} {ratings.rating[k]:>+7.1f} {ratings.std[k]:>13.1f} {fisher[k]:>10.1f} "
              f"{fisher[k] / ratings.std[k]:>17.2f}")


if __name__ == "__main__":
    main()
