"""Argument types shared by several commands, each failing with a message that names the allowed values.

Building the parser imports this module for every command, `tuner --help` included: it imports nothing of the
engine, the bots or the tuner's libraries at module level (NumPy, Numba, Optuna, pandas)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def seed(text: str) -> int:
    from bots.contract.plugin import JAVA_LONG_MAX, JAVA_LONG_MIN  # NumPy: loaded when a seed is given

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer (a Java long), got {text!r}") from None
    if not JAVA_LONG_MIN <= value <= JAVA_LONG_MAX:
        raise argparse.ArgumentTypeError(f"seed {value} is not a 64-bit signed integer "
                                         f"[{JAVA_LONG_MIN}, {JAVA_LONG_MAX}]")
    return value


def league(text: str) -> int:
    if text not in ("1", "2", "3"):
        raise argparse.ArgumentTypeError(f"league must be 1 (Wood 2), 2 (Wood 1) or 3 (Bronze+), got {text!r}")
    return int(text)


def _integer(text: str, low: int, high: float, expected: str) -> int:
    """`text` as an integer in [low, high], or an error saying what was expected."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{expected}, got {value}")
    return value


def file_path(text: str) -> Path:
    """A file or folder name: an empty one is refused (`Path("")` would be the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file name, got {text!r}")
    return Path(text)


def positive_int(text: str) -> int:
    return _integer(text, 1, float("inf"), "expected a positive integer")


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def timeout_ms(text: str) -> float:
    """A time limit in milliseconds, in (0, MAX_TIME_LIMIT_MS]."""
    from engine.players import MAX_TIME_LIMIT_MS  # the referee's processes: loaded when a limit is given

    expected = f"expected a number of milliseconds in (0, {MAX_TIME_LIMIT_MS:,}] (at most one hour)"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}") from None
    if not 0 < value <= MAX_TIME_LIMIT_MS:
        raise argparse.ArgumentTypeError(f"{expected}, got {text!r}")
    return value


CODINGAME_TURN_MS = 100  # CodinGame's time limit for an answer after the first


def search_time_ms(text: str) -> int:
    """`export --time-ms`: a search's milliseconds a move, the first move FIRST_TURN_FACTOR times as many, both
    within the referee's time limits; from CodinGame's limit for a turn up, a warning on stderr."""
    from engine.players import MAX_TIME_LIMIT_MS  # loaded when a time is given, as in timeout_ms
    from export.languages import FIRST_TURN_FACTOR

    high = MAX_TIME_LIMIT_MS // FIRST_TURN_FACTOR
    value = _integer(text, 1, high, f"expected a number of milliseconds in [1, {high:,}] ({FIRST_TURN_FACTOR} times "
                                    f"as many on the first turn: at most one hour)")
    if value >= CODINGAME_TURN_MS:
        print(f"tuner export: warning: --time-ms {value}: the bot will exceed CodinGame's limits "
              f"({CODINGAME_TURN_MS} ms a turn, {FIRST_TURN_FACTOR * CODINGAME_TURN_MS:,} ms the first)",
              file=sys.stderr)
    return value


def add_time_limits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--first-timeout", type=timeout_ms, default=1000.0, metavar="MS",
                        help="time limit for a program's first answer, ms (default 1000, as on CodinGame; at most "
                             "one hour)")
    parser.add_argument("--turn-timeout", type=timeout_ms, default=100.0, metavar="MS",
                        help="time limit for every later answer, ms (default 100, as on CodinGame; at most one hour)")


MAX_GAMES = 10_000_000


def games_count(text: str) -> int:
    """A number of games: a positive integer, at most MAX_GAMES (the games' results are held in memory)."""
    return _integer(text, 1, MAX_GAMES, f"expected a number of games in [1, {MAX_GAMES:,}]")


def add_paired_games(parser: argparse.ArgumentParser, games_help: str, seed_help: str, json_help: str) -> None:
    """The options of a command that plays seed pairs (`match`, `gauntlet`): --games (even), --league, --jobs,
    --seed, --json and the time limits."""
    parser.add_argument("--games", type=games_count, default=1000, help=games_help)
    parser.add_argument("--league", type=league, default=3, help="1, 2 or 3 (default 3)")
    add_jobs(parser)
    parser.add_argument("--seed", type=seed, default=0, help=seed_help)
    parser.add_argument("--json", action="store_true", help=json_help)
    add_time_limits(parser)


def check_even_games(games: int) -> None:
    """UserError unless `games` is even: each seed is played twice, sides swapped."""
    from tuner.errors import UserError

    if games % 2:
        raise UserError(f"--games must be even (each seed is played twice with sides swapped), got {games}")


def non_negative_int(text: str) -> int:
    return _integer(text, 0, float("inf"), "expected an integer >= 0")


def port(text: str) -> int:
    return _integer(text, 0, 65535, "port must be an integer in [0, 65535]")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers and `taskset` narrow)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


MAX_JOBS = 256


def jobs(text: str) -> int:
    """`--jobs`: at most MAX_JOBS threads or processes (each process runs an interpreter and its programs)."""
    if text == "all":
        return min(usable_cores(), MAX_JOBS)
    return _integer(text, 1, MAX_JOBS, f"expected a positive integer or 'all' (every usable core), at most {MAX_JOBS}")


GAMES_ON_THREADS = "in-engine games on K threads, programs' games on K processes"


def add_jobs(parser: argparse.ArgumentParser, what: str = "", how: str = GAMES_ON_THREADS) -> None:
    """`--jobs K`: `how` says what K counts (threads for in-engine games, processes for programs: `GameRunner`)."""
    parser.add_argument("--jobs", type=jobs, default=1, metavar="K",
                        help=f"{how}, or 'all': one per usable core (default 1; at most {MAX_JOBS}){what}")
