#!/usr/bin/env python3
"""Games of C++ programs at a few ms a move: games/s, and where the wall time goes.

Builds bots/examples/mysearch.cpp as CodinGame builds it (`tuner.programs.program_build`: g++ -std=c++17, no -O flag,
cached) and plays it against itself (two programs a game, different seeds) at each time per move, through the
tuner's own path for a study's games (`tuner.play.runner.GameRunner` on `--jobs` processes, one per core by
default), each program judged by the limits of its budget as a study judges it (`tuner.studyfile.program_budget`:
CodinGame's 1000 / 100 ms at 90 ms a move, scaled below it, plus a margin). For each budget it prints:

- games/s, and the ceiling the budget allows: jobs / (answers a game x time per move);
- where the processes' wall time went (jobs x the wall time): the programs' answers (the referee waiting for a
  line, from writing a turn's input to reading the answer: the programs thinking, and the pipes' round trip), the
  rest inside the processes (starting and stopping the programs, the referee's own work), and the pool (handing
  out the games, and the processes that wait for the last one);
- the share of the wall time outside the programs' answers: the goal is under 20% at 5 ms a move.

Before the timed games, every process plays a game (the workers start and load the engine).

    python benchmarks/program_speed.py [--jobs 2] [--budgets 1,5,10,90] [--games 40,20,12,2] [--json]

A busy machine lengthens the answers (a program waits for a core) and disqualifies programs that miss their limits:
run it on an otherwise idle machine for figures to publish.
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

from bots.contract.names import Bot  # noqa: E402
from engine.players import TimeLimits  # noqa: E402
from tuner.play.runner import GameRunner, RefereeTime  # noqa: E402
from tuner.programs.program_build import build_cpp  # noqa: E402
from tuner.studyfile.program_budget import ProgramBudget  # noqa: E402

SOURCE = ROOT / "bots" / "examples" / "mysearch.cpp"
LEAGUE = 3
PLAYING = ProgramBudget(90.0, TimeLimits(1000.0, 100.0), 10.0)  # a study's defaults (`budget_margin` 10 ms)
SEED = 4242


def numbers(text: str, cast) -> list:
    return [cast(part) for part in text.split(",") if part.strip()]


def measure(runner: GameRunner, binary: Path, time_ms: float, games: int) -> dict:
    """`games` games (even) of the program against itself at `time_ms` a move, and where their time went."""
    limits = PLAYING.limits_at(time_ms)
    a = Bot(f"mysearch@{time_ms:g}", command=f"{binary} --time-ms {time_ms:g} --seed 1", limits=limits)
    b = Bot(f"mysearch@{time_ms:g}'", command=f"{binary} --time-ms {time_ms:g} --seed 2", limits=limits)
    before = RefereeTime()
    before.add(runner.referee_time)
    pairs = np.arange(SEED, SEED + games // 2, dtype=np.int64)
    start = time.perf_counter()
    played = runner.play(a, [b], pairs)
    wall = time.perf_counter() - start
    spent = runner.referee_time
    inside = spent.wall_s - before.wall_s
    answering = spent.thinking_s - before.thinking_s
    answers = spent.answers - before.answers
    available = wall * runner.jobs
    ceiling = runner.jobs / (answers / games * time_ms / 1000.0)
    return {
        "time_ms": time_ms, "limits_ms": [limits.first_ms, limits.turn_ms], "games": games, "wall_s": round(wall, 3),
        "games_per_s": round(games / wall, 3), "ceiling_games_per_s": round(ceiling, 3),
        "answers_per_game": round(answers / games, 1),
        "mean_answer_ms": round(1000.0 * answering / answers, 3) if answers else None,
        "shares": {"answers": round(answering / available, 4),
                   "processes_outside_answers": round((inside - answering) / available, 4),
                   "pool": round(max(0.0, available - inside) / available, 4)},
        "outside_answers": round(1.0 - answering / available, 4),
        "disqualified": len(played.disqualifications),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                        help="processes, one game each (default: the usable cores)")
    parser.add_argument("--budgets", default="1,5,10,90", help="times per move, ms")
    parser.add_argument("--games", default="40,20,12,2", help="games at each budget (even numbers)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    budgets, counts = numbers(args.budgets, float), numbers(args.games, int)
    if len(budgets) != len(counts) or any(n < 2 or n % 2 for n in counts):
        parser.error("give as many game counts as budgets, each even and >= 2")
    build = build_cpp(SOURCE)
    runner = GameRunner(LEAGUE, args.jobs)
    try:
        measure(runner, build.binary, 1.0, 2 * args.jobs)  # every process started, its engine loaded
        rows = [measure(runner, build.binary, t, n) for t, n in zip(budgets, counts)]
    finally:
        runner.close()
    if args.json:
        print(json.dumps({"build": build.command, "jobs": args.jobs, "cores": os.cpu_count(),
                          "load_average": os.getloadavg(), "rows": rows}))
        return 0
    print(f"{SOURCE.name} against itself, built with `{build.command}`, {args.jobs} processes on "
          f"{os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f} before: an idle machine is near 0)")
    print("  ms/move  limits (first/turn)  games  games/s  ceiling  answers/game  mean answer  "
          "answers  processes  pool  outside answers  disqualified")
    for r in rows:
        s = r["shares"]
        print(f"  {r['time_ms']:7g}  {r['limits_ms'][0]:8g} / {r['limits_ms'][1]:<8g}  {r['games']:5d}  "
              f"{r['games_per_s']:7.2f}  {r['ceiling_games_per_s']:7.2f}  {r['answers_per_game']:12.1f}  "
              f"{r['mean_answer_ms']:8.2f} ms  {s['answers']:7.1%}  {s['processes_outside_answers']:9.1%}  "
              f"{s['pool']:4.1%}  {r['outside_answers']:15.1%}  {r['disqualified']:12d}")
    print("  (answers: the referee waiting for the programs' lines; processes: starting and stopping programs, the "
          "referee; pool: handing out games, waiting for the last one. Goal: outside answers < 20% at 5 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
