"""Win rates of a bot against opponents: N seeds, each played twice with the sides swapped; draws count half.

    python benchmarks/strength.py                          # heuristic vs greedy and random, leagues 1, 2, 3
    python benchmarks/strength.py --bot heuristic:tuned.json --opponents greedy --leagues 3 --seeds 2000
    python benchmarks/strength.py --cross greedy heuristic sunrate rush seeder search --seeds 500
                                                           # every bot against every other: a markdown table

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

from bots.contract.names import parse_bot  # noqa: E402
from bots.contract.seat import new_seat_array  # noqa: E402
from bots.running.arena import DRAW, play_batch  # noqa: E402
from tuner.play.stats import wilson_interval  # noqa: E402


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


def interval(r: dict) -> tuple:
    return wilson_interval(r["wins"] + 0.5 * r["draws"], r["games"])


def cross_table(bots: list, league: int, seeds) -> str:
    """Markdown: row bot's win rate against column bot (95% CI), and each bot's games per second in the row."""
    header = "| bot (row) vs (column) | " + " | ".join(f"`{b}`" for b in bots) + " | mean | games/s |"
    lines = [header, "|" + "---|" * (len(bots) + 3)]
    for bot in bots:
        cells, rates, seconds, games = [], [], 0.0, 0
        for opponent in bots:
            if opponent == bot:
                cells.append("-")
                continue
            r = measure(bot, opponent, league, seeds)
            low, high = interval(r)
            cells.append(f"{r['win_rate']:.1%} ({low:.0%}-{high:.0%})")
            rates.append(r["win_rate"])
            seconds += r["seconds"]
            games += r["games"]
        lines.append(f"| `{bot}` | " + " | ".join(cells) + f" | {sum(rates) / len(rates):.1%} | "
                     f"{games / seconds:,.0f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic", help="the bot measured (default heuristic)")
    parser.add_argument("--opponents", nargs="+", default=["greedy", "random"], help="default: greedy random")
    parser.add_argument("--leagues", nargs="+", type=int, default=[1, 2, 3], choices=[1, 2, 3])
    parser.add_argument("--seeds", type=int, default=1000, help="number of seeds, each played twice (default 1000)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--cross", nargs="+", metavar="BOT", help="a cross table of these bots (league: the first "
                        "of --leagues)")
    args = parser.parse_args(argv)
    seeds = np.arange(args.first_seed, args.first_seed + args.seeds, dtype=np.int64)
    if args.cross:
        for bot in args.cross:  # compile before timing
            measure(bot, "greedy", args.leagues[0], seeds[:2])
        print(f"league {args.leagues[-1] if len(args.leagues) == 1 else args.leagues[0]}, seeds {args.first_seed}.."
              f"{args.first_seed + args.seeds - 1}, each twice with sides swapped ({2 * args.seeds} games a cell); "
              f"games/s: the row bot's games on one core (both sides' moves)")
        print(cross_table(args.cross, args.leagues[0], seeds))
        return 0
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
