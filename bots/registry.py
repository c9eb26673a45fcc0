"""The registered bots: one line each in `REGISTERED`, the rest is read from each bot's own folder.

A bot's folder under `bots/` holds its compiled policy and its parameter schema, and its `__init__.py` defines
`PLUGIN` (`bots.contract.plugin.BotPlugin`). Registering it means adding its folder name here, then regenerating the
compiled dispatch (`python -m bots.running.generate`), which calls each policy by its seat kind: the position here.
"""
from __future__ import annotations

import importlib
from functools import cache

from bots.contract.plugin import BotPlugin, BotSpecError
from bots.contract.schema import ParamError, Schema

REGISTERED = (
    "greedy",
    "random",
    "wait",
    "heuristic",
    "sunrate",
    "rush",
    "seeder",
    "search",
    "mcts",
    "beam",
)


@cache
def plugin(name: str) -> BotPlugin:
    """The plug-in of a registered bot; KeyError for a name that is not registered, BotSpecError (one line) for a
    registration that does not match its folder."""
    if name not in REGISTERED:
        raise KeyError(name)
    try:
        module = importlib.import_module(f"bots.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"bots.{name}":
            raise
        raise BotSpecError(f"bot {name!r} is registered in bots/registry.py but has no folder bots/{name}/ "
                           f"(docs/plugins.md)") from None
    found = getattr(module, "PLUGIN", None)
    if not isinstance(found, BotPlugin):
        raise BotSpecError(f"bots/{name}/__init__.py defines no PLUGIN (a BotPlugin; docs/plugins.md)")
    if found.name != name:
        raise BotSpecError(f"bots/{name}/__init__.py declares a plug-in named {found.name!r}, not {name!r}")
    return found


def plugins() -> list[BotPlugin]:
    return [plugin(name) for name in REGISTERED]


def kind_of(name: str) -> int:
    """The seat kind the compiled dispatch answers to for this bot."""
    return REGISTERED.index(name)


def tunable() -> list[str]:
    """The bots with parameters: the ones a study tunes and a parameter file holds."""
    return [p.name for p in plugins() if p.schema is not None]


def schema_for(bot: str) -> Schema:
    """The parameter schema of a bot, or ParamError naming the bots that have one."""
    found = plugin(bot) if bot in REGISTERED else None
    if found is None or found.schema is None:
        raise ParamError(f"bot {bot!r} has no parameter schema (allowed: {', '.join(tunable())})")
    return found.schema
