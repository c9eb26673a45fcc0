"""No program outlives its referee, even a referee killed with SIGKILL.

A referee process starts one watchdog the first time it starts a program: a small Python process in a
session of its own (a signal for the referee's process group or terminal does not reach it). The referee
keeps the process group of every program it runs in a table of int64 slots in a shared memory file (a
memfd, or an unlinked temporary file), which the watchdog also holds open: registering a program is a
store to memory, no system call and no wakeup. The watchdog sleeps on the read end of a pipe whose write
end only the referee holds. When the referee dies, however it dies, the kernel closes that end: the
watchdog wakes at end of file, reads the table as the referee left it, kills every process group in it
(the programs and any children they started) and exits.

Linux's parent-death signal (prctl(PR_SET_PDEATHSIG)) is the second trigger: it covers a copy of the
pipe's write end surviving the referee in a process forked from it. That signal comes when the *thread*
that started the watchdog exits, not only when the referee process does; the watchdog then checks
getppid() - still the referee while the process lives, as Linux hands the child to another of its
threads - and goes on sleeping. Without Linux (no prctl), end of file alone does the job.

Why not PR_SET_PDEATHSIG on each program instead: it must be set between fork and exec, which Python
allows only through subprocess's preexec_fn (Python code in the forked child of a threaded process: not
safe, and it rules out vfork), and it would reach the program only: a program started through a shell,
or one that starts children, would leave them running. Killing the process group reaches them all.

Left open: a referee killed between a program's start and the store of its group (a few hundred
nanoseconds) leaves that program unwatched.
"""
from __future__ import annotations

import mmap
import os
import select
import signal
import sys
import threading
from array import array
from typing import Optional

PARENT_DEATH_SIGNAL = signal.SIGUSR1
PR_SET_PDEATHSIG = 1
TABLE_FD = 3  # the table's file descriptor in the watchdog process
SLOTS = 512  # the table's first size (it doubles when full); a slot holds a process group, or 0


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


def _shared_file() -> int:
    """A file only in memory, shared with the watchdog by descriptor: a memfd, or an unlinked temporary file."""
    if hasattr(os, "memfd_create"):
        try:
            return os.memfd_create("referee-watchdog", os.MFD_CLOEXEC)
        except OSError:
            pass
    import tempfile

    with tempfile.TemporaryFile() as handle:
        return os.dup(handle.fileno())


class Watchdog:
    """The referee's side: starts the watchdog process on first use and keeps its table of process groups."""

    def __init__(self) -> None:
        self._reset()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        """Nothing started (and, in a forked copy of the referee, nothing of the parent's touched: the copy
        starts its own watchdog, and its copy of the pipe end is closed so the parent's watchdog sees end of
        file when the parent dies)."""
        for fd in (getattr(self, "_pipe", None), getattr(self, "_table", None)):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._lock = threading.Lock()
        self._started = False  # in this process (a forked copy is reset)
        self._pipe: Optional[int] = None
        self._table: Optional[int] = None  # the table's file descriptor
        self._map: Optional[mmap.mmap] = None
        self._slots = None  # the mapping as int64s
        self._free: list = []
        self._slot_of: dict = {}
        self.pid: Optional[int] = None  # the watchdog's pid

    def start(self) -> None:
        """Start the watchdog process now, from this thread (it starts on first use otherwise)."""
        with self._lock:
            if not self._started:
                self._start()

    def watch(self, pgid: int) -> None:
        with self._lock:
            if not self._started:
                self._start()
            if self._slots is None:
                return
            if not self._free:
                self._grow()
            slot = self._free.pop()
            self._slots[slot] = pgid
            self._slot_of[pgid] = slot

    def forget(self, pgid: int) -> None:
        with self._lock:
            slot = self._slot_of.pop(pgid, None)
            if slot is not None:
                self._slots[slot] = 0
                self._free.append(slot)

    def _start(self) -> None:
        # Imported here: this file also runs as the watchdog itself (python -I -S), where the project is not on
        # the path and only the standard library is.
        from engine.spawn import spawn_in_new_session

        self._started = True
        if not sys.executable or not hasattr(os, "posix_spawn"):
            return
        table = _shared_file()
        read_end, write_end = os.pipe()
        null = os.open(os.devnull, os.O_RDWR)
        argv = [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid())]
        actions = [(os.POSIX_SPAWN_DUP2, read_end, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                   (os.POSIX_SPAWN_DUP2, null, 2), (os.POSIX_SPAWN_DUP2, table, TABLE_FD)]
        try:
            self._table = table
            self._map_table(SLOTS)
            self.pid = spawn_in_new_session(sys.executable, argv, actions)
            self._pipe = write_end
        except OSError:
            os.close(write_end)
            self._slots = None
        finally:
            os.close(read_end)
            os.close(null)

    def _map_table(self, slots: int) -> None:
        os.ftruncate(self._table, slots * 8)
        self._map = mmap.mmap(self._table, slots * 8)
        self._slots = memoryview(self._map).cast("q")
        self._free.extend(range(slots - 1, len(self._free) + len(self._slot_of) - 1, -1))

    def _grow(self) -> None:
        """Double the table: the watchdog reads the file's whole size when it wakes."""
        used = len(self._slot_of)
        old_slots, old_map = self._slots, self._map
        self._map_table(2 * used)
        old_slots.release()
        old_map.close()


WATCHDOG = Watchdog()


# ---- the watchdog process ---------------------------------------------------------------------------------------

def registered_groups() -> list:
    """The process groups in the referee's table, as it left it."""
    size = os.fstat(TABLE_FD).st_size
    slots = array("q", os.pread(TABLE_FD, size, 0)[: size - size % 8])
    return [pgid for pgid in slots if pgid > 0]


def watch(referee: int) -> None:
    """Sleep until the referee is gone, then kill the process groups in its table."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(PARENT_DEATH_SIGNAL, lambda signum, frame: None)
    set_parent_death_signal(PARENT_DEATH_SIGNAL)
    while os.getppid() == referee:  # checked after the prctl: the referee may be gone already
        ready, _, _ = select.select([0, wake_read], [], [])
        if wake_read in ready:
            os.read(wake_read, 512)
        if 0 in ready and not os.read(0, 512):
            break
    for pgid in registered_groups():
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass


if __name__ == "__main__":
    watch(int(sys.argv[1]))
