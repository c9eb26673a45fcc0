"""Riding out an outage of a worker's storage: a database restarted or cut off, a disk briefly full.

A worker (`tuner tune`) runs every storage call through one `Outage`, shared by its threads (the main one, the
heartbeats'). A call that fails for a reason that passes (`transient`: a dropped connection, a server shutting
down or starting, a full disk or a failing device under a journal file) is tried again with a growing pause
(0.25 s, doubling, at most 2 s), except that a connection found lost is first replaced and tried again at once: a
connection ended while the server stays up (terminated, or dropped by an earlier outage and not yet found out by
this thread) is no outage. The first failure of an outage prints one line ("database unreachable (...),
retrying for up to 300 s..."), the first answer after it another ("database reconnected after 7 s"); anything
else the storage raises (the server answered) ends the outage too and is raised as it is.

An outage longer than `limit` seconds (the study file's `outage_limit`), or a Ctrl-C during one, raises
`StorageUnavailable` (a one-line error, exit status 75): nothing written is lost, and the worker's running trials
are retried after their grace period by whichever worker looks, this one run again included. From then on a
failing call raises at once, so the run ends without waiting again.

While an outage lasts, and `grace` seconds after it, no trial is judged stale (`settling`): the heartbeats of
every worker were stopped by the same outage, and they resume within a pause of its end.
"""
from __future__ import annotations

import errno
import threading
import time
from collections.abc import Callable, Iterator
from typing import Optional, TypeVar

from tuner.errors import StorageUnavailable

FIRST_PAUSE, MAX_PAUSE = 0.25, 2.0  # seconds between tries: doubling from the first to the most
# Writes of a journal file that pass: a full disk or quota, a device or network filesystem that fails for a while.
TRANSIENT_ERRNOS = frozenset({errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EAGAIN, errno.ESTALE, errno.ETIMEDOUT})
# SQLSTATE classes that pass: connection exception, transaction rollback (deadlock, serialization), insufficient
# resources (disk full, too many connections), operator intervention (shutdown, crash, starting up).
TRANSIENT_SQLSTATES = ("08", "40", "53", "57")
TRANSIENT_SQLITE = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR")
WORDS = {  # what the lines call the storage when it goes away, and when it is back
    "database": ("database unreachable", "database reconnected"),
    "journal": ("journal file not writable", "journal file writable again"),
}
T = TypeVar("T")


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def transient(error: BaseException) -> bool:
    """Whether `error` (or one it came from) is an outage that passes, not an answer of the storage."""
    for cause in _chain(error):
        if isinstance(cause, OSError) and cause.errno in TRANSIENT_ERRNOS:
            return True
        driver = getattr(cause, "orig", None)
        if driver is None or not hasattr(cause, "connection_invalidated"):  # not SQLAlchemy's DBAPIError
            continue
        if cause.connection_invalidated:  # SQLAlchemy's dialect took it for a lost connection
            return True
        sqlite = getattr(driver, "sqlite_errorname", None)
        if sqlite is not None:
            return sqlite.startswith(TRANSIENT_SQLITE)
        state = getattr(driver, "sqlstate", None)
        if state is None:  # no answer from a server at all (refused, timed out, closed), or a driver without codes
            return type(cause).__name__ == "OperationalError"
        return state.startswith(TRANSIENT_SQLSTATES)
    return False


def lost_connection(error: BaseException) -> bool:
    """Whether SQLAlchemy took `error` (or one it came from) for a lost connection, and so dropped it."""
    return any(getattr(cause, "connection_invalidated", False) for cause in _chain(error))


def reason(error: BaseException) -> str:
    """The driver's or the system's own words for `error`, on one line."""
    for cause in _chain(error):
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror
        driver = getattr(cause, "orig", None)
        if driver is not None:
            text = str(driver).strip()
            return text.splitlines()[0][:200] if text else type(driver).__name__
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__


def _seconds(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"


class Outage:
    """The outages of one worker's storage (see the module doc); thread-safe."""

    def __init__(self, limit: float, notify: Callable[[str], None] = print, kind: str = "database",
                 stopping: Callable[[], bool] = lambda: False) -> None:
        self.limit = limit  # seconds an outage may last before the worker stops
        self.notify = notify
        self.down_words, self.up_words = WORDS[kind]
        self.stopping = stopping  # whether the user asked the run to stop (Ctrl-C)
        self.outages = 0  # outages lived so far
        self._lock = threading.Lock()
        self._since: Optional[float] = None  # monotonic time of the ongoing outage's first failure
        self._ended: Optional[float] = None  # monotonic time the last outage ended
        self._given_up: Optional[str] = None  # the message of the StorageUnavailable raised, once raised

    def call(self, work: Callable[[], T]) -> T:
        """`work()`, tried again through an outage; StorageUnavailable past the limit."""
        tries, reconnected = 0, False
        while True:
            try:
                result = work()
            except BaseException as error:
                if not transient(error):
                    self.answered()
                    raise
                if not reconnected and lost_connection(error):
                    reconnected = True
                    continue
                self.failed(error, tries)
                tries += 1
                continue
            self.answered()
            return result

    def failed(self, error: BaseException, tries: int) -> None:
        """A call failed with a transient `error` after `tries` earlier tries: say so at an outage's start, raise
        StorageUnavailable past the limit, on Ctrl-C or once raised before, else pause before the next try."""
        now = time.monotonic()
        with self._lock:
            first = self._since is None
            since = now if self._since is None else self._since
            lasted = now - since
            if self._given_up is None and (self.stopping() or lasted >= self.limit):
                stop = "stopped by Ctrl-C" if self.stopping() else \
                    f"stopped after {_seconds(lasted)} (outage_limit = {self.limit:g} s)"
                self._given_up = (f"{self.down_words} ({reason(error)}): {stop}; nothing written is lost: run the "
                                  f"same command again to resume the study")
            if self._given_up is not None:
                raise StorageUnavailable(self._given_up) from None
            if first:
                self._since = since
                self.outages += 1
                self.notify(f"{self.down_words} ({reason(error)}), retrying for up to {self.limit:g} s...")
        end = now + min(MAX_PAUSE, FIRST_PAUSE * 2 ** tries, since + self.limit - now)
        while time.monotonic() < end and not self.stopping():
            time.sleep(min(0.1, max(0.0, end - time.monotonic())))

    def answered(self) -> None:
        """The storage answered: the end of an ongoing outage, said once."""
        if self._since is None:
            return
        with self._lock:
            if self._since is None:
                return
            lasted = time.monotonic() - self._since
            self._since, self._ended = None, time.monotonic()
        self.notify(f"{self.up_words} after {_seconds(lasted)}")

    def settling(self, grace: float) -> bool:
        """Whether an outage is ongoing or ended less than `grace` seconds ago: no heartbeat is judged meanwhile."""
        with self._lock:
            return self._since is not None or (self._ended is not None and time.monotonic() - self._ended < grace)


def ride_out(outage: Optional[Outage], work: Callable[[], T]) -> T:
    """`work()` through `outage` (once without one)."""
    return work() if outage is None else outage.call(work)
