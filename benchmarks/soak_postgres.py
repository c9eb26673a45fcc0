"""A long soak: several workers on one study on a real PostgreSQL server, with the server restarted, its
connections terminated and workers SIGKILLed (and started again) at random moments; what the faults cost.

    python benchmarks/soak_postgres.py                                 3 workers, 10 minutes, a fault a minute
    python benchmarks/soak_postgres.py --workers 3 --duration 1800 --every 60     the half hour of docs/workers.md
    python benchmarks/soak_postgres.py --duration 60 --every 10 --finals-pairs 20   a quick look (~3 minutes)

A private server (tests/tuner/storage: `initdb` into a temporary folder, a free port; PostgreSQL's
binaries must be installed, and as root it runs as the `postgres` user); the shared test server is never touched.
The study is --study's (default studies/heuristic.toml: its pool, its race, its finals) with its storage, trial
count and time budget replaced, and --grace's heartbeats (a killed worker's trials are run again after it).

Two runs, one after the other, with --workers workers each:

1. without faults: the study tunes for --duration seconds (its `timeout`), then plays its finals; its finished
   trials F and its wall time are the yardstick;
2. with faults: a copy of the study (another name) tunes exactly F trials and plays its finals, while a fault comes
   every --every seconds on average (uniform in [0.5, 1.5] x --every) until its workers end: the server restarted
   (down 0.2 to 2 s), every client connection terminated (pg_terminate_backend), or a worker SIGKILLed and a new
   one started, in turn (shuffled each round).

Printed: the faults injected, the trials retried (failed and run again: by their worker's lost heartbeat after a
SIGKILL, or given back after the study lock was lost in an outage), the work lost (the games those trials had
played, played again by their retries), the wall-time overhead of the second run over the first, and the checks
of the test suite (tests/tuner/storage: exactly F trials finished, each number once, nothing left RUNNING, no two
finished trials alike, every worker not killed at exit 0, no traceback, outage lines in pairs). The chosen bots
of the two runs are printed side by side: with several workers they differ even without faults (which worker asks
which trial, and so which sample, depends on timing), so a difference says nothing about the faults.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tuner.storage.postgres_server import PrivateServer, missing  # noqa: E402
from tests.tuner.storage.soak import (  # noqa: E402
    FINISHED,
    Worker,
    check_study,
    check_workers,
    provenance,
    replayed,
    soak,
    study_of,
    trials_of,
)

REPLACED = ("name", "trials", "timeout", "storage", "heartbeat_interval", "grace_period", "finals_pairs",
            "validation_pairs")  # the last: finals_pairs's old name


def soak_study(source: Path, folder: Path, name: str, url: str, grace: int, trials: int | None = None,
               timeout: float | None = None, finals_pairs: int | None = None) -> Path:
    """A copy of `source` in `folder` named `name` on the server `url`: its trial count or time budget, its
    heartbeats (and the finals' seed pairs) replaced."""
    kept = [line for line in source.read_text(encoding="utf-8").splitlines()
            if not re.match(rf"^({'|'.join(REPLACED)})\s*=", line)]
    fields = {"name": f'"{name}"', "storage": f'"{url}"', "heartbeat_interval": str(max(1, grace // 6)),
              "grace_period": str(grace)}
    if trials is not None:
        fields["trials"] = str(trials)
    if timeout is not None:
        fields["timeout"] = f"{timeout:g}"
    if finals_pairs is not None:
        fields["finals_pairs"] = str(finals_pairs)
    path = folder / f"{name}.toml"
    path.write_text("\n".join([f"{key} = {value}" for key, value in fields.items()] + kept) + "\n",
                    encoding="utf-8")
    return path


def games_per_pair(path: Path) -> float:
    """Games a trial plays per seed pair: each pool entry (a hall of fame of K counts K) twice, on its share."""
    from tuner.studyfile.file import read_study_file

    config = read_study_file(path)
    total = 0.0
    for entry in config.opponents:
        copies = int(entry.split(":", 1)[1]) if entry.startswith("hall-of-fame:") else 1
        total += copies * config.opponent_shares.get(entry, 1.0)
    return 2 * total


def chosen(workers: list) -> str:
    for worker in workers:
        found = re.search(r"^chosen for export: (trial \d+|[^,]+)", "\n".join(worker.out), re.M)
        if found:
            return found.group(1)
    return "none"


def why_failed(trial) -> str:
    for reason in ("lock_lost", "interrupted", "error"):
        if trial.user_attrs.get(reason):
            return {"lock_lost": "lock lost in an outage", "interrupted": "stopped", "error": "error"}[reason]
    return "heartbeat lost (worker killed)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=3, help="workers of each run (default 3)")
    parser.add_argument("--duration", type=float, default=600, help="seconds the run without faults tunes (default "
                        "600); the run with faults tunes as many trials")
    parser.add_argument("--every", type=float, default=60, help="seconds between faults on average (default 60)")
    parser.add_argument("--study", type=Path, default=ROOT / "studies" / "heuristic.toml", help="the study file")
    parser.add_argument("--grace", type=int, default=30, help="the studies' grace_period in seconds (default 30; "
                        "heartbeats every sixth of it)")
    parser.add_argument("--finals-pairs", type=int, help="the finals' seed pairs (default: the study's)")
    parser.add_argument("--seed", type=int, default=49, help="seeds the faults' moments and kinds")
    args = parser.parse_args()
    reason = missing()
    if reason is not None:
        raise SystemExit(f"soak_postgres: {reason}")
    server = PrivateServer()
    print(f"private PostgreSQL server at {server.url} ({server.root})")
    try:
        with tempfile.TemporaryDirectory(prefix="soak-postgres-") as folder:
            return run(args, server, Path(folder))
    finally:
        server.close()


def run(args, server: PrivateServer, folder: Path) -> int:
    calm = soak_study(args.study, folder, "calm", server.url, args.grace, timeout=args.duration,
                      finals_pairs=args.finals_pairs)
    print(f"run 1, no faults: {args.workers} workers tune for {args.duration:g} s, then play the finals")
    start = time.monotonic()
    workers = [Worker(calm) for _ in range(args.workers)]
    for worker in workers:
        worker.wait(args.duration * 3 + 3600)
    calm_seconds = time.monotonic() - start
    check_workers(workers)
    calm_trials = trials_of(server.url, "calm")
    target = sum(t.state in FINISHED for t in calm_trials)
    calm_chosen = chosen(workers)
    print(f"  {target} trials finished, {calm_seconds:.0f} s; chosen: {calm_chosen}")

    stormy = soak_study(args.study, folder, "stormy", server.url, args.grace, trials=target,
                        finals_pairs=args.finals_pairs)
    print(f"run 2, faults every {args.every:g} s on average: {args.workers} workers tune {target} trials, then "
          f"play the finals")
    result = soak(server, stormy, args.workers, duration=float("inf"), every=args.every, seed=args.seed,
                  log=lambda line: print("  " + line), timeout=args.duration * 6 + 7200)
    trials = trials_of(server.url, "stormy")
    problems = []
    for check in (lambda: check_workers(result.workers, sum(result.faults.values())),
                  lambda: check_study(trials, target)):
        try:
            check()
        except AssertionError as error:
            problems.append(str(error).splitlines()[0][:1000])
    failed, games = replayed(trials, games_per_pair(stormy) / 2)
    reasons = Counter(why_failed(t) for t in trials if t.state.name == "FAIL")
    finished_games = games_per_pair(stormy) * sum(t.user_attrs.get("result", {}).get("pairs_played", 0)
                                                  for t in trials if t.state in FINISHED)
    outages = sum(w.said("database unreachable (") for w in result.workers)
    study = study_of(server.url, "stormy")
    print()
    print(f"faults injected: {sum(result.faults.values())} ({', '.join(f'{n} {k}' for k, n in result.faults.items())}) "
          f"in {result.seconds:.0f} s; {len(result.workers)} workers started, "
          f"{sum(w.killed for w in result.workers)} killed; {outages} outage(s) seen by workers")
    print(f"trials retried: {failed} of {len(trials)} ({', '.join(f'{n} {k}' for k, n in reasons.items()) or '-'})")
    print(f"work lost: {games:,.0f} games replayed, {games / max(1.0, finished_games + games):.1%} of the search's "
          f"games (at least: a trial's games after its last report are not counted)")
    print(f"wall time: {result.seconds:.0f} s with faults, {calm_seconds:.0f} s without: overhead "
          f"{result.seconds - calm_seconds:+.0f} s ({result.seconds / calm_seconds - 1:+.1%})")
    print(f"chosen: {chosen(result.workers)} with faults, {calm_chosen} without "
          f"(recorded: {study.user_attrs.get('chosen', {}).get('label', 'none') if study else 'none'})")
    print("checks: " + ("passed" if not problems else "FAILED: " + " | ".join(problems)))
    if problems:
        print(f"the run with faults, kept to look into: {keep_evidence(result.workers, trials)}")
    return 0 if not problems else 1


def keep_evidence(workers: list, trials: list) -> Path:
    """Every worker's output and every trial's provenance, in a folder that outlives the run."""
    folder = Path(tempfile.mkdtemp(prefix="soak-failure-"))
    for i, worker in enumerate(workers):
        (folder / f"worker-{i}.log").write_text(worker.log(), encoding="utf-8")
    (folder / "trials.txt").write_text("".join(f"{provenance(t)} {dict(sorted(t.params.items()))}\n" for t in trials),
                                       encoding="utf-8")
    return folder


if __name__ == "__main__":
    sys.exit(main())
