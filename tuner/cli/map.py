"""`tuner map`: the official map of a seed, as one JSON object (the fields of the referee's maps.jsonl)."""
from __future__ import annotations

import json

from tuner.cli import arguments


def register(commands) -> None:
    parser = commands.add_parser("map", help="print the official map of a seed as JSON")
    parser.add_argument("--seed", type=arguments.seed, required=True, help="game seed (a Java long)")
    parser.add_argument("--league", type=arguments.league, default=3, help="1, 2 or 3 (default 3)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from engine.maps import map_record  # loaded when the command runs (tuner/cli/__init__.py)

    print(json.dumps(map_record(args.seed, args.league), separators=(",", ":")))
    return 0
