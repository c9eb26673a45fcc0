"""`tuner params`: a bot's parameters (name, type, range, default, meaning), as a table or JSON."""
from __future__ import annotations

import json

from tuner.errors import UserError


def register(commands) -> None:
    parser = commands.add_parser("params",
                                 help="list a bot's parameters (the tuner's search space; default: heuristic)")
    parser.add_argument("--bot", default="heuristic", help="the bot whose schema to print (default heuristic)")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list of {name, type, low, high, default, doc}")
    parser.set_defaults(run=run)


def _number(value) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


def _range(row: dict) -> str:
    """A number parameter's [low, high], or a choice parameter's values (its low and high are None)."""
    if row["type"] == "choice":
        return "one of " + ", ".join(json.dumps(choice) for choice in row["choices"])
    return f"[{_number(row['low'])}, {_number(row['high'])}]"


def _default(value) -> str:
    return json.dumps(value) if isinstance(value, (str, bool)) else _number(value)


def run(args) -> int:
    from bots.contract.schema import ParamError
    from bots.registry import REGISTERED, plugin, schema_for  # loaded when the command runs (tuner/cli/__init__.py)

    if args.bot in REGISTERED and plugin(args.bot).schema is None:
        print("[]" if args.json else f"bot {args.bot!r} has no parameters")
        return 0
    try:
        schema = schema_for(args.bot)
    except ParamError as error:
        raise UserError(str(error)) from None
    rows = schema.describe()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    table = [("name", "type", "range", "default", "meaning")]
    table += [(r["name"], r["type"], _range(r), _default(r["default"]), r["doc"])
              for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])
    print(f"\n{len(rows)} parameters of bot {schema.bot!r}; a parameter file sets every one "
          f"(see `{schema.bot}:FILE.json`)")
    return 0
