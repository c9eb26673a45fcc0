"""What a bot plug-in declares: its name, its compiled policy, its parameters and how its name is written.

A bot lives in its own folder under `bots/` (its policy, its schema, its `PLUGIN`) and is registered by one
line in `bots/registry.py`. Everything else is derived from the plug-in: the compiled dispatch the kernels call
(`bots/running/dispatch.py`, generated), bot names (`NAME`, `NAME:ARG`), parameter files, the tuner's search space,
`tuner params --bot NAME` and the export.

The policy is one compiled function `policy(mp, s, p, seat) -> (kind, a, b)`: the map record, the state record,
the player it plays and its seat record, whose `params` hold its parameters in schema order. Written in the
portable subset of `export/transpile.py`, it can be exported as a standalone file.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from bots.contract.schema import Schema

JAVA_LONG_MIN, JAVA_LONG_MAX = -(2**63), 2**63 - 1


class BotSpecError(ValueError):
    """A bot name that does not describe a bot."""


def int_argument(text: str, what: str, name: str, low: int, high: int) -> int:
    """An integer in a bot name's argument, or BotSpecError saying what is allowed."""
    try:
        value = int(text)
    except ValueError:
        raise BotSpecError(f"bot {name!r}: {what} must be an integer, got {text!r}") from None
    if not low <= value <= high:
        raise BotSpecError(f"bot {name!r}: {what} {value} is out of range [{low}, {high}]")
    return value


class Setup(NamedTuple):
    """What a bot name's argument sets: parameter values (by name) and the seat's own random seed."""

    params: dict
    seed: int = 0


# (bot name as written, the argument after ':', league) -> Setup; raises BotSpecError with one line.
ArgumentParser = Callable[[str, str, int], Setup]


@dataclass(frozen=True)
class TimedExport:
    """What a search bot's C++ export with a time limit (`--time-ms`) carries instead of the engine's seat and
    parameters: larger seat arrays (`bots.contract.seat.seat_dtype`'s sizes, by name) for the work a move's time
    allows, and parameter values that suit a move ended by the clock, each in place of the bot's value where that
    is the default (a study's or a parameter file's own value is kept) and said in the file's header."""

    seat: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class BotPlugin:
    name: str
    summary: str  # one line: what it plays (the bot table of docs/bots.md, `tuner params`)
    policy: Callable  # compiled: policy(mp, s, p, seat) -> (kind, a, b)
    schema: Optional[Schema] = None  # its parameters (tunable, parameter files); None: it has none
    argument: str = ""  # what may follow "NAME:" besides a parameter file, as the usage line shows it
    parse_argument: Optional[ArgumentParser] = None  # that argument's parser (default: parameter files only)
    league_defaults: Optional[Callable[[int], dict]] = None  # parameter defaults that depend on the league
    exportable: bool = True  # `tuner export` can write it as a standalone file
    not_exportable: str = ""  # why not, when it cannot be exported (in some language): the export's error says it
    languages: tuple = ("python", "cpp")  # the languages it exports in (`tuner export --lang`)
    timed: TimedExport = TimedExport()  # a timed C++ export's seat and parameters (a search bot's)
    # What a C++ export reports on standard error after each move: (label, index in `seat.ints`) of its counters.
    stats: tuple = ()

    @property
    def usage(self) -> str:
        """How its names are written, e.g. `greedy[:complete_day,max_seeds]` or `heuristic[:FILE.json]`."""
        forms = [self.argument] if self.argument else []
        if self.schema is not None:
            forms.append("FILE.json")
            forms.append("name=value,...")
        return self.name + (f"[:{'|'.join(forms)}]" if forms else "")

    def exports_in(self, lang: str) -> bool:
        """`tuner export --lang LANG` can write it."""
        return self.exportable and lang in self.languages

    def defaults(self, league: int) -> dict:
        values = self.schema.defaults() if self.schema is not None else {}
        if self.league_defaults is not None:
            values.update(self.league_defaults(league))
        return values
