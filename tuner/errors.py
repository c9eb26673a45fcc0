"""Errors that are the user's input, not a bug: the command line prints them as one line and exits 2."""
from __future__ import annotations


class UserError(Exception):
    """Bad input: a file, a field, a value. The message names the problem and what is allowed."""


EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
