"""The one line a study file's first problem is worded as: the file, the field, the value and what is allowed,
from pydantic's validation errors and the fields' own documentation (`field_doc`)."""
from __future__ import annotations

import difflib
from pathlib import Path

from pydantic import ValidationError

from tuner.studyfile.model import FIELD_INFO, field_texts
from tuner.studyfile.problems import FieldProblem, show

RANGE_ERRORS = ("greater_than", "greater_than_equal", "less_than", "less_than_equal")


def first_problem(path: Path, error: ValidationError, data: dict) -> str:
    """The line for the first of the file's problems: unknown fields first, then missing ones, then the others
    in the fields' order."""
    errors = sorted(error.errors(), key=lambda e: (e["type"] != "extra_forbidden", e["type"] != "missing",
                                                    _field_order(e)))
    return _message(path, errors[0], data)


def _field_order(error) -> int:
    names = list(FIELD_INFO)
    loc = error["loc"]
    return names.index(loc[0]) if loc and loc[0] in names else len(names)


def _type_name(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def _allowed(name: str, error) -> str:
    """What a field's type or range error says is allowed: its own words, else an integer's range."""
    info = FIELD_INFO[name]
    extra = field_texts(name)
    if error["type"] in RANGE_ERRORS and "allowed" not in extra:
        low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
        high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
        if low is not None and high is not None:
            return f"an integer in [{low}, {high}]"
    return extra.get("allowed", extra["type_text"])


def _message(path: Path, error, data: dict) -> str:
    loc = [str(part) for part in error["loc"]]
    name = loc[0] if loc else ""
    if error["type"] == "extra_forbidden":
        close = difflib.get_close_matches(name, list(FIELD_INFO), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"{path}: unknown field {name!r} ({hint}allowed: {', '.join(FIELD_INFO)})"
    if error["type"] == "missing":
        return f"{path}: missing field {name!r} ({field_texts(name)['type_text']}: {FIELD_INFO[name].description})"
    problem = (error.get("ctx") or {}).get("error")
    if isinstance(problem, FieldProblem):
        field = problem.field if problem.field is not None else name
        text = str(problem)
        if field == "":
            return f"{path}: {text}"
        return f"{path}: field {field!r}" + (" " if text.startswith("must") else ": ") + text
    value = data.get(name)
    if error["type"] in RANGE_ERRORS:
        shown = f"{value:g}" if isinstance(value, float) else value
        return f"{path}: field {name!r} must be {_allowed(name, error)}, got {shown}"
    return f"{path}: field {name!r} must be {_allowed(name, error)}, got {_type_name(value)} {show(value)}"
