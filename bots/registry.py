"""Bot names, as users write them on the command line and in study files.

    greedy[:complete_day,max_seeds]   the yardstick's greedy bot (complete_day defaults by league: 0, 3, 12)
    random[:seed]                     a uniformly random legal move
    wait                              always WAIT
    heuristic[:FILE.json]             the parameterised heuristic bot (schema defaults, or a parameter file)
    study:STUDY.toml[#N]              the best trial of a tuning study, or its trial N
    cmd:<command line>                a program talking the CodinGame protocol
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from bots.greedy import DEFAULT_COMPLETE_DAY, DEFAULT_MAX_SEEDS
from bots.seat import GREEDY_BOT, RANDOM_BOT, WAIT_BOT, new_seat_array

JAVA_LONG_MIN, JAVA_LONG_MAX = -(2**63), 2**63 - 1


class BotSpecError(ValueError):
    """A bot name that does not describe a bot."""


@dataclass
class Bot:
    """A bot ready to play: an in-engine seat (compiled policy and parameters) or a program's command line."""

    name: str
    seat: Optional[np.ndarray] = None
    command: Optional[str] = None
    params: Optional[dict] = None  # named parameters, for bots that have them
    source: Optional[dict] = None  # where the parameters came from (file, study, trial)

    @property
    def in_engine(self) -> bool:
        return self.seat is not None

    def player(self):
        from engine.players import BotPlayer, ProgramPlayer

        if self.in_engine:
            return BotPlayer(self.name, self.seat)
        return ProgramPlayer(self.name, self.command)


def _int(text: str, what: str, name: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BotSpecError(f"bot {name!r}: {what} must be an integer, got {text!r}") from None
    if not low <= value <= high:
        raise BotSpecError(f"bot {name!r}: {what} {value} is out of range [{low}, {high}]")
    return value


def _greedy(name: str, arg: Optional[str], league: int) -> Bot:
    complete_day, max_seeds = DEFAULT_COMPLETE_DAY[league], DEFAULT_MAX_SEEDS
    if arg is not None:
        parts = arg.split(",")
        if len(parts) != 2:
            raise BotSpecError(f"bot {name!r}: expected greedy:complete_day,max_seeds (for example greedy:12,2)")
        complete_day = _int(parts[0], "complete_day", name, 0, 100)
        max_seeds = _int(parts[1], "max_seeds", name, 0, 37)
    seat = new_seat_array()
    seat[0]["kind"] = GREEDY_BOT
    seat[0]["params"][:2] = (complete_day, max_seeds)
    return Bot(name, seat=seat, params={"complete_day": complete_day, "max_seeds": max_seeds})


def _random(name: str, arg: Optional[str], league: int) -> Bot:
    seed = 0 if arg is None else _int(arg, "seed", name, JAVA_LONG_MIN, JAVA_LONG_MAX)
    seat = new_seat_array()
    seat[0]["kind"] = RANDOM_BOT
    seat[0]["seed"] = seed
    return Bot(name, seat=seat, params={"seed": seed})


def _wait(name: str, arg: Optional[str], league: int) -> Bot:
    if arg is not None:
        raise BotSpecError(f"bot {name!r}: 'wait' takes no argument")
    seat = new_seat_array()
    seat[0]["kind"] = WAIT_BOT
    return Bot(name, seat=seat)


def _heuristic(name: str, arg: Optional[str], league: int) -> Bot:
    from bots.heuristic.bot import heuristic_bot

    return heuristic_bot(name, arg, league)


def _study(name: str, arg: Optional[str], league: int) -> Bot:
    from tuner.studybots import bot_from_study

    if not arg:
        raise BotSpecError(f"bot {name!r}: expected study:STUDY.toml or study:STUDY.toml#TRIAL")
    return bot_from_study(name, arg, league)


BUILDERS = {"greedy": _greedy, "random": _random, "wait": _wait, "heuristic": _heuristic, "study": _study}
KNOWN = "greedy[:complete_day,max_seeds], random[:seed], wait, heuristic[:FILE.json], study:STUDY.toml[#N], cmd:<command>"


def parse_bot(text: str, league: int = 3) -> Bot:
    """The bot a name describes, for a game in `league`. Raises BotSpecError with a one-line reason."""
    text = text.strip()
    if text.startswith("cmd:"):
        command = text[4:].strip()
        if not command:
            raise BotSpecError("bot 'cmd:': the command line is empty (write cmd:<command line>)")
        return Bot(text, command=command)
    kind, sep, arg = text.partition(":")
    builder = BUILDERS.get(kind)
    if builder is None:
        raise BotSpecError(f"unknown bot {text!r} (known: {KNOWN})")
    return builder(text, arg if sep else None, league)
