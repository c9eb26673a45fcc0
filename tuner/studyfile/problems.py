"""What can be wrong with a study file: `StudyFileError`, the one line a command prints, and `FieldProblem`, what a
field's check found (worded into that line by `tuner.studyfile.messages`); values shown as the file writes them."""
from __future__ import annotations

import json
from typing import Optional

from tuner.errors import UserError


class StudyFileError(UserError):
    """A study file that cannot be read or does not describe a study."""


class FieldProblem(ValueError):
    """What is wrong with a field's value: `message` follows "field 'NAME'" ("must be ..." or a sentence)."""

    def __init__(self, message: str, field: Optional[str] = None):
        super().__init__(message)
        self.field = field  # a nested field ("search.grow_horizon"), else the field being validated


def show(value) -> str:
    """A value as TOML and JSON write it (strings quoted, lists and tables as JSON)."""
    return json.dumps(value) if isinstance(value, (str, list, dict)) else repr(value)
