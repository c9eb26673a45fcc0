#!/usr/bin/env python3
"""Does a C++ search bot turn its time into strength? Its timed export against its fixed-budget exports and against
itself at a shorter time, through the referee at CodinGame's limits.

    python benchmarks/timed_scaling.py --bot mcts --time-ms 90 --budgets 300 1000 3000 --against-ms 30 [--games 40]
    python benchmarks/timed_scaling.py --bot beam --params bots/tuned/beam-timed.json --time-ms 90 --against-ms 30

The bot (its defaults, or a parameter file's values with --params; Bronze+) is exported in C++ with `--time-ms T` (T ms
a move, 10 T on the first turn) and at each fixed budget (`BUDGET`: mcts's iterations a move, beam's passes of rollouts,
search's simulated turns), all compiled as CodinGame compiles C++ (`g++ -std=c++17`, no -O flag: the file carries its
pragmas); a timed export plays the values its plug-in sets for a move ended by the clock (mcts's noisier rollouts and
wider shortlist), a fixed budget the engine's. Each row is one match of --games games between the timed export and one
other, on the seeds of the `match` stream (`tuner match`'s: --seed), each seed played twice with the sides swapped, at
CodinGame's limits (1,000 ms for the first answer, 100 ms after): the timed bot's win rate with its Wilson 95% interval,
its mean score margin, and the answers over the limits (a program over them loses the game). The fixed budgets are the
engine's scaling table played by the file a player submits: the timed bot should beat the small budgets and meet its own
pace (`benchmarks/export_turn_time.py` prints how many iterations or days a move's time buys). Matches run one after the
other, one game at a time: two programs at once on a small machine slow each other and the figures. Run it on an
otherwise idle machine.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.export_turn_time import BUILD, build_export  # noqa: E402  (CodinGame's build: no -O flag)
from bots.contract.names import parse_bot  # noqa: E402
from bots.contract.paramfile import ParamFile, read_param_file, write_param_file  # noqa: E402
from bots.registry import schema_for  # noqa: E402
from engine.players import TimeLimits  # noqa: E402
from export.standalone import export_bot  # noqa: E402
from tuner.play.matches import run_match  # noqa: E402
from tuner.versions import versions  # noqa: E402

LEAGUE = 3
BUDGET = {"mcts": "iterations", "beam": "rollout_samples", "search": "budget"}  # the parameter a fixed budget sets
CODINGAME = TimeLimits(1000, 100)


def compiled(bot: str, folder: Path, stem: str, params: dict, time_ms: Optional[int]) -> str:
    """The command of the bot's C++ export with these parameters (the others at their defaults)."""
    values = {p.name: p.default for p in schema_for(bot)} | params
    param_path = folder / f"{stem}.json"
    write_param_file(param_path, ParamFile(bot, LEAGUE, values, {"benchmark": "timed_scaling"}))
    source = folder / f"{stem}.cpp"
    export_bot(parse_bot(f"{bot}:{param_path}", LEAGUE), LEAGUE, source, [f"benchmark export of {bot} ({stem})"],
               "cpp", time_ms)
    build_export(source, folder / stem)
    return f"cmd:{folder / stem}"


def row(label: str, timed: str, other: str, games: int, seed: int) -> dict:
    start = time.perf_counter()
    match = run_match(parse_bot(timed), parse_bot(other), games, LEAGUE, seed, jobs=1, limits=CODINGAME)
    stats = match.stats
    low, high = stats.win_rate_ci
    over = {side: len(match.disqualifications(side)) for side in ("A", "B")}
    print(f"  vs {label:<28} {100 * stats.win_rate:5.1f}% ({100 * low:.1f}-{100 * high:.1f})  "
          f"margin {stats.mean_margin:+6.2f}  over the limits: {over['A']} / {over['B']}  "
          f"({time.perf_counter() - start:.0f} s)", flush=True)
    return {"opponent": label, **stats.to_json(), "over_limits": over}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", choices=sorted(BUDGET), default="mcts")
    parser.add_argument("--params", type=Path, help="a parameter file of the bot: its values instead of the defaults")
    parser.add_argument("--time-ms", type=int, default=90, help="the timed export's budget a move (default 90)")
    parser.add_argument("--budgets", type=int, nargs="*", default=[], help="fixed budgets to play against")
    parser.add_argument("--against-ms", type=int, nargs="*", default=[], help="shorter times to play against")
    parser.add_argument("--games", type=int, default=40, help="games a row, even (default 40)")
    parser.add_argument("--seed", type=int, default=5, help="picks the match seeds (default 5)")
    parser.add_argument("--json", type=Path, help="also write the rows, with the settings, to this file")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2, got {args.games}")
    budget = BUDGET[args.bot]
    base = {}
    if args.params:
        found = read_param_file(args.params)
        if found.bot != args.bot:
            parser.error(f"--params {args.params} is a file of bot {found.bot!r}, not {args.bot!r}")
        base = dict(found.params)
    print(f"{args.bot} at {args.time_ms} ms a move (C++, no -O flag), {args.games} games a row, match seed "
          f"{args.seed}, sides swapped, CodinGame's limits; the timed bot's win rate (95% interval)", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="timed-scaling-") as tmp:
        folder = Path(tmp)
        timed = compiled(args.bot, folder, f"timed_{args.time_ms}", base, args.time_ms)
        for value in args.budgets:
            other = compiled(args.bot, folder, f"{budget}_{value}", base | {budget: value}, None)
            rows.append(row(f"{args.bot} {budget}={value} (fixed)", timed, other, args.games, args.seed))
        for ms in args.against_ms:
            other = compiled(args.bot, folder, f"timed_{ms}", base, ms)
            rows.append(row(f"{args.bot} at {ms} ms", timed, other, args.games, args.seed))
    if args.json:
        args.json.write_text(json.dumps({"bot": args.bot, "time_ms": args.time_ms, "games": args.games,
                                         "seed": args.seed, "league": LEAGUE, "params": str(args.params or "defaults"),
                                         "compile": BUILD,
                                         "versions": versions(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
