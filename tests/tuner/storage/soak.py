"""Workers of one study on a private PostgreSQL server (postgres_server.py), and the faults a long study
meets: the server restarted, its connections terminated, workers SIGKILLed and started again. Used by
tests/tuner/storage/test_outage.py (short) and benchmarks/soak_postgres.py (long).

`Worker` is a real `tuner tune` process whose output lines are collected as they come; `soak` runs workers while
faults come at random moments; `check_study` and `check_workers` say what must hold afterwards: exactly the
study's trials finished, each number once, none left RUNNING or WAITING, no two finished trials alike, every
worker that was not killed at exit 0, no traceback anywhere, and each worker's outage lines in pairs (one when
the database went away, one when it was back).
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from optuna.trial import TrialState

from tuner.studyfile.file import read_study_file

ROOT = Path(__file__).resolve().parent.parent
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)
DOWN, UP = "database unreachable (", "database reconnected after "


class Worker:
    """`tuner tune STUDY --no-progress` as a process; its stdout and stderr lines as they come."""

    def __init__(self, study: Path, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "tuner.cli", "tune", str(study), "--no-progress",
                                         *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.out: list[str] = []
        self.err: list[str] = []
        self.killed = False
        self._readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                         for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, lines: list) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def opened(self) -> bool:
        """Whether it has opened the study (its first line): from then on it rides out an outage."""
        return any(line.startswith("study '") for line in self.out)

    def said(self, text: str) -> int:
        return sum(text in line for line in self.out)

    def kill(self) -> None:
        self.killed = True
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def wait(self, timeout: float) -> int:
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"worker {self.pid} did not end within {timeout:g} s: {self.log()[-2000:]}") from None
        for reader in self._readers:
            reader.join(timeout=10)
        return code

    def log(self) -> str:
        return "\n".join(self.out + ["--- stderr ---"] + self.err)


def study_of(url: str, name: str):
    """The study, read on a connection of this process (no outage riding: call while the server is up); None
    before it is created."""
    import optuna

    from tuner.storage.open import open_storage

    try:
        return optuna.load_study(study_name=name, storage=open_storage(url))
    except KeyError:
        return None


def trials_of(url: str, name: str) -> list:
    study = study_of(url, name)
    return [] if study is None else study.get_trials(deepcopy=False)


class Progress:
    """A study's trial count, and its trials finished so far, read on one storage of this process opened once
    (0 while the server is down: this storage does not ride out outages)."""

    def __init__(self, url: str, study: Path) -> None:
        config = read_study_file(study)
        self.trials = config.trials
        self._study = study_of(url, config.name)

    def finished(self) -> int:
        from optuna.exceptions import StorageInternalError
        from sqlalchemy.exc import SQLAlchemyError

        try:
            return len(self._study.get_trials(deepcopy=False, states=FINISHED))
        except (StorageInternalError, SQLAlchemyError):  # the server restarting under the soak
            return 0


def wait_until(condition: Callable[[], bool], workers: list, what: str, timeout: float = 120) -> None:
    """Poll `condition` until it holds; fail if a worker ends first or after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        for worker in workers:
            assert worker.alive() or worker.killed, f"a worker ended before {what}:\n{worker.log()[-3000:]}"
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting until {what}")


def running_in_the_middle(url: str, name: str) -> bool:
    """Whether a trial after the baseline is running and has reported some of its seed pairs."""
    return any(t.state == TrialState.RUNNING and t.number >= 1 and t.intermediate_values
               for t in trials_of(url, name))


@dataclass
class Soak:
    """What a soak did: the faults by kind, every worker started, its wall time."""

    faults: Counter = field(default_factory=Counter)
    workers: list = field(default_factory=list)
    seconds: float = 0.0


def soak(server, study: Path, workers: int, duration: float, every: float, seed: int,
         kinds: tuple = ("restart", "terminate", "kill"), log: Callable[[str], None] = lambda _: None,
         timeout: float = 600, paced: bool = False) -> Soak:
    """Run `workers` workers on `study` until they end. For `duration` seconds from the moment they have all
    opened the study, a fault every `every` seconds on average (uniform in [0.5, 1.5] x `every`), of each kind of
    `kinds` in turn (in their order first, then shuffled each round; the first round is played whole however long
    it takes, so a slow machine still sees every kind, and if `paced` its K-th fault comes by the time
    K / (len(kinds) + 1) of the study's trials are finished, so a fast machine does too): the server restarted
    (down 0.2 to 2 s), every client connection terminated, or a worker SIGKILLed and a new one started. A fault
    of the server waits until every worker has opened the study: a worker that starts while the database is down
    stops at once, by design (exit 2)."""
    rng = random.Random(seed)
    result = Soak()
    start = time.monotonic()
    alive = [Worker(study) for _ in range(workers)]
    result.workers += alive
    wait_until(lambda: all(w.opened() for w in alive), alive, "the workers open the study")
    end = time.monotonic() + duration
    bag = list(kinds)
    progress = Progress(server.url, study) if paced else None
    while time.monotonic() < end or sum(result.faults.values()) < len(kinds):
        pause = time.monotonic() + rng.uniform(0.5, 1.5) * every
        injected = sum(result.faults.values())
        first_round = progress is not None and injected < len(kinds)
        due = (injected + 1) * progress.trials / (len(kinds) + 1) if first_round else None
        while time.monotonic() < pause and any(w.alive() for w in alive):
            if due is not None and progress.finished() >= due:
                break
            time.sleep(0.2)
        bag = bag or rng.sample(kinds, len(kinds))
        kind = bag.pop(0)
        if kind != "kill":
            wait_until(lambda: all(w.opened() or not w.alive() for w in alive), [], "the workers open the study")
        alive = [w for w in alive if w.alive()]
        if not alive:
            break
        at = f"{time.monotonic() - start:6.1f} s"
        if kind == "restart":
            down = rng.uniform(0.2, 2.0)
            log(f"{at}  restart the server, down {down:.1f} s")
            server.restart(down=down)
        elif kind == "terminate":
            log(f"{at}  terminate the server's {server.terminate()} client connections")
        else:
            victim = rng.choice(alive)
            log(f"{at}  SIGKILL worker {victim.pid}, start another")
            victim.kill()
            alive.remove(victim)
            alive.append(Worker(study))
            result.workers.append(alive[-1])
        result.faults[kind] += 1
    for worker in result.workers:
        if not worker.killed:
            worker.wait(max(1.0, timeout - (time.monotonic() - start)))
    result.seconds = time.monotonic() - start
    return result


def check_workers(workers: list, faults: Optional[int] = None) -> None:
    """Every worker not killed ended at 0; no traceback in any output; each worker's outage lines come in pairs,
    at most one pair a fault (`faults`, when known)."""
    for worker in workers:
        text = worker.log()
        assert "Traceback" not in text, text
        if worker.killed:
            continue
        assert worker.process.returncode == 0, text[-3000:]
        lines = [line for line in worker.out if line.startswith((DOWN, UP))]
        assert all(line.startswith(DOWN if i % 2 == 0 else UP) for i, line in enumerate(lines)), lines
        assert len(lines) % 2 == 0, lines
        assert faults is None or len(lines) <= 2 * faults, lines


def provenance(trial) -> str:
    """Where a trial came from, to tell two alike apart: its number, state, worker, the trial it retries, its start."""
    retried = trial.system_attrs.get("failed_trial")
    start = trial.datetime_start.strftime("%H:%M:%S.%f") if trial.datetime_start else "never"
    return (f"trial {trial.number} ({trial.state.name}, worker {trial.user_attrs.get('worker', '?')}, "
            + (f"retry of trial {retried}, " if retried is not None else "") + f"started {start})")


def check_study(trials: list, target: int) -> None:
    """Exactly `target` finished trials, numbered once each without gap, none RUNNING or WAITING, no two finished
    trials alike, and every failed trial's retry (if any) run once."""
    numbers = [t.number for t in trials]
    assert numbers == list(range(len(trials))), numbers
    assert sum(t.state in FINISHED for t in trials) == target, [t.state.name for t in trials]
    assert not [t.number for t in trials if t.state in (TrialState.RUNNING, TrialState.WAITING)], \
        [(t.number, t.state.name) for t in trials]
    alike: dict = {}
    for t in trials:
        if t.state in FINISHED:
            alike.setdefault(tuple(sorted(t.params.items())), []).append(t)
    twins = [group for group in alike.values() if len(group) > 1]
    assert not twins, "a trial was run twice: " + "; ".join(" and ".join(map(provenance, group)) for group in twins)
    retries = Counter(t.system_attrs["retry_history"][-1] for t in trials if "retry_history" in t.system_attrs)
    assert all(count == 1 for count in retries.values()), retries
    assert all(trials[n].state == TrialState.FAIL for n in retries), retries


def replayed(trials: list, opponents: int) -> tuple[int, int]:
    """(failed trials, the games they had reported, each seed pair twice against each of `opponents`): the work the
    faults lost, played again by their retries (at least: games after a trial's last report are not counted)."""
    failed = [t for t in trials if t.state == TrialState.FAIL]
    return len(failed), sum(2 * opponents * max(t.intermediate_values, default=0) for t in failed)
