"""Errors that are not bugs, which the command line prints as one line: the user's input (exit 2), a storage that
stayed unreachable (exit 75)."""
from __future__ import annotations


class UserError(Exception):
    """Bad input: a file, a field, a value. The message names the problem and what is allowed."""


class StorageUnavailable(Exception):
    """The study's storage stayed unreachable (a database down, a disk full) longer than the study allows, or the
    run was stopped meanwhile: the command line prints it as one line and exits EXIT_UNAVAILABLE. Nothing written
    is lost; running the same command again resumes the study."""


EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_UNAVAILABLE = 75  # sysexits' EX_TEMPFAIL: a failure that passes, try the same command again later
