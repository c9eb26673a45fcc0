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

A database restart or a dropped connection may end the lock's session in the middle of a step (PostgreSQL): the
worker's next transaction in it raises LockLost before it writes (`tuner.storage.lock`), and the worker does the
step again under the lock; the trials it had asked in that step (all under the lock) are given back as a stopped
batch is. Every storage call rides out the outage itself (`tuner.storage.outage`).
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

from tuner.errors import StorageUnavailable
from tuner.optuna_internals import trial_id
from tuner.search.cmaes_sampler import BatchCmaEsSampler
from tuner.search.heartbeat import Heartbeats
from tuner.search.interrupt import Interrupted, StopFlag
from tuner.storage.journal import synced_once
from tuner.storage.lock import LockLost, StudyLock, under_lock
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
        KeyboardInterrupt once the stopped batch is failed and enqueued again. A storage that stays unreachable
        raises StorageUnavailable and leaves the batch RUNNING, to be retried after its grace period."""
        deadline = None if plan.timeout is None else time.monotonic() + plan.timeout
        ran, waiting = 0, ""
        try:
            while not self.stop.requested:
                if (plan.count is not None and ran >= plan.count) or \
                        (deadline is not None and time.monotonic() >= deadline):
                    return
                target = None if plan.count is not None else plan.target
                try:
                    with contextlib.ExitStack() as held:  # the study lock, released as soon as the batch is asked
                        held.enter_context(self.lock)
                        fail_stale_trials(self.study)
                        step = next_step(self.study, target, self.population, self.player.worker)
                        if step.action == RUN:
                            if self.stop.requested:  # Ctrl-C meanwhile: start no batch
                                return
                            size = step.size if plan.count is None else min(step.size, plan.count - ran)
                            waiting = ""
                            self._play_batch(size, step.waiting, target, held.close)
                            ran += size
                            continue
                except LockLost:
                    # A database restart or a dropped connection ended the lock's session in this step, and the
                    # batch could not go on (`_play_batch`): the trials it asked (under the lock) are given back, and
                    # the step is done again under the lock.
                    self._give_back(plan.target, "lock_lost")
                    continue
                if step.action == DONE:
                    return
                if waiting != step.why:
                    self.notify(f"waiting: {step.why} (a dead worker's trial is run again here after its "
                                f"grace period)")
                    waiting = step.why
                self._sleep(POLL_SECONDS, deadline)
        except (Interrupted, KeyboardInterrupt):
            self._give_back(plan.target, "interrupted")
            raise
        except StorageUnavailable:
            raise
        except BaseException:
            self._fail_running("error")
            raise

    def _play_batch(self, size: int, waiting: int, target: Optional[int], release: Callable[[], None]) -> None:
        """Play a batch of `size` trials (`waiting` retried ones among the study's) whose first games start while the
        next trials are asked: once the last one is asked, the batch's heartbeats start and the study lock is
        released (`release`). A lock lost while the batch is asked is taken again, and the batch goes on if the
        study still has places for the trials left to ask (`target`), else it raises LockLost (`_take_lock_again`)."""
        beats = Heartbeats(self.storage, self.heartbeat_interval)
        user_attrs = {"worker": self.player.worker}

        def batch() -> Iterator:
            asked = asked_trials(self.study, self.distributions, size, waiting, user_attrs)
            try:  # a batch that fails midway leaves no ask suspended
                while len(self.running) < size:
                    try:
                        got = [next(asked)]
                    except LockLost:
                        waiting_now, got = self._take_lock_again(size - len(self.running), target)
                        asked = asked_trials(self.study, self.distributions, size - len(self.running) - len(got),
                                             waiting_now, user_attrs)
                    for trial in got:
                        self.running.append(trial)
                        yield trial, self.full_params(trial.params)
            finally:
                asked.close()
            while True:
                try:
                    beats.start(self.running)  # every trial has beaten once before another worker may judge it
                    break
                except LockLost:
                    self._take_lock_again(0, target)
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

    def _take_lock_again(self, left: int, target: Optional[int]) -> tuple[int, list]:
        """The study lock, lost in the middle of a batch (its session ended), taken again: (the retried trials
        waiting, this worker's trials asked before the loss whose answer it cut off, now in the batch). LockLost if
        the study has no places left for the batch's `left` trials still to ask."""
        while True:
            self.lock.release()
            self.lock.acquire()
            mine = {t.number for t in self.running}
            try:
                trials = self.study.get_trials(deepcopy=False, states=(TrialState.RUNNING, TrialState.WAITING) +
                                               FINISHED)
                cut_off = [optuna.Trial(self.study, trial_id(t)) for t in trials if t.state == TrialState.RUNNING
                           and t.user_attrs.get("worker") == self.player.worker and t.number not in mine][:left]
            except LockLost:
                continue
            waiting = sum(t.state == TrialState.WAITING for t in trials)
            new = left - len(cut_off) - min(left - len(cut_off), waiting)
            if target is not None and target - len(trials) < new:
                raise LockLost("the study lock was lost while a batch was asked, and its places were taken since")
            return waiting, cut_off

    def _sleep(self, seconds: float, deadline: Optional[float]) -> None:
        end = time.monotonic() + seconds
        if deadline is not None:
            end = min(end, deadline)
        while not self.stop.requested and time.monotonic() < end:
            time.sleep(min(0.2, max(0.0, end - time.monotonic())))

    def _give_back(self, target: Optional[int], why: str) -> None:
        """This worker's running batch, stopped (Ctrl-C, a lost lock): each trial FAIL (user attribute `why`) and
        enqueued again while its place is free."""
        if not self.running:
            return
        numbers = {t.number for t in self.running}
        self._fail_running(why)
        under_lock(self.lock, lambda: self._enqueue_again(numbers, why, target))

    def _enqueue_again(self, numbers: set, why: str, target: Optional[int]) -> None:
        """Under the lock: a retry of each failed trial of `numbers` marked `why` that has none yet, while places
        are free (done again from the start when the lock is lost meanwhile)."""
        retry = RetryTrial()
        trials = self.study.get_trials(deepcopy=False)
        retried = {n for t in trials for n in t.system_attrs.get("retry_history", ())}
        for frozen in trials:
            if frozen.number not in numbers or frozen.state != TrialState.FAIL or not frozen.user_attrs.get(why) \
                    or frozen.number in retried:
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
