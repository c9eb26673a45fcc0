"""Opening a study's Optuna storage and its artifact store.

A path is a journal file (`tuner.journal`: Optuna's format, synced per trial, refused if damaged). URLs open
Optuna's storages: `sqlite:///`, `postgresql://`, `mysql://` (RDB) and `redis://` (journal on Redis). A bare
`postgresql://` URL uses psycopg2 (a dependency of this package; SQLAlchemy 2.1 would pick psycopg 3).

`tuner tune` opens the storage with heartbeats (`Heartbeat`): Optuna's on RDB storages, `HeartbeatJournalStorage`
on journals. A running trial records one every `interval` seconds; one silent for `grace` seconds is failed by
the next worker that looks and enqueued again (`tuner.retry`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Optional

from tuner.errors import UserError


@dataclass(frozen=True)
class Heartbeat:
    interval: int  # seconds between a running trial's heartbeats
    grace: int  # seconds without one after which the trial is failed and retried


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


def open_storage(storage: str, where: str = "storage", create: bool = True, heartbeat: Optional[Heartbeat] = None):
    """An Optuna storage. `create=False` refuses to create a journal file or SQLite database that is not there.

    Raises UserError naming the storage and why it cannot be opened; a damaged file is left unchanged.
    """
    shown = describe_storage(storage)
    scheme = storage.split("://", 1)[0].split("+", 1)[0].lower() if "://" in storage else "journal"
    if not create and not storage_exists(storage):
        raise UserError(f"{where}: {shown} does not exist yet (run `tuner tune` on the study first)")
    if "://" not in storage:
        return _open_journal_file(Path(storage), where, heartbeat)
    try:
        if scheme in ("redis", "rediss"):
            from optuna.storages.journal import JournalRedisBackend

            backend = JournalRedisBackend(storage)
            backend._redis.ping()  # fail now, with a clear message, rather than at the first write
            return _journal_storage(backend, heartbeat)
        if scheme == "sqlite":
            db = Path(storage[len("sqlite:///"):])
            if not db.parent.is_dir():
                raise UserError(f"{where}: cannot open {shown}: directory {db.parent} does not exist")
        return _rdb_storage(storage, scheme, heartbeat)
    except UserError:
        raise
    except ImportError as error:  # Optuna or SQLAlchemy without the database's driver
        raise UserError(f"{where}: cannot open {shown}: its database driver is not installed "
                        f"(pip install {_driver_hint(scheme, getattr(error, 'name', None) or scheme)})") from None
    except Exception as error:  # any driver's connection error: one line, no traceback
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        if scheme == "sqlite" and "DatabaseError" in type(error).__name__:
            raise UserError(f"{where}: {shown} is not a usable SQLite database ({message}); it was left "
                            f"unchanged") from None
        raise UserError(f"{where}: cannot open {shown}: {type(error).__name__}: {message}") from None


def _open_journal_file(path: Path, where: str, heartbeat: Optional[Heartbeat]):
    from tuner.journal import DamagedJournal, TrialSyncedJournalFile, check_journal_file

    if not path.parent.is_dir():
        raise UserError(f"{where}: cannot create {path}: directory {path.parent} does not exist")
    if path.exists() and not path.is_file():
        raise UserError(f"{where}: {path} is not a file")
    try:
        if path.exists():
            check_journal_file(path)
        return _journal_storage(TrialSyncedJournalFile(str(path)), heartbeat)
    except DamagedJournal as error:
        raise UserError(f"{where}: {error}") from None
    except (ValueError, KeyError, TypeError, AttributeError, AssertionError) as error:  # a record Optuna cannot replay
        detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise UserError(f"{where}: {path} is not a usable Optuna journal file: a record cannot be read "
                        f"({type(error).__name__}{': ' + detail if detail else ''}); it was left unchanged") from None


def _journal_storage(backend, heartbeat: Optional[Heartbeat]):
    from optuna.storages import JournalStorage

    if heartbeat is None:
        return JournalStorage(backend)
    from tuner.journal import HeartbeatJournalStorage
    from tuner.retry import RetryTrial

    return HeartbeatJournalStorage(backend, heartbeat.interval, heartbeat.grace, RetryTrial())


def _rdb_storage(url: str, scheme: str, heartbeat: Optional[Heartbeat]):
    import optuna

    if url.startswith("postgresql://"):
        url = "postgresql+psycopg2://" + url[len("postgresql://"):]
    kwargs = {}
    if heartbeat is not None:
        import inspect

        from tuner.retry import RetryTrial

        # Optuna >= 4.9 names the callback heartbeat_stale_trial_callback, earlier versions failed_trial_callback.
        names = inspect.signature(optuna.storages.RDBStorage).parameters
        callback = "heartbeat_stale_trial_callback" if "heartbeat_stale_trial_callback" in names \
            else "failed_trial_callback"
        kwargs = {"heartbeat_interval": heartbeat.interval, "grace_period": heartbeat.grace, callback: RetryTrial()}
    from tuner.studylock import creation_lock

    with creation_lock(url, _engine_kwargs(scheme)):  # workers starting together on a fresh database
        return _heartbeat_rdb_class()(url, engine_kwargs=_engine_kwargs(scheme), **kwargs)


def _heartbeat_rdb_class():
    import optuna
    from optuna.storages._rdb import models
    from optuna.storages._rdb.storage import _create_scoped_session
    from optuna.trial import TrialState

    class HeartbeatRDBStorage(optuna.storages.RDBStorage):
        """Optuna's RDB storage, where a running trial that never recorded a heartbeat is stale too.

        Optuna only fails trials whose last heartbeat is too old; a worker killed between creating its trial
        and its first heartbeat would leave a trial RUNNING forever, holding a place the study needs. Here such
        a trial is stale once it started longer than the grace period ago (by this worker's clock).
        """

        def _get_stale_trial_ids(self, study_id: int) -> list:
            stale = super()._get_stale_trial_ids(study_id)
            if self.heartbeat_interval is None:
                return stale
            grace = self.grace_period if self.grace_period is not None else 2 * self.heartbeat_interval
            limit = datetime.now() - timedelta(seconds=grace)
            with _create_scoped_session(self.scoped_session, True) as session:
                running = (session.query(models.TrialModel)
                           .filter(models.TrialModel.state == TrialState.RUNNING)
                           .filter(models.TrialModel.study_id == study_id).all())
                for trial in running:
                    if not trial.heartbeats and trial.datetime_start is not None and trial.datetime_start < limit:
                        stale.append(trial.trial_id)
            return stale

    return HeartbeatRDBStorage


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
