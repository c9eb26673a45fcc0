"""Optuna's RDB storage (PostgreSQL, SQLite, MySQL) as the tuner opens it: heartbeats that also catch a trial that
never beat, every call ridden through an outage, and the transactions of the study lock's holder guarded.

- **Never beaten.** Optuna only fails trials whose last heartbeat is too old; a worker killed between creating
  its trial and its first heartbeat would leave a trial RUNNING forever, holding a place the study needs. Here
  such a trial is stale too once it started longer than the grace period ago (by this worker's clock).
- **Outages** (`tuner.storage.outage`): every method Optuna calls on the storage (its cache in front of it
  included) is tried again while the database is unreachable. Optuna runs each in one transaction, which the
  server rolls back when the connection drops, so a method tried again is done once; a tell that the server
  committed just as the connection dropped is recognised when tried again. No trial is judged stale while an
  outage lasts or within a grace period after it.
- **Guard.** While a worker holds the study lock (`tuner.storage.lock.AdvisoryLock`), each transaction its thread
  begins first checks that the lock is still held (`guard`, a `tuner.storage.lock.Guard`): after a restart or a
  terminated session the lock is gone, another worker may hold it, and the transaction raises `LockLost` before
  it writes anything.
"""
from __future__ import annotations

import functools
import itertools
import threading
from datetime import datetime, timedelta
from typing import Optional

from optuna.exceptions import UpdateFinishedTrialError
from optuna.storages import BaseStorage, RDBStorage
from optuna.trial import TrialState

from tuner.optuna_internals import RDB_PRIVATE_CALLS, STALE_TRIAL_IDS, rdb_models, rdb_session
from tuner.storage.lock import Guard
from tuner.storage.outage import Outage, ride_out


class WorkerRDBStorage(RDBStorage):
    """Optuna's RDBStorage with the tuner's heartbeats, outages and guard (see the module doc)."""

    def __init__(self, url: str, outage: Optional[Outage] = None, **kwargs) -> None:
        super().__init__(url, **kwargs)
        self.outage = outage
        self.guard: Optional[Guard] = None  # set by the study lock while it is held
        import sqlalchemy  # loaded by RDBStorage already

        sqlalchemy.event.listen(self.scoped_session.session_factory, "after_begin", self._guarded)

    def _guarded(self, session, transaction, connection) -> None:
        guard = self.guard
        if guard is not None and guard.thread == threading.get_ident():
            guard.check(connection)

    def set_trial_state_values(self, trial_id: int, state: TrialState, values=None) -> bool:
        tries = itertools.count()

        def once() -> bool:
            again = next(tries) > 0
            try:
                return RDBStorage.set_trial_state_values(self, trial_id, state, values)
            except UpdateFinishedTrialError:
                # Tried again after a dropped connection: the server may have committed the first try.
                if again and state.is_finished() and self._finished_as(trial_id, state, values):
                    return True
                raise

        return ride_out(self.outage, once)

    def _finished_as(self, trial_id: int, state: TrialState, values) -> bool:
        trial = RDBStorage.get_trial(self, trial_id)
        return trial.state == state and (values is None or list(trial.values or []) == list(values))

    def _get_stale_trial_ids(self, study_id: int) -> list:
        if self.outage is not None and self.outage.settling(self.grace_period or 2 * (self.heartbeat_interval or 0)):
            return []
        return ride_out(self.outage, lambda: self._stale_trial_ids(study_id))

    def _stale_trial_ids(self, study_id: int) -> list:
        stale = getattr(super(), STALE_TRIAL_IDS)(study_id)
        if self.heartbeat_interval is None:
            return stale
        grace = self.grace_period if self.grace_period is not None else 2 * self.heartbeat_interval
        limit = datetime.now() - timedelta(seconds=grace)
        trials = rdb_models().TrialModel
        with rdb_session(self.scoped_session, True) as session:
            running = (session.query(trials).filter(trials.state == TrialState.RUNNING)
                       .filter(trials.study_id == study_id).all())
            for trial in running:
                if not trial.heartbeats and trial.datetime_start is not None and trial.datetime_start < limit:
                    stale.append(trial.trial_id)
        return stale


def _ridden(name: str):
    method = getattr(RDBStorage, name)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        return ride_out(self.outage, lambda: method(self, *args, **kwargs))

    return call


# Every call Optuna makes to the storage: BaseStorage's methods, the heartbeat's, and the private ones its cache calls.
for _name in itertools.chain(sorted(n for n, v in vars(BaseStorage).items() if callable(v) and not n.startswith("_")),
                             ["record_heartbeat"], RDB_PRIVATE_CALLS):
    if _name not in vars(WorkerRDBStorage):
        setattr(WorkerRDBStorage, _name, _ridden(_name))
