"""Heartbeats of a batch's running trials, from a thread of the worker that plays them.

With ask-and-tell Optuna runs no heartbeat thread (it does so inside `study.optimize` only), so the worker
records one for each running trial of its batch every `interval` seconds, through the storage's own heartbeat
(`record_heartbeat`: Optuna's on RDB storages, `tuner.storage.journal.HeartbeatJournalStorage` on journals). A
trial whose worker stops beating (killed, a lost machine) is failed by another worker after the grace period
and run again (`tuner.storage.retry`).

The first beat is at once, as soon as the batch's last trial is asked (its first trials' games have started)
and before the worker releases the study lock. Without it the stale-trial checks would judge a young trial by
its start time alone, written by its worker's clock: another machine whose clock or time zone differs by more
than the grace period would take it for dead.

A beat rides out an outage of the storage like every storage call (`tuner.storage.outage`): the thread waits for
the storage meanwhile, and no worker judges a heartbeat while the outage lasts or a grace period after it.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from tuner.errors import StorageUnavailable
from tuner.optuna_internals import trial_id


class Periodic:
    """A context that, once `start`ed, calls `beat()` every `interval` seconds from a daemon thread until it is
    left (the first call one interval after `start`)."""

    def __init__(self, beat: Callable[[], None], interval: float, name: str):
        self.beat, self.interval = beat, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.beat()  # through an outage of the storage (tuner.storage.outage)
            except StorageUnavailable:  # the storage stayed away: the main thread stops the run, as it meets it too
                return

    def start(self) -> None:
        self._thread.start()

    def __enter__(self) -> Periodic:
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)


class Heartbeats(Periodic):
    """A context for a batch in play: `start(trials)` begins the beats, leaving the context stops them."""

    def __init__(self, storage, interval: float):
        super().__init__(self._beat_once, interval, "tuner-heartbeat")
        self.storage = storage
        self.ids: list = []

    def start(self, trials: list) -> None:
        """Beat for `trials` from now on: the first time here, before this returns (the worker releases the study
        lock after it, so no other worker judges a trial by its start time alone), then every `interval` seconds
        from a thread."""
        self.ids = [trial_id(t) for t in trials]
        if hasattr(self.storage, "record_heartbeat") and self.storage.get_heartbeat_interval() is not None:
            self._beat_once()
            super().start()

    def _beat_once(self) -> None:
        for trial in self.ids:
            self.storage.record_heartbeat(trial)
