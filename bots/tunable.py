"""The bots with a parameter schema: the ones a study tunes and a parameter file holds, and their seats."""
from __future__ import annotations

from bots.schema import ParamError, Schema
from bots.seat import HEURISTIC_BOT, MAX_PARAMS, new_seat_array

TUNABLE = {"heuristic": HEURISTIC_BOT}  # bot name -> the seat kind its compiled policy answers to


def schema_for(bot: str) -> Schema:
    if bot == "heuristic":
        from bots.heuristic.schema import SCHEMA

        return SCHEMA
    raise ParamError(f"bot {bot!r} has no parameter schema (allowed: {', '.join(TUNABLE)})")


def make_bot(bot: str, values: dict, name: str, source: dict):
    """A ready-to-play in-engine `Bot` from named parameter values (the schema's defaults for missing ones)."""
    from bots.registry import Bot  # imports the engine: not needed to read a study or parameter file

    seat = new_seat_array()
    seat[0]["kind"] = TUNABLE[bot]
    seat[0]["params"][:] = schema_for(bot).vector(values, MAX_PARAMS)
    return Bot(name, seat=seat, params=dict(values), source=source)
