"""Bot names, as users write them on the command line and in study files.

    NAME                      a registered bot (`bots/registry.py`) with its default parameters
    NAME:FILE.json            ... with a parameter file's values (bots with parameters)
    NAME:name=value,...       ... with some parameters changed from their defaults
    NAME:ARG                  ... with a bot's own argument: greedy:12,2 (complete_day, max_seeds), random:SEED
    NAME[:...]~J              a distribution around that bot: each game seed draws its style parameters anew, each
                              moved by up to J (0 < J <= 1) of its range (`bots.contract.perturbation`)
    cmd:<command line>        a program talking the CodinGame protocol

Names that need a study (`study:STUDY.toml[#N]`) are resolved by the tuner (`tuner.results.botnames`).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import numpy as np

from bots.contract.paramfile import read_param_file
from bots.contract.perturbation import set_perturbation
from bots.contract.plugin import JAVA_LONG_MAX, JAVA_LONG_MIN, BotPlugin, BotSpecError, Setup, int_argument
from bots.contract.schema import ParamError, Schema
from bots.contract.seat import MAX_PARAMS, new_seat_array
from bots.registry import REGISTERED, kind_of, plugin, plugins

if TYPE_CHECKING:
    from engine.players import TimeLimits

PROGRAM_PREFIX = "cmd:"
__all__ = ["JAVA_LONG_MAX", "JAVA_LONG_MIN", "Bot", "BotSpecError", "UnknownBot", "bot_with_params", "int_argument",
           "parse_bot", "seat_for"]


class UnknownBot(BotSpecError):
    """A name whose prefix is no registered bot."""

    def __init__(self, text: str, kind: str, extra: tuple = ()):
        self.text, self.kind = text, kind
        known = [p.usage for p in plugins()] + list(extra) + [f"{PROGRAM_PREFIX}<command>"]
        close = difflib.get_close_matches(kind, list(REGISTERED) + [e.split(":")[0] for e in extra], n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        super().__init__(f"unknown bot {text!r} ({hint}known: {', '.join(known)})")


@dataclass
class Bot:
    """A bot ready to play: an in-engine seat (compiled policy and parameters) or a program's command line
    (`bots.running.player.player_for` makes its player for the text-protocol referee)."""

    name: str
    seat: Optional[np.ndarray] = None
    command: Optional[str] = None
    params: Optional[dict] = None  # named parameters, for bots that have them
    source: dict = field(default_factory=dict)  # where the parameters came from (file, study, trial)
    plugin: Optional[str] = None  # the registered bot it is, for in-engine bots
    jitter: float = 0.0  # NAME~J: its parameters drawn anew per game seed, by up to J of each range
    # A program's own time limits, when they are not the game's: a program played at a short time budget
    # (`tuner.studyfile.program_budget`) is judged by limits that fit it.
    limits: Optional[TimeLimits] = None

    @property
    def in_engine(self) -> bool:
        return self.seat is not None


def seat_for(bot: str, values: dict, seed: int = 0) -> np.ndarray:
    """A one-seat array for a registered bot with these parameter values (its schema order)."""
    found = plugin(bot)
    seat = new_seat_array()
    seat[0]["kind"] = kind_of(bot)
    seat[0]["seed"] = seed
    if found.schema is not None:
        seat[0]["params"][:] = found.schema.vector(values, MAX_PARAMS)
    return seat


def bot_with_params(bot: str, values: dict, name: str, source: dict, league: int = 3) -> Bot:
    """A ready-to-play in-engine Bot from named parameter values (the defaults for missing ones)."""
    found = plugin(bot)
    full = {**found.defaults(league), **values}
    return Bot(name, seat=seat_for(bot, full), params=full, source=dict(source), plugin=bot)


def _pairs(schema: Schema, name: str, arg: str) -> dict:
    """`name=value,...`: some parameters changed from their defaults."""
    values: dict[str, object] = {}
    for item in arg.split(","):
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotSpecError(f"bot {name!r}: expected name=value pairs separated by commas, got {item!r}")
        if key in values:
            raise BotSpecError(f"bot {name!r}: parameter {key!r} is given twice")
        try:
            value: object = int(text) if text.strip().lstrip("+-").isdigit() else float(text)
        except ValueError:
            value = text.strip()  # a choice (`search:opponent=heuristic`); the schema checks it
        values[key] = value
    try:
        return schema.validate(values, f"bot {name!r}", complete=False)
    except ParamError as error:
        raise BotSpecError(str(error)) from None


def _param_file(found: BotPlugin, name: str, arg: str) -> tuple[dict, dict]:
    try:
        params_file = read_param_file(Path(arg))
    except ParamError as error:
        raise BotSpecError(f"bot {name!r}: {error}") from None
    if params_file.bot != found.name:
        raise BotSpecError(f"bot {name!r}: {arg} holds parameters of bot {params_file.bot!r}, not {found.name!r}")
    return params_file.params, {**params_file.source, "path": str(arg)}


def is_param_file(arg: str) -> bool:
    return arg.endswith(".json") or ("=" not in arg and Path(arg).is_file())


JITTER = re.compile(r"~([0-9]*\.?[0-9]+(?:e-?[0-9]+)?)$")


def parse_bot(text: str, league: int = 3, extra_known: tuple = ()) -> Bot:
    """The bot a name describes, for a game in `league`. Raises BotSpecError with a one-line reason;
    `extra_known` lists other name forms the caller accepts, for the message about an unknown name."""
    text = text.strip()
    if text.startswith(PROGRAM_PREFIX):
        command = text[len(PROGRAM_PREFIX):].strip()
        if not command:
            raise BotSpecError(f"bot {PROGRAM_PREFIX!r}: the command line is empty (write cmd:<command line>)")
        return Bot(text, command=command)
    spread = JITTER.search(text)
    if spread is None:
        return _registered_bot(text, text, league, extra_known)[0]
    jitter = float(spread.group(1))
    if not 0 < jitter <= 1:
        raise BotSpecError(f"bot {text!r}: the spread after '~' must be in (0, 1] (a share of each parameter's "
                           f"range), got {spread.group(1)}")
    bot, fixed = _registered_bot(text[:spread.start()], text, league, extra_known)
    schema = plugin(bot.plugin).schema if bot.plugin is not None else None
    if schema is None or bot.seat is None:
        raise BotSpecError(f"bot {text!r}: {bot.plugin!r} has no parameters to draw (NAME~J needs a bot with a "
                           f"parameter schema: {', '.join(p.name for p in plugins() if p.schema is not None)})")
    set_perturbation(bot.seat, schema, jitter, fixed)
    bot.name, bot.jitter = text, jitter
    return bot


def _registered_bot(text: str, shown: str, league: int, extra_known: tuple) -> tuple[Bot, set]:
    """A registered bot's name without a spread (`shown`: the whole name, for messages), and the parameters the
    name sets itself."""
    kind, sep, arg = text.partition(":")
    if kind not in REGISTERED:
        raise UnknownBot(shown, kind, extra_known)
    found = plugin(kind)
    setup, source = Setup(found.defaults(league)), dict[str, object](defaults=True)
    fixed: set = set()
    if sep and arg:
        if found.schema is not None and is_param_file(arg):
            params, source = _param_file(found, text, arg)
            setup = Setup(params)
        elif found.schema is not None and "=" in arg:
            changed = _pairs(found.schema, text, arg)
            setup, source, fixed = Setup({**setup.params, **changed}), {"changed": arg}, set(changed)
        elif found.parse_argument is not None:
            setup, source = found.parse_argument(text, arg, league), {"argument": arg}
            fixed = set(setup.params)
        else:
            raise BotSpecError(f"bot {text!r}: {kind!r} takes no such argument (write {found.usage})")
    elif sep:
        raise BotSpecError(f"bot {text!r}: nothing after ':' (write {found.usage})")
    params = {**found.defaults(league), **setup.params}
    return Bot(text, seat=seat_for(kind, params, setup.seed), params=params or None, source=source, plugin=kind), fixed
