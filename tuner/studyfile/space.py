"""The search space of a study: the bot's parameter schema with the study file's overrides applied.

Fixed parameters are not suggested to Optuna (they are not searched); every trial records its full parameter
set (`bot_params`), so a trial's bot never depends on the study file being unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

from bots.contract.names import seat_for
from bots.contract.schema import Schema
from tuner.studyfile.tunable import tuned_bot


@dataclass(frozen=True)
class Dimension:
    name: str
    type: str  # int, float or choice
    low: Any
    high: Any
    default: Any  # the start's value (the schema default or the baseline file's), clamped into [low, high]
    log: bool = False
    choices: tuple = ()

    @property
    def distribution(self):
        """The parameter as Optuna searches it (CMA-ES searches numbers; a choice is sampled independently)."""
        if self.type == "choice":
            return CategoricalDistribution(self.choices)
        if self.type == "int":
            return IntDistribution(int(self.low), int(self.high), log=self.log)
        return FloatDistribution(float(self.low), float(self.high), log=self.log)


class SearchSpace:
    def __init__(self, bot: str, schema: Schema, overrides: dict, start: Optional[dict] = None):
        """`start`: the values the search starts from (the study's `baseline` file), in place of the defaults."""
        self.bot = bot
        self.schema = schema
        self.fixed = {name: o.value for name, o in overrides.items() if o.fixed}
        self.dimensions = []
        for p in schema:
            if p.name in self.fixed:
                continue
            o = overrides.get(p.name)
            default = (start or {}).get(p.name, p.default)
            if p.type == "choice":
                self.dimensions.append(Dimension(p.name, p.type, None, None, default, choices=tuple(p.choices)))
                continue
            low, high = (o.low, o.high) if o is not None else (p.low, p.high)
            self.dimensions.append(Dimension(p.name, p.type, low, high, min(max(default, low), high), p.log))

    @classmethod
    def for_config(cls, config) -> SearchSpace:
        return cls(config.bot, tuned_bot(config).schema, config.search, config.baseline)

    def __len__(self) -> int:
        return len(self.dimensions)

    def baseline(self) -> dict:
        """Where the search starts: the schema defaults (or the study's `baseline` file), with fixed values and
        narrowed ranges applied."""
        values = {**self.schema.defaults(), **self.fixed}
        for d in self.dimensions:
            values[d.name] = d.default
        return self.schema.validate(values)

    def shipped_defaults(self) -> dict:
        """The bot's own defaults, with the study's fixed values: what the bot plays untuned (the baseline, when
        the study has no `baseline` file)."""
        return self.schema.validate({**self.schema.defaults(), **self.fixed})

    def start_point(self) -> dict:
        """The searched numbers' values at the start (CMA-ES's initial mean)."""
        return {d.name: d.default for d in self.dimensions if d.type != "choice"}

    @property
    def distributions(self) -> dict:
        """The searched parameters as Optuna distributions (what a trial is asked with)."""
        return {d.name: d.distribution for d in self.dimensions}

    def full(self, searched: dict) -> dict:
        """A trial's full parameter set: its searched values and the fixed ones, in schema order."""
        return self.schema.validate({**self.fixed, **searched})


def seat_of(bot: str, values: dict) -> np.ndarray:
    return seat_for(bot, values)
