"""Files: written so that a reader never sees half of one and a failed write leaves the old one intact, and read
whether gzip-compressed or not."""
from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Optional


@contextmanager
def replaced_atomically(path, mode: Optional[int] = None) -> Iterator[BinaryIO]:
    """A binary file to write that replaces `path` only once whole: it is a temporary file beside `path` (its
    folder created), renamed over `path` when the block ends. On an error the temporary file is removed and
    `path` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            yield handle
        if mode is not None:
            os.chmod(tmp, mode)
        tmp.replace(path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_atomically(path: Path, text: str, mode: Optional[int] = None) -> None:
    """Write `text` (UTF-8) over `path` atomically (`replaced_atomically`)."""
    with replaced_atomically(path, mode) as handle:
        handle.write(text.encode("utf-8"))


GZIP_MAGIC = b"\x1f\x8b"


def read_text(path) -> str:
    """A UTF-8 text file's content, gzip-compressed or not: told by its first bytes (gzip's magic number), not by
    its name, so that a game record opens whatever it is called. OSError (gzip.BadGzipFile for broken compressed
    data), EOFError (a truncated one) or UnicodeDecodeError when it cannot be read."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except zlib.error as error:
            raise gzip.BadGzipFile(f"broken gzip data ({error})") from None
    return data.decode("utf-8")
