"""Opening a study's Optuna storage and its artifact store.

A journal file is Optuna's `JournalStorage` on a file backend that writes each record under the file lock, as
Optuna's does, but forces it to disk (fsync) only at the records that end something: a study created, a trial
finished. Optuna's own backend fsyncs every record, and a trial here reports one record per seed pair: that
made the storage, not the games, the tuner's bottleneck (about 5x slower on this machine). A crash of the
process loses nothing (the records are in the operating system's cache); a crash of the machine can lose the
records of the running trial, which a resumed study runs again anyway. The file format is Optuna's, so
optuna-dashboard and any Optuna program read it.

URLs open Optuna's storages: `sqlite:///`, `postgresql://`, `mysql://` (RDB) and `redis://` (journal on Redis).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tuner.errors import UserError

# Journal operation codes (optuna.storages.journal._storage.JournalOperation) after which the file is synced.
_CREATE_STUDY, _SET_TRIAL_STATE_VALUES = 0, 6
_DURABLE = {_CREATE_STUDY, _SET_TRIAL_STATE_VALUES}


def _journal_backend_class():
    from optuna.storages.journal import JournalFileBackend, JournalFileSymlinkLock

    class TrialSyncedJournalFile(JournalFileBackend):
        """Optuna's journal file, fsync'd when a study is created or a trial finishes (see the module doc)."""

        def __init__(self, file_path: str) -> None:
            self._path = file_path
            self._file_lock = JournalFileSymlinkLock(file_path)
            super().__init__(file_path, lock_obj=self._file_lock)

        def append_logs(self, logs: list) -> None:
            data = ("\n".join(json.dumps(log, separators=(",", ":")) for log in logs) + "\n").encode("utf-8")
            self._file_lock.acquire()
            try:
                with open(self._path, "ab") as handle:
                    handle.write(data)
                    if any(log.get("op_code") in _DURABLE for log in logs):
                        handle.flush()
                        os.fsync(handle.fileno())
            finally:
                self._file_lock.release()

    return TrialSyncedJournalFile


def describe_storage(storage: str) -> str:
    """The storage as a user reads it: a path, or a URL without its password."""
    if "://" not in storage:
        return storage
    scheme, rest = storage.split("://", 1)
    if "@" in rest.split("/", 1)[0]:
        credentials, host = rest.split("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in credentials else f"{scheme}://{user}@{host}"
    return storage


def storage_exists(storage: str) -> bool:
    """Whether a journal file or SQLite database is there already (other URLs: assumed so)."""
    if "://" not in storage:
        return Path(storage).is_file()
    if storage.startswith("sqlite:///"):
        db = storage[len("sqlite:///"):]
        return bool(db) and Path(db).is_file()
    return True


def open_storage(storage: str, where: str = "storage", create: bool = True):
    """An Optuna storage. `create=False` refuses to create a journal file or SQLite database that is not there.

    Raises UserError naming the storage and why it cannot be opened.
    """
    import optuna

    shown = describe_storage(storage)
    scheme = storage.split("://", 1)[0].split("+", 1)[0].lower() if "://" in storage else "journal"
    if not create and not storage_exists(storage):
        raise UserError(f"{where}: {shown} does not exist yet (run `tuner tune` on the study first)")
    try:
        if "://" not in storage:
            path = Path(storage)
            if not path.parent.is_dir():
                raise UserError(f"{where}: cannot create {shown}: directory {path.parent} does not exist")
            if path.exists() and not path.is_file():
                raise UserError(f"{where}: {shown} is not a file")
            from optuna.storages import JournalStorage

            return JournalStorage(_journal_backend_class()(str(path)))
        if scheme in ("redis", "rediss"):
            from optuna.storages import JournalStorage
            from optuna.storages.journal import JournalRedisBackend

            backend = JournalRedisBackend(storage)
            backend._redis.ping()  # fail now, with a clear message, rather than at the first write
            return JournalStorage(backend)
        if scheme == "sqlite":
            db = Path(storage[len("sqlite:///"):])
            if not db.parent.is_dir():
                raise UserError(f"{where}: cannot open {shown}: directory {db.parent} does not exist")
        return optuna.storages.RDBStorage(storage, engine_kwargs=_engine_kwargs(scheme))
    except UserError:
        raise
    except ImportError as error:  # Optuna or SQLAlchemy without the database's driver
        raise UserError(f"{where}: cannot open {shown}: its database driver is not installed "
                        f"(pip install {_driver_hint(scheme, getattr(error, 'name', None) or scheme)})") from None
    except Exception as error:  # any driver's connection error: one line, no traceback
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UserError(f"{where}: cannot open {shown}: {type(error).__name__}: {message}") from None


def _engine_kwargs(scheme: str) -> dict:
    if scheme in ("postgresql", "mysql"):
        return {"pool_pre_ping": True, "connect_args": {"connect_timeout": 10}}
    return {}


def _driver_hint(scheme: str, module: str) -> str:
    return {"postgresql": "psycopg2-binary", "mysql": "pymysql", "redis": "redis",
            "rediss": "redis"}.get(scheme, module)


def open_artifact_store(directory: Path, create: bool = True):
    """The file artifact store of a study (exported bot files), created on first use."""
    from optuna.artifacts import FileSystemArtifactStore

    directory = Path(directory)
    if create:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UserError(f"artifacts: cannot create {directory}: {error.strerror or error}") from None
    return FileSystemArtifactStore(str(directory))
