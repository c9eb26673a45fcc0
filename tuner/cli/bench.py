"""`tuner bench`: games per second on the yardstick's workload, with its checksum."""
from __future__ import annotations

import json

from tuner.cli import arguments
from tuner.errors import UserError


def register(commands) -> None:
    parser = commands.add_parser("bench", help="measure games/s on the speed yardstick's workload")
    parser.add_argument("--bot", default="greedy",
                        help="greedy: the yardstick workload (greedy 12,2 vs 14,3); any other in-engine bot "
                             "plays itself (default greedy)")
    parser.add_argument("--games", type=arguments.games_count, default=300_000, help="seeds 1..N (default 300000)")
    arguments.add_jobs(parser, how="K processes, each playing its share of the seeds")
    parser.add_argument("--json", action="store_true", help="print one JSON line (the yardstick's fields)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from bots.contract.names import BotSpecError  # loaded when the command runs (tuner/cli/__init__.py), as below
    from tuner.play.bench import YARDSTICK_CHECKSUMS, run_bench, yardstick_check

    try:
        result = run_bench(args.bot, args.games, args.jobs)
    except (BotSpecError, ValueError) as error:
        raise UserError(str(error)) from None
    check = yardstick_check(result)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['games']} games ({result['bot']}, {result['jobs']} job(s)) in {result['seconds']:.3f} s: "
              f"{result['games_per_sec']:,.0f} games/s")
        print(f"avg turns {result['avg_turns']}, avg moves {result['avg_moves']}, wins {result['wins']}, "
              f"checksum {result['checksum']}: {check}")
    differs = result["bot"] == "greedy" and YARDSTICK_CHECKSUMS.get(result["games"], result["checksum"]) != \
        result["checksum"]
    return 1 if differs else 0
