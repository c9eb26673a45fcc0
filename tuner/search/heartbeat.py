"""Heartbeats of a batch's running trials, from a thread of the worker that plays them.

With ask-and-tell Optuna runs no heartbeat thread (it does so inside `study.optimize` only), so the worker
records one for each running trial of its batch every `interval` seconds, through the storage's own heartbeat
(`record_heartbeat`: Optuna's on RDB storages, `tuner.storage.journal.HeartbeatJournalStorage` on journals). A
trial whose worker stops beating (killed, a lost machine) is failed by another worker after the grace period
and run again (`tuner.storage.retry`).

The first beat is at once, as the batch starts. Without it the stale-trial checks would judge a young trial by
its start time alone, written by its worker's clock: another machine whose clock or time zone differs by more
than the grace period would take it for dead.
"""
from __future__ import annotations

import threading

from tuner.storage._optuna_compat import trial_id


class Heartbeats:
    def __init__(self, storage, trials: list, interval: float):
        self.storage = storage
        self.ids = [trial_id(t) for t in trials]
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="tuner-heartbeat", daemon=True)

    def _beat(self) -> None:
        while True:
            for trial in self.ids:
                self.storage.record_heartbeat(trial)
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> Heartbeats:
        if hasattr(self.storage, "record_heartbeat") and self.storage.get_heartbeat_interval() is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)
