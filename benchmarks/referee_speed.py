#!/usr/bin/env python3
"""The text-protocol referee's own cost per game, against the OS's unavoidable cost of the same game.

Builds two tiny C programs with gcc into benchmarks/.build: `instant` (answers at once: the last of the
possible moves, a legal move) and `pong` (one short line back per block of input). Then, in fresh worker
processes pinned to one core (the programs inherit the pin, so everything shares that core):

- games: N games of instant vs instant, and of instant vs the in-engine greedy bot, through
  `engine.referee.play_refereed_game`: games/s, wall time, the referee's own CPU (RUSAGE_SELF, user and system, and
  its watchdog process's, from /proc) and the programs' CPU (RUSAGE_CHILDREN), per game;
- the OS's cost, with no referee at all: starting a program with its three pipes and reaping it
  (posix_spawn of `instant`, which exits at end of input), and a pipe round trip (write a frame's input,
  read a line back) to `pong`; per game: 2 starts + one round trip per answer the game asked for.

With --baseline REF, the same workers also run the referee of git revision REF (its engine/ and bots/,
extracted into benchmarks/.build), interleaved with this checkout's (before, after, before, after, ...)
since the machine is noisy; medians over the rounds are printed side by side.

    python benchmarks/referee_speed.py [--games 40] [--rounds 3] [--baseline d04b74d] [--cpu N] [--json]
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "benchmarks" / ".build"
PROGRAMS = ROOT / "benchmarks" / "programs"
LEAGUE = 3
GENEROUS_MS = 20000.0  # a loaded machine must never disqualify a program: this measures cost, not limits


# ---- building -------------------------------------------------------------------------------------------------

def build_programs() -> dict:
    if shutil.which("gcc") is None:
        sys.exit("gcc is not installed: the benchmark programs cannot be built")
    BUILD.mkdir(parents=True, exist_ok=True)
    built = {}
    for name in ("instant", "pong"):
        out = BUILD / name
        subprocess.run(["gcc", "-O2", "-Wall", "-o", str(out), str(PROGRAMS / f"{name}.c")], check=True)
        built[name] = str(out)
    return built


def extract_revision(revision: str) -> Path:
    """engine/ and bots/ of a git revision, in benchmarks/.build/rev-<sha> (its compile cache is its own)."""
    try:
        sha = subprocess.run(["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    except subprocess.CalledProcessError:
        sys.exit(f"--baseline {revision!r} is not a git revision of this checkout")
    target = BUILD / f"rev-{sha[:12]}"
    if not (target / "engine").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "engine", "bots"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


# ---- the worker: runs in a fresh process, with one tree's engine first on sys.path ----------------------------

def cpu(usage) -> float:
    return usage.ru_utime + usage.ru_stime


def watchdog_cpu() -> float:
    """CPU seconds of the referee's watchdog process, if this referee has one (it is not a reaped child, so
    RUSAGE_CHILDREN does not count it): part of the referee's own cost."""
    try:
        from engine.watchdog import WATCHDOG
    except ImportError:
        return 0.0
    if WATCHDOG.pid is None:
        return 0.0
    try:
        with open(f"/proc/{WATCHDOG.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def refereed_game():
    """The referee's game function (`play_game` before it was `play_refereed_game`: a --baseline may be older)."""
    from engine import referee

    return getattr(referee, "play_refereed_game", None) or referee.play_game


def play_games(n: int, make_players, records: bool) -> dict:
    from engine.players import TimeLimits

    play_refereed_game = refereed_game()
    limits = TimeLimits(GENEROUS_MS, GENEROUS_MS)
    extra = {"records": False} if not records and "records" in inspect.signature(play_refereed_game).parameters else {}
    self0, children0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    watchdog0 = watchdog_cpu()
    wall0 = time.perf_counter()
    frames = executions = 0
    for seed in range(1, n + 1):
        report = play_refereed_game(seed, LEAGUE, make_players(), limits, **extra)
        if report.outcome.deactivated:
            raise SystemExit(f"seed {seed}: a player was disqualified ({report.outcome.deactivated}): "
                             "the measure does not count")
        frames += report.turns
        executions += report.records[-1]["player_executions"] if report.records else report.executions
    wall = time.perf_counter() - wall0
    self1, children1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    watchdog = (watchdog_cpu() - watchdog0) / n
    return {"games": n, "wall": wall / n, "games_per_s": n / wall,
            "user": (self1.ru_utime - self0.ru_utime) / n, "sys": (self1.ru_stime - self0.ru_stime) / n,
            "watchdog": watchdog, "referee": (cpu(self1) - cpu(self0)) / n + watchdog,
            "children": (cpu(children1) - cpu(children0)) / n, "frames": frames / n, "executions": executions / n}


def worker_games(args, programs: dict) -> dict:
    from bots.contract.names import parse_bot
    from bots.running.player import player_for
    from engine.players import ProgramPlayer

    instant = programs["instant"]
    greedy = parse_bot("greedy", LEAGUE)
    both = lambda: [ProgramPlayer("instant", instant), ProgramPlayer("instant", instant)]  # noqa: E731
    mixed = lambda: [ProgramPlayer("instant", instant), player_for(greedy)]  # noqa: E731
    play_games(2, both, True)  # warm up: compiled code loaded, caches filled
    play_games(2, mixed, True)
    return {"instant_vs_instant": play_games(args.games, both, args.records),
            "instant_vs_greedy": play_games(args.games, mixed, args.records)}


def spawn_cost(path: str, n: int) -> dict:
    """Start a program with three pipes as a referee must, let it exit at end of input, reap it."""
    self0, children0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    for _ in range(n):
        r0, w0 = os.pipe()
        r1, w1 = os.pipe()
        r2, w2 = os.pipe()
        actions = [(os.POSIX_SPAWN_DUP2, r0, 0), (os.POSIX_SPAWN_DUP2, w1, 1), (os.POSIX_SPAWN_DUP2, w2, 2)]
        pid = os.posix_spawn(path, [path], os.environ, file_actions=actions, setsid=True)
        for fd in (r0, w1, w2, w0):
            os.close(fd)
        os.waitpid(pid, 0)
        os.close(r1)
        os.close(r2)
    wall = time.perf_counter() - wall0
    self1, children1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall": wall / n, "parent": (cpu(self1) - cpu(self0)) / n,
            "child": (cpu(children1) - cpu(children0)) / n}


def round_trip_cost(path: str, n: int, size: int) -> dict:
    """Write `size` bytes ending a line, read the answer line, with blocking pipes and nothing else."""
    r0, w0 = os.pipe()
    r1, w1 = os.pipe()
    pid = os.posix_spawn(path, [path], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, r0, 0), (os.POSIX_SPAWN_DUP2, w1, 1)])
    os.close(r0)
    os.close(w1)
    payload = b"x" * (size - 1) + b"\n"
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    wall0 = time.perf_counter()
    for _ in range(n):
        os.write(w0, payload)
        os.read(r1, 64)
    wall = time.perf_counter() - wall0
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    os.close(w0)
    _, _, usage = os.wait4(pid, 0)
    os.close(r1)
    return {"wall": wall / n, "parent": (cpu(self1) - cpu(self0)) / n, "child": cpu(usage) / n, "bytes": size}


def mean_input_bytes(programs: dict) -> int:
    """The mean size of a frame's input in instant-vs-instant games (what one round trip writes)."""
    from engine.players import ProgramPlayer, TimeLimits

    play_refereed_game = refereed_game()
    total = count = 0
    for seed in range(1, 4):
        players = [ProgramPlayer("instant", programs["instant"]), ProgramPlayer("instant", programs["instant"])]
        report = play_refereed_game(seed, LEAGUE, players, TimeLimits(GENEROUS_MS, GENEROUS_MS))
        for record in report.records:
            for lines in record.get("input") or ():
                if lines is not None:
                    total += sum(len(line) + 1 for line in lines)
                    count += 1
    return max(2, round(total / count))


def worker_os(args, programs: dict) -> dict:
    size = mean_input_bytes(programs)
    spawn_cost(programs["instant"], 20)
    round_trip_cost(programs["pong"], 200, size)
    return {"start": spawn_cost(programs["instant"], args.starts),
            "round_trip": round_trip_cost(programs["pong"], args.round_trips, size)}


def worker(args) -> None:
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    sys.path.insert(0, args.root)
    programs = json.loads(args.programs)
    result = worker_os(args, programs) if args.measure == "os" else worker_games(args, programs)
    print(json.dumps(result))


# ---- the driver -----------------------------------------------------------------------------------------------

def run_worker(args, programs: dict, root: Path, measure: str, records: bool) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--root", str(root), "--measure", measure,
               "--programs", json.dumps(programs), "--games", str(args.games), "--starts", str(args.starts),
               "--round-trips", str(args.round_trips)]
    if args.cpu is not None:
        command += ["--cpu", str(args.cpu)]
    if not records:
        command.append("--no-records")
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        sys.exit(f"worker ({measure}, {root}) failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def median_of(results: list, *keys: str) -> float:
    values = []
    for result in results:
        for key in keys:
            result = result[key]
        values.append(result)
    return statistics.median(values)


def os_cost(os_run: dict, executions: float, programs: int) -> tuple:
    """(CPU, wall) the OS spends on a game: its program starts, and one round trip per answer asked of a
    program (instant vs greedy: the in-engine bot gives the other half of the answers)."""
    start, trip = os_run["start"], os_run["round_trip"]
    trips = executions * programs / 2
    return (programs * (start["parent"] + start["child"]) + trips * (trip["parent"] + trip["child"]),
            programs * start["wall"] + trips * trip["wall"])


def summarize(variants: dict, os_runs: list) -> dict:
    start = {k: median_of(os_runs, "start", k) for k in ("wall", "parent", "child")}
    trip = {k: median_of(os_runs, "round_trip", k) for k in ("wall", "parent", "child")}
    summary = {"os": {"start_s": start, "round_trip_s": trip, "round_trip_bytes": os_runs[0]["round_trip"]["bytes"]},
               "variants": {}}
    for name, runs in variants.items():
        summary["variants"][name] = {}
        for game, programs in (("instant_vs_instant", 2), ("instant_vs_greedy", 1)):
            row = {k: median_of(runs, game, k) for k in runs[0][game]}
            row["os_cpu"], row["os_wall"] = os_cost({"start": start, "round_trip": trip}, row["executions"], programs)
            # The ratio within each round (the referee and the OS measured minutes apart at most), then its median:
            # steadier on a busy machine than the ratio of the medians.
            row["ratio"] = statistics.median(
                run[game]["referee"] / os_cost(os_run, run[game]["executions"], programs)[0]
                for run, os_run in zip(runs, os_runs))
            summary["variants"][name][game] = row
    return summary


def print_summary(summary: dict) -> None:
    o = summary["os"]
    print(f"OS, no referee: program start + exit {o['start_s']['wall'] * 1e6:.0f} us wall, "
          f"{(o['start_s']['parent'] + o['start_s']['child']) * 1e6:.0f} us CPU "
          f"(parent {o['start_s']['parent'] * 1e6:.0f}, program {o['start_s']['child'] * 1e6:.0f}); "
          f"pipe round trip of {o['round_trip_bytes']} bytes {o['round_trip_s']['wall'] * 1e6:.1f} us wall, "
          f"{(o['round_trip_s']['parent'] + o['round_trip_s']['child']) * 1e6:.1f} us CPU")
    header = (f"{'referee':<18} {'game':<19} {'games/s':>8} {'wall ms':>8} {'ref CPU ms':>10} {'(user':>7} "
              f"{'sys':>6} {'wdog)':>6} {'prog CPU':>8} {'OS CPU ms':>9} {'OS wall':>8} {'ref/OS':>7} {'frames':>6} "
              f"{'asks':>5}")
    print(header)
    for name, games in summary["variants"].items():
        for game, r in games.items():
            print(f"{name:<18} {game:<19} {r['games_per_s']:8.1f} {r['wall'] * 1e3:8.2f} {r['referee'] * 1e3:10.2f} "
                  f"{r['user'] * 1e3:7.2f} {r['sys'] * 1e3:6.2f} {r['watchdog'] * 1e3:6.2f} {r['children'] * 1e3:8.2f} "
                  f"{r['os_cpu'] * 1e3:9.2f} {r['os_wall'] * 1e3:8.2f} {r['ratio']:7.2f} "
                  f"{r['frames']:6.1f} {r['executions']:5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per measure (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are printed (default 3)")
    parser.add_argument("--baseline", metavar="REF", help="also measure the referee of this git revision")
    parser.add_argument("--cpu", type=int, help="the core to pin the workers to (default: the last allowed one)")
    parser.add_argument("--starts", type=int, default=300, help="program starts in the OS measure (default 300)")
    parser.add_argument("--round-trips", type=int, default=20000, help="round trips in the OS measure")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--measure", choices=("games", "os"), default="games", help=argparse.SUPPRESS)
    parser.add_argument("--programs", help=argparse.SUPPRESS)
    parser.add_argument("--no-records", dest="records", action="store_false", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.games < 1 or args.rounds < 1:
        sys.exit("--games and --rounds must be at least 1")
    if args.cpu is None and hasattr(os, "sched_getaffinity"):
        args.cpu = max(os.sched_getaffinity(0))
    programs = build_programs()
    trees = {}
    if args.baseline:
        trees[f"before {args.baseline}"[:18]] = (extract_revision(args.baseline), True)
    trees["after"] = (ROOT, True)
    trees["after, no records"] = (ROOT, False)
    variants = {name: [] for name in trees}
    os_runs = []
    for round_number in range(args.rounds):
        for name, (root, records) in trees.items():
            variants[name].append(run_worker(args, programs, root, "games", records))
        os_runs.append(run_worker(args, programs, ROOT, "os", True))
        print(f"round {round_number + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    summary = summarize(variants, os_runs)
    summary["settings"] = {"games": args.games, "rounds": args.rounds, "cpu": args.cpu, "league": LEAGUE,
                           "python": sys.version.split()[0]}
    if args.json:
        print(json.dumps(summary))
    else:
        print_summary(summary)


if __name__ == "__main__":
    main()
