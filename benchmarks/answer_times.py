#!/usr/bin/env python3
"""How long a program's answers take as the referee sees them, with each game on a core of its own and without.

Builds bots/examples/mysearch.cpp as CodinGame builds it (g++ -std=c++17, no -O flag, cached) and plays it against
itself at 90 ms a move, one game at a time (every answer allowed 1000 ms: a late answer is counted, not the end of
the game), each seed twice in a row: once with the game's processes on one core (`engine.cores`, the referee's way),
once left to the scheduler (`TUNER_PIN_GAMES=0`), so the two ways share the machine's moods. An answer's time is the
referee's: from writing the turn's input to reading the answer (the first answer of a game, allowed 1000 ms, is left
out). For each way it prints the answers timed, their median, 99th and 99.9th percentiles, the slowest, and how many
took longer than 95 and than 100 ms (a disqualification on CodinGame).

    python benchmarks/answer_times.py [--games 40] [--time-ms 90] [--json]

The program checks its clock after each rollout (well under a millisecond) and stops 150 us before its budget,
counted from the moment it read the turn's first line: what it cannot see is the time between the referee's
write and its waking. Run it on an otherwise idle machine, nothing else timed meanwhile.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.players import ProgramPlayer, TimeLimits  # noqa: E402
from engine.referee import play_refereed_game  # noqa: E402
from tuner.programs.program_build import build_cpp  # noqa: E402

SOURCE = ROOT / "bots" / "examples" / "mysearch.cpp"
WAYS = {"one core a game": "1", "left to the scheduler": "0"}


class TimedProgram(ProgramPlayer):
    """A program player that keeps the referee's time for each of its answers after the first, in ms."""

    def __init__(self, name: str, command: str, into: list):
        super().__init__(name, command)
        self.into = into

    def answer(self, lines, limit_s):
        asked = time.monotonic()
        try:
            return super().answer(lines, limit_s)
        finally:
            if self.answers > 1:
                self.into.append((time.monotonic() - asked) * 1000.0)


def summary(times: list) -> dict:
    array = np.array(times)
    return {"answers": len(times), "median_ms": float(np.median(array)),
            "p99_ms": float(np.percentile(array, 99)), "p99.9_ms": float(np.percentile(array, 99.9)),
            "slowest_ms": float(array.max()), "over_95_ms": int((array > 95).sum()),
            "over_100_ms": int((array > 100).sum())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games a way (default 40)")
    parser.add_argument("--time-ms", type=float, default=90.0, help="the program's time a move (default 90)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    build = build_cpp(SOURCE)
    times: dict = {way: [] for way in WAYS}
    started = time.time()
    for game in range(args.games):
        for way, pin in WAYS.items():
            os.environ["TUNER_PIN_GAMES"] = pin
            players = [TimedProgram(f"mysearch seed {seed}", f"{build.binary} --time-ms {args.time_ms:g} --seed "
                                    f"{seed}", times[way]) for seed in (1, 2)]
            play_refereed_game(1000 + game, 3, players, TimeLimits(1000, 1000), records=False)
    os.environ.pop("TUNER_PIN_GAMES")
    result = {"build": build.command, "time_ms": args.time_ms, "games_a_way": args.games, "cores": os.cpu_count(),
              "seconds": round(time.time() - started), "ways": {way: summary(t) for way, t in times.items()}}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{SOURCE.name} against itself at {args.time_ms:g} ms a move, built with `{build.command}`, "
          f"{args.games} games each way, seeds 1000 to {999 + args.games}, {result['seconds']} s:")
    print(f"{'':24}{'answers':>8}{'median':>9}{'p99':>9}{'p99.9':>9}{'slowest':>9}{'> 95 ms':>9}{'> 100 ms':>9}")
    for way, s in result["ways"].items():
        print(f"{way:24}{s['answers']:>8}{s['median_ms']:>9.2f}{s['p99_ms']:>9.2f}{s['p99.9_ms']:>9.2f}"
              f"{s['slowest_ms']:>9.2f}{s['over_95_ms']:>9}{s['over_100_ms']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
