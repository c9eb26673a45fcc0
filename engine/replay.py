"""Replay a recorded game: feed each recorded answer to the engine and compare every record it produces.

A game file is JSON lines: a header, one record per frame, and END (`shared/referee/README.md` §3). The
engine replays the recorded outputs and must reproduce everything else: each player's input lines
(possible moves in their shuffled order included), parsed actions, errors, disqualifications, seed
conflicts, every state, the harvests and the END record.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from engine.files import read_text
from engine.game import Game

HEADER_FIELDS = ("seed", "league", "max_days", "map", "global_input")
END_FIELDS = ("turns", "day", "player_executions", "deactivated", "state", "score_before_bonus", "sun_bonus",
              "tree_bonus", "final_scores", "end_screen_scores", "winner", "draw")


class TraceError(ValueError):
    """The file is not a readable game record."""


@dataclass
class Difference:
    frame: Any
    field: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"frame {self.frame}, {self.field}: expected {_short(self.expected)}, got {_short(self.got)}"


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def first_difference(expected: Any, got: Any, path: str) -> Optional[tuple[str, Any, Any]]:
    """The first place where two JSON values differ, as (path, expected, got)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in expected:
            if key not in got:
                return f"{path}.{key}", expected[key], "(missing)"
            found = first_difference(expected[key], got[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for i, (e, g) in enumerate(zip(expected, got)):
            found = first_difference(e, g, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(got):
            return f"{path} length", len(expected), len(got)
        return None
    if type(expected) is not type(got) or expected != got:
        return path, expected, got
    return None


def read_records(path: Path) -> list[dict]:
    """The records of a game file (plain or gzip-compressed JSON lines, whatever its name)."""
    try:
        lines = read_text(path).splitlines()
    except FileNotFoundError:
        raise TraceError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TraceError(f"{path}: is a directory, not a game file") from None
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise TraceError(f"{path}: cannot read ({error})") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise TraceError(f"{path}: line {number} is not JSON ({error.msg})") from None
        if not isinstance(record, dict) or "t" not in record:
            raise TraceError(f"{path}: line {number} is not a game record (no 't' field)")
        records.append(record)
    if not records or records[0]["t"] != "header":
        raise TraceError(f"{path}: the first record is not a header")
    if records[-1]["t"] != "END":
        raise TraceError(f"{path}: the last record is not END (truncated file?)")
    header = records[0]
    for key in HEADER_FIELDS + ("p0", "p1"):
        if key not in header:
            raise TraceError(f"{path}: the header has no '{key}' field")
    if type(header["seed"]) is not int or not -(2**63) <= header["seed"] < 2**63:  # bool is an int, 1.0 == 1
        raise TraceError(f"{path}: header seed {header['seed']!r} is not a 64-bit integer")
    if type(header["league"]) is not int or header["league"] not in (1, 2, 3):
        raise TraceError(f"{path}: header league {header['league']!r} is not 1, 2 or 3")
    return records


def replay_records(records: list[dict]) -> Optional[Difference]:
    """Replay a game's records; the first difference, or None when every frame matches."""
    header = records[0]
    game = Game(header["seed"], header["league"])
    mine = game.header(header["p0"], header["p1"], header.get("timeouts_ms", [1000, 100]))
    for key in HEADER_FIELDS:  # both ways: a header missing a part of the map (`"map": {}`) differs too
        found = first_difference(header[key], mine[key], key)
        missing = first_difference(mine[key], header[key], key)
        if found or missing:
            where, expected, got = found or (missing[0], "(missing)", missing[1])
            return Difference("header", where, expected, got)

    for record in records[1:-1]:
        frame = record.get("turn", "?")
        if game.over:
            return Difference(frame, "t", record.get("t"), "END (the game is over)")
        outputs = record.get("output") or [None, None]
        if not isinstance(outputs, list) or len(outputs) != 2:
            raise TraceError(f"frame {frame}: 'output' is not a list of two answers")
        got = game.play_frame(lambda p, lines: outputs[p])
        skip = ("output",)
        for key, value in record.items():
            if key in skip:
                continue
            found = first_difference(value, got.get(key, "(missing)"), key)
            if found:
                return Difference(frame, *found)

    end = records[-1]
    if not game.over:
        return Difference(end.get("turns", "END"), "t", "END", f"{game.phase} (the game goes on)")
    mine = game.end_record(header.get("sdk_duration_quota", False))
    for key in END_FIELDS:
        if key in end:
            found = first_difference(end[key], mine[key], key)
            if found:
                return Difference("END", *found)
    return None


def replay_file(path: Path) -> Optional[Difference]:
    records = read_records(path)
    try:
        return replay_records(records)
    except (KeyError, TypeError, AttributeError) as error:
        raise TraceError(f"{path}: malformed record ({type(error).__name__}: {error})") from None
    except TraceError as error:
        raise TraceError(f"{path}: {error}") from None
