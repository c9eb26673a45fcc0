"""A 30,000-trial study and the time of the commands that read it; the quickstart's bytes per trial.

    python benchmarks/large_study.py                 build the study once (cached), then time the commands
    python benchmarks/large_study.py --trials 3000   another size (its own cache)
    python benchmarks/large_study.py --rebuild       build it again
    python benchmarks/large_study.py --quickstart    a real `tuner tune studies/quickstart.toml --trials 200`
                                                     (a copy, its own storage): bytes per trial of its journal,
                                                     compact and as a plain Optuna journal

The study is the quickstart's as it was (STUDY: 31 parameters, CMA-ES with a population of 28, 500 seed pairs
against one opponent, the Wilcoxon race) with its trials written by the tuner's own pieces (the storage,
BatchCmaEsSampler, `open_or_create_study`, TrialRecord), but no games: each generation is asked, raced and told as
tuner/search/generation.py does it (the worker attribute, a heartbeat, a report per block survived, the
record's attributes, a PRUNED trial's estimate at step `pairs`), with outcomes drawn from the shape of a real
quickstart run: the blocks a trial survives (~7% played every pair) and a synthetic win rate. Building 30,000
trials takes ~20-30 minutes on one core (it prints the time of the storage writes per generation as it
goes, the tuner's cost); it is kept in benchmarks/.build/large-N/ with its snapshot cache (snapshots/ there).

Then every command runs as a user runs it (`python -m tuner.cli ...`, a new process) and its wall time is
printed, twice: `snapshot` with the snapshot `tuner tune` leaves at its end, `no snapshot` with an empty
snapshot cache (a journal copied from elsewhere; the command then saves one). The dashboard's times: from its
start to its URL printed (the storage is open), then the four requests its first study page makes (meta,
studies, the study's trials, parameter importances) as a browser would make them.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # as the tuner's command line
    os.environ.setdefault(_variable, "1")
ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "benchmarks" / ".build"
sys.path.insert(0, str(ROOT))

# Blocks of a quickstart race (pairs 500, first block 20) and how far trials got in a real run (2,017 trials):
# the number of blocks a dropped trial played, and the share of trials that played every pair.
STEPS = (20, 30, 45, 67, 100, 150, 225, 337, 500)
DROPPED_AFTER = {1: 1059, 2: 225, 3: 166, 4: 118, 5: 98, 6: 80, 7: 54, 8: 63}
FULLY_PLAYED = 154


def _env(snapshots: Path) -> dict:
    return {**os.environ, "TUNER_SNAPSHOT_DIR": str(snapshots), "OPENBLAS_NUM_THREADS": "1"}


# The study: the quickstart as it was when this benchmark was written (studies/quickstart.toml changes; a build
# is kept and must keep matching its study file): the heuristic bot's 31 parameters, one opponent.
STUDY = """league = 3
seed = 2021
bot = "heuristic"
sampler = "cmaes"
sigma = 0.03
population = 28
pairs = 500
opponents = ["heuristic"]
race = "wilcoxon"
finals_pairs = 500
"""


def study_file(trials: int) -> Path:
    directory = BUILD / f"large-{trials}"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "large.toml"
    path.write_text(f'name = "large"\ntrials = {trials}\n' + STUDY)
    return path


def _fate(rng: random.Random) -> int:
    """Blocks a trial plays: 1-8 (dropped after them) or 9 (every pair)."""
    total = sum(DROPPED_AFTER.values()) + FULLY_PLAYED
    draw = rng.random() * total
    for blocks, count in DROPPED_AFTER.items():
        draw -= count
        if draw < 0:
            return blocks
    return len(STEPS)


def _quality(params: dict, names: list) -> float:
    """A smooth synthetic win rate around 0.5, best away from the defaults."""
    s = sum(math.sin(1.7 * i + 0.1 * float(params[n])) for i, n in enumerate(names))
    return 0.5 + 0.1 * math.tanh(s / 6)


def build(trials: int, snapshots: Path) -> float:
    """Write the study (see the module doc); returns the seconds it took."""
    os.environ["TUNER_SNAPSHOT_DIR"] = str(snapshots)
    import optuna
    from optuna.trial import TrialState

    from bots.contract.paramfile import now_iso
    from tuner.play.stats import tally
    from tuner.results.records import OpponentResult, TrialRecord
    from tuner.search.samplers import build_sampler, population_size
    from tuner.search.tune import _quiet_optuna, open_or_create_study
    from tuner.search.workers import ask_batch
    from tuner.storage import Heartbeat, open_storage, save_snapshot
    from tuner.studyfile.file import read_study_file
    from tuner.studyfile.space import SearchSpace
    from tuner.versions import versions, versions_key

    _quiet_optuna()
    path = study_file(trials)
    for old in path.parent.glob("large.journal*"):
        old.unlink()
    shutil.rmtree(snapshots, ignore_errors=True)
    config = read_study_file(path)
    space = SearchSpace.for_config(config)
    storage = open_storage(config.storage, heartbeat=Heartbeat(config.heartbeat_interval, config.grace_period))
    study = open_or_create_study(config, storage, space, build_sampler(config, space))
    record = versions()
    study.set_user_attr(f"versions:{versions_key(record)}", record)
    key = versions_key(record)
    rng = random.Random(2021)
    population = population_size(config, len(space))
    names = sorted(space.distributions)
    worker = "bench-host:4242"
    started = time.perf_counter()
    cost, costs, done, generation = 0.0, [], 0, 0
    print(f"building {trials} trials in {path.parent} ...", flush=True)
    while done < trials:
        size = 1 if done == 0 else min(population, trials - done)
        t0 = time.perf_counter()
        batch = ask_batch(study, space.distributions, size, 1 if done == 0 else 0, {"worker": worker})
        for trial in batch:
            storage.record_heartbeat(trial._trial_id)
        fates = [len(STEPS) if size == 1 else _fate(rng) for _ in batch]
        if max(fates) < len(STEPS):
            fates[rng.randrange(size)] = len(STEPS)
        quality = [_quality(t.params, names) for t in batch]
        writes = time.perf_counter() - t0
        for block, step in enumerate(STEPS):
            for trial, fate, q in zip(batch, fates, quality):
                if fate > block:
                    t1 = time.perf_counter()
                    trial.report(min(1.0, max(0.0, q + rng.gauss(0, 0.5 / math.sqrt(2 * step)))), step)
                    writes += time.perf_counter() - t1
        best = max(q for q, f in zip(quality, fates) if f == len(STEPS))
        for trial, fate, q in zip(batch, fates, quality):
            pairs = STEPS[fate - 1]
            margins = [rng.choice((-12, -3, 0, 4, 15)) + (8 if rng.random() < q else -8) for _ in range(2 * pairs)]
            t = tally(margins)
            opponent = OpponentResult("heuristic", t.games, t.wins, t.draws, t.losses)
            values = space.full(trial.params)
            rec = TrialRecord(values, t, {"heuristic": opponent}, pairs, config.pairs, config.seed, batch[0].number,
                              pruned=fate < len(STEPS), versions=key, date=now_iso())
            t1 = time.perf_counter()
            for name, value in rec.to_attrs().items():
                trial.set_user_attr(name, value)
            if rec.pruned:
                trial.report(min(q, best - 1e-6), config.pairs)
                study.tell(trial, state=TrialState.PRUNED)
            else:
                study.tell(trial, t.win_rate)
            writes += time.perf_counter() - t1
        cost += writes
        costs.append(writes)
        done += size
        generation += 1
        if generation % 100 == 0 or done >= trials:
            recent = costs[-100:]
            size_now = Path(config.storage).stat().st_size
            print(f"  {done:6d} trials, {time.perf_counter() - started:7.0f} s: storage writes "
                  f"{sum(recent) / len(recent):.3f} s a generation (last 100), journal {size_now / done:,.0f} "
                  f"bytes a trial", flush=True)
    t0 = time.perf_counter()
    save_snapshot(storage)
    print(f"  final snapshot: {time.perf_counter() - t0:.1f} s")
    del optuna
    seconds = time.perf_counter() - started
    (path.parent / "built.json").write_text(json.dumps({"trials": trials, "seconds": round(seconds),
                                                         "write_seconds": round(cost, 1)}))
    return seconds


def _run(args: list, env: dict, timeout: float = 900) -> tuple:
    t0 = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "tuner.cli", *args], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=timeout)
    seconds = time.perf_counter() - t0
    if result.returncode != 0:
        raise SystemExit(f"tuner {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    return seconds, result.stdout


def _get(url: str):
    with urllib.request.urlopen(url, timeout=600) as response:
        return response.read()


def dashboard_first_page(path: Path, env: dict) -> tuple:
    """(seconds from the start to the URL printed, seconds of the first page's four answers, bytes of the
    trials' answer)."""
    t0 = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "tuner.cli", "dashboard", str(path), "--port", "0"],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        if " at " not in line:
            raise SystemExit(f"tuner dashboard: {line}{process.stderr.read()}")
        url = line.split(" at ", 1)[1].strip()
        base, study_id = url.split("/dashboard/", 1)[0], url.rsplit("/", 1)[1]
        t1 = time.perf_counter()
        _get(f"{base}/api/meta")
        _get(f"{base}/api/studies")
        detail = _get(f"{base}/api/studies/{study_id}?after=0")
        _get(f"{base}/api/studies/{study_id}/param_importances")
        return t1 - t0, time.perf_counter() - t1, len(detail)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def time_commands(trials: int, snapshots: Path) -> list:
    path = study_file(trials)
    out = Path(tempfile.mkdtemp(prefix="large-study-"))
    commands = {
        "tuner export": ["export", str(path), "-o", str(out / "bot.py")],
        "tuner report --no-plots": ["report", str(path), "--no-plots"],
        "tuner report (plots)": ["report", str(path), "--out", str(out / "report")],
        "tuner match study:... greedy --games 2": ["match", f"study:{path}", "greedy", "--games", "2"],
    }
    _run(["match", "greedy", "greedy", "--games", "2"], _env(snapshots))  # compiles the engine if it is not yet
    _run(["storage", "info", str(path)], _env(snapshots))  # a snapshot of the journal's end, if the cache has none
    rows = []
    for name, args in commands.items():
        warm, _ = _run(args, _env(snapshots))
        cold, _ = _run(args, _env(Path(tempfile.mkdtemp(prefix="no-snapshot-"))))
        rows.append((name, warm, cold, ""))
        print(f"  {name}: {warm:.1f} s with the snapshot, {cold:.1f} s without", flush=True)
    start, page, size = dashboard_first_page(path, _env(snapshots))
    cold_start, cold_page, _ = dashboard_first_page(path, _env(Path(tempfile.mkdtemp(prefix="no-snapshot-"))))
    rows.append(("tuner dashboard: start (URL printed)", start, cold_start, ""))
    rows.append(("tuner dashboard: first study page", page, cold_page, f"trials answer {size / 1e6:.1f} MB"))
    rows.append(("tuner dashboard: start to first page shown", start + page, cold_start + cold_page, ""))
    print(f"  dashboard: URL after {start:.1f} s / {cold_start:.1f} s, first page {page:.1f} s / {cold_page:.1f} s",
          flush=True)
    shutil.rmtree(out, ignore_errors=True)
    return rows


def quickstart(trials: int) -> None:
    directory = Path(tempfile.mkdtemp(prefix="quickstart-"))
    study = directory / "quickstart.toml"
    shutil.copy(ROOT / "studies" / "quickstart.toml", study)
    env = _env(directory / "snapshots")
    t0 = time.perf_counter()
    _, stdout = _run(["tune", str(study), "--trials", str(trials), "--no-progress"], env, timeout=3600)
    wall = time.perf_counter() - t0
    journal = directory / "quickstart.journal"
    _run(["storage", "export-plain", str(study), str(directory / "plain.journal")], env)
    _, info = _run(["storage", "info", str(study)], env)
    stored = int(info.split(" trials (", 1)[0].rsplit(" ", 1)[1])
    size, plain = journal.stat().st_size, (directory / "plain.journal").stat().st_size
    done = [line for line in stdout.splitlines() if line.startswith(("done", "interrupted"))]
    print(f"quickstart, `tuner tune --trials {trials}` ({wall:.0f} s): {done[0] if done else ''}")
    print(f"  {stored} trials: compact journal {size:,} bytes = {size / stored:,.0f} bytes a trial; as a plain "
          f"Optuna journal {plain:,} bytes = {plain / stored:,.0f} bytes a trial")
    shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=30_000)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--quickstart", action="store_true", help="measure a real quickstart run's bytes per trial")
    parser.add_argument("--quickstart-trials", type=int, default=200, help="--quickstart: trials to run")
    args = parser.parse_args()
    if args.quickstart:
        quickstart(args.quickstart_trials)
        return
    directory = study_file(args.trials).parent
    snapshots = directory / "snapshots"
    built = directory / "built.json"
    if args.rebuild or not built.is_file():
        build(args.trials, snapshots)
    info = json.loads(built.read_text())
    journal = directory / "large.journal"
    print(f"study: {info['trials']} trials, built in {info['seconds']} s ({info['write_seconds']} s of storage "
          f"writes); journal {journal.stat().st_size:,} bytes ({journal.stat().st_size / info['trials']:,.0f} a "
          f"trial)")
    rows = time_commands(args.trials, snapshots)
    print(f"\n{'command':42s} {'snapshot':>9s} {'no snapshot':>12s}")
    for name, warm, cold, note in rows:
        print(f"{name:42s} {warm:8.1f}s {cold:11.1f}s  {note}")


if __name__ == "__main__":
    main()
