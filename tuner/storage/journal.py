"""Journal storages: Optuna's journal file, synced per trial and never appended to once damaged, and heartbeats.

The file backend writes each record under a lock, as Optuna's does, but forces it to disk (fsync) only at the
records that end something: a study created, a trial finished. Optuna's own backend fsyncs every record, and a
trial writes dozens (one per parameter, attribute and block of seed pairs): that made the storage, not the games,
the tuner's bottleneck (about 5x slower on this machine). A crash of the process loses nothing (the records are in
the operating system's cache); a crash of the machine can lose the records of the running trial, which is run again
anyway. The file format is Optuna's, so optuna-dashboard and any Optuna program read it. The lock is a `flock` on
the journal, which the kernel releases when a process dies; Optuna's own programs lock with a symlink
(`<journal>.lock`) instead, so only `tuner` commands may write to a journal at the same time (they all do it so,
`tuner dashboard` included).

Optuna skips a last line that does not end with a newline, or does not parse, as a record still being written:
appending after it would glue the next record to it and make the whole file unreadable. So a journal whose last
line is not a complete record is refused when it is opened (`check_journal_file`), and the backend checks the
last byte again under the lock before every append.

A write that fails for a reason that passes (a full disk or quota, a device or network filesystem failing for a
while: `tuner.storage.outage`) is tried again, with the writers' lock held, from its first byte not written
(`write_all`): the file ends as one write would have left it, and readers meanwhile stop at the record being
written, as they do at any record being appended. A write given up past the study's `outage_limit` is cut back
to where it began, so the journal still ends with a complete record. A failed fsync is not tried again (the
kernel may have dropped the pages it could not write): the command stops with one line, and the journal's check
at the next opening finds any record cut short.

`HeartbeatJournalStorage` gives journal storages (file or Redis) the heartbeats that Optuna 5 implements only
for its RDB storages: it implements Optuna's `BaseHeartbeat` (a heartbeat is a trial system attribute holding
the time), so that `study.optimize` runs Optuna's heartbeat thread and fails stale trials as on PostgreSQL.
"""
from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Optional

from optuna.exceptions import UpdateFinishedTrialError
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend, JournalFileSymlinkLock
from optuna.trial import TrialState

from tuner.errors import StorageUnavailable, UserError
from tuner.optuna_internals import (
    DURABLE_OPERATIONS,
    BaseHeartbeat,
    BaseJournalFileLock,
    journal_backend,
    trial_id,
)
from tuner.storage.outage import Outage, transient

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: Optuna's symlink lock
    fcntl = None

HEARTBEAT_ATTR = "tuner:heartbeat"  # trial system attribute: time.time() of the trial's last heartbeat
_TAIL_BLOCK = 1 << 16


class DamagedJournal(UserError):
    """A journal file whose records cannot all be read; it is left as it is."""


def _last_line(path: Path) -> tuple[bytes, int]:
    """(the file's last line, the file's size); the line keeps its newline if it has one."""
    with open(path, "rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        end, tail = size, b""
        while end > 0:
            start = max(0, end - _TAIL_BLOCK)
            handle.seek(start)
            tail = handle.read(end - start) + tail
            end = start
            cut = tail.rfind(b"\n", 0, len(tail) - 1)
            if cut >= 0:
                return tail[cut + 1:], size
        return tail, size


def check_journal_file(path: Path) -> None:
    """Raise DamagedJournal unless the file is empty or its last line is a complete journal record."""
    for attempt in range(2):  # a record being appended by another worker is complete a moment later
        line, size = _last_line(path)
        problem = _record_problem(line, size)
        if problem is None:
            return
        if attempt == 0:
            time.sleep(0.5)
    keep = size - len(line)
    raise DamagedJournal(f"{path} is not a usable Optuna journal file: {problem}; it was left unchanged (restore "
                         f"it from a copy, or keep its first {keep} bytes, which drops that last record: "
                         f"truncate -s {keep} {path})")


def _record_problem(line: bytes, size: int) -> str | None:
    if size == 0:
        return None
    if not line.endswith(b"\n"):
        return f"its last line is cut short (no newline at byte {size})"
    try:
        record = json.loads(line)
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        return "its last line is not a journal record (not JSON)"
    if not isinstance(record, dict) or "op_code" not in record:
        return "its last line is not a journal record (no op_code)"
    return None


class FlockJournalLock(BaseJournalFileLock):
    """An exclusive `flock` on the journal file itself, the kernel's: a worker killed while it writes leaves no
    lock behind (Optuna's symlink lock would stop every other worker for 30 s)."""

    def __init__(self, file_path: str) -> None:
        self._path = file_path
        self._handle = None  # opened at the first write (reading needs no lock), then kept open
        self._threads = threading.Lock()

    def acquire(self) -> bool:
        self._threads.acquire()
        try:
            if self._handle is None:
                self._handle = open(self._path, "ab")
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX)
        except BaseException:
            self._threads.release()
            raise
        return True

    def release(self) -> None:
        fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
        self._threads.release()


class DurableRecords:
    """For journal file backends (with a `_path`): the records that end something (a study created, a trial
    finished) force the file to disk at once; inside `synced_once()`, once at its end. A batch tells its trials
    in one such block: one fsync for the batch, not one per trial (an fsync costs 0.5-2 ms here, more than the
    rest of a tell)."""

    _sync_later = 0
    _sync_owed = False

    def _sync_if_durable(self, fd: int, logs: list) -> None:
        """After `logs` are written to `fd` (flushed): force the file to disk if one of them ends something."""
        if not any(log.get("op_code") in DURABLE_OPERATIONS for log in logs):
            return
        if self._sync_later:
            self._sync_owed = True
        else:
            os.fsync(fd)

    @contextlib.contextmanager
    def synced_once(self) -> Iterator[None]:
        self._sync_later += 1
        try:
            yield
        finally:
            self._sync_later -= 1
            if not self._sync_later and self._sync_owed:
                self._sync_owed = False
                fd = os.open(self._path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)


def synced_once(storage) -> contextlib.AbstractContextManager:
    """The records `storage` writes in this block that end something are forced to disk once, at its end (a
    journal file's; other storages commit as they always do)."""
    backend = journal_backend(storage)
    return backend.synced_once() if isinstance(backend, DurableRecords) else contextlib.nullcontext()


def write_all(fd: int, data: bytes, outage: Optional[Outage]) -> None:
    """All of `data` appended to `fd` (opened for appending, the writers' lock held); a write that fails for a
    reason that passes is tried again through `outage`, from the first byte not written, until all is written. A
    write given up (StorageUnavailable: past the limit) is undone, the file cut back to where it began, so that it
    still ends with a complete record."""
    view = memoryview(data)
    start = os.fstat(fd).st_size
    written = tries = failures = 0
    while written < len(view):
        try:
            written += os.write(fd, view[written:])
            tries = 0  # some went through: the next pause starts short again
        except OSError as error:
            if outage is None or not transient(error):
                raise
            try:
                outage.failed(error, tries)
            except StorageUnavailable:
                with contextlib.suppress(OSError):  # not a file (a pipe), or a filesystem that fails on this too
                    if written:
                        os.ftruncate(fd, start)
                raise
            tries, failures = tries + 1, failures + 1
    if failures and outage is not None:
        outage.answered()


class TrialSyncedJournalFile(DurableRecords, JournalFileBackend):
    """Optuna's journal file, fsync'd when a study is created or a trial finishes (see the module doc)."""

    def __init__(self, file_path: str, outage: Optional[Outage] = None) -> None:
        self._path = file_path
        self.outage = outage
        self._file_lock = FlockJournalLock(file_path) if fcntl is not None else JournalFileSymlinkLock(file_path)
        super().__init__(file_path, lock_obj=self._file_lock)

    def append_logs(self, logs: list) -> None:
        data = ("\n".join(json.dumps(log, separators=(",", ":")) for log in logs) + "\n").encode("utf-8")
        self._file_lock.acquire()
        try:
            with open(self._path, "a+b") as handle:
                size = handle.seek(0, os.SEEK_END)
                if size and os.pread(handle.fileno(), 1, size - 1) != b"\n":
                    raise DamagedJournal(f"{self._path} is not a usable Optuna journal file: its last line is cut "
                                         f"short (no newline at byte {size}); nothing more was written to it")
                write_all(handle.fileno(), data, self.outage)
                self._sync_if_durable(handle.fileno(), logs)
        finally:
            self._file_lock.release()


class HeartbeatJournalStorage(JournalStorage, BaseHeartbeat):
    """A journal storage with Optuna's heartbeat protocol: a running trial is stale when neither its start nor
    its last heartbeat is within `grace_period` seconds (the clocks of the workers' machines must agree). None is
    while an outage of its file lasts, or within `grace_period` after it (`tuner.storage.outage`)."""

    def __init__(self, backend, heartbeat_interval: int, grace_period: int, stale_trial_callback=None,
                 outage: Optional[Outage] = None) -> None:
        super().__init__(backend)
        self.heartbeat_interval = heartbeat_interval
        self.grace_period = grace_period
        self.stale_trial_callback = stale_trial_callback
        self.outage = outage

    def record_heartbeat(self, trial_id: int) -> None:
        try:
            self.set_trial_system_attr(trial_id, HEARTBEAT_ATTR, time.time())
        except UpdateFinishedTrialError:  # another worker took this trial for dead; this worker hears it at the end
            pass

    def _get_stale_trial_ids(self, study_id: int) -> list[int]:
        if self.outage is not None and self.outage.settling(self.grace_period):
            return []
        now = time.time()
        stale = []
        for trial in self.get_all_trials(study_id, deepcopy=False, states=(TrialState.RUNNING,)):
            started = trial.datetime_start.timestamp() if trial.datetime_start is not None else now
            if now - max(started, float(trial.system_attrs.get(HEARTBEAT_ATTR, 0.0))) > self.grace_period:
                stale.append(trial_id(trial))
        return stale

    def get_heartbeat_interval(self) -> int | None:
        return self.heartbeat_interval

    def get_heartbeat_stale_trial_callback(self):
        return self.stale_trial_callback

    def get_failed_trial_callback(self):  # the name Optuna < 4.9 calls
        return self.stale_trial_callback
