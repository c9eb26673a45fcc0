"""`tuner replay`: replay recorded games and check every frame against the engine."""
from __future__ import annotations

import sys
from pathlib import Path


def register(commands) -> None:
    parser = commands.add_parser("replay", help="replay recorded referee games and check every frame")
    parser.add_argument("files", nargs="+", metavar="FILE.jsonl", help="game records (JSON lines, or .jsonl.gz)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from engine.replay import TraceError, replay_file  # loaded when the command runs (tuner/cli/__init__.py)

    mismatches = 0
    unreadable = 0
    for name in args.files:
        path = Path(name)
        try:
            difference = replay_file(path)
        except TraceError as error:
            unreadable += 1
            message = str(error)
            where = message if message.startswith(str(path)) else f"{path}: {message}"
            print(f"tuner replay: error: {where}", file=sys.stderr)
            continue
        if difference is None:
            print(f"{path}: ok")
        else:
            mismatches += 1
            print(f"{path}: {difference}")
    if unreadable:
        return 2
    return 1 if mismatches else 0
