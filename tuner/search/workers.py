"""One worker's loop: any number of workers (processes, machines) on one study end it with exactly its `trials`
finished trials (COMPLETE or PRUNED), none run twice, none lost.

Each step runs under the study lock (`tuner.storage.lock`). The worker fails the running trials whose heartbeat
stopped (Optuna's `fail_stale_trials`, whose callback enqueues their retries, `tuner.storage.retry`), counts the
finished and running trials, then:

- stops when `trials` are finished;
- asks Optuna for a batch of trials when places are left (finished + running < `trials`): retried (WAITING)
  trials first, then new samples; the batch is raced (`tuner.search.generation`), its first trials' games
  starting while the next ones are asked, and the lock is released once the last one is asked;
- else waits: the remaining places belong to trials running on other workers, which may die. It looks again
  every POLL_SECONDS, so a dead worker's trials are failed after their grace period and run again here. It also
  waits while the study's first trial (the baseline) runs elsewhere: Optuna's samplers learn the search space
  from a finished trial, and would sample at random before.

A batch is the sampler's population (CMA-ES, NSGA-II; for tpe and random, the hall of fame's refresh
interval), shared between the workers that are running trials of the study: each takes its share, so one
generation is played by all of them. The first batch of a new study is the baseline alone.

Finished + running never exceeds `trials`: places are taken only under the lock, a finished trial keeps its
place, a failed one frees it, and its retry takes it back when a worker pops it, again under the lock.
`--trials N` (`Plan.count`) runs N trials whatever the count. A batch stopped by Ctrl-C is failed at once and
enqueued again, trial by trial, as far as places are free.
"""
from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Optional

import optuna
from optuna.exceptions import UpdateFinishedTrialError
from optuna.trial import TrialState

from tuner.search.cmaes_sampler import BatchCmaEsSampler
from tuner.search.heartbeat import Heartbeats
from tuner.search.interrupt import Interrupted, StopFlag
from tuner.storage.journal import synced_once
from tuner.storage.lock import StudyLock
from tuner.storage.retry import RetryTrial

POLL_SECONDS = 1.0
RUN, WAIT, DONE = "run", "wait", "done"
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)


@dataclass(frozen=True)
class Plan:
    target: Optional[int]  # finished trials the study must end with (None: no target)
    count: Optional[int]  # trials this run starts whatever the target (`--trials N`), or None
    timeout: Optional[float]  # seconds after which this run starts no batch


def count_trials(study) -> dict:
    """Trials per state, by the state's name (COMPLETE counts the PRUNED ones too: both are finished)."""
    counts = {"COMPLETE": 0, "RUNNING": 0, "WAITING": 0}
    for trial in study.get_trials(deepcopy=False, states=FINISHED + (TrialState.RUNNING, TrialState.WAITING)):
        counts["COMPLETE" if trial.state in FINISHED else trial.state.name] += 1
    return counts


@dataclass(frozen=True)
class Step:
    action: str
    size: int = 0  # trials to ask
    why: str = ""  # why it waits
    waiting: int = 0  # retried trials waiting to be asked (Optuna's ask pops them first)


def next_step(study, target: Optional[int], population: int, worker: str) -> Step:
    """What this worker does now: run a batch of `size` trials, wait (and why), or stop."""
    trials = study.get_trials(deepcopy=False, states=FINISHED + (TrialState.RUNNING, TrialState.WAITING))
    finished = sum(t.state in FINISHED for t in trials)
    running = [t for t in trials if t.state == TrialState.RUNNING]
    waiting = sum(t.state == TrialState.WAITING for t in trials)
    if target is not None and finished >= target:
        return Step(DONE)
    if finished == 0:
        # Optuna's samplers learn the search space from a finished trial: the baseline first, alone.
        if running:
            return Step(WAIT, why="the study's first trial is running on another worker")
        return Step(RUN, 1, waiting=waiting)
    places = population if target is None else target - finished - len(running)
    if places <= 0:
        return Step(WAIT, why="the study's last trials are running on other workers")
    others = {t.user_attrs.get("worker") for t in running} - {worker, None}
    share = max(1, math.ceil(population / (1 + len(others))))
    return Step(RUN, min(places, max(share, min(waiting, population))), waiting=waiting)


def asked_trials(study, distributions: dict, size: int, waiting: int, user_attrs: dict) -> Iterator:
    """`size` trials with `user_attrs`, each given as soon as it is asked: the retried (WAITING) ones first, asked
    from Optuna, which pops them; then new samples, each created in one storage record when the sampler can
    (BatchCmaEsSampler.asked)."""
    count = 0
    while count < size and (count < waiting or not isinstance(study.sampler, BatchCmaEsSampler)):
        trial = study.ask(distributions)
        for key, value in user_attrs.items():
            trial.set_user_attr(key, value)
        count += 1
        yield trial
    if count < size:
        yield from study.sampler.asked(study, distributions, size - count, user_attrs)


def ask_batch(study, distributions: dict, size: int, waiting: int, user_attrs: dict) -> list:
    """The trials of `asked_trials`, as a list."""
    return list(asked_trials(study, distributions, size, waiting, user_attrs))


def fail_stale_trials(study) -> None:
    """Optuna's: fail the running trials without a recent heartbeat and enqueue their retries."""
    optuna.storages.fail_stale_trials(study)


class WorkerLoop:
    def __init__(self, study, storage, lock: StudyLock, player, stop: StopFlag, distributions: dict,
                 full_params: Callable[[dict], dict], population: int, heartbeat_interval: float,
                 notify=print, on_outcomes: Optional[Callable] = None):
        self.study = study
        self.storage = storage
        self.lock = lock
        self.player = player  # tuner.search.generation.BatchPlayer
        self.stop = stop
        self.distributions = distributions  # the searched parameters, as Optuna distributions
        self.full_params = full_params  # a trial's searched values -> its full parameter set
        self.population = population
        self.heartbeat_interval = heartbeat_interval
        self.notify = notify
        self.on_outcomes = on_outcomes
        self.running: list = []  # this worker's batch in play

    def run(self, plan: Plan) -> None:
        """Run batches until the plan is done, the time is up or Ctrl-C; Ctrl-C raises Interrupted or
        KeyboardInterrupt once the stopped batch is failed and enqueued again."""
        deadline = None if plan.timeout is None else time.monotonic() + plan.timeout
        ran, waiting = 0, ""
        try:
            while not self.stop.requested:
                if (plan.count is not None and ran >= plan.count) or \
                        (deadline is not None and time.monotonic() >= deadline):
                    return
                with contextlib.ExitStack() as held:  # the study lock, released as soon as the batch is asked
                    held.enter_context(self.lock)
                    fail_stale_trials(self.study)
                    step = next_step(self.study, None if plan.count is not None else plan.target, self.population,
                                     self.player.worker)
                    if step.action == RUN:
                        if self.stop.requested:  # Ctrl-C meanwhile: start no batch
                            return
                        size = step.size if plan.count is None else min(step.size, plan.count - ran)
                        ran, waiting = ran + size, ""
                        self._play_batch(asked_trials(self.study, self.distributions, size, step.waiting,
                                                      {"worker": self.player.worker}), size, held.close)
                        continue
                if step.action == DONE:
                    return
                if waiting != step.why:
                    self.notify(f"waiting: {step.why} (a dead worker's trial is run again here after its "
                                f"grace period)")
                    waiting = step.why
                self._sleep(POLL_SECONDS, deadline)
        except (Interrupted, KeyboardInterrupt):
            self._retry_stopped(plan.target)
            raise
        except BaseException:
            self._fail_running("error")
            raise

    def _play_batch(self, asked: Iterator, size: int, release: Callable[[], None]) -> None:
        """Play a batch of `size` trials whose first games start while the next trials are asked (`asked`): once the
        last one is asked, the batch's heartbeats start and the study lock is released (`release`)."""
        beats = Heartbeats(self.storage, self.heartbeat_interval)

        def batch() -> Iterator:
            with contextlib.closing(asked):  # a batch that fails midway leaves no ask suspended
                for trial in asked:
                    self.running.append(trial)
                    yield trial, self.full_params(trial.params)
            beats.start(self.running)  # every trial has beaten once before another worker may judge it
            release()

        trials = batch()
        try:
            # The batch's tells are forced to disk together, at its end.
            with contextlib.closing(trials), beats, synced_once(self.storage):
                outcomes = self.player.play(self.study, trials, size)
        except UpdateFinishedTrialError:
            # Another worker failed this batch's trials (no heartbeat within the grace period: a machine that
            # slept, a stalled process) and has enqueued them again: carry on with the next batch.
            trials = self.running
            self.notify(f"trials {trials[0].number}-{trials[-1].number} were failed by another worker (no "
                        f"heartbeat within the grace period) and are run again; carrying on")
            self.running = []
            return
        self.running = []
        if self.on_outcomes is not None:
            self.on_outcomes(outcomes)

    def _sleep(self, seconds: float, deadline: Optional[float]) -> None:
        end = time.monotonic() + seconds
        if deadline is not None:
            end = min(end, deadline)
        while not self.stop.requested and time.monotonic() < end:
            time.sleep(min(0.2, max(0.0, end - time.monotonic())))

    def _retry_stopped(self, target: Optional[int]) -> None:
        """The batch stopped by Ctrl-C: each running trial FAIL (`interrupted`) and enqueued again while its place
        is free."""
        if not self.running:
            return
        with self.lock:
            numbers = {t.number for t in self.running}
            self._fail_running("interrupted")
            retry = RetryTrial()
            for frozen in self.study.get_trials(deepcopy=False, states=(TrialState.FAIL,)):
                if frozen.number not in numbers or not frozen.user_attrs.get("interrupted"):
                    continue
                counts = count_trials(self.study)
                if target is None or counts["COMPLETE"] + counts["RUNNING"] + counts["WAITING"] < target:
                    retry(self.study, frozen)

    def _fail_running(self, why: str) -> None:
        """Tell this worker's running trials FAIL, marking them with the user attribute `why`."""
        for trial in self.running:
            try:
                trial.set_user_attr(why, True)
            except UpdateFinishedTrialError:  # failed already by another worker
                continue
            self.study.tell(trial, state=TrialState.FAIL, skip_if_finished=True)
        self.running = []
