"""Parameter schemas: for each parameter of a bot its name, type, range, default and meaning.

A schema is the single source for the tuner's search space, for validating parameter files and study
overrides, and for the documentation (`tuner params`). In compiled code a bot reads its parameters as a
float vector in schema order (`Schema.vector`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np

Number = Union[int, float]


class ParamError(ValueError):
    """Parameters that do not fit the schema; the message names the parameter and what is allowed."""


@dataclass(frozen=True)
class Param:
    """A parameter: "int" or "float" in [low, high] (`log`: searched on a log scale, low > 0), or "choice", one of
    `choices` (strings, numbers or booleans; low and high are None)."""

    name: str
    type: str  # "int", "float" or "choice"
    low: Optional[Number]
    high: Optional[Number]
    default: Any  # a number, or one of the choices
    doc: str
    log: bool = False
    choices: tuple = ()
    perturbed: bool = True  # part of the bot's style, drawn anew per game by `NAME~J`; False for a resource (a budget)
    since: str = ""  # the version that added it: parameter files written before may omit it (its default plays as
    # the bot played without it)

    def __post_init__(self):
        if self.type == "choice":
            if not self.choices:
                raise ValueError(f"parameter {self.name}: a choice needs at least one value")
            if self.log:
                raise ValueError(f"parameter {self.name}: log applies to int and float parameters only")
            if choice_index(self.choices, self.default) is None:
                raise ValueError(f"parameter {self.name}: default {self.default!r} is not one of {list(self.choices)}")
            return
        if self.type not in ("int", "float"):
            raise ValueError(f"parameter {self.name}: type must be int, float or choice")
        low, high = self.bounds()
        if not low <= self.default <= high:
            raise ValueError(f"parameter {self.name}: default {self.default} outside [{low}, {high}]")
        if self.log and low <= 0:
            raise ValueError(f"parameter {self.name}: a log scale needs low > 0, got {low}")

    def bounds(self) -> tuple[Number, Number]:
        """(low, high) of a number parameter."""
        if self.low is None or self.high is None:
            raise ValueError(f"parameter {self.name}: an {self.type} parameter needs low and high")
        return self.low, self.high

    @property
    def range_text(self) -> str:
        if self.type == "choice":
            return "one of " + ", ".join(json.dumps(c) for c in self.choices)
        return f"{self.type} in [{self.low}, {self.high}]" + (" (log scale)" if self.log else "")

    def check(self, value, where: str = "") -> Any:
        """The value as this parameter's type (a number, or the choice as declared), or ParamError naming the
        parameter and its range."""
        prefix = f"{where}: " if where else ""
        if self.type == "choice":
            index = choice_index(self.choices, value)
            if index is None:
                raise ParamError(f"{prefix}parameter {self.name!r} must be {self.range_text}, got {value!r}")
            return self.choices[index]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParamError(f"{prefix}parameter {self.name!r} must be a number ({self.range_text}), got {value!r}")
        if self.type == "int":
            if isinstance(value, float) and not value.is_integer():
                raise ParamError(f"{prefix}parameter {self.name!r} must be an integer ({self.range_text}), "
                                 f"got {value!r}")
            value = int(value)
        else:
            value = float(value)
            if value != value:
                raise ParamError(f"{prefix}parameter {self.name!r} must be a number ({self.range_text}), got NaN")
        low, high = self.bounds()
        if not low <= value <= high:
            raise ParamError(f"{prefix}parameter {self.name!r} = {value} is out of range ({self.range_text})")
        return value

    def number(self, value) -> float:
        """The value as compiled code reads it: the number itself, or a choice's index."""
        if self.type != "choice":
            return float(value)
        index = choice_index(self.choices, value)
        if index is None:
            raise ParamError(f"parameter {self.name!r} must be {self.range_text}, got {value!r}")
        return float(index)


def choice_index(choices: tuple, value) -> Optional[int]:
    """The index of `value` among `choices`, types kept apart (True is not 1, 1 is not "1"); 1 and 1.0 match."""
    for i, choice in enumerate(choices):
        if isinstance(choice, bool) != isinstance(value, bool) or isinstance(choice, str) != isinstance(value, str):
            continue
        if choice == value:
            return i
    return None


class Schema:
    """An ordered list of parameters."""

    def __init__(self, bot: str, params: Iterable[Param]):
        self.bot = bot
        self.params = list(params)
        self.by_name = {p.name: p for p in self.params}
        if len(self.by_name) != len(self.params):
            raise ValueError(f"schema {bot}: duplicate parameter names")

    def __len__(self) -> int:
        return len(self.params)

    def __iter__(self):
        return iter(self.params)

    def index(self, name: str) -> int:
        return self.params.index(self.by_name[name])

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}

    def validate(self, values: Mapping, where: str = "", complete: bool = True) -> dict:
        """Checked values in schema order. Unknown names are errors; so are missing ones when `complete`."""
        prefix = f"{where}: " if where else ""
        if not isinstance(values, Mapping):
            raise ParamError(f"{prefix}parameters must be a JSON object of name: value, got {type(values).__name__}")
        unknown = [name for name in values if name not in self.by_name]
        if unknown:
            raise ParamError(f"{prefix}unknown parameter {unknown[0]!r} for bot {self.bot!r} "
                             f"(see `tuner params` for the {len(self)} parameters)")
        if complete:
            missing = [p.name for p in self.params if p.name not in values and not p.since]
            if missing:
                p = self.by_name[missing[0]]
                raise ParamError(f"{prefix}missing parameter {p.name!r} ({p.range_text}, default {p.default})"
                                 + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
        return {p.name: p.check(values[p.name], where) for p in self.params if p.name in values}

    def vector(self, values: Mapping, size: int) -> np.ndarray:
        """The float vector compiled code reads, parameters in schema order, padded with zeros to `size`."""
        full = {**self.defaults(), **values}
        out = np.zeros(size, dtype=np.float64)
        for i, p in enumerate(self.params):
            out[i] = p.number(full[p.name])
        return out

    def describe(self) -> list:
        out = []
        for p in self.params:
            entry: dict[str, Any] = {"name": p.name, "type": p.type, "low": p.low, "high": p.high,
                                     "default": p.default, "doc": p.doc}
            if p.log:
                entry["log"] = True
            if p.type == "choice":
                entry["choices"] = list(p.choices)
            out.append(entry)
        return out
