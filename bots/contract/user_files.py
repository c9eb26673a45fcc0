"""Reading a file a user named (a study file, a parameter file, a template): its text, or one line saying why not."""
from __future__ import annotations

from pathlib import Path


def read_user_file(path, what: str, error: type[Exception]) -> str:
    """The UTF-8 text of `path`, or `error` naming the file and why it cannot be read: `what` says what the file
    should have been ("study file", "parameter file")."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot read ({problem})") from None
