"""A program's process for the referee: started in a session of its own with three non-blocking pipes, its
exit status, and its whole process group killed at the end.

Started with posix_spawn (vfork and exec under the hood, no Python code in the child, so it is safe in a
threaded process and cheap in a large one); the watchdog (engine/watchdog.py) kills the group if the
referee dies first.
"""
from __future__ import annotations

import os
import select
import signal
import time
from typing import Optional

from engine.spawn import spawn_in_new_session
from engine.watchdog import WATCHDOG

LOST = -256  # the return code of a program that something else reaped: its status is unknown


class Process:
    def __init__(self, argv: list):
        """Start `argv` (argv[0] searched in PATH); raises OSError when it cannot be started."""
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        stderr_read, stderr_write = os.pipe()
        child_ends = (stdin_read, stdout_write, stderr_write)
        actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(child_ends)]
        try:
            self.pid = spawn_in_new_session(argv[0], argv, actions)
        except BaseException:
            for fd in (stdin_write, stdout_read, stderr_read):
                os.close(fd)
            raise
        finally:
            for fd in child_ends:
                os.close(fd)
        WATCHDOG.watch(self.pid)
        self.stdin, self.stdout, self.stderr = stdin_write, stdout_read, stderr_read
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.returncode: Optional[int] = None  # once reaped: the exit code, -N for signal N, or LOST

    def poll(self) -> Optional[int]:
        """The return code if the program has ended (it is then reaped), else None."""
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = LOST
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float) -> Optional[int]:
        """poll() until the program ends or `timeout` seconds have passed."""
        if self.poll() is not None or timeout <= 0:
            return self.returncode
        if self._wait_pidfd(timeout):
            return self.poll()
        deadline = time.monotonic() + timeout
        pause = 0.0002
        while self.poll() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.01)
        return self.returncode

    def _wait_pidfd(self, timeout: float) -> bool:
        """Sleep until the program exits or `timeout`, on a pidfd (Linux 5.3+); False where there is none."""
        try:
            fd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            return False
        try:
            waiter = select.poll()
            waiter.register(fd, select.POLLIN)
            waiter.poll(timeout * 1000.0)
        finally:
            os.close(fd)
        return True

    def kill_group(self) -> None:
        """SIGKILL the program's process group: the program and the children it started (a group outlives its
        leader while children are in it)."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        """Close the pipes (after kill_group() and wait()); the watchdog forgets the group."""
        for fd in (self.stdin, self.stdout, self.stderr):
            try:
                os.close(fd)
            except OSError:
                pass
        WATCHDOG.forget(self.pid)
