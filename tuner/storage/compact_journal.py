"""The compact journal file as an Optuna journal backend (the format: `tuner.storage.compact_codec`), with
snapshots kept in the user's cache (`tuner.storage.snapshots`).

Concurrency: a writer takes an exclusive `flock` on the journal (released by the kernel when a process dies),
decodes what others appended since it last looked, and appends its frames with one `write()` (O_APPEND; one that
fails for a reason that passes, a full disk, is tried again from its first byte not written, as for plain journals:
`tuner.storage.journal.write_all`). Readers take no lock: a frame not complete yet, at the end of the file, is where
they stop until the next read. The file is forced to disk (fsync) when a study is created and when a trial
finishes, as for plain journals.

Damage: opening a study checks that the reader stopped at the file's end; else the file is refused, left
unchanged, with one line (`compact_codec.describe_stop`). A writer refuses to append after bytes it cannot
decode.
"""
from __future__ import annotations

import json
import os
import threading
import zlib
from collections import deque
from collections.abc import Iterator
from sys import intern
from typing import Any, BinaryIO, Optional

from optuna.storages.journal import BaseJournalBackend

from tuner.errors import UserError
from tuner.optuna_internals import (
    BaseJournalSnapshot,
    JournalOperation,
    journal_backend,
    set_snapshot_interval,
    snapshot_journal_storage,
)
from tuner.storage import snapshots
from tuner.storage.compact_codec import (
    CUT,
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
from tuner.storage.journal import DamagedJournal, DurableRecords, write_all
from tuner.storage.outage import Outage

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock: one writer at a time
    fcntl = None  # type: ignore[assignment]

READ_CHUNK = 8 << 20  # bytes a reader decodes at a time (bounds the texts held in memory)

_SET_TRIAL_PARAM = JournalOperation.SET_TRIAL_PARAM
_SET_TRIAL_USER_ATTR = JournalOperation.SET_TRIAL_USER_ATTR
_SET_TRIAL_SYSTEM_ATTR = JournalOperation.SET_TRIAL_SYSTEM_ATTR


def _shared(value):
    if isinstance(value, dict):
        return {intern(k) if isinstance(k, str) else k: _shared(v) for k, v in value.items()}
    if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        return [_shared(v) for v in value]
    return value


def _shared_names(log: dict) -> dict:
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
            yield _shared_names(json.loads(text))

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
