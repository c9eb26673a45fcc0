"""The search bots (`search`, `mcts`, `beam`): their pace, how `mcts` grows with its budget, and `search`'s blind spot.

    python benchmarks/search_bots.py speed                 # games/s on one core, cost per simulated turn and move
    python benchmarks/search_bots.py scaling --seeds 500   # mcts at N, 2N, 4N, 8N against heuristic and search
    python benchmarks/search_bots.py blind-spot --seeds 500  # a heuristic tuned against the search of old

speed: each bot's games per second on one core (process time, the best of `--runs` interleaved runs, since the
machine may be shared), in self-play and against the default heuristic, beside the heuristic's self-play (the
engine's own pace: its cost per turn). A search bot's cost per simulated turn is its self-play time divided by the
turns its playouts or rollouts simulated (counted in its seat), and its ratio to the engine's cost per turn;
`beam` simulates single actions, so its figure is per action tried. A move's cost is the self-play time per
decision of the bot.

scaling and blind-spot: seeds first_seed .. first_seed + N - 1, each played twice with the sides swapped
(`benchmarks/strength.py`'s way; draws count half), the row bot's win rate with its Wilson 95% interval.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.strength import interval, measure  # noqa: E402
from bots.beam.policy import I_TRIED  # noqa: E402
from bots.contract.names import parse_bot  # noqa: E402
from bots.contract.seat import new_seat_array  # noqa: E402
from bots.mcts.tree import I_TURNS as MCTS_TURNS  # noqa: E402
from bots.running.arena import DECISIONS, RESULT_COLUMNS, TURNS, play_pairings, play_results  # noqa: E402
from bots.search.policy import I_TURNS as SEARCH_TURNS  # noqa: E402
from engine.records import new_map_array, new_state_array  # noqa: E402

SIMULATED = {"search": SEARCH_TURNS, "mcts": MCTS_TURNS, "beam": I_TRIED}  # the seat counter of each bot's cost
EXPLOITER = str(Path(__file__).resolve().parent.parent / "tests" / "data" / "search_exploiter.json")


def seats_for(*names: str) -> np.ndarray:
    seats = new_seat_array(len(names))
    for i, name in enumerate(names):
        seats[i] = parse_bot(name, 3).seat[0]
    return seats


def timed(bot: str, opponent: str, games: int) -> tuple[float, np.ndarray]:
    """Process seconds of `games` games (seeds 1..games, the bot as player 0) and their results."""
    seats = seats_for(bot, opponent)
    seeds = np.arange(1, games + 1, dtype=np.int64)
    results = np.zeros((games, RESULT_COLUMNS), np.int64)
    first, second = np.zeros(games, np.int64), np.ones(games, np.int64)
    start = time.process_time()
    play_pairings(seeds, 3, seats, first, second, new_map_array(), new_state_array(), results)
    return time.process_time() - start, results


def simulated_per_game(bot: str, games: int) -> float:
    """The turns (beam: actions) a bot's self-play simulates per game, both seats, read from its seats' counters."""
    counter = SIMULATED[parse_bot(bot, 3).plugin]
    seats = seats_for(bot, bot)
    total = 0
    for seed in range(1, games + 1):
        play_results(np.array([seed], np.int64), 3, seats, [0], [1])
        total += int(seats[0]["ints"][counter]) + int(seats[1]["ints"][counter])
    return total / games


def speed(bots: list, games: int, runs: int) -> None:
    pairs = [("heuristic", "heuristic", 20 * games)]
    for bot in bots:
        pairs += [(bot, bot, games), (bot, "heuristic", games)]
    for bot, opponent, _ in pairs:  # compile, or load from the cache, before any clock starts
        timed(bot, opponent, 2)
    best: dict = {}
    for _ in range(runs):
        for bot, opponent, n in pairs:
            seconds, results = timed(bot, opponent, n)
            if (bot, opponent) not in best or seconds / n < best[bot, opponent][0]:
                best[bot, opponent] = (seconds / n, results)
    engine_game, results = best["heuristic", "heuristic"]
    engine_turn = engine_game / results[:, TURNS].mean()
    print(f"one core, process time, the best of {runs} interleaved runs; heuristic self-play "
          f"{1 / engine_game:,.0f} games/s, the engine's cost per turn {engine_turn * 1e9:.0f} ns "
          f"({results[:, TURNS].mean():.1f} turns a game)\n")
    print("| bot | self-play games/s | against heuristic games/s | per simulated turn | x engine's turn | per move |")
    print("|---|---|---|---|---|---|")
    for bot in bots:
        per_game, results = best[bot, bot]
        simulated = simulated_per_game(bot, min(games, 50))
        unit = "action" if parse_bot(bot, 3).plugin == "beam" else "turn"
        per_unit = per_game / simulated if simulated else float("nan")
        per_move = per_game / results[:, DECISIONS].mean()
        print(f"| `{bot}` | {1 / per_game:,.0f} | {1 / best[bot, 'heuristic'][0]:,.0f} | "
              f"{per_unit * 1e9:.0f} ns per {unit} ({simulated:,.0f} a game) | {per_unit / engine_turn:.2f} | "
              f"{per_move * 1e6:.1f} us |")


def cell(bot: str, opponent: str, seeds) -> str:
    r = measure(bot, opponent, 3, seeds)
    low, high = interval(r)
    return f"{r['win_rate']:.1%} ({low:.1%}-{high:.1%}), {r['games'] / r['seconds']:,.0f} games/s"


def scaling(base: int, opponents: list, seeds) -> None:
    print(f"mcts at N, 2N, 4N, 8N iterations a move (N = {base}), seeds {seeds[0]}..{seeds[-1]}, each twice with "
          f"sides swapped ({2 * len(seeds)} games a cell); the row's win rate (95% interval), games/s on one core\n")
    print("| bot | " + " | ".join(f"against `{o}`" for o in opponents) + " |")
    print("|---|" + "---|" * len(opponents))
    for k in (1, 2, 4, 8):
        bot = f"mcts:{base * k}"
        print(f"| `{bot}` | " + " | ".join(cell(bot, o, seeds) for o in opponents) + " |")


def blind_spot(seeds) -> None:
    print(f"the heuristic tuned against the search of old (tests/data/search_exploiter.json) and the default "
          f"heuristic, against the search and the search of old (`search:opponent=heuristic`), seeds "
          f"{seeds[0]}..{seeds[-1]}, each twice with sides swapped\n")
    searches = ["search", "search:opponent=heuristic"]
    print("| bot | " + " | ".join(f"against `{s}`" for s in searches) + " |")
    print("|---|" + "---|" * len(searches))
    for bot, label in ((f"heuristic:{EXPLOITER}", "the exploiter"), ("heuristic", "`heuristic`")):
        print(f"| {label} | " + " | ".join(cell(bot, s, seeds) for s in searches) + " |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "scaling", "blind-spot"])
    parser.add_argument("--bots", nargs="+", default=["search", "mcts", "beam"], help="speed: the bots measured")
    parser.add_argument("--games", type=int, default=300, help="speed: games per run (heuristic: 20 times more)")
    parser.add_argument("--runs", type=int, default=3, help="speed: interleaved runs, the best kept")
    parser.add_argument("--base", type=int, default=2, help="scaling: N, mcts's iterations a move (default 2)")
    parser.add_argument("--opponents", nargs="+", default=["heuristic", "search"], help="scaling: the columns")
    parser.add_argument("--seeds", type=int, default=500, help="number of seeds, each played twice (default 500)")
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    seeds = np.arange(args.first_seed, args.first_seed + args.seeds, dtype=np.int64)
    if args.what == "speed":
        speed(args.bots, args.games, args.runs)
    elif args.what == "scaling":
        scaling(args.base, args.opponents, seeds)
    else:
        blind_spot(seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
