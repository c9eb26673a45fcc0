"""The files a command writes: refused before any work when writing them would destroy an input (the study file,
its journal, the file being read) or cannot be a file at all, and a failed write reported as one line."""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional, Union

from tuner.errors import UserError

PathLike = Union[str, os.PathLike]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def check_output(path: Optional[PathLike], what: str, inputs: Optional[dict[str, Optional[PathLike]]] = None) -> None:
    """UserError unless `path` (the `what` a command is about to write, e.g. "--out") can be written as a file
    without destroying one of `inputs` ({what it is: its path}, None for absent ones): an existing folder, an
    input's own path and a file its folder cannot take are refused (an empty name: `arguments.file_path`)."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise UserError(f"{what} {str(path)!r} is a folder; give a file to write")
    _check_not_an_input(target, path, what, inputs)
    _check_creatable(target, path, what)


def check_output_folder(path: Optional[PathLike], what: str,
                        inputs: Optional[dict[str, Optional[PathLike]]] = None) -> None:
    """UserError unless `path` is a folder a command can write its files in (made if missing): an existing file
    (above all one of `inputs`) and a folder that cannot be made or written are refused."""
    if path is None:
        return
    target = Path(path)
    _check_not_an_input(target, path, what, inputs)
    if target.exists() and not target.is_dir():
        raise UserError(f"{what} {str(path)!r} is a file, not a folder; give a folder for the files to write")
    _check_creatable(target / "file", path, what)


def _check_not_an_input(target: Path, path: PathLike, what: str,
                        inputs: Optional[dict[str, Optional[PathLike]]]) -> None:
    for name, source in (inputs or {}).items():
        if source is not None and _same_file(target, Path(source)):
            raise UserError(f"{what} {str(path)!r} is {name}: writing it would destroy it; give another file")


def _check_creatable(target: Path, path: PathLike, what: str) -> None:
    """UserError unless a file can be made in `target`'s folder, or in the nearest existing one above it (the
    command makes the folders missing between): a try, with a temporary file removed at once."""
    folder = target.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise UserError(f"{what} {str(path)!r} cannot be written: {folder} is not a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tuner-try-"):
            pass
    except OSError as error:
        raise UserError(f"{what} {str(path)!r} cannot be written: no file can be made in {folder} "
                        f"({error.strerror or error})") from None


@contextmanager
def reported_write_errors(path: PathLike, what: str) -> Iterator[None]:
    """Turn an OSError while writing `path` (a missing or read-only folder, a full disk) into a one-line
    UserError naming the file."""
    try:
        yield
    except OSError as error:
        reason = error.strerror or str(error)
        raise UserError(f"{what} {str(path)!r} cannot be written: {reason}") from None
