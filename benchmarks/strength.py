"""Win rates of a bot against opponents: N seeds, each played twice with the sides swapped; draws count half.

    python benchmarks/strength.py                          # heuristic vs greedy and random, leagues 1, 2, 3
    python benchmarks/strength.py --bot heuristic:tuned.json --opponents greedy --leagues 3 --seeds 2000

Seeds are first_seed .. first_seed + N - 1 (default 1..1000). Opponents are built for each league as
`parse_bot(name, league)` builds them (greedy's complete_day defaults by league).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.names import parse_bot  # noqa: E402
from bots.seat import new_seat_array  # noqa: E402
from bots.arena import DRAW, play_batch  # noqa: E402


def measure(bot: str, opponent: str, league: int, seeds) -> dict:
    """Play every seed twice (bot as player 0, then as player 1) and count the bot's wins, draws and losses."""
    seeds = np.asarray(seeds, dtype=np.int64)
    seats = new_seat_array(2)
    seats[0] = parse_bot(bot, league).seat[0]
    seats[1] = parse_bot(opponent, league).seat[0]
    all_seeds = np.concatenate([seeds, seeds])
    swapped = np.concatenate([np.zeros(len(seeds), np.bool_), np.ones(len(seeds), np.bool_)])
    start = time.monotonic()
    result = play_batch(all_seeds, league, seats, swapped)
    seconds = time.monotonic() - start
    me = swapped.astype(np.int64)  # the bot's player index in each game
    wins = int(np.sum(result.winner == me))
    draws = int(np.sum(result.winner == DRAW))
    games = len(all_seeds)
    losses = games - wins - draws
    idx = np.arange(games)
    return {
        "bot": bot, "opponent": opponent, "league": league, "games": games,
        "wins": wins, "draws": draws, "losses": losses,
        "win_rate": (wins + 0.5 * draws) / games,
        "avg_score": float(result.score[idx, me].mean()),
        "avg_opponent_score": float(result.score[idx, 1 - me].mean()),
        "seconds": round(seconds, 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic", help="the bot measured (default heuristic)")
    parser.add_argument("--opponents", nargs="+", default=["greedy", "random"], help="default: greedy random")
    parser.add_argument("--leagues", nargs="+", type=int, default=[1, 2, 3], choices=[1, 2, 3])
    parser.add_argument("--seeds", type=int, default=1000, help="number of seeds, each played twice (default 1000)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    seeds = np.arange(args.first_seed, args.first_seed + args.seeds, dtype=np.int64)
    for league in args.leagues:
        for opponent in args.opponents:
            r = measure(args.bot, opponent, league, seeds)
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                print(f"league {league}: {r['bot']} vs {r['opponent']}: {r['games']} games, "
                      f"{r['wins']} wins, {r['draws']} draws, {r['losses']} losses, "
                      f"win rate {100 * r['win_rate']:.1f}% (avg score {r['avg_score']:.1f} - "
                      f"{r['avg_opponent_score']:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
