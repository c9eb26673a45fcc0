"""Players for the text-protocol referee: a program talking the CodinGame protocol (in-engine bots play through
`bots.running.player.BotPlayer`).

A program gets the initialization lines just before its first turn's input, then one turn's input each
time it is awake; the referee reads exactly one line per turn (extra lines wait for later turns, as on
CodinGame). No answer in time, or end of output, is a timeout for the referee; the player's report says
what really happened (`Ending`). Its stderr is drained while the referee waits for it, so a flood never
blocks it, and the last lines are kept for the report. Each program runs in its own process group, killed
when the game ends, or by the watchdog if the referee dies first (engine/watchdog.py).
"""
from __future__ import annotations

import collections
import enum
import errno
import functools
import os
import select
import shlex
import signal as signals
import time
from dataclasses import dataclass, field
from typing import Optional, Union

from engine.process import LOST, Process

STDERR_LINES_KEPT = 20
STDERR_LINE_CHARS = 300
MAX_LINE_BYTES = 4 * 1024 * 1024  # longer answers are cut here (the rest of the line is still consumed)
NEWLINE = 10
READ_CHUNK = 65536  # a pipe's capacity; a larger read costs a large allocation (mmap and page faults) every time
EXIT_GRACE_S = (0.05, 0.5)  # after end of output or a broken input: how long an exit code is waited for


class PlayerStartError(RuntimeError):
    """A program that cannot be started."""


MAX_TIME_LIMIT_MS = 3_600_000  # one hour: far more than any answer needs; a huge limit overflows the waits


@dataclass(frozen=True)
class TimeLimits:
    """Answer time limits in milliseconds: the first answer, then every later one (CodinGame: 1000 / 100)."""

    first_ms: float = 1000.0
    turn_ms: float = 100.0

    def for_turn(self, first: bool) -> float:
        return (self.first_ms if first else self.turn_ms) / 1000.0


class Ending(enum.Enum):
    """What became of a player's process: the first thing that went wrong, or FINISHED."""

    FINISHED = "finished"  # still running when the game ended (it may have lost on an invalid answer)
    TIMEOUT = "no answer in time"
    INPUT_TIMEOUT = "did not read its input in time"
    STOPPED_READING = "stopped reading its input"  # closed its input, still running
    CLOSED_OUTPUT = "closed its output"  # end of output, and no exit came
    EXITED = "exited"  # ended during the game: see exit_code or signal
    START_FAILED = "could not be started"

    @property
    def slow(self) -> bool:
        """Too slow rather than dead: a time limit, which depends on the machine's load."""
        return self in (Ending.TIMEOUT, Ending.INPUT_TIMEOUT)


KILLED_BY = {"SIGKILL", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"}  # signals someone sends, not crashes


def signal_name(number: int) -> str:
    try:
        return signals.Signals(number).name
    except ValueError:
        return f"signal {number}"


@dataclass
class PlayerReport:
    """A player after its game: how its process ended, its exit, and the last lines of its stderr."""

    name: str
    stderr_tail: list = field(default_factory=list)
    exit_code: Optional[int] = None  # if the program exited by itself before the game's end
    ending: Ending = Ending.FINISHED
    signal: Optional[str] = None  # the name of the signal that ended it (e.g. "SIGSEGV"), if one did
    answers: int = 0  # the answers asked of it
    waited_s: float = 0.0  # the referee's waits for them, from writing a turn's input to reading its answer

    def describe(self) -> str:
        """One phrase: "no answer in time", "exited with code 3", "crashed with signal SIGSEGV", "finished"..."""
        if self.ending is not Ending.EXITED:
            return self.ending.value
        if self.signal is not None:
            return f"{'killed by' if self.signal in KILLED_BY else 'crashed with'} signal {self.signal}"
        if self.exit_code is not None:
            return f"exited with code {self.exit_code}"
        return "exited"

    @property
    def note(self) -> str:
        """describe(), or "" for a player that finished (the wording of the referee's first versions)."""
        return "" if self.ending is Ending.FINISHED else self.describe()


Input = Union[bytes, list]  # a frame's input: the text, or its lines (see Game.play_frame)


class Player:
    """One side of a game. `answer` returns the line the player printed, or None if it gave none in time.
    `limits`: the time limits it is judged by when they are not the game's (a program playing a short budget)."""

    name: str = "player"
    limits: Optional[TimeLimits] = None

    def start(self, game, index: int) -> None:
        self.game = game
        self.index = index

    def answer(self, lines: Input, limit_s: float) -> Optional[str]:
        raise NotImplementedError

    def finish(self) -> PlayerReport:
        return PlayerReport(self.name)


@functools.lru_cache(maxsize=64)
def split_command(command: str) -> tuple:
    """shlex.split, once per command line (a match starts the same one for every game)."""
    return tuple(shlex.split(command))


class ProgramPlayer(Player):
    """A program (any language) started from a command line, talking the protocol through pipes."""

    def __init__(self, name: str, command: str, limits: Optional[TimeLimits] = None):
        self.name = name
        self.command = command
        self.limits = limits
        self.answers = 0
        self.waited_s = 0.0
        self.process: Optional[Process] = None
        self.started = False
        self.buffer = bytearray()
        self.eof = False
        self.stderr_tail: collections.deque = collections.deque(maxlen=STDERR_LINES_KEPT)
        self.stderr_partial = b""
        self.stderr_open = True
        self.ending: Optional[Ending] = None  # the first failure, if any

    def start(self, game, index: int) -> None:
        super().start(game, index)
        try:
            argv = split_command(self.command)
        except ValueError as error:
            self.ending = Ending.START_FAILED
            raise PlayerStartError(f"cannot parse command line {self.command!r}: {error}") from None
        if not argv:
            self.ending = Ending.START_FAILED
            raise PlayerStartError("empty command line for a program bot")
        try:
            self.process = Process(list(argv))
        except OSError as error:
            self.ending = Ending.START_FAILED
            raise PlayerStartError(f"cannot start {self.command!r}: {error.strerror or error}") from None
        self.poller = select.poll()
        self.poller.register(self.process.stdout, select.POLLIN)
        self.poller.register(self.process.stderr, select.POLLIN)

    # ---- one turn ------------------------------------------------------------------------------------------
    def answer(self, lines: Input, limit_s: float) -> Optional[str]:
        data = lines if isinstance(lines, bytes) else ("\n".join(lines) + "\n").encode()
        if not self.started:
            data = self.game.global_input_text() + data
            self.started = True
        asked = time.monotonic()
        deadline = asked + limit_s
        self.answers += 1
        try:
            try:  # usually the whole input fits in the pipe at once
                written = os.write(self.process.stdin, data)
            except OSError:
                written = 0  # _write tells a full pipe from a broken one
            if written < len(data) and not self._write(memoryview(data)[written:], deadline):
                return None
            return self._read_line(deadline)
        finally:
            self.waited_s += time.monotonic() - asked

    def _fail(self, ending: Ending) -> None:
        if self.ending is None:
            self.ending = ending

    def _write(self, data, deadline: float) -> bool:
        fd = self.process.stdin
        while True:
            try:
                written = os.write(fd, data)
                if written == len(data):
                    return True
                data = memoryview(data)[written:]
            except BlockingIOError:
                pass
            except OSError as error:  # the program closed its input or exited
                if error.errno in (errno.EPIPE, errno.EBADF):
                    self._fail(self._ended_or(Ending.STOPPED_READING, deadline))
                    return False
                raise
            if not self._wait_writable(deadline):
                self._fail(Ending.INPUT_TIMEOUT)
                return False

    def _wait_writable(self, deadline: float) -> bool:
        """Wait until the program's input has room (or is broken), reading its outputs meanwhile."""
        stdin = self.process.stdin
        self.poller.register(stdin, select.POLLOUT)
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                for fd, _ in self.poller.poll(remaining * 1000.0):
                    if fd == stdin:
                        return True
                    self._service(fd)
        finally:
            self.poller.unregister(stdin)

    def _read_line(self, deadline: float) -> Optional[str]:
        if not self.buffer and not self.eof:  # read before polling: a quick program has answered already
            try:
                chunk = os.read(self.process.stdout, READ_CHUNK)
            except BlockingIOError:
                chunk = None
            if chunk and chunk[-1] == NEWLINE and chunk.find(b"\n") == len(chunk) - 1 and len(chunk) <= MAX_LINE_BYTES:
                return chunk[:-1].decode("utf-8", "replace")  # one whole line: the usual answer
            if chunk is not None:
                self._took(chunk)
        while True:
            if self.buffer:
                line = self._one_line()
                if line is not None:
                    if time.monotonic() > deadline:  # read after its time (the referee woke late): a timeout
                        self._fail(Ending.TIMEOUT)
                        return None
                    return line
            if self.eof:
                self._fail(self._ended_or(Ending.CLOSED_OUTPUT, deadline))
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail(Ending.TIMEOUT)
                return None
            for fd, _ in self.poller.poll(remaining * 1000.0):
                self._service(fd)

    def _one_line(self) -> Optional[str]:
        """_take_line(), quicker for a buffer holding exactly one line (the usual answer)."""
        buffer = self.buffer
        if buffer[-1] == NEWLINE and buffer.find(b"\n") == len(buffer) - 1:
            line = buffer[:min(len(buffer) - 1, MAX_LINE_BYTES)].decode("utf-8", "replace")
            buffer.clear()
            return line
        return self._take_line()

    def _take_line(self) -> Optional[str]:
        end = self.buffer.find(b"\n")
        if end < 0:
            return None
        line = self.buffer[:min(end, MAX_LINE_BYTES)].decode("utf-8", "replace")
        del self.buffer[: end + 1]
        return line

    def _service(self, fd: int) -> None:
        """Read what the program wrote on stdout (into the line buffer) or stderr (its last lines kept)."""
        if fd == self.process.stdout:
            self._read_stdout()
        else:
            self._drain_stderr()

    def _read_stdout(self) -> None:
        try:
            self._took(os.read(self.process.stdout, READ_CHUNK))
        except BlockingIOError:
            pass

    def _took(self, chunk: bytes) -> None:
        """Keep what was read from stdout (b"": end of output)."""
        if not chunk:
            self.poller.unregister(self.process.stdout)
            self.eof = True
        elif len(self.buffer) < 2 * MAX_LINE_BYTES or b"\n" in chunk:
            self.buffer += chunk

    def _ended_or(self, otherwise: Ending, deadline: float) -> Ending:
        """After end of output or a broken input the program is usually exiting: give it a moment to."""
        low, high = EXIT_GRACE_S
        if self.process.wait(max(low, min(high, deadline - time.monotonic()))) is None:
            return otherwise
        return Ending.EXITED

    # ---- stderr ------------------------------------------------------------------------------------------------
    def _drain_stderr(self) -> bool:
        """Read what the program wrote on stderr so far and keep its last lines; False if there was nothing."""
        if not self.stderr_open:
            return False
        try:
            chunk = os.read(self.process.stderr, READ_CHUNK)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        if not chunk:
            self.stderr_open = False
            self.poller.unregister(self.process.stderr)
            if self.stderr_partial:
                self.stderr_tail.append(self.stderr_partial.decode("utf-8", "replace"))
                self.stderr_partial = b""
            return False
        *lines, partial = (self.stderr_partial + chunk).split(b"\n")
        for line in lines[-STDERR_LINES_KEPT:]:
            self.stderr_tail.append(line[:STDERR_LINE_CHARS].decode("utf-8", "replace"))
        self.stderr_partial = partial[-STDERR_LINE_CHARS:]
        return True

    # ---- the end ---------------------------------------------------------------------------------------------
    def finish(self) -> PlayerReport:
        if self.process is None:
            return PlayerReport(self.name, ending=self.ending or Ending.START_FAILED)
        code = self.process.poll()  # an exit of its own, before the kill
        self.process.kill_group()
        self.process.wait(5.0)
        while self._drain_stderr():  # what is left in the pipe; without blocking: a stray child may hold it
            pass
        self.process.close()
        exit_code = signal = None
        if code is not None and code != LOST:
            if code < 0:
                signal = signal_name(-code)
            else:
                exit_code = code
        return PlayerReport(self.name, list(self.stderr_tail), exit_code, self.ending or Ending.FINISHED, signal,
                            self.answers, self.waited_s)
