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
  connection closes);
- MySQL, Redis: none, so several workers may overshoot `trials` by a trial each (docs/storage.md, "Scaling out").

`creation_lock` serializes the creation of Optuna's tables in a fresh SQLite or PostgreSQL database.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tuner.storage.url import StorageURL

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


class AdvisoryLock(StudyLock):
    """PostgreSQL's session advisory lock, on a connection of the storage's own engine."""


    def __init__(self, engine, key: int) -> None:
        super().__init__()
        self.engine = engine
        self.key = key
        self._connection = None

    def acquire(self) -> None:
        import sqlalchemy  # ~0.3 s of imports: only for PostgreSQL (a command on a journal file needs none)

        connection = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            connection.execute(sqlalchemy.text("SELECT pg_advisory_lock(:key)"), {"key": self.key})
        except BaseException:
            connection.close()
            raise
        self._connection = connection
        self.held = True

    def release(self) -> None:
        if self._connection is not None:
            import sqlalchemy

            try:
                self._connection.execute(sqlalchemy.text("SELECT pg_advisory_unlock(:key)"), {"key": self.key})
            finally:
                self._connection.close()
                self._connection = None
        self.held = False


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
        return AdvisoryLock(storage.engine, advisory_key(f"study {study_name}"))
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
