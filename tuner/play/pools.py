"""The tuner's pools: K threads for the compiled games, K processes for the games of programs.

Compiled games release Python's lock (Numba's `nogil`), so K threads of the calling process play them in
parallel: nothing to start, pickle or send, and the threads take the tasks from one queue, so a thread that ends
its task early takes the next (one opponent's games can cost 30 times another's). `jobs = 1` starts no thread.

Games of programs run the text-protocol referee, which is Python: they go to K - 1 worker processes that live
for a whole run, and the calling process. Starting processes per batch would cost more than the games: the
workers are loky's reusable executor (joblib's), started once and kept. A batch of tasks runs its first task
in the calling process, then each process takes the next task as it becomes free, so `jobs = 1` starts no process
at all and a batch of many small tasks keeps every process busy to its end.
A game asks its two programs in turn (as CodinGame does): one of them thinks at a time, so K processes keep K
cores busy, and K = the cores never has two timed programs fighting over one. Workers ignore
Ctrl-C: the calling process stops the run cleanly. A worker dies with the calling process, even when that one
is killed outright (Linux's parent-death signal): its programs' watchdog then kills the programs it was
playing (`engine.watchdog`), so no game goes on without its tuner.
"""
from __future__ import annotations

import math
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Optional

import numpy as np

from engine.watchdog import set_parent_death_signal

PARENT = "TUNER_POOL_PARENT"  # the calling process's pid, in the workers' environment


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_parent_death_signal(signal.SIGKILL)
    if os.environ.get(PARENT) not in (None, str(os.getppid())):  # the caller died before the signal was set
        os._exit(1)


class ProcessPool:
    def __init__(self, jobs: int = 1):
        self.jobs = max(1, int(jobs))
        self._executor = None
        self._size = 0

    def _workers(self, tasks: int):
        """The workers for a batch of `tasks` tasks, the first of which runs here: at most jobs - 1 of them and
        never more than the batches so far could keep busy (a bigger batch adds the missing ones)."""
        self._size = max(self._size, min(self.jobs, tasks) - 1)
        if self._size == 0:
            return None
        from joblib.externals.loky import get_reusable_executor  # loaded when a batch needs workers

        os.environ[PARENT] = str(os.getpid())
        self._executor = get_reusable_executor(max_workers=self._size, initializer=_start_worker, timeout=600)
        return self._executor

    def map(self, function: Callable, tasks: Sequence[tuple], on_done: Optional[Callable] = None) -> list:
        """`[function(*task) for task in tasks]`: the first task here, and every process takes the next task as
        it becomes free (this one, and each worker through a thread of this process that hands it one task at a
        time), so that with more tasks than processes every process keeps busy until the batch ends (the tasks of
        programs' games differ in length: a disqualification ends a game early). `on_done(i)` is called as task i
        ends, on this process's threads (for a progress bar)."""
        if not tasks:
            return []
        executor = self._workers(len(tasks)) if len(tasks) > 1 else None
        results: list = [None] * len(tasks)

        def finished(i: int, value) -> None:
            results[i] = value
            if on_done is not None:
                on_done(i)

        if executor is None:
            for i, task in enumerate(tasks):
                finished(i, function(*task))
            return results
        # Each worker's first task is handed out here, by the thread that starts missing workers: a worker dies
        # with the thread that started it (the parent-death signal is the thread's), and the feeders end with the
        # batch.
        first = {i: executor.submit(function, *tasks[i]) for i in range(1, min(len(tasks), self._size + 1))}
        order = iter(range(len(first) + 1, len(tasks)))
        lock = threading.Lock()
        stop = threading.Event()
        errors: list = []

        def take() -> Optional[int]:
            with lock:
                return None if stop.is_set() else next(order, None)

        def feed(first_task: int, future) -> None:  # one worker's tasks, one at a time
            try:
                finished(first_task, future.result())
                while (task := take()) is not None:
                    finished(task, executor.submit(function, *tasks[task]).result())
            except BaseException as error:  # noqa: B036 - handed to the calling thread, which raises it
                errors.append(error)
                stop.set()

        feeders = [threading.Thread(target=feed, args=item, name="pool-feeder", daemon=True)
                   for item in first.items()]
        for feeder in feeders:
            feeder.start()
        try:
            finished(0, function(*tasks[0]))
            while (index := take()) is not None:
                finished(index, function(*tasks[index]))
            for feeder in feeders:
                feeder.join()
        except BaseException:
            stop.set()  # Ctrl-C or an error here: the workers end the task they have, and take no other
            raise
        if errors:
            raise errors[0]
        return results

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
            self._size = 0


@dataclass
class Started:
    """Tasks handed to a ThreadPool: their futures, or with one thread the tasks themselves, played when their
    results are asked for."""

    function: Callable
    tasks: Sequence[tuple]
    futures: Optional[list] = None


class ThreadPool:
    """K threads of the calling process for functions that release Python's lock (compiled `nogil` kernels)."""

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, int(jobs))
        self._executor: Optional[ThreadPoolExecutor] = None

    def start(self, function: Callable, tasks: Sequence[tuple]) -> Started:
        """`function(*task)` for each task, taken in order by whichever thread is free, from now on: the calling
        thread goes on meanwhile (with one thread, the tasks wait for `results`)."""
        if self.jobs == 1 or not tasks:
            return Started(function, tasks)
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.jobs, thread_name_prefix="games")
        return Started(function, tasks, [self._executor.submit(function, *task) for task in tasks])

    def results(self, started: Started, meanwhile: Optional[Callable] = None) -> list:
        """The started tasks' results, in order. The calling thread runs `meanwhile()` while the threads play
        (with one thread, before the tasks). On an error (in `meanwhile` or a task) or Ctrl-C, the tasks not
        started are cancelled and the running ones waited for."""
        if started.futures is None:
            if meanwhile is not None:
                meanwhile()
            return [started.function(*task) for task in started.tasks]
        try:
            if meanwhile is not None:
                meanwhile()
            return [future.result() for future in started.futures]
        except BaseException:
            self.cancel(started)
            raise

    @staticmethod
    def cancel(started: Started) -> None:
        """The started tasks not running yet cancelled, the running ones waited for."""
        if started.futures is not None:
            for future in started.futures:
                future.cancel()
            wait(started.futures)

    def map(self, function: Callable, tasks: Sequence[tuple], meanwhile: Optional[Callable] = None) -> list:
        """`[function(*task) for task in tasks]` on the threads; `meanwhile()` as in `results`."""
        return self.results(self.start(function, tasks), meanwhile)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def split(n: int, parts: int, unit: int = 1) -> list[slice]:
    """At most `parts` contiguous slices of range(n) of nearly equal sizes, cut at multiples of `unit` (a seed
    pair's two games stay together)."""
    units = n // unit
    parts = max(1, min(parts, units))
    bounds = [unit * (units * i // parts) for i in range(parts + 1)]
    return [slice(bounds[i], bounds[i + 1]) for i in range(parts)]


GOLDEN = (math.sqrt(5) - 1) / 2


def guided(n: int, threads: int, smallest: int) -> list[np.ndarray]:
    """range(n) in shares for `threads` threads that take them in turn, each share 1 / (2 x threads) of what is
    left and at least `smallest`: the first shares are big and the last ones small, so the threads end their
    last shares nearly together (guided self-scheduling) with few shares in all.

    The indices go in a golden-ratio order (i x 0.618... mod 1): any run of them takes evenly from the whole
    range, so every share, however small, gets its part of every opponent (units come grouped, and one
    opponent's games can cost 30 times another's)."""
    order = np.argsort((np.arange(n) * GOLDEN) % 1.0, kind="stable")
    shares, start = [], 0
    while start < n:
        size = max(smallest, -(-(n - start) // (2 * threads)))
        shares.append(order[start:start + size])
        start += size
    return shares


def deal(n: int, parts: int) -> list[np.ndarray]:
    """range(n) dealt round-robin into at most `parts` index arrays. Units come ordered by opponent, and one
    opponent's games can cost 30 times another's (`search:20` against `greedy`): contiguous slices would give
    one process all the slow games, a deal gives each process its share of every opponent."""
    parts = max(1, min(parts, n))
    return [np.arange(k, n, parts) for k in range(parts)]
