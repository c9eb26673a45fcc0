"""How much of the engine's speed a tuning study uses: the quickstart's games per second against the engine's
on the study's own games, run one after the other with the same --jobs (the machine is shared: compare side by side).

    python benchmarks/study_speed.py [--jobs 1 2] [--timeout 120] [--rounds 1] [--study studies/quickstart.toml]

For each --jobs value: a fresh copy of the study runs for --timeout seconds (its own time budget replaced), then
the engine plays the study's own mix of games with the same --jobs (threads): the tuned bot (its defaults)
against every opponent of the pool (a `hall-of-fame:K` entry counts as K more copies of the tuned bot), each on
its share of the pairs (`opponent_shares`), with no study around it. A pool with slow opponents (`search:N`)
is slower than heuristic self-play, so the study's share is taken against that mix; heuristic self-play (`tuner
bench --bot heuristic`) is printed beside it. Prints the figures, the ratios, the study's trials, the share of
its threads' time spent in games and its storage bytes per trial, and the ratio of games/s between the --jobs
values, beside the engine's, heuristic self-play's and the machine's own (as many independent processes of pure
Python at once: a shared VM's second core may give far less than 2x). `--rounds N` repeats the sweep N times,
alternating, and prints the medians (of the ratios within each round): a shared machine's second core comes
and goes.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def tuner(*args: str, cwd=ROOT) -> str:
    result = subprocess.run([sys.executable, "-m", "tuner.cli", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"tuner {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def study_run(study: Path, jobs: int, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="study-speed-") as folder:
        copy = Path(folder) / study.name
        text = study.read_text()
        text = re.sub(r"^(finals|validation)_pairs\s*=.*$", "finals_pairs = 0", text, flags=re.M)
        copy.write_text(text)
        for sibling in study.parent.glob("*.json"):  # parameter files a pool may name
            shutil.copy(sibling, Path(folder) / sibling.name)
        out = tuner("tune", str(copy), "--no-progress", "--timeout", str(timeout), "--jobs", str(jobs))
        done = re.search(r"^done: (\d+) trials \((\d+) pruned\) in (\d+)s, ([\d,]+) games \(([\d,]+) games/s; "
                         r"games on (\d+)% of the threads' time\)", out, re.M)
        storage = sum(p.stat().st_size for p in Path(folder).iterdir()
                      if p.is_file() and p.name.startswith(study.stem) and p.suffix not in (".toml", ".tuner-lock"))
        trials = int(done.group(1))
        return {"trials": trials, "pruned": int(done.group(2)), "seconds": int(done.group(3)),
                "games": int(done.group(4).replace(",", "")), "games_per_s": int(done.group(5).replace(",", "")),
                "busy": int(done.group(6)) / 100, "storage_bytes": storage,
                "bytes_per_trial": round(storage / max(1, trials))}


def pool_run(study: Path, jobs: int, pairs: int) -> dict:
    """The engine's games/s on the study's mix of games, played directly by the tuner's game runner."""
    from tuner.play.runner import GameRunner
    from tuner.results.botnames import study_bot
    from tuner.search.race import met_table
    from tuner.studyfile.file import HALL_OF_FAME, read_study_file

    config = read_study_file(study)
    tuned = study_bot(config, config.bot)
    opponents, shares = [], []
    for name in config.opponents:
        if name.startswith(HALL_OF_FAME + ":"):
            opponents += [tuned] * int(name.split(":")[1])
            shares += [config.opponent_shares.get(name, 1.0)] * int(name.split(":")[1])
        else:
            opponents.append(study_bot(config, name))
            shares.append(config.opponent_shares.get(name, 1.0))
    # As the race meets them: an opponent with a share below 1 on that share of the pairs.
    position_of, opponent_of = np.nonzero(met_table(pairs, shares))
    runner = GameRunner(config.league, jobs)
    try:
        runner.warm_up()
        start = time.perf_counter()
        runner.play_units([tuned], opponents, np.zeros(len(position_of), np.int64), opponent_of, position_of + 1)
        seconds = time.perf_counter() - start
    finally:
        runner.close()
    games = 2 * len(position_of)
    return {"games": games, "seconds": seconds, "games_per_s": games / seconds}


def machine_run(jobs: int, loops: int = 30_000_000) -> float:
    """The machine's own work per second with `jobs` independent processes of pure Python at once (no engine, no
    study, nothing shared): what a second core gives at best here (a shared VM's may give much less than 2x)."""
    start = time.perf_counter()
    processes = [subprocess.Popen([sys.executable, "-c", f"sum(range({loops}))"]) for _ in range(jobs)]
    for process in processes:
        process.wait()
    return jobs * loops / (time.perf_counter() - start)


def bench_run(jobs: int, games: int) -> dict:
    return json.loads(tuner("bench", "--bot", "heuristic", "--games", str(games), "--jobs", str(jobs), "--json"))


def measure(args, jobs: int) -> dict:
    study = study_run(args.study, jobs, args.timeout)
    pool = pool_run(args.study, jobs, args.pool_pairs)
    bench = bench_run(jobs, args.bench_games)
    row = {"jobs": jobs, "study": study["games_per_s"], "engine": pool["games_per_s"],
           "self_play": bench["games_per_sec"], "machine": machine_run(jobs), "busy": study["busy"]}
    print(f"--jobs {jobs}: study {study['games_per_s']:,} games/s ({study['trials']} trials, {study['pruned']} "
          f"pruned, {study['games']:,} games in {study['seconds']} s, games on {study['busy']:.0%} of the threads' "
          f"time, {study['bytes_per_trial']:,} bytes of storage a trial); the engine on the pool's games "
          f"{pool['games_per_s']:,.0f} games/s "
          f"({pool['games']:,} games); study / engine {row['study'] / row['engine']:.2f}; heuristic self-play "
          f"{bench['games_per_sec']:,.0f} games/s (study / self-play {row['study'] / row['self_play']:.2f})",
          flush=True)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--bench-games", type=int, default=300_000)
    parser.add_argument("--pool-pairs", type=int, default=12000, help="seed pairs per opponent of the pool run")
    parser.add_argument("--study", type=Path, default=ROOT / "studies" / "quickstart.toml")
    parser.add_argument("--rounds", type=int, default=1,
                        help="repeat the --jobs sweep, alternating, and print the medians (a shared machine)")
    args = parser.parse_args()
    rounds = []
    for r in range(args.rounds):
        if args.rounds > 1:
            print(f"round {r + 1} of {args.rounds}", flush=True)
        rounds.append([measure(args, jobs) for jobs in args.jobs])
    if args.rounds > 1:
        print(f"medians of {args.rounds} rounds:")
        for k, jobs in enumerate(args.jobs):
            share = [row[k]["study"] / row[k]["engine"] for row in rounds]
            self_play = [row[k]["study"] / row[k]["self_play"] for row in rounds]
            print(f"--jobs {jobs}: study {np.median([row[k]['study'] for row in rounds]):,.0f} games/s; "
                  f"study / engine {np.median(share):.2f}; study / self-play {np.median(self_play):.2f}; games on "
                  f"{np.median([row[k]['busy'] for row in rounds]):.0%} of the threads' time")
    for k, jobs in enumerate(args.jobs[1:], start=1):
        study = [row[k]["study"] / row[0]["study"] for row in rounds]
        engine = [row[k]["engine"] / row[0]["engine"] for row in rounds]
        self_play = [row[k]["self_play"] / row[0]["self_play"] for row in rounds]
        machine = [row[k]["machine"] / row[0]["machine"] for row in rounds]
        print(f"--jobs {jobs} vs --jobs {args.jobs[0]}: {np.median(study):.2f}x the study's games/s (the engine "
              f"on the same games: {np.median(engine):.2f}x; heuristic self-play: {np.median(self_play):.2f}x; "
              f"the machine itself, independent processes of pure Python: {np.median(machine):.2f}x)"
              f"{' (medians)' if args.rounds > 1 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
