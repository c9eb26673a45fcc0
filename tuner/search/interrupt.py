"""Stopping a tuning run cleanly on Ctrl-C (SIGINT) or SIGTERM.

The first signal asks the run to stop: the running trial ends at its next batch of games, is recorded as FAIL (user
attribute `interrupted`) and enqueued again (`tuner.search.workers`), and no new trial starts. A second signal stops
at once, but only while games are being played, where Optuna catches it and records the trial as FAIL: never while
Optuna writes to the storage or samples, so no trial is ever left RUNNING and the study resumes with the next trial.
A second signal that comes while Optuna writes or samples is held, and cuts as soon as that work ends.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager


class Interrupted(Exception):
    """The user asked the run to stop."""


class StopFlag:
    def __init__(self, notify=print):
        self.requested = False
        self._interruptible = False
        self._held = False  # a second signal that came where it may not cut: it cuts when that section ends
        self._notify = notify
        self._previous = {}

    def _handle(self, signum, frame) -> None:
        if self.requested and self._interruptible:
            raise KeyboardInterrupt
        if self.requested:
            self._held = True
        else:
            self.requested = True
            self._notify("stopping: the running trial ends at its next batch of games (Ctrl-C again to stop "
                         "sooner)")

    def install(self) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._previous[sig] = signal.signal(sig, self._handle)

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()

    @contextmanager
    def interruptible(self):
        """A section that a second signal may interrupt at once (playing games); a second signal that came
        before it (while Optuna wrote or sampled) cuts as it starts."""
        if self._held:
            self._held = False
            raise KeyboardInterrupt
        self._interruptible = True
        try:
            yield
        finally:
            self._interruptible = False

    @contextmanager
    def uninterruptible(self):
        """A section inside an interruptible one that a second signal must not cut (storage writes): a second
        signal that comes during it cuts as it ends."""
        was, self._interruptible = self._interruptible, False
        try:
            yield
        finally:
            self._interruptible = was
        if was and self._held:
            self._held = False
            raise KeyboardInterrupt

    def check(self) -> None:
        if self.requested:
            raise Interrupted()
