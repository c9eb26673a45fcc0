"""Parameter files (JSON): a bot's tuned parameters and where they came from.

    {"bot": "heuristic", "league": 3, "params": {...every parameter...},
     "source": {"study": "...", "trial": 12, "date": "2026-11-21T10:00:00+00:00", ...}}

Reading a file validates it against the bot's schema: unknown names, missing names and out-of-range
values are errors naming the parameter and its range; a parameter added after the bot's first files (`Param.since`)
may be missing, and takes its default, which plays as the bot played without it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bots.contract.schema import ParamError
from bots.contract.user_files import read_user_file
from bots.registry import schema_for
from engine.files import write_atomically


@dataclass
class ParamFile:
    bot: str
    league: int
    params: dict
    source: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"bot": self.bot, "league": self.league, "params": self.params, "source": self.source}


def read_param_file(path: Path) -> ParamFile:
    where = str(path)
    text = read_user_file(where, "parameter file", ParamError)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParamError(f"{where}: not JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(data, dict):
        raise ParamError(f"{where}: expected a JSON object with bot, league, params and source")
    for key in ("bot", "params"):
        if key not in data:
            raise ParamError(f"{where}: missing field {key!r} (a parameter file has bot, league, params, source)")
    unknown = sorted(set(data) - {"bot", "league", "params", "source"})
    if unknown:
        raise ParamError(f"{where}: unknown field {unknown[0]!r} (allowed: bot, league, params, source)")
    league = data.get("league", 3)
    if type(league) is not int or league not in (1, 2, 3):
        raise ParamError(f"{where}: field 'league' must be 1, 2 or 3, got {json.dumps(league)}")
    source = data.get("source", {})
    if not isinstance(source, dict):
        raise ParamError(f"{where}: field 'source' must be an object")
    try:
        if not isinstance(data["bot"], str):
            raise ParamError(f"must be a bot's name, got {json.dumps(data['bot'])}")
        schema = schema_for(data["bot"])
    except ParamError as error:
        raise ParamError(f"{where}: field 'bot': {error}") from None
    params = schema.validate(data["params"], where)
    return ParamFile(data["bot"], league, params, source)


def write_param_file(path: Path, params_file: ParamFile) -> None:
    """Write atomically: a reader never sees half a file, and a failed write leaves the old file intact."""
    schema_for(params_file.bot).validate(params_file.params, str(path))
    write_atomically(Path(path), json.dumps(params_file.to_json(), indent=2) + "\n")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
