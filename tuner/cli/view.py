"""`tuner view`: a game trace as one self-contained HTML page that replays it."""
from __future__ import annotations

from pathlib import Path

from tuner.cli import arguments
from tuner.cli.outputs import check_output


def register(commands) -> None:
    parser = commands.add_parser("view", help="write a game trace as an HTML page that replays the game")
    parser.add_argument("trace", type=arguments.file_path, metavar="TRACE.jsonl",
                        help="a game trace (`tuner play --trace`, or a recorded referee game; plain or .gz)")
    parser.add_argument("-o", "--output", type=arguments.file_path, metavar="GAME.html",
                        help="the page to write, not the trace (default: the trace's name with .html, beside it)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from tuner.view import read_trace, write_replay  # loaded when the command runs (tuner/cli/__init__.py)

    output = args.output or default_output(args.trace)
    check_output(output, "--output", {"the trace": args.trace})
    records = read_trace(args.trace)
    write_replay(output, records)
    print(f"{output}: {records[0]['p0']} vs {records[0]['p1']}, {len(records) - 2} frames")
    return 0


def default_output(trace: Path) -> Path:
    name = trace.name
    for suffix in (".gz", ".jsonl", ".json"):
        name = name[: -len(suffix)] if name.endswith(suffix) and len(name) > len(suffix) else name
    return trace.with_name(name + ".html")

