"""One worker's trial loop: any number of workers (processes, machines) on one study end it with exactly its
`trials` COMPLETE trials, none run twice, none lost.

Each step runs under the study lock (`tuner.storage.lock`). The worker fails the running trials whose heartbeat
stopped (Optuna's `fail_stale_trials`, whose callback enqueues their retries, `tuner.storage.retry`), counts the COMPLETE
and RUNNING trials, then:

- stops when `trials` are COMPLETE;
- runs a trial when COMPLETE + RUNNING < `trials`: `study.optimize(n_trials=1)` asks Optuna for it (a WAITING
  retry first, else a new trial), the sampler suggests its parameters, then the lock is released and the
  objective plays its games;
- else waits: the remaining places belong to trials running on other workers, which may die. It looks again
  every POLL_SECONDS, so a dead worker's trial is failed after its grace period and run again here. It also
  waits while the study's first trial (the baseline) runs elsewhere: Optuna's samplers learn the search space
  from a finished trial, and would sample a new trial at random before.

COMPLETE + RUNNING never exceeds `trials`: a place is taken only under the lock, a finished trial keeps it, a
failed one frees it, and its retry takes it back when a worker pops it, again under the lock. `--trials N`
(`Plan.count`) runs N trials whatever the count. A trial stopped by Ctrl-C is failed by Optuna, then enqueued
again like a dead worker's trial, if its place is still free.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional

import optuna
from optuna.exceptions import UpdateFinishedTrialError
from optuna.trial import TrialState

from tuner.search.interrupt import Interrupted, StopFlag
from tuner.storage.retry import RetryTrial
from tuner.storage.lock import StudyLock

POLL_SECONDS = 1.0
RUN, WAIT, DONE = "run", "wait", "done"
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)


@dataclass(frozen=True)
class Plan:
    target: Optional[int]  # COMPLETE trials the study must end with (None: no target)
    count: Optional[int]  # trials this run starts whatever the target (`--trials N`), or None
    timeout: Optional[float]  # seconds after which this run starts no trial


def count_trials(study) -> dict:
    """Trials per state, by the state's name (COMPLETE counts the PRUNED ones too)."""
    counts = {"COMPLETE": 0, "RUNNING": 0, "WAITING": 0}
    for trial in study.get_trials(deepcopy=False, states=FINISHED + (TrialState.RUNNING, TrialState.WAITING)):
        counts["COMPLETE" if trial.state in FINISHED else trial.state.name] += 1
    return counts


def next_action(study, target: Optional[int]) -> tuple[str, str]:
    """(RUN, WAIT or DONE, why it waits)."""
    counts = count_trials(study)
    if target is not None and counts["COMPLETE"] >= target:
        return DONE, ""
    if counts["COMPLETE"] == 0 and counts["RUNNING"] and not counts["WAITING"]:
        # Optuna's samplers learn the search space from a finished trial: without one, a new trial would be
        # sampled at random rather than by CMA-ES.
        return WAIT, "the study's first trial is running on another worker"
    if target is None or counts["COMPLETE"] + counts["RUNNING"] < target:
        return RUN, ""
    return WAIT, "the study's last trials are running on other workers"


def fail_stale_trials(study) -> None:
    """Optuna's: fail the running trials without a recent heartbeat and enqueue their retries."""
    optuna.storages.fail_stale_trials(study)


class WorkerLoop:
    def __init__(self, study, lock: StudyLock, objective: Callable, stop: StopFlag, notify=print,
                 callbacks: Optional[list] = None, sample: Optional[Callable] = None):
        self.study = study
        self.lock = lock
        self.objective = objective
        self.sample = sample  # suggests the trial's parameters (Optuna samples lazily, at the first suggestion)
        self.stop = stop
        self.notify = notify
        self.callbacks = callbacks or []
        self.started: list[int] = []  # numbers of the trials this worker started

    def _tracked(self, trial):
        self.started.append(trial.number)
        try:
            if self.sample is not None:
                self.sample(trial)  # under the lock too: each worker samples from the storage's latest state
        finally:
            self.lock.release()  # the games run without the lock
        return self.objective(trial)

    def run(self, plan: Plan) -> None:
        """Run trials until the plan is done, the time is up or Ctrl-C; Ctrl-C raises Interrupted or
        KeyboardInterrupt once the stopped trial is failed and enqueued again."""
        deadline = None if plan.timeout is None else time.monotonic() + plan.timeout
        ran, waiting = 0, ""
        try:
            while not self.stop.requested:
                if (plan.count is not None and ran >= plan.count) or \
                        (deadline is not None and time.monotonic() >= deadline):
                    return
                self.lock.acquire()
                try:
                    fail_stale_trials(self.study)
                    action, why = next_action(self.study, None if plan.count is not None else plan.target)
                    if action == RUN:
                        if self.stop.requested:  # Ctrl-C meanwhile: start no trial
                            return
                        ran, waiting = ran + 1, ""
                        self._run_one()
                finally:
                    self.lock.release()
                if action == DONE:
                    return
                if action == WAIT:
                    if waiting != why:
                        self.notify(f"waiting: {why} (a dead worker's trial is run again here after its grace "
                                    f"period)")
                        waiting = why
                    self._sleep(POLL_SECONDS, deadline)
        except (Interrupted, KeyboardInterrupt):
            self._retry_stopped(plan.target)
            raise

    def _run_one(self) -> None:
        try:
            self.study.optimize(self._tracked, n_trials=1, callbacks=self.callbacks, catch=())
        except (UpdateFinishedTrialError, ValueError) as error:
            # Another worker failed this worker's trial (no heartbeat within the grace period: a machine that
            # slept, a stalled process) and has enqueued it again: carry on with the next trial.
            if not isinstance(error, UpdateFinishedTrialError) and not str(error).startswith("Cannot tell a "):
                raise
            number = self.started[-1] if self.started else "?"
            self.notify(f"trial {number} was failed by another worker (no heartbeat within the grace period) "
                        f"and is run again; carrying on")

    def _sleep(self, seconds: float, deadline: Optional[float]) -> None:
        end = time.monotonic() + seconds
        if deadline is not None:
            end = min(end, deadline)
        while not self.stop.requested and time.monotonic() < end:
            time.sleep(min(0.2, max(0.0, end - time.monotonic())))

    def _retry_stopped(self, target: Optional[int]) -> None:
        """The trial stopped by Ctrl-C: FAIL (Optuna records it so) and enqueued again if its place is free."""
        if not self.started:
            return
        number = self.started[-1]
        with self.lock:
            trial = next(t for t in self.study.get_trials(deepcopy=False) if t.number == number)
            if trial.state == TrialState.RUNNING:  # safety net: Optuna fails the trial on any exception
                self.study.tell(number, state=TrialState.FAIL)
                trial = next(t for t in self.study.get_trials(deepcopy=False) if t.number == number)
            if trial.state != TrialState.FAIL:
                return
            counts = count_trials(self.study)
            if target is None or counts["COMPLETE"] + counts["RUNNING"] + counts["WAITING"] < target:
                RetryTrial()(self.study, trial)
