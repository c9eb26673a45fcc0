"""The text protocol: what a player reads, how its answer is parsed, and the referee's messages.

The command grammar reproduces the referee's Java patterns with `Matcher.matches()` (the whole line must
match). Java's `\\s` is [ \\t\\n\\x0B\\f\\r] (no NBSP), its `.` stops at line terminators and its `\\d` is
ASCII only, so they are spelled out here instead of using Python's Unicode-aware classes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine import rules
from engine.geometry import CELLS, NEIGHBOR
from engine.leagues import League

_WS = r"[ \t\n\x0b\f\r]"
_DOT = r"[^\n\r\u0085\u2028\u2029]"
_MESSAGE = rf"(?:{_WS}+{_DOT}*)?"
WAIT_PATTERN = re.compile(rf"WAIT{_MESSAGE}")
GROW_PATTERN = re.compile(rf"GROW ([0-9]+){_MESSAGE}")
COMPLETE_PATTERN = re.compile(rf"COMPLETE ([0-9]+){_MESSAGE}")
SEED_PATTERN = re.compile(rf"SEED ([0-9]+) ([0-9]+){_MESSAGE}")

JAVA_INT_MAX = 2147483647
TIMEOUT_REASON = "Timeout!"
KIND_NAMES = {rules.WAIT: "WAIT", rules.SEED: "SEED", rules.GROW: "GROW", rules.COMPLETE: "COMPLETE"}


@dataclass(frozen=True)
class Command:
    """A parsed answer. `kind` is a rules action kind, or rules.NO_ACTION when the line disqualifies
    (`invalid` then holds the referee's reason)."""

    kind: int
    a: int = 0
    b: int = 0
    invalid: str | None = None
    label: str | None = None  # the name of the action in the records, when it is not the kind's

    @property
    def name(self) -> str:
        if self.label is not None:
            return self.label
        return "INVALID" if self.invalid is not None else KIND_NAMES[self.kind]


class _NumberFormat(Exception):
    pass


def _java_int(digits: str) -> int:
    value = int(digits)
    if value > JAVA_INT_MAX:
        raise _NumberFormat(f'java.lang.NumberFormatException: For input string: "{digits}"')
    return value


def invalid_input_reason(league: League, got: str) -> str:
    message = f"Invalid Input: Expected {league.expected_commands} but got '{got}'"
    return message.replace("&lt;", "<").replace("&gt;", ">")


MEMO_CHARS = 40  # answers up to this long are memoized: bots repeat them (WAIT, SEED 12 30, ...)
MEMO_SIZE = 8192
_MEMO: dict = {}


def parse_command(line: str, league: League) -> Command:
    """Parse one answer line as the referee's CommandManager does (WAIT, GROW, COMPLETE, SEED, in that order)."""
    if len(line) > MEMO_CHARS:
        return _parse_command(line, league)
    key = (line, league.number)
    command = _MEMO.get(key)
    if command is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        command = _MEMO[key] = _parse_command(line, league)
    return command


def _parse_command(line: str, league: League) -> Command:
    try:
        if WAIT_PATTERN.fullmatch(line):
            return Command(rules.WAIT)
        if league.can_grow and (match := GROW_PATTERN.fullmatch(line)):
            return Command(rules.GROW, _java_int(match.group(1)))
        if match := COMPLETE_PATTERN.fullmatch(line):
            return Command(rules.COMPLETE, _java_int(match.group(1)))
        if league.can_seed and (match := SEED_PATTERN.fullmatch(line)):
            source = _java_int(match.group(1))
            return Command(rules.SEED, source, _java_int(match.group(2)))
    except _NumberFormat as error:
        return Command(rules.NO_ACTION, invalid=invalid_input_reason(league, str(error)))
    return Command(rules.NO_ACTION, invalid=invalid_input_reason(league, line))


def format_move(kind: int, a: int, b: int) -> str:
    if kind == rules.WAIT:
        return "WAIT"
    if kind == rules.SEED:
        return f"SEED {a} {b}"
    return f"{KIND_NAMES[kind]} {a}"


_REJECTIONS = {
    rules.CELL_NOT_FOUND: "Cell {x} not found",
    rules.TREE_NOT_FOUND: "There is no tree on cell {x}",
    rules.NOT_OWNER: "The tree on cell {x} is owned by opponent",
    rules.DORMANT: "Tree on cell {x} is dormant (has already been used this round)",
    rules.ALREADY_TALL: "Tree on cell {x} cannot grow more (max size is 3).",
    rules.NOT_ENOUGH_SUN: "Not enough sun. You need {x} but have {y}",
    rules.NOT_TALL: "The tree on cell {x} is not large enough",
    rules.CELL_NOT_EMPTY: "There is already a tree on cell {x}",
    rules.IS_SEED: "The seed on {x} cannot produce seeds",
    rules.TOO_FAR: "The tree on cell {x} is too far from cell {y} to plant a seed there",
    rules.CELL_NOT_VALID: "You can't plant a seed on cell {x}",
}


def rejection_message(code: int, x: int, y: int) -> str | None:
    """The referee's message for a rejected action, or None when the action was accepted."""
    if code == rules.OK:
        return None
    return _REJECTIONS[code].format(x=x, y=y)


_NEIGHBORS = [" ".join(str(int(NEIGHBOR[c * 6 + d])) for d in range(6)) for c in range(CELLS)]


def global_input(richness) -> list[str]:
    """The initialization lines: the number of cells, then `index richness n0 .. n5` for every cell."""
    return [str(CELLS)] + [f"{c} {int(richness[c])} {_NEIGHBORS[c]}" for c in range(CELLS)]
