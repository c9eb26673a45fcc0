"""No program outlives its referee, even a referee killed with SIGKILL.

A referee process starts one watchdog the first time it starts a program: a small Python process, in a
session of its own (a signal for the referee's process group or terminal does not reach it), reading a
pipe whose write end only the referee holds. The referee writes on it the process group of every program
it starts ("+PGID") and of every program it has reaped ("-PGID"). When the referee dies, however it dies,
the kernel closes its end: the watchdog reads end of file, kills every process group still registered
(the programs and any children they started) and exits.

Linux's parent-death signal (prctl(PR_SET_PDEATHSIG)) is the second trigger: it covers a copy of the
pipe's write end surviving the referee in a process forked from it. That signal comes when the *thread*
that started the watchdog exits, not only when the referee process does; the watchdog then checks
getppid() - still the referee while the process lives, as Linux hands the child to another of its
threads - and goes on watching. Without Linux (no prctl), end of file alone does the job.

Why not PR_SET_PDEATHSIG on each program instead: it must be set between fork and exec, which Python
allows only through subprocess's preexec_fn (Python code in the forked child of a threaded process: not
safe, and it rules out vfork), and it would reach the program only: a program started through a shell,
or one that starts children, would leave them running. Killing the process group reaches them all.

Left open: a program started in the microseconds between its start and its registration is not watched.
"""
from __future__ import annotations

import os
import select
import signal
import sys
import threading
from typing import Optional

PARENT_DEATH_SIGNAL = signal.SIGUSR1
PR_SET_PDEATHSIG = 1


def set_parent_death_signal(signum: int) -> bool:
    """Ask Linux to send `signum` to this process when its parent thread exits; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class Watchdog:
    """The referee's side: starts the watchdog process on first use, then tells it the groups to kill."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fd: Optional[int] = None
        self._owner: Optional[int] = None  # the pid of the process that started the watchdog
        self.pid: Optional[int] = None  # the watchdog's pid
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._forget_after_fork)

    def start(self) -> None:
        """Start the watchdog process now, from this thread (it starts on first use otherwise)."""
        with self._lock:
            if self._owner != os.getpid():
                self._start()

    def watch(self, pgid: int) -> None:
        self._send(b"+%d\n" % pgid)

    def forget(self, pgid: int) -> None:
        self._send(b"-%d\n" % pgid)

    def _send(self, message: bytes) -> None:
        with self._lock:
            if self._owner != os.getpid():
                self._start()
            if self._fd is None:
                return
            try:
                os.write(self._fd, message)
            except BlockingIOError:  # the watchdog is stopped and its pipe full: nothing to do but go on
                pass
            except OSError:  # the watchdog is gone
                os.close(self._fd)
                self._fd = None

    def _start(self) -> None:
        from engine.process import spawn_in_new_session

        self._owner = os.getpid()
        if not sys.executable or not hasattr(os, "posix_spawn"):
            return
        read_end, write_end = os.pipe()
        null = os.open(os.devnull, os.O_RDWR)
        argv = [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid())]
        actions = [(os.POSIX_SPAWN_DUP2, read_end, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                   (os.POSIX_SPAWN_DUP2, null, 2)]
        try:
            self.pid = spawn_in_new_session(sys.executable, argv, actions)
        except OSError:
            os.close(write_end)
            return
        finally:
            os.close(read_end)
            os.close(null)
        os.set_blocking(write_end, False)
        self._fd = write_end

    def _forget_after_fork(self) -> None:
        """A forked copy of the referee starts its own watchdog, and lets the parent's see end of file."""
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
        self._fd = None
        self._owner = None
        self.pid = None
        self._lock = threading.Lock()


WATCHDOG = Watchdog()


# ---- the watchdog process ---------------------------------------------------------------------------------------

def _kill_groups(groups: set) -> None:
    for pgid in groups:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass


def _apply(groups: set, pending: bytes, data: bytes) -> bytes:
    *lines, pending = (pending + data).split(b"\n")
    for line in lines:
        if line[:1] == b"+":
            groups.add(int(line[1:]))
        elif line[:1] == b"-":
            groups.discard(int(line[1:]))
    return pending


def watch(referee: int) -> None:
    """Read registrations on stdin until the referee is gone, then kill what is registered."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(PARENT_DEATH_SIGNAL, lambda signum, frame: None)
    set_parent_death_signal(PARENT_DEATH_SIGNAL)
    groups: set = set()
    pending = b""
    while os.getppid() == referee:  # checked after the prctl: the referee may be gone already
        ready, _, _ = select.select([0, wake_read], [], [])
        if wake_read in ready:
            os.read(wake_read, 512)
        if 0 in ready:
            data = os.read(0, 65536)
            if not data:
                break
            pending = _apply(groups, pending, data)
    os.set_blocking(0, False)
    try:  # what the referee wrote before it died
        while data := os.read(0, 65536):
            pending = _apply(groups, pending, data)
    except OSError:
        pass
    _kill_groups(groups)


if __name__ == "__main__":
    watch(int(sys.argv[1]))
