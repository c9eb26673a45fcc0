"""A program's time per move as a parameter of its study, and the referee's limits that follow it.

    bot = "cpp:../bots/examples/mysearch.cpp --time-ms {time_ms} ..."
    [parameters]
    time_ms = { type = "int", low = 1, high = 100, default = 90 }
    [search]
    time_ms = 5            # the trials' budget
    [playing_budget]
    time_ms = 90           # the playing budget: the finals, the final gauntlet, the export

A program parameter named `time_ms` is the program's time per move, in milliseconds. It is fixed in `[search]`
(the trials play at that budget) and `[playing_budget]` gives the playing budget, as a search bot's budget is
(`tuner.studyfile.overrides`). The referee judges the tuned program by limits that follow the budget it plays: at the
playing budget P (the `[playing_budget]` value, else the `[search]` one) the study's own limits (`first_timeout`,
`turn_timeout`: CodinGame's 1000 and 100 ms), and at another budget t the same limits scaled by t / P, plus the
margin a busy machine needs (`budget_margin`, M ms) in full near 0 ms and none from P on:

    limit(t) = limit(P) x t / P + M x max(0, 1 - t / P)

At 5 ms a move against a playing budget of 90 ms and M = 10, a turn's limit is 15.0 ms and the first turn's 65.0
(CodinGame's 100 and 1000 at 90). A program that overruns its budget by more than CodinGame's own ratio allows,
plus the margin, is disqualified at the short budget as CodinGame would disqualify it at its own. The first turn
scales too: a search that spends its budget on the first turn (or ten times it, as the project's exports do) fits
it, and a C++ program starts in a few ms; a program with slow start-up (an interpreter) wants a larger margin.
Other programs (`cmd:` opponents) keep the study's limits.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from engine.players import MAX_TIME_LIMIT_MS, TimeLimits
from tuner.studyfile.problems import FieldProblem

BUDGET = "time_ms"  # the program parameter that is its time per move


@dataclass(frozen=True)
class ProgramBudget:
    """The study's limits at the playing budget, and what they become at another."""

    playing_ms: float  # P: the playing budget's time per move
    limits: TimeLimits  # the study's limits, at P
    margin_ms: float  # M

    def limits_at(self, time_ms: float) -> TimeLimits:
        """The limits a program playing `time_ms` a move is judged by."""
        ratio = float(time_ms) / self.playing_ms
        slack = self.margin_ms * max(0.0, 1.0 - ratio)

        def scaled(limit: float) -> float:
            return min(float(MAX_TIME_LIMIT_MS), round(limit * ratio + slack, 3))
        return TimeLimits(scaled(self.limits.first_ms), scaled(self.limits.turn_ms))


def check_budget(parameters: dict, overrides: dict) -> None:
    """A program's `time_ms` parameter is a positive number fixed in `[search]` (FieldProblem otherwise)."""
    param = parameters.get(BUDGET)
    if param is None:
        return
    if param.type == "choice" or param.low is None or param.low <= 0:
        raise FieldProblem(f"{BUDGET} is the program's time per move: an int or float parameter with low > 0 (e.g. "
                           f"{BUDGET} = {{ type = \"int\", low = 1, high = 100, default = 90 }})",
                           f"parameters.{BUDGET}")
    override = overrides.get(BUDGET)
    if override is None or not override.fixed:
        raise FieldProblem(f"{BUDGET} is the program's time per move, which the search does not tune: fix it in "
                           f"[search] ({BUDGET} = 5: the trials' budget) and give the playing budget in "
                           f"[playing_budget] ({BUDGET} = 90)", f"search.{BUDGET}")


def program_budget(config) -> Optional[ProgramBudget]:
    """The budget of a study (`tuner.studyfile.config.StudyConfig`) whose program has a `time_ms` parameter, else
    None."""
    program = config.program
    if program is None or BUDGET not in program.parameters:
        return None
    playing = config.playing_budget.get(BUDGET, config.search[BUDGET].value)
    return ProgramBudget(float(playing), TimeLimits(config.first_timeout, config.turn_timeout),
                         float(config.file.budget_margin))


def limits_of(config, params: dict) -> TimeLimits:
    """The limits the study's program is judged by with these parameters."""
    budget = program_budget(config)
    if budget is not None and BUDGET in params:
        return budget.limits_at(params[BUDGET])
    return TimeLimits(config.first_timeout, config.turn_timeout)


def budget_record(config, params: dict) -> dict:
    """The budget a figure was played at, for its record: the value of each budget parameter (those `[playing_budget]`
    sets, and a program's `time_ms`) and, for a program, the limits the referee judged it by. Empty for an
    in-engine bot without a playing budget."""
    names = list(config.playing_budget)
    if config.program is not None and BUDGET in config.program.parameters and BUDGET not in names:
        names.append(BUDGET)
    out: dict = {name: params[name] for name in names if name in params}
    if config.program is not None:
        limits = limits_of(config, params)
        out.update(first_timeout_ms=limits.first_ms, turn_timeout_ms=limits.turn_ms)
    return out


def shown_budget(record: dict) -> str:
    """A budget record as a report writes it: `time_ms = 5; limits 65 ms the first turn, 15 ms the others`."""
    values = ", ".join(f"{name} = {value:g}" if isinstance(value, float) else f"{name} = {value}"
                       for name, value in record.items() if not name.endswith("_timeout_ms"))
    if "turn_timeout_ms" not in record:
        return values
    limits = f"limits {record['first_timeout_ms']:g} ms the first turn, {record['turn_timeout_ms']:g} ms the others"
    return f"{values}; {limits}" if values else limits


__all__ = ["BUDGET", "ProgramBudget", "budget_record", "check_budget", "limits_of", "program_budget",
           "shown_budget"]
