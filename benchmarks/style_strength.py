"""Cross table of the style bots (and any other bots): win rates with 95% intervals, and self-play speed.

    python benchmarks/style_strength.py                                  # league 3, 1000 seeds (2000 games a cell)
    python benchmarks/style_strength.py --leagues 1 2 3 --seeds 500
    python benchmarks/style_strength.py --bots sunrate rush --opponents heuristic greedy --no-speed

Each cell plays seeds first_seed .. first_seed + N - 1 twice, sides swapped (draws count half), with the row
bot's win rate and its Wilson 95% interval. Speed: self-play games per second on one core (one process),
after a warm-up; the best of `--speed-runs` runs, since the machine may be shared.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.strength import measure  # noqa: E402
from bots.contract.names import parse_bot  # noqa: E402
from bots.contract.seat import new_seat_array  # noqa: E402
from bots.running.arena import play_batch  # noqa: E402
from tuner.play.stats import wilson_interval  # noqa: E402

STYLE_BOTS = ["sunrate", "rush", "seeder"]
OPPONENTS = ["heuristic", "greedy", "random", *STYLE_BOTS]


def self_play_speed(bot: str, league: int, games: int, runs: int) -> dict:
    """Games per second of `bot` against itself on one core, and decisions per game."""
    seats = new_seat_array(2)
    seats[0] = parse_bot(bot, league).seat[0]
    seats[1] = parse_bot(bot, league).seat[0]
    play_batch(np.arange(1, 21, dtype=np.int64), league, seats)  # compile or load the cache
    seeds = np.arange(10_000_001, 10_000_001 + games, dtype=np.int64)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = play_batch(seeds, league, seats)
        best = min(best, time.perf_counter() - start)
    return {"bot": bot, "league": league, "games": games, "games_per_s": games / best,
            "decisions_per_game": float(result.decisions.mean())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=STYLE_BOTS, help="rows (default: the style bots)")
    parser.add_argument("--opponents", nargs="+", default=OPPONENTS, help="columns (default: heuristic greedy "
                        "random and the style bots)")
    parser.add_argument("--leagues", nargs="+", type=int, default=[3], choices=[1, 2, 3])
    parser.add_argument("--seeds", type=int, default=1000, help="seeds per cell, each played twice (default 1000)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--speed-games", type=int, default=20000, help="self-play games per speed run")
    parser.add_argument("--speed-runs", type=int, default=3)
    parser.add_argument("--no-speed", action="store_true", help="skip the speed measurement")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    seeds = np.arange(args.first_seed, args.first_seed + args.seeds, dtype=np.int64)
    for league in args.leagues:
        rows = []
        for bot in args.bots:
            cells = []
            for opponent in args.opponents:
                if opponent == bot:
                    cells.append(None)
                    continue
                r = measure(bot, opponent, league, seeds)
                low, high = wilson_interval(r["wins"] + 0.5 * r["draws"], r["games"])
                r["win_rate_ci"] = [low, high]
                if args.json:
                    print(json.dumps(r), flush=True)
                cells.append(r)
            rows.append((bot, cells))
        if not args.json:
            print(f"league {league}: row bot's win rate against the column bot, {2 * args.seeds} games a cell "
                  f"(seeds {args.first_seed}..{args.first_seed + args.seeds - 1}, sides swapped), 95% interval")
            width = max(len(b) for b in args.bots) + 2
            print(" " * width + "".join(f"{o:>22}" for o in args.opponents))
            for bot, cells in rows:
                text = "".join(f"{'-':>22}" if r is None else
                               f"{100 * r['win_rate']:>8.1f}% "
                               f"[{100 * r['win_rate_ci'][0]:4.1f}-{100 * r['win_rate_ci'][1]:5.1f}]"
                               for r in cells)
                print(f"{bot:<{width}}{text}", flush=True)
            print()
    if not args.no_speed:
        for bot in args.bots:
            r = self_play_speed(bot, 3, args.speed_games, args.speed_runs)
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                print(f"speed: {bot} self-play, league 3: {r['games_per_s']:,.0f} games/s on one core "
                      f"({r['decisions_per_game']:.0f} decisions a game, best of {args.speed_runs} runs of "
                      f"{r['games']} games)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
