#!/usr/bin/env python3
"""How long the exported single-file bots take per turn under CPython, against CodinGame's 100 ms.

    python benchmarks/export_turn_time.py [--bots heuristic sunrate rush seeder greedy] [--games 20] [--seed 5]

Each bot is exported (Bronze+), then plays --games games as a program against the in-engine `heuristic`, sides
swapped every game. Every answer is timed from the moment its input is written to the moment its line is read
(pipes included), with no time limit. Prints per bot: turns, median, 99th percentile and slowest turn in ms, and
the first turn (which includes the interpreter's start) separately.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.export import export_bot  # noqa: E402
from bots.names import parse_bot  # noqa: E402
from bots.player import player_for  # noqa: E402
from engine.players import ProgramPlayer, TimeLimits  # noqa: E402
from engine.referee import play_game  # noqa: E402

LEAGUE = 3


class TimedProgram(ProgramPlayer):
    """A program whose answers are timed."""

    def __init__(self, name: str, command: str, first: list, later: list):
        super().__init__(name, command)
        self.first, self.later = first, later

    def answer(self, lines, limit_s):
        first = not self.started
        start = time.perf_counter()
        line = super().answer(lines, limit_s)
        (self.first if first else self.later).append((time.perf_counter() - start) * 1000.0)
        return line


def measure(bot: str, games: int, seed: int, folder: Path) -> dict:
    path = folder / f"{bot}.py"
    export_bot(parse_bot(bot, LEAGUE), LEAGUE, path, [f"benchmark export of {bot}"])
    first: list = []
    later: list = []
    limits = TimeLimits(first_ms=60_000.0, turn_ms=60_000.0)
    for g in range(games):
        me = TimedProgram(bot, f"{sys.executable} {path}", first, later)
        other = player_for(parse_bot("heuristic", LEAGUE))
        report = play_game(seed + g // 2, LEAGUE, [me, other] if g % 2 == 0 else [other, me], limits,
                           records=False)
        if report.outcome.deactivated:
            raise SystemExit(f"{bot}: deactivated in game {g}: {report.outcome.deactivated}")
    later.sort()
    return {"bot": bot, "turns": len(later), "median_ms": statistics.median(later),
            "p99_ms": later[int(0.99 * (len(later) - 1))], "max_ms": later[-1], "first_max_ms": max(first)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs="+", default=["heuristic", "sunrate", "rush", "seeder", "greedy"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; {args.games} games per bot against in-engine heuristic, Bronze+")
    print(f"{'bot':<10} {'turns':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'first turn ms':>14}")
    with tempfile.TemporaryDirectory() as folder:
        for bot in args.bots:
            r = measure(bot, args.games, args.seed, Path(folder))
            print(f"{r['bot']:<10} {r['turns']:>6} {r['median_ms']:>10.2f} {r['p99_ms']:>8.2f} {r['max_ms']:>8.2f} "
                  f"{r['first_max_ms']:>14.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
