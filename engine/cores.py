"""A core of its own for each game with programs.

The referee and its two programs take turns: one of the three runs at a time. Left to the scheduler, each wakes
on whichever core is idle, and on a virtual machine waking an idle core can take milliseconds (its virtual CPU
halted, then run again when the host gets to it), time that a program's own clock does not see, since it starts
when the program has woken and read its input. On the project's 2-core VM that made a few answers in ten
thousand of a program at 90 ms a move go over CodinGame's 100 ms, and none with the three on one core
(docs/results.md): games judged at CodinGame's limits lost to the machine, not to the program.

So a game with a program plays on one core (`one_core`): the referee's thread is pinned to a core that no other
game of this machine's user holds (a lock file a core, held for the game: a process that dies lets go of it), the
programs started meanwhile inherit the pin, and the thread gets its cores back after the game. Nothing is lost
by it: a game never has two of its processes thinking at once. When every core this process may use is held (more
games than cores), where cores cannot be pinned, or with TUNER_PIN_GAMES=0 in the environment, the game plays
unpinned, as before (benchmarks/answer_times.py measures the two ways side by side).
"""
from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Optional


def _locks() -> Path:
    folder = Path(tempfile.gettempdir()) / f"photosynthesis-tuner-cores-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _claim(cores: set[int]) -> Optional[tuple[int, int]]:
    """(core, the open lock file that holds it) for the first of `cores` no other game holds, or None."""
    folder = _locks()
    for core in sorted(cores):
        fd = os.open(folder / f"core-{core}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return core, fd
    return None


@contextmanager
def one_core() -> Iterator[Optional[int]]:
    """The calling thread, and the processes it starts meanwhile, pinned to a core of their own (yielded), or
    left as they are (None) when no core is free or the system cannot pin."""
    if not hasattr(os, "sched_setaffinity") or os.environ.get("TUNER_PIN_GAMES") == "0":
        yield None
        return
    allowed = os.sched_getaffinity(0)
    claimed = _claim(allowed) if len(allowed) > 1 else None
    if claimed is None:
        yield None
        return
    core, fd = claimed
    try:
        os.sched_setaffinity(0, {core})  # 0: the calling thread, on Linux
        try:
            yield core
        finally:
            os.sched_setaffinity(0, allowed)
    finally:
        os.close(fd)
