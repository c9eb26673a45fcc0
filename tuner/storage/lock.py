"""One lock per study, shared by all its workers (processes, machines): it makes the trial count exact.

A worker holds it while it creates or opens the study (and enqueues the baseline), and while it fails stale
trials, counts the trials and asks Optuna for its next ones (retried trials, or new samples; the first trials'
games start on the worker's threads meanwhile); it releases it once its batch is asked. Whoever holds it sees
every trial that takes a place in the study, so no two workers take the last place. A dead worker's lock is
released at once:

- journal file, SQLite: an exclusive `flock` (released by the kernel when the process ends) on a file beside
  the storage, `<journal or database>.tuner-lock` (the journal's own flock guards each write; SQLite's locks
  are on the database);
- PostgreSQL: a session advisory lock on a key derived from the study name (released by the server when the
  connection closes). A restart of the server or a terminated connection releases it too, while its holder may be
  in the middle of its step: the holder's transactions are guarded (`AdvisoryLock`), so the first one after the
  loss raises `LockLost` before it writes, and the holder does its step again under the lock taken again
  (`under_lock`, `tuner.search.workers`);
- MySQL, Redis: none, so several workers may overshoot `trials` by a trial each (docs/storage.md, "Scaling out").

`creation_lock` serializes the creation of Optuna's tables in a fresh SQLite or PostgreSQL database.
"""
from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Optional, TypeVar

from tuner.storage.outage import Outage, ride_out
from tuner.storage.url import StorageURL

T = TypeVar("T")

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None


class StudyLock:
    """Held or not; `release` when not held does nothing. The base class locks nothing."""


    def __init__(self) -> None:
        self.held = False

    def acquire(self) -> None:
        self.held = True

    def release(self) -> None:
        self.held = False

    def __enter__(self) -> StudyLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


class FileLock(StudyLock):
    """`flock` on a file, opened once: unlocking never closes it (closing a file drops all the POSIX locks the
    process holds on it, SQLite's included)."""


    def __init__(self, path: Path) -> None:
        super().__init__()
        self._handle = open(path, "ab")  # created empty if missing

    def acquire(self) -> None:
        fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX)
        self.held = True

    def release(self) -> None:
        if self.held:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
        self.held = False


class LockLost(Exception):
    """The study lock's session ended while it was held (a database restarted, a connection terminated): another
    worker may hold the lock now. Raised by the first transaction of the holder that finds it, before that
    transaction writes anything."""


class Guard:
    """Checks, in a transaction of thread `thread` (on its connection), that the study lock is still held: raises
    LockLost if not."""

    def __init__(self, thread: int, check: Callable[[object], None]) -> None:
        self.thread, self.check = thread, check


GUARD_QUERY = ("SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
               "AND l.granted AND l.pid = :pid AND a.backend_start = :started")


class AdvisoryLock(StudyLock):
    """PostgreSQL's session advisory lock, on a connection of the storage's own engine (see the module doc).

    With the storage (`tuner.storage.rdb.WorkerRDBStorage`), the holder's transactions are guarded while it is
    held: each first takes a shared transaction lock on `barrier`, then checks that the lock's session (its process
    id and start time) still holds the lock, else raises LockLost. A worker that takes the lock waits for the
    barrier once before it goes on, so it sees every write of a holder that lost the lock meanwhile: a lock lost in a
    restart never lets two workers take the same place in the study. Acquiring rides out an outage (`outage`)."""

    def __init__(self, engine, key: int, storage=None, outage: Optional[Outage] = None) -> None:
        super().__init__()
        self.engine = engine
        self.key = key
        self.barrier = advisory_key(f"writes under {key}")
        self.storage = storage
        self.outage = outage
        self._connection = None

    def acquire(self) -> None:
        self._connection, session = ride_out(self.outage, self._connect_and_lock)
        self.held = True
        if self.storage is not None:
            self.storage.guard = Guard(threading.get_ident(), partial(self._check, *session))

    def _connect_and_lock(self) -> tuple:
        import sqlalchemy  # ~0.3 s of imports: only for PostgreSQL (a command on a journal file needs none)

        connection = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            connection.execute(sqlalchemy.text("SELECT pg_advisory_lock(:key)"), {"key": self.key})
            connection.execute(sqlalchemy.text("SELECT pg_advisory_xact_lock(:key)"), {"key": self.barrier})
            session = connection.execute(sqlalchemy.text(
                "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()")).one()
        except BaseException:
            connection.close()
            raise
        return connection, tuple(session)

    def _check(self, pid: int, started, connection) -> None:
        """In a transaction of the holder (on `connection`): LockLost unless the lock's session holds it."""
        import sqlalchemy

        connection.execute(sqlalchemy.text("SELECT pg_advisory_xact_lock_shared(:key)"), {"key": self.barrier})
        if connection.execute(sqlalchemy.text(GUARD_QUERY), {"pid": pid, "started": started}).first() is None:
            raise LockLost(f"the study lock was lost (its database session {pid} ended)")

    def release(self) -> None:
        if self.storage is not None:
            self.storage.guard = None
        if self._connection is not None:
            import sqlalchemy

            try:
                self._connection.execute(sqlalchemy.text("SELECT pg_advisory_unlock(:key)"), {"key": self.key})
            except sqlalchemy.exc.DBAPIError:  # the session is gone, and the lock with it
                pass
            finally:
                self._connection.close()
                self._connection = None
        self.held = False


def under_lock(lock: StudyLock, work: Callable[[], T]) -> T:
    """`work()` with `lock` held, done again from the start under the lock taken again if the lock is lost
    meanwhile (its writes after the loss were refused)."""
    while True:
        try:
            with lock:
                return work()
        except LockLost:
            continue


def advisory_key(what: str) -> int:
    """A signed 64-bit key for PostgreSQL's advisory locks, from what it locks."""
    digest = hashlib.sha256(f"photosynthesis-tuner:{what}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextmanager
def _sqlite_creation_lock(path: Path) -> Iterator[None]:
    """`FileLock(path)`, and `path` removed (while held) if it was made here and the block fails: a database
    refused leaves no lock behind. A worker waiting on it meanwhile goes on with the removed file, later ones with
    a new file: they only miss each other while creating the tables of a database the first could not open."""
    existed = path.exists()
    with FileLock(path):
        try:
            yield
        except BaseException:
            if not existed:
                path.unlink(missing_ok=True)
            raise


def study_lock(url: StorageURL, storage, study_name: str) -> StudyLock:
    """The lock of study `study_name` on `storage` (opened from `url`)."""
    if url.lock_file is not None:
        return FileLock(url.lock_file) if fcntl is not None else StudyLock()
    if url.scheme == "postgresql":
        return AdvisoryLock(storage.engine, advisory_key(f"study {study_name}"), storage,
                            getattr(storage, "outage", None))
    return StudyLock()


@contextmanager
def creation_lock(url: StorageURL, engine_kwargs: dict) -> Iterator[None]:
    """Held while Optuna opens an RDB storage: workers starting together on a fresh database would race to
    create its tables. SQLite: `<database>.tuner-lock` (removed if made here and the database is refused);
    PostgreSQL: an advisory lock; others: none."""
    if url.scheme == "sqlite" and fcntl is not None:
        with _sqlite_creation_lock(url.lock_file):
            yield
    elif url.scheme == "postgresql":
        import sqlalchemy
        from sqlalchemy.pool import NullPool

        engine = sqlalchemy.create_engine(url.sqlalchemy_url, poolclass=NullPool,
                                          connect_args=engine_kwargs.get("connect_args", {}))
        try:
            with AdvisoryLock(engine, advisory_key("optuna tables")):
                yield
        finally:
            engine.dispose()
    else:
        yield
