"""The compact journal: Optuna's journal records, each deflated in one stream with the records before it.

The default storage of a new study (`<study file name>.journal`). A plain Optuna journal repeats, for every
parameter of every trial, the worker's id, the names and the distribution's JSON: ~15 kB a trial for the
quickstart; the same records in this format take ~1.9 kB. The format is detected by the file's first bytes, so
a plain journal (written by Optuna or an older tuner) keeps opening and is appended to in its own format
(`tuner.storage.journal`). `tuner storage export-plain` writes the plain journal of a compact one (what
`optuna-dashboard FILE` and any Optuna program read); decoding every frame in order gives that file byte for byte.

File layout::

    MAGIC                          one line naming the format (`head -1 FILE` says what it is)
    frame*                         one frame per journal record, in the order Optuna appended them
    frame   = varint(len(payload)) payload crc32(varint + payload):u32le
    payload = one deflate segment (raw deflate, 32 kB window) of the record's packed text, ended by a sync
              flush whose constant 4-byte tail (00 00 ff ff) is left out

The record's text is Optuna's JSON line (compact separators, ASCII, ending in a newline); packed, every float
literal of 5+ decimals that Python's repr gives back byte for byte is replaced by 0xff and the float's 8 bytes
(JSON text is ASCII: a byte >= 0x80 cannot be part of it). Trial parameters, CMA-ES's `x_for_tell`, heartbeats
and intermediate values are 17-digit floats; in a small deflate block a digit costs a byte, so this saves about
15% of the file.

Why one stream with a 32 kB window: every record repeats its writer's id (a uuid4 and a thread id) and most of
the record before it, which deflate then codes as back-references of a few bits; a record costs ~10-25 bytes.
A writer continues its deflate stream while it alone appends (~10 us a record); when another process has
appended meanwhile, it decodes those frames and starts a new stream with the last 32 kB of text as its
dictionary (~70 us). Readers decode the frames in order with one inflater (~4 us a record); a snapshot
(`tuner.storage.snapshots`) keeps the last 32 kB of text with the replay state, so a reader can start there.

Concurrency: a writer takes an exclusive `flock` on the journal (released by the kernel when a process dies),
decodes what others appended since it last looked, and appends its frames with one `write()` (O_APPEND; one that
fails for a reason that passes, a full disk, is tried again from its first byte not written, as for plain journals:
`tuner.storage.journal.write_all`). Readers take no lock: a frame not complete yet, at the end of the file, is where
they stop until the next read. The file is forced to disk (fsync) when a study is created and when a trial
finishes, as for plain journals.

Damage: decoding stops at the first frame that is incomplete, fails its crc or does not inflate. Opening a
study checks that the reader stopped at the file's end; else the file is refused, left unchanged, with one line:
when only the last frame is incomplete (a write that did not finish: a full disk, a machine crash) the line
says how to keep the complete records (`truncate -s N FILE`); a damaged frame with more bytes after it, or a
file that is no journal at all, gets no such advice. A writer refuses to append after bytes it cannot decode.
"""
from __future__ import annotations

import json
import os
import re
import struct
import threading
import zlib
from collections import deque
from collections.abc import Iterator
from sys import intern
from typing import Any, BinaryIO, Optional

from optuna.storages.journal import BaseJournalBackend

from engine.files import replaced_atomically
from tuner.errors import UserError
from tuner.optuna_internals import (
    BaseJournalSnapshot,
    JournalOperation,
    journal_backend,
    set_snapshot_interval,
    snapshot_journal_storage,
)
from tuner.storage import snapshots
from tuner.storage.journal import DamagedJournal, DurableRecords, write_all
from tuner.storage.outage import Outage

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock: one writer at a time
    fcntl = None  # type: ignore[assignment]

MAGIC = b"tuner compact journal 1 (a plain Optuna journal of it: tuner storage export-plain)\n"
WINDOW = 32 * 1024  # deflate's window: what a back-reference can reach
LEVEL = 6  # 9 saves 1% for 15% more time; 1 costs 15% more bytes (measured on a quickstart journal)
SYNC_TAIL = b"\x00\x00\xff\xff"
FLOAT_MARK = 0xFF
MAX_VARINT = 5
READ_CHUNK = 8 << 20  # bytes a reader decodes at a time (bounds the texts held in memory)

_SET_TRIAL_PARAM = JournalOperation.SET_TRIAL_PARAM
_SET_TRIAL_USER_ATTR = JournalOperation.SET_TRIAL_USER_ATTR
_SET_TRIAL_SYSTEM_ATTR = JournalOperation.SET_TRIAL_SYSTEM_ATTR
_FLOAT = struct.Struct(">d")
_U32 = struct.Struct("<I")
# A float literal of JSON text with 5+ decimals (shorter ones gain nothing), after the separator that starts a
# JSON value (a pattern that starts with a character set is searched for fast) and before one that ends it.
_FLOAT_LITERAL = re.compile(rb"([:,\[])(-?[0-9]+\.[0-9]{5,}(?:e[-+][0-9]+)?)(?=[,}\]])")


def pack_floats(text: bytes) -> bytes:
    """Replace the float literals that round-trip (repr) by FLOAT_MARK + their 8 bytes (see the module doc)."""
    if b"." not in text:
        return text
    return _FLOAT_LITERAL.sub(_pack_float, text)


def _pack_float(match) -> bytes:
    literal = match.group(2)
    value = float(literal)
    if repr(value).encode("ascii") != literal:
        return match.group()
    return match.group(1) + b"\xff" + _FLOAT.pack(value)


def unpack_floats(data: bytes) -> bytes:
    i = data.find(b"\xff")
    if i < 0:
        return data
    parts, start = [], 0
    while i >= 0:
        parts.append(data[start:i])
        parts.append(repr(_FLOAT.unpack_from(data, i + 1)[0]).encode("ascii"))
        start = i + 9
        i = data.find(b"\xff", start)
    parts.append(data[start:])
    return b"".join(parts)


def _shared(value):
    if isinstance(value, dict):
        return {intern(k) if isinstance(k, str) else k: _shared(v) for k, v in value.items()}
    if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        return [_shared(v) for v in value]
    return value


def shared_names(log: dict) -> dict:
    """A record whose parameter and attribute names (and their values' keys) are interned strings: the trials of
    a replay then share one string per name instead of holding a copy each (every trial names its 31 parameters
    twice: in its params and in `bot_params`), which makes the replay state smaller in memory, its snapshot ~25%
    smaller and faster to load."""
    op = log.get("op_code")
    if op == _SET_TRIAL_PARAM:
        log["param_name"] = intern(log["param_name"])
    elif op == _SET_TRIAL_USER_ATTR:
        log["user_attr"] = _shared(log["user_attr"])
    elif op == _SET_TRIAL_SYSTEM_ATTR:
        log["system_attr"] = {intern(k): v for k, v in log["system_attr"].items()}
    return log


def record_text(log: dict) -> bytes:
    """A record as Optuna's journal file writes it (the line of the plain journal)."""
    return (json.dumps(log, separators=(",", ":")) + "\n").encode("ascii")


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    head = _varint(len(payload)) + payload
    return head + _U32.pack(zlib.crc32(head))


class Cursor:
    """A place in the journal: byte offset, records before it, crc32 of the bytes before it, the last WINDOW
    bytes of packed text before it (the deflate history), and an inflater standing there (made when needed)."""

    __slots__ = ("offset", "number", "crc", "window", "_inflater")

    def __init__(self, offset: int = len(MAGIC), number: int = 0, crc: int = zlib.crc32(MAGIC),
                 window: bytes = b"") -> None:
        self.offset, self.number, self.crc = offset, number, crc
        self.window = bytearray(window)
        self._inflater: Any = None  # a zlib decompress object

    def history(self) -> bytes:
        return bytes(self.window[-WINDOW:])

    def inflater(self):
        if self._inflater is None:
            history = self.history()
            self._inflater = zlib.decompressobj(-15, zdict=history) if history else zlib.decompressobj(-15)
        return self._inflater

    def deflater(self):
        """A new deflate stream that continues from here."""
        history = self.history()
        return (zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9, zdict=history) if history
                else zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9))

    def remember(self, packed: bytes) -> None:
        window = self.window
        window += packed
        if len(window) > 2 * WINDOW:
            del window[:-WINDOW]


CUT, BAD = "cut", "bad"


def decode_frames(data, base: int, cursor: Cursor, texts: list) -> Optional[str]:
    """Decode the complete frames of `data` (the file's bytes from offset `base` == cursor.offset), appending
    each record's text to `texts` and moving `cursor` past it. Returns None when every byte was decoded, CUT
    when the last frame is incomplete, BAD when a frame fails its crc or does not inflate (cursor stops there)."""
    view = memoryview(data)
    end = len(data)
    i = cursor.offset - base
    crc, number = cursor.crc, cursor.number
    crc32, remember, append = zlib.crc32, cursor.remember, texts.append
    inflater = cursor.inflater()
    status = None
    while i < end:
        length, shift, j = 0, 0, i
        while True:
            if j >= end:
                status = CUT
                break
            byte = data[j]
            length |= (byte & 0x7F) << shift
            j += 1
            if byte < 0x80:
                break
            shift += 7
            if j - i >= MAX_VARINT:
                status = BAD
                break
        if status is not None:
            break
        stop = j + length
        if stop + 4 > end:
            status = CUT
            break
        frame_crc = crc32(view[i:stop])
        if frame_crc != _U32.unpack_from(data, stop)[0] or length == 0:
            status = BAD
            break
        try:
            packed = inflater.decompress(bytes(view[j:stop]) + SYNC_TAIL)
        except zlib.error:
            status = BAD
            break
        if not packed.endswith(b"\n") or inflater.unconsumed_tail:
            status = BAD
            break
        remember(packed)
        append(unpack_floats(packed))
        crc = crc32(view[i:stop + 4], crc)
        number += 1
        i = stop + 4
    if status is not None:
        cursor._inflater = None  # it may have consumed part of a bad frame
    cursor.offset, cursor.number, cursor.crc = base + i, number, crc
    return status


def _one_last_frame(rest: bytes) -> bool:
    """Whether `rest` (the bytes from where decoding stopped to the file's end) is at most one frame: a frame cut
    short, one whose bytes are wrong, or zeros (what a machine crash leaves of a write)."""
    if not rest.strip(b"\x00"):
        return True
    length, shift = 0, 0
    for i, byte in enumerate(rest[:MAX_VARINT]):
        length |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return i + 1 + length + 4 >= len(rest)
    return False


def describe_stop(path: str, rest: bytes, offset: int, size: int, number: int) -> str:
    """Why the journal cannot be read from `offset` on (a sentence without the file name), with the truncate
    advice only when what is left is its last frame, not written completely."""
    if _one_last_frame(rest):
        return (f"its last record is cut short (bytes {offset}-{size} are an incomplete record: a write that did "
                f"not finish); it was left unchanged (restore it from a copy, or keep its first {offset} bytes, "
                f"which drops that last record: truncate -s {offset} {path})")
    return (f"a record cannot be read (the one after the first {number} records, at byte {offset}, fails its "
            f"check, and {size - offset} bytes follow); it was left unchanged (restore it from a copy)")


def file_kind(path: str) -> str:
    """`compact`, `plain` (an Optuna journal of JSON lines), `empty` (or missing), or `other`."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(MAGIC))
    except FileNotFoundError:
        return "empty"
    if not head:
        return "empty"
    if head == MAGIC or (len(head) < len(MAGIC) and MAGIC.startswith(head)):
        return "compact"
    if re.match(rb'\{\s*"op_code"\s*:', head):
        return "plain"
    return "other"


def not_a_journal(path: str) -> DamagedJournal:
    with open(path, "rb") as handle:
        head = handle.read(24)
    return DamagedJournal(f"{path} is not a usable Optuna journal file: it is no journal at all (neither a compact "
                          f"journal, whose first line is {MAGIC[:23].decode()}..., nor Optuna's JSON lines; it "
                          f"starts with {head!r}); it was left unchanged (is it the file meant? point the study's "
                          f"storage at its journal, or move this file away to start the study afresh)")


class CompactJournalFile(DurableRecords, BaseJournalBackend, BaseJournalSnapshot):
    """The compact journal file as an Optuna journal backend (see the module doc), with snapshots kept in the
    user's cache (`tuner.storage.snapshots`).

    Not thread-safe on its own: JournalStorage calls it under its lock (and so does `save_snapshot`)."""

    def __init__(self, path: str, snapshots: bool = True, outage: Optional[Outage] = None) -> None:
        self._path = path
        self.outage = outage  # writes that fail for a reason that passes are tried again through it
        self._snapshots = snapshots
        self._threads = threading.Lock()
        # Opened for appending at the first write, then kept (its flock is the write lock).
        self._handle: Optional[BinaryIO] = None
        self._reader: Optional[BinaryIO] = None  # opened for reading at the first read, then kept
        self._tail = Cursor()  # how far this process has decoded or written the file
        self._unread: deque = deque()  # texts of the records before the tail the reader has not taken yet
        self._deflater: Any = None  # a zlib compress object
        self._deflater_at = -1  # the record number the deflate stream stands at
        self.replayed = 0  # records decoded from the file (not snapshot) by this process
        self._snapshot_offset: Optional[int] = None  # where the last snapshot loaded or saved stands
        if not os.path.exists(path):
            try:
                with open(path, "ab"):
                    pass
            except OSError as error:
                raise UserError(f"cannot create {path}: {error.strerror or error}") from None
        if file_kind(path) not in ("compact", "empty"):
            raise not_a_journal(path)

    @property
    def path(self) -> str:
        return self._path

    # Reading --------------------------------------------------------------------------------------------------
    def read_logs(self, log_number_from: int) -> Iterator[dict[str, Any]]:
        with self._threads:
            first = self._tail.number - len(self._unread)
            if log_number_from < first:  # records this backend no longer holds: decode from the start again
                self._tail, self._unread = Cursor(), deque()
                self._deflater_at = -1
            else:
                for _ in range(min(log_number_from - first, len(self._unread))):
                    self._unread.popleft()
            skip = max(0, log_number_from - self._tail.number)
        while True:
            with self._threads:
                if not self._unread and not self._decode_more():
                    return
                text = self._unread.popleft()
            if skip:
                skip -= 1
                continue
            yield shared_names(json.loads(text))

    def _decode_more(self) -> bool:
        """Decode the next chunk of frames after the tail into `_unread`; False when there is none."""
        tail = self._tail
        if self._reader is None:
            self._reader = open(self._path, "rb")
        fd = self._reader.fileno()
        size = os.fstat(fd).st_size
        if tail.offset >= size:
            return False
        data = os.pread(fd, min(size - tail.offset, READ_CHUNK), tail.offset)
        if tail.offset == len(MAGIC) and tail.number == 0:
            self._check_magic()
        before = tail.number
        texts: list = []
        status = decode_frames(data, tail.offset, tail, texts)
        if status == CUT and len(data) == READ_CHUNK and not texts:  # a record longer than the chunk
            data = os.pread(fd, size - tail.offset, tail.offset)
            status = decode_frames(data, tail.offset, tail, texts)
        self._unread.extend(texts)
        self.replayed += tail.number - before
        return bool(texts)

    def _check_magic(self) -> None:
        with open(self._path, "rb") as handle:
            head = handle.read(len(MAGIC))
        if head != MAGIC:
            raise not_a_journal(self._path) if file_kind(self._path) == "other" else DamagedJournal(
                f"{self._path} is not a usable Optuna journal file: its first line is cut short; it was left "
                f"unchanged (restore it from a copy, or empty it: truncate -s 0 {self._path})")

    def check_complete(self) -> None:
        """Raise DamagedJournal unless every byte of the file was decoded (call when the reader has caught up)."""
        with self._threads:
            self._decode_more_all()
            size = os.path.getsize(self._path)
            if size == 0 or self._tail.offset == size:
                return
            if size < len(MAGIC) or self._tail.number == 0:
                self._check_magic()
            with open(self._path, "rb") as handle:
                handle.seek(self._tail.offset)
                rest = handle.read()
            raise DamagedJournal(f"{self._path} is not a usable Optuna journal file: "
                                 + describe_stop(self._path, rest, self._tail.offset, size, self._tail.number))

    def _decode_more_all(self) -> None:
        while self._decode_more():
            pass

    # Writing --------------------------------------------------------------------------------------------------
    def append_logs(self, logs: list[dict[str, Any]]) -> None:
        with self._threads:
            if self._handle is None:
                self._handle = open(self._path, "ab")
            fd = self._handle.fileno()
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                self._append(fd, logs)
            finally:
                if fcntl is not None:
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def _append(self, fd: int, logs: list) -> None:
        size = os.fstat(fd).st_size
        out = bytearray()
        if size == 0:
            out += MAGIC
            self._tail, self._deflater_at = Cursor(), -1
        elif size < self._tail.offset:
            raise DamagedJournal(f"{self._path} is not a usable Optuna journal file: it shrank from "
                                 f"{self._tail.offset} to {size} bytes while this worker used it; nothing more "
                                 f"was written to it")
        elif size > self._tail.offset:  # records of other writers: decode them (they are the deflate history)
            with open(self._path, "rb") as handle:
                handle.seek(self._tail.offset)
                data = handle.read(size - self._tail.offset)
            if self._tail.number == 0 and self._tail.offset == len(MAGIC):
                self._check_magic()
            start = self._tail.offset
            decoded: list[bytes] = []
            status = decode_frames(data, start, self._tail, decoded)
            self._unread.extend(decoded)
            if status is not None:
                rest = data[self._tail.offset - start:]
                raise DamagedJournal(f"{self._path} is not a usable Optuna journal file: "
                                     + describe_stop(self._path, rest, self._tail.offset, size,
                                                     self._tail.number).replace(
                                         "it was left unchanged", "nothing more was written to it"))
        tail = self._tail
        if self._deflater is None or self._deflater_at != tail.number:
            self._deflater = tail.deflater()
        deflater = self._deflater
        texts: list[bytes] = []
        packed_all: list[bytes] = []
        try:
            for log in logs:
                text = record_text(log)
                packed = pack_floats(text)
                payload = deflater.compress(packed) + deflater.flush(zlib.Z_SYNC_FLUSH)
                out += encode_frame(payload[:-len(SYNC_TAIL)])
                texts.append(text)
                packed_all.append(packed)
            write_all(fd, bytes(out), self.outage)
        except BaseException:
            self._deflater, self._deflater_at = None, -1
            raise
        tail.crc = zlib.crc32(out, tail.crc) if size else zlib.crc32(out[len(MAGIC):], tail.crc)
        tail.offset = size + len(out)
        tail.number += len(logs)
        for packed in packed_all:
            tail.remember(packed)
        tail._inflater = None  # it has not seen these frames; made again from the window when needed
        self._unread.extend(texts)
        self._deflater_at = tail.number
        self._sync_if_durable(fd, logs)

    # Snapshots (tuner.storage.snapshots) ---------------------------------------------------------------------
    @property
    def snapshots_enabled(self) -> bool:
        return self._snapshots

    def snapshot_is_current(self) -> bool:
        """Whether the last snapshot this process loaded or saved is at the file's end."""
        return self._snapshot_offset is not None and os.path.getsize(self._path) == self._snapshot_offset

    def save_snapshot(self, snapshot: bytes) -> None:
        """Optuna calls this with its pickled replay state right after reading the journal to its end."""
        if not self._snapshots:
            return
        with self._threads:
            if self._unread:  # the state is not at the tail: not a state this backend can place
                return
            cursor = self._tail
            if snapshots.write(self._path, cursor.offset, cursor.number, cursor.crc, cursor.history(), snapshot):
                self._snapshot_offset = cursor.offset

    def load_snapshot(self) -> Optional[bytes]:
        if not self._snapshots:
            return None
        found = snapshots.read(self._path)
        if found is None:
            return None
        header, history, state = found
        with self._threads:
            self._tail = Cursor(header["offset"], header["number"], header["crc"], history)
            self._unread, self._deflater_at = deque(), -1
            self._snapshot_offset = header["offset"]
        return state

    def close(self) -> None:
        for handle in (self._handle, self._reader):
            if handle is not None:
                handle.close()
        self._handle = self._reader = None


def save_snapshot(storage) -> bool:
    """Snapshot a compact journal storage now (unless its last snapshot is at its end already): what `tuner tune`
    calls when it ends, so that the next command opens the study without replaying it. False for other
    storages (plain journals, databases), which have no snapshots."""
    backend = journal_backend(storage)
    if not isinstance(backend, CompactJournalFile) or not backend.snapshots_enabled:
        return False
    if backend.snapshot_is_current():
        return True
    snapshot_journal_storage(storage)
    return True


def enable_periodic_snapshots() -> None:
    """Have Optuna snapshot this process's compact journals every `snapshots.SNAPSHOT_INTERVAL` trials."""
    set_snapshot_interval(snapshots.SNAPSHOT_INTERVAL)


def iter_texts(path: str) -> Iterator[bytes]:
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
        for text in iter_texts(path):
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
