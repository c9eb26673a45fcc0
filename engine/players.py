"""Players for the text-protocol referee: a program talking the CodinGame protocol (in-engine bots play through
`bots.player.BotPlayer`).

A program gets the initialization lines just before its first turn's input, then one turn's input each
time it is awake; the referee reads exactly one line per turn (extra lines wait for later turns, as on
CodinGame). No answer in time, or end of output, is a timeout. Its stderr is drained continuously, so a
flood never blocks it, and the last lines are kept for the report. Each program runs in its own process
group, killed when the game ends.
"""
from __future__ import annotations

import collections
import errno
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Optional


STDERR_LINES_KEPT = 20
STDERR_LINE_CHARS = 300
MAX_LINE_BYTES = 4 * 1024 * 1024  # longer answers are cut here (the rest of the line is still consumed)


class PlayerStartError(RuntimeError):
    """A program that cannot be started."""


@dataclass(frozen=True)
class TimeLimits:
    """Answer time limits in milliseconds: the first answer, then every later one (CodinGame: 1000 / 100)."""

    first_ms: float = 1000.0
    turn_ms: float = 100.0

    def for_turn(self, first: bool) -> float:
        return (self.first_ms if first else self.turn_ms) / 1000.0


@dataclass
class PlayerReport:
    name: str
    stderr_tail: list = field(default_factory=list)
    exit_code: Optional[int] = None
    note: str = ""


class Player:
    """One side of a game. `answer` returns the line the player printed, or None if it gave none in time."""

    name: str = "player"

    def start(self, game, index: int) -> None:
        self.game = game
        self.index = index

    def answer(self, lines: list, limit_s: float) -> Optional[str]:
        raise NotImplementedError

    def finish(self) -> PlayerReport:
        return PlayerReport(self.name)


class ProgramPlayer(Player):
    """A program (any language) started from a command line, talking the protocol through pipes."""

    def __init__(self, name: str, command: str, cwd: Optional[str] = None):
        self.name = name
        self.command = command
        self.cwd = cwd
        self.process: Optional[subprocess.Popen] = None
        self.started = False
        self.buffer = bytearray()
        self.eof = False
        self.stderr_tail: collections.deque = collections.deque(maxlen=STDERR_LINES_KEPT)
        self.note = ""

    def start(self, game, index: int) -> None:
        super().start(game, index)
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise PlayerStartError(f"cannot parse command line {self.command!r}: {error}") from None
        if not argv:
            raise PlayerStartError("empty command line for a program bot")
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.cwd,
                start_new_session=True, bufsize=0,
            )
        except OSError as error:
            raise PlayerStartError(f"cannot start {self.command!r}: {error.strerror or error}") from None
        os.set_blocking(self.process.stdin.fileno(), False)
        os.set_blocking(self.process.stdout.fileno(), False)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        partial = b""
        stream = self.process.stderr
        while True:
            try:
                chunk = stream.read(65536)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            partial += chunk
            *lines, partial = partial.split(b"\n")
            for line in lines[-STDERR_LINES_KEPT:]:
                self.stderr_tail.append(line[:STDERR_LINE_CHARS].decode("utf-8", "replace"))
            partial = partial[-STDERR_LINE_CHARS:]
        if partial:
            self.stderr_tail.append(partial.decode("utf-8", "replace"))

    def answer(self, lines: list, limit_s: float) -> Optional[str]:
        if not self.started:
            lines = self.game.global_input() + lines
            self.started = True
        deadline = time.monotonic() + limit_s
        if not self._write(("\n".join(lines) + "\n").encode(), deadline):
            return None
        return self._read_line(deadline)

    def _write(self, data: bytes, deadline: float) -> bool:
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while view:
                try:
                    written = os.write(fd, view)
                    view = view[written:]
                    continue
                except BlockingIOError:
                    pass
                except OSError as error:  # the program closed its input or exited
                    if error.errno in (errno.EPIPE, errno.EBADF):
                        self.note = self.note or "stopped reading its input"
                        return False
                    raise
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    self.note = self.note or "did not read its input in time"
                    return False
        return True

    def _take_line(self) -> Optional[str]:
        end = self.buffer.find(b"\n")
        if end < 0:
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        return line[:MAX_LINE_BYTES].decode("utf-8", "replace")

    def _read_line(self, deadline: float) -> Optional[str]:
        line = self._take_line()
        if line is not None:
            return line
        fd = self.process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while not self.eof:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    self.note = self.note or "no answer in time"
                    return None
                try:
                    chunk = os.read(fd, 1 << 20)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.eof = True
                    break
                if len(self.buffer) < 2 * MAX_LINE_BYTES or b"\n" in chunk:
                    self.buffer += chunk
                line = self._take_line()
                if line is not None:
                    return line
        try:  # end of output: the program is exiting; give it a moment to report its exit code
            code = self.process.wait(timeout=max(0.05, min(0.5, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            code = None
        self.note = self.note or (f"exited with code {code}" if code is not None else "closed its output")
        return None

    def finish(self) -> PlayerReport:
        code = None
        if self.process is not None:
            code = self.process.poll()
            if code is None:
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            else:
                try:  # the program is gone; its children must go too
                    os.killpg(self.process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.process.stdin, self.process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self._stderr_thread.join(timeout=2)
            try:
                self.process.stderr.close()
            except OSError:
                pass
        return PlayerReport(self.name, list(self.stderr_tail), code, self.note)
