"""Opening a study's Optuna storage and its artifact store.

A path is a journal file, in one of two formats told apart by its first bytes: Optuna's plain journal of JSON
lines (`tuner.storage.journal`: what a new study gets, read by `optuna-dashboard` and any Optuna program as it is)
or the compact journal (`tuner.storage.compact_journal`, about a seventh of the size, with snapshots:
`tuner.storage.snapshots`; a new study's format when its study file says `journal_format = "compact"`).
Both are synced per trial and refused, unchanged, if damaged; a file that is neither is refused too. URLs open
Optuna's storages: `sqlite:///`, `postgresql://`, `mysql://` (RDB) and `redis://` (journal on Redis).

`tuner tune` opens the storage with heartbeats (`Heartbeat`): Optuna's on RDB storages (`tuner.storage.rdb`),
`HeartbeatJournalStorage` on journals. A running trial records one every `interval` seconds; one silent for `grace`
seconds is failed by the next worker that looks and enqueued again (`tuner.storage.retry`). It also rides out
outages of the storage (`tuner.storage.outage`).
"""
from __future__ import annotations

import gc
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from optuna.artifacts import FileSystemArtifactStore
from optuna.exceptions import ExperimentalWarning
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalRedisBackend

from tuner.errors import UserError
from tuner.optuna_internals import (
    cache_journal_distributions,
    rdb_heartbeat_callback_argument,
    redis_client,
)
from tuner.storage import snapshots
from tuner.storage.compact_codec import file_kind, not_a_journal
from tuner.storage.compact_journal import CompactJournalFile, enable_periodic_snapshots, save_snapshot
from tuner.storage.journal import DamagedJournal, HeartbeatJournalStorage, TrialSyncedJournalFile, check_journal_file
from tuner.storage.lock import creation_lock
from tuner.storage.outage import Outage
from tuner.storage.rdb import WorkerRDBStorage
from tuner.storage.retry import RetryTrial
from tuner.storage.url import StorageURL

SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database file


@dataclass(frozen=True)
class Heartbeat:
    interval: int  # seconds between a running trial's heartbeats
    grace: int  # seconds without one after which the trial is failed and retried


def open_storage(storage, where: str = "storage", create: bool = True, heartbeat: Optional[Heartbeat] = None,
                 new_journal: str = "optuna", outage: Optional[Outage] = None):
    """An Optuna storage for a StorageURL (or its text). `create=False` refuses to create a journal file or an
    SQLite database that is not there; a journal file made here is in the `new_journal` format (`optuna` or
    `compact`), an existing one keeps its own. With an `outage`, the storage's calls (an RDB storage's) or its
    writes (a journal file's) are tried again through it (`tuner.storage.outage`); opening is not: a storage that
    cannot be reached now is an error at once.

    Raises UserError naming the storage and why it cannot be opened; a damaged file is left unchanged.
    """
    url = storage if isinstance(storage, StorageURL) else StorageURL(str(storage))
    _refuse_folder(url, where)
    if not create and not url.exists():
        raise UserError(f"{where}: {url} does not exist yet (run `tuner tune` on the study first)")
    if url.scheme == "journal":
        return _open_journal_file(url.file, where, heartbeat, new_journal, outage)
    try:
        if url.scheme in ("redis", "rediss"):
            with warnings.catch_warnings():  # "JournalRedisBackend is experimental": two lines before any error
                warnings.simplefilter("ignore", ExperimentalWarning)
                backend = JournalRedisBackend(url.text)
            redis_client(backend).ping()  # fail now, with a clear message, rather than at the first write
            return _journal_storage(backend, heartbeat)
        if url.scheme == "sqlite":
            _check_sqlite_file(url, where)
        return _rdb_storage(url, heartbeat, outage)
    except UserError:
        raise
    except ImportError:  # Optuna or SQLAlchemy without the database's driver
        raise UserError(f"{where}: cannot open {url}: its database driver is not installed "
                        f"(pip install {url.driver})") from None
    except Exception as error:  # any driver's connection error: one line, no traceback
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        if url.scheme == "sqlite" and "DatabaseError" in type(error).__name__:
            raise UserError(f"{where}: {url} is not a usable SQLite database ({message}); it was left "
                            f"unchanged") from None
        raise UserError(f"{where}: cannot open {url}: {type(error).__name__}: {message}") from None


def _refuse_folder(url: StorageURL, where: str) -> None:
    """UserError if the journal or SQLite file of `url` is a folder (before any lock is made beside it)."""
    if url.file is None or not url.file.is_dir():
        return
    what = "a journal file" if url.scheme == "journal" else "an SQLite database file"
    raise UserError(f"{where}: {url.file} is not a file but a folder: the storage must be {what}")


def _check_sqlite_file(url: StorageURL, where: str) -> None:
    """UserError if the database of `url` cannot be made (no folder) or is there but not SQLite's: refused
    before its lock is made beside it, and left unchanged."""
    path = url.file
    if not path.parent.is_dir():
        raise UserError(f"{where}: cannot open {url}: directory {path.parent} does not exist")
    if not path.is_file() or path.stat().st_size == 0:  # SQLite makes a new database in an empty file
        return
    with open(path, "rb") as handle:
        head = handle.read(len(SQLITE_HEADER))
    if head != SQLITE_HEADER:
        raise UserError(f"{where}: {url} is not a usable SQLite database (file is not a database: it starts with "
                        f"{head!r}); it was left unchanged")


def _open_journal_file(path: Path, where: str, heartbeat: Optional[Heartbeat], new_journal: str,
                       outage: Optional[Outage]):
    if not path.parent.is_dir():
        raise UserError(f"{where}: cannot create {path}: directory {path.parent} does not exist")
    if path.exists() and not path.is_file():
        raise UserError(f"{where}: {path} is not a file")
    cache_journal_distributions()
    try:
        kind = file_kind(str(path))
        if kind == "other":
            raise not_a_journal(str(path))
        if kind == "plain":
            check_journal_file(path)
        if kind == "plain" or (kind == "empty" and new_journal != "compact"):
            with loading():
                return _journal_storage(_plain_journal_file(path, outage), heartbeat, outage)
        return _open_compact(path, heartbeat, outage)
    except DamagedJournal as error:
        raise UserError(f"{where}: {error}") from None
    except (ValueError, KeyError, TypeError, AttributeError, AssertionError) as error:  # a record Optuna cannot replay
        detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise UserError(f"{where}: {path} is not a usable Optuna journal file: a record cannot be read "
                        f"({type(error).__name__}{': ' + detail if detail else ''}); it was left unchanged") from None


def _plain_journal_file(path: Path, outage: Optional[Outage]) -> TrialSyncedJournalFile:
    try:
        return TrialSyncedJournalFile(str(path), outage)
    except OSError as error:
        raise UserError(f"cannot create {path}: {error.strerror or error}") from None


def _open_compact(path: Path, heartbeat: Optional[Heartbeat], outage: Optional[Outage]):
    enable_periodic_snapshots()
    backend = CompactJournalFile(str(path), outage=outage)
    with loading():
        storage = _journal_storage(backend, heartbeat, outage)
        try:
            backend.check_complete()
        except DamagedJournal:  # or a record being appended by another worker, complete a moment later
            time.sleep(0.5)
            backend.check_complete()
    if backend.replayed >= snapshots.REPLAY_SNAPSHOT_RECORDS:
        save_snapshot(storage)
    return storage


@contextmanager
def loading() -> Iterator[None]:
    """Loading a study makes millions of objects (~300 a trial) that live as long as the storage. The cycle
    collector would walk all of them again and again while they are made (unpickling a 30,000-trial snapshot:
    ~2.4 s with it paused, 5-8 s without), and once more in its next collections: it is paused meanwhile, then
    they are moved out of its reach (`gc.freeze`; they hold no cycles to collect)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _journal_storage(backend, heartbeat: Optional[Heartbeat], outage: Optional[Outage] = None):
    if heartbeat is None:
        return JournalStorage(backend)
    return HeartbeatJournalStorage(backend, heartbeat.interval, heartbeat.grace, RetryTrial(), outage)


def _rdb_storage(url: StorageURL, heartbeat: Optional[Heartbeat], outage: Optional[Outage]):
    kwargs = {}
    if heartbeat is not None:
        kwargs = {"heartbeat_interval": heartbeat.interval, "grace_period": heartbeat.grace,
                  rdb_heartbeat_callback_argument(): RetryTrial()}
    engine_kwargs = _engine_kwargs(url.scheme)
    with creation_lock(url, engine_kwargs):  # workers starting together on a fresh database
        return WorkerRDBStorage(url.sqlalchemy_url, outage, engine_kwargs=engine_kwargs, **kwargs)


def _engine_kwargs(scheme: str) -> dict:
    if scheme in ("postgresql", "mysql"):
        return {"pool_pre_ping": True, "connect_args": {"connect_timeout": 10}}
    return {}


def open_artifact_store(directory: Path, create: bool = True):
    """The file artifact store of a study (exported bot files), created on first use."""
    directory = Path(directory)
    if create:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UserError(f"artifacts: cannot create {directory}: {error.strerror or error}") from None
    return FileSystemArtifactStore(str(directory))
