#!/usr/bin/env python3
"""How long the exported single-file bots take per turn, against CodinGame's 100 ms (1,000 ms on the first turn),
and what a C++ search bot does with its time.

    python benchmarks/export_turn_time.py [--bots heuristic sunrate rush seeder greedy] [--games 20] [--seed 5]
    python benchmarks/export_turn_time.py --lang cpp --bots mcts beam search --time-ms 90 [--games 20]

Each bot is exported (Bronze+) in Python (run by this interpreter) or in C++ (compiled as CodinGame compiles it,
`g++ -std=c++17` without an -O flag, the file carrying its own pragmas: the compile time is printed), then plays
--games games as a program against the in-engine `--opponent` (default heuristic), sides swapped every game. Every
answer is timed from the moment its input is written to the moment its line is read (pipes included), with no time
limit. Prints per bot: turns, median, 99th percentile and slowest turn in ms, the first turn (which includes the
program's start) separately, and how many answers took longer than CodinGame allows (1,000 ms first, 100 ms after;
the benchmark enforces no limit). `--time-ms T` gives the search bots a wall-clock budget of T ms a move (10 T on
the first turn) instead of their fixed budget; the counters a C++ search bot reports after each move (`mcts`:
iterations and the tree's nodes; the other bots report none) are summed up per bot: median, 99th percentile and largest,
over the moves where it searched, and on the first turn. Run it on an otherwise idle machine: the times are the
machine's.
"""
from __future__ import annotations

import argparse
import collections
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.contract.names import parse_bot  # noqa: E402
from bots.contract.searches import asks_within_budget  # noqa: E402
from bots.running.player import player_for  # noqa: E402
from engine.players import ProgramPlayer, TimeLimits  # noqa: E402
from engine.referee import play_refereed_game  # noqa: E402
from export.cpp.build import WARNINGS, codingame_build  # noqa: E402
from export.exportable import exportable_for  # noqa: E402
from export.standalone import export_bot  # noqa: E402

LEAGUE = 3


class TimedProgram(ProgramPlayer):
    """A program whose answers are timed and whose every stderr line is kept."""

    def __init__(self, name: str, command: str, first: list, later: list):
        super().__init__(name, command)
        self.first, self.later = first, later
        self.stderr_tail = collections.deque()

    def answer(self, lines, limit_s):
        first = not self.started
        start = time.perf_counter()
        line = super().answer(lines, limit_s)
        (self.first if first else self.later).append((time.perf_counter() - start) * 1000.0)
        return line


CODINGAME_FIRST_MS, CODINGAME_TURN_MS = 1000.0, 100.0  # the limits an answer is counted over (none is enforced here)
NO_WARNING = (*WARNINGS, "-Werror")  # added to CodinGame's build line
BUILD = codingame_build("BOT.cpp", "BOT", *NO_WARNING)  # the line printed with the figures


def build_export(source: Path, binary: Path) -> None:
    subprocess.run(codingame_build(str(source), str(binary), *NO_WARNING), check=True)


def exported_command(bot: str, lang: str, time_ms: Optional[int], folder: Path) -> tuple[str, Optional[float]]:
    """The command that runs the exported bot, and the C++ compile's wall time in s (None for Python)."""
    name = parse_bot(bot, LEAGUE)
    if lang == "python":
        path = folder / f"{bot}.py"
        export_bot(name, LEAGUE, path, [f"benchmark export of {bot}"])
        return f"{sys.executable} {path}", None
    searches = asks_within_budget(exportable_for(name, lang).policy)
    stem = bot.replace(":", "_").replace("=", "_").replace(",", "_")
    path = folder / f"{stem}.cpp"
    export_bot(name, LEAGUE, path, [f"benchmark export of {bot}"], lang, time_ms if searches else None)
    start = time.perf_counter()
    build_export(path, folder / stem)
    return str(folder / stem), time.perf_counter() - start


def counters(lines) -> list[dict]:
    """The counters of each move from a C++ bot's stderr lines `BOT: label value label value ...`."""
    moves = []
    for line in lines:
        _, found, rest = line.partition(": ")
        words = rest.split()
        if found and len(words) % 2 == 0 and all(w.lstrip("-").isdigit() for w in words[1::2]):
            moves.append({label: int(value) for label, value in zip(words[::2], words[1::2])})
    return moves


def percentile(values: list, share: float):
    values = sorted(values)
    return values[int(share * (len(values) - 1))]


def measure(bot: str, games: int, seed: int, folder: Path, lang: str = "python", time_ms: Optional[int] = None,
            opponent: str = "heuristic") -> dict:
    command, compile_s = exported_command(bot, lang, time_ms, folder)
    first: list = []
    later: list = []
    first_moves: list = []
    moves: list = []
    limits = TimeLimits(first_ms=60_000.0, turn_ms=60_000.0)
    for g in range(games):
        me = TimedProgram(bot, command, first, later)
        other = player_for(parse_bot(opponent, LEAGUE))
        report = play_refereed_game(seed + g // 2, LEAGUE, [me, other] if g % 2 == 0 else [other, me], limits,
                                    records=False)
        if report.outcome.deactivated:
            raise SystemExit(f"{bot}: deactivated in game {g}: {report.outcome.deactivated}")
        game = counters(me.stderr_tail)
        first_moves += game[:1]
        moves += game[1:]
    later.sort()
    over = sum(1 for ms in later if ms > CODINGAME_TURN_MS) + sum(1 for ms in first if ms > CODINGAME_FIRST_MS)
    work = {}
    for label in (moves[0] if moves else {}):
        searched = [m[label] for m in moves if m.get(list(m)[0], 0) > 0]  # the moves where it worked
        if searched:
            work[label] = (statistics.median(searched), percentile(searched, 0.99), max(searched),
                           statistics.median(m[label] for m in first_moves))
    return {"bot": bot, "turns": len(later), "median_ms": statistics.median(later), "over_limit": over,
            "p99_ms": percentile(later, 0.99), "max_ms": later[-1], "first_max_ms": max(first),
            "compile_s": compile_s, "work": work}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs="+", default=["heuristic", "sunrate", "rush", "seeder", "greedy"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--opponent", default="heuristic", help="the in-engine bot they play (default heuristic)")
    parser.add_argument("--lang", choices=("python", "cpp"), default="python")
    parser.add_argument("--time-ms", type=int, help="with --lang cpp: the search bots' budget per move in ms")
    args = parser.parse_args()
    if args.lang == "python":
        print(f"Python {sys.version.split()[0]}; {args.games} games per bot against in-engine {args.opponent}, "
              f"Bronze+")
    else:
        version = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        print(f"{version}, {' '.join(BUILD)}; search bots: "
              f"{f'{args.time_ms} ms a move' if args.time_ms else 'their fixed budget'}; {args.games} games per bot "
              f"against in-engine {args.opponent}, Bronze+")
    print(f"{'bot':<10} {'turns':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'first turn ms':>14} "
          f"{'compile s':>10} {'over limit':>10}")
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for bot in args.bots:
            r = measure(bot, args.games, args.seed, Path(folder), args.lang, args.time_ms, args.opponent)
            results.append(r)
            compiled = f"{r['compile_s']:>10.1f}" if r["compile_s"] is not None else f"{'-':>10}"
            print(f"{r['bot']:<10} {r['turns']:>6} {r['median_ms']:>10.2f} {r['p99_ms']:>8.2f} {r['max_ms']:>8.2f} "
                  f"{r['first_max_ms']:>14.1f} {compiled} {r['over_limit']:>10}")
    reported = [r for r in results if r["work"]]
    if reported:
        print("\nwhat each search bot did a move (median, 99th percentile, largest over its searching moves; "
              "median of its first turn):")
        for r in reported:
            for label, (median, p99, most, first) in r["work"].items():
                print(f"  {r['bot']:<8} {label:<11} {median:>12,.0f} {p99:>12,.0f} {most:>12,} {first:>14,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
