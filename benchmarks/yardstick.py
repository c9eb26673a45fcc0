#!/usr/bin/env python3
"""Side-by-side speed against the C++ yardstick of `../shared/bench` (its README §2).

Builds the yardstick with g++ (into benchmarks/.build), then runs it and `tuner bench` one after the
other, interleaved (yardstick, ours, yardstick, ours, ...), and prints the median games/s of each, the
ratio (ours / yardstick, one core each), and separately the scaling of `--jobs 2` over one job.
Each side's checksum must equal the yardstick README's for its N, or the run does not count.

    python benchmarks/yardstick.py [--bench-dir ../shared/bench] [--runs 3] [--games 300000] [--ys-games 300000]
"""
from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = {  # shared/bench/README.md §7
    1000: "16200177822221118652", 10000: "4337446247251085928", 100000: "17108518302265787352",
    300000: "11481929905474676003", 1000000: "2075877841124685924",
}


def build(bench_dir: Path) -> Path:
    source = bench_dir / "yardstick.cpp"
    if not source.exists():
        sys.exit(f"no yardstick source at {source} (give --bench-dir)")
    if shutil.which("g++") is None:
        sys.exit("g++ is not installed: the yardstick cannot be built")
    out = ROOT / "benchmarks" / ".build" / "yardstick"
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["g++", "-std=c++17", "-O3", "-march=native", "-o", str(out), str(source)], check=True)
    return out


def run_json(command: list) -> dict:
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def check(report: dict, who: str) -> None:
    expected = EXPECTED.get(report["games"])
    if expected is not None and report["checksum"] != expected:
        sys.exit(f"{who}: checksum {report['checksum']} != expected {expected} for N={report['games']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench-dir", type=Path, default=ROOT.parent / "shared" / "bench")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=300_000, help="N for `tuner bench`")
    parser.add_argument("--ys-games", type=int, default=300_000, help="N for the yardstick")
    parser.add_argument("--bot", default="greedy", help="bot for `tuner bench` (greedy = the same workload)")
    args = parser.parse_args()

    yardstick = build(args.bench_dir)
    tuner = [sys.executable, "-m", "tuner.cli", "bench", "--bot", args.bot, "--json"]
    subprocess.run(tuner + ["--games", "1000"], check=True, capture_output=True)  # compile or load the cache
    ours, theirs, ours2 = [], [], []
    for _ in range(args.runs):
        ys = run_json([str(yardstick), str(args.ys_games)])
        check(ys, "yardstick")
        theirs.append(ys["games_per_sec"])
        mine = run_json(tuner + ["--games", str(args.games)])
        if args.bot == "greedy":
            check(mine, "tuner bench")
        ours.append(mine["games_per_sec"])
    for _ in range(args.runs):
        ours2.append(run_json(tuner + ["--games", str(args.games), "--jobs", "2"])["games_per_sec"])
    ys_median, ours_median, ours2_median = (statistics.median(x) for x in (theirs, ours, ours2))
    print(json.dumps({
        "machine": platform.processor() or platform.machine(), "python": platform.python_version(),
        "g++": subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
        "bot": args.bot, "games": args.games, "ys_games": args.ys_games,
        "yardstick_runs": theirs, "ours_runs": ours, "ours_2jobs_runs": ours2,
        "yardstick_median": ys_median, "ours_median": ours_median, "ratio": round(ours_median / ys_median, 3),
        "jobs2_median": ours2_median, "jobs2_scaling": round(ours2_median / ours_median, 3),
    }, indent=2))


if __name__ == "__main__":
    main()
