"""Conversions between the compact journal (`tuner.storage.compact_codec`) and Optuna's plain journal of JSON
lines: `tuner storage export-plain` and `import-plain`."""
from __future__ import annotations

import json
import zlib
from collections.abc import Iterator

from engine.files import replaced_atomically
from tuner.storage.compact_codec import (
    BAD,
    MAGIC,
    SYNC_TAIL,
    Cursor,
    decode_frames,
    describe_stop,
    encode_frame,
    file_kind,
    not_a_journal,
    pack_floats,
    record_text,
)
from tuner.storage.compact_journal import READ_CHUNK
from tuner.storage.journal import DamagedJournal


def _iter_texts(path: str) -> Iterator[bytes]:
    """The record texts (plain journal lines) of a compact journal, in order, up to the first frame that cannot
    be decoded; then raises DamagedJournal if bytes are left (a damaged frame, or a write in progress)."""
    if file_kind(path) != "compact":
        raise not_a_journal(path)
    cursor = Cursor()
    with open(path, "rb") as handle:
        head = handle.read(len(MAGIC))
        if head != MAGIC:
            raise DamagedJournal(f"{path} is not a usable Optuna journal file: its first line is cut short")
        buffer = b""
        base = len(MAGIC)
        while True:
            chunk = handle.read(READ_CHUNK)
            if not chunk:
                break
            buffer = buffer[cursor.offset - base:] + chunk
            base = cursor.offset
            texts: list = []
            status = decode_frames(buffer, base, cursor, texts)
            yield from texts
            if status == BAD:
                buffer += handle.read()
                break
        rest = buffer[cursor.offset - base:]
        if rest:
            raise DamagedJournal(f"{path} is not a usable Optuna journal file: "
                                 + describe_stop(path, rest, cursor.offset, cursor.offset + len(rest), cursor.number))


def export_plain(path: str, out: str) -> int:
    """Write the plain Optuna journal of a compact one (the same records, byte for byte what Optuna's own file
    backend would have written); returns the number of records. `out` is written whole or not at all."""
    count = 0
    with replaced_atomically(out) as handle:
        for text in _iter_texts(path):
            handle.write(text)
            count += 1
    return count


def import_plain(path: str, out: str) -> int:
    """Write the compact journal of a plain one (its complete lines); returns the number of records."""
    deflater = Cursor().deflater()
    count = 0
    with open(path, "rb") as source, replaced_atomically(out) as handle:
        handle.write(MAGIC)
        for line in source:
            if not line.endswith(b"\n"):
                break
            text = record_text(json.loads(line))
            payload = deflater.compress(pack_floats(text)) + deflater.flush(zlib.Z_SYNC_FLUSH)
            handle.write(encode_frame(payload[:-len(SYNC_TAIL)]))
            count += 1
    return count
