"""A study file's `[search]` table, each entry fixing a parameter of the tuned bot or narrowing its range, and its
`[playing_budget]` table, the values some of those fixed parameters take in the finals (the playing budget)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from bots.contract.schema import ParamError, Schema
from tuner.studyfile.problems import FieldProblem, show


@dataclass(frozen=True)
class Override:
    """A search-space override: a fixed value, or a narrowed range."""

    name: str
    value: Optional[float] = None  # fixed
    low: Optional[float] = None
    high: Optional[float] = None

    @property
    def fixed(self) -> bool:
        return self.value is not None

    def to_json(self):
        return self.value if self.fixed else [self.low, self.high]


def _schema_parameter(schema: Schema, name: str, where: str):
    """The tuned bot's parameter `name`; a FieldProblem at `where` when it has none."""
    param = schema.by_name.get(name)
    if param is None:
        raise FieldProblem(f"unknown parameter {name!r} of bot {schema.bot!r} (see `tuner params` for its "
                           f"{len(schema)} parameters)", where)
    return param


def search_overrides(value: dict, schema: Schema) -> dict:
    """The `search` table as Overrides, checked against the tuned bot's schema."""
    out = {}
    for name, spec in value.items():
        where = f"search.{name}"
        param = _schema_parameter(schema, name, where)
        if isinstance(spec, list):
            if len(spec) != 2 or any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in spec):
                raise FieldProblem(f"must be [low, high] (two numbers) or a value, got {show(spec)}", where)
            low, high = spec
            if param.type == "int" and any(float(x) != int(x) for x in spec):
                raise FieldProblem(f"{param.name} is an integer parameter, got range {show(spec)}", where)
            if low > high:
                raise FieldProblem(f"range {show(spec)} is inverted (give [low, high] with low < high inside "
                                   f"{param.range_text})", where)
            if low == high:
                raise FieldProblem(f"range {show(spec)} is empty (give [low, high] with low < high, or "
                                   f"`{name} = {low}` to fix the parameter)", where)
            if low < param.low or high > param.high:
                raise FieldProblem(f"range {show(spec)} leaves the parameter's range ({param.range_text})", where)
            cast = int if param.type == "int" else float
            out[name] = Override(name, low=cast(low), high=cast(high))
        else:
            try:
                fixed = param.check(spec)
            except ParamError as error:
                raise FieldProblem(f"{error} (or give a range [low, high])", where) from None
            out[name] = Override(name, value=fixed)
    return out


def playing_budget_values(value: dict, schema: Schema, overrides: dict) -> dict:
    """The `playing_budget` table, checked: for parameters the search holds fixed (a search bot's budget, say), the
    values the finals and the final gauntlet play every finalist and the baseline with instead."""
    out = {}
    for name, spec in value.items():
        where = f"playing_budget.{name}"
        param = _schema_parameter(schema, name, where)
        override = overrides.get(name)
        if override is None or not override.fixed:
            raise FieldProblem(f"{name} is searched: a [playing_budget] value replaces a parameter the search holds "
                               f"fixed (give `{name} = VALUE` in [search] too: the budget the trials play at)", where)
        try:
            out[name] = param.check(spec)
        except ParamError as error:
            raise FieldProblem(str(error), where) from None
    return out
