"""Workers that die or are stopped in the middle of a trial (real processes, real signals): the trial is failed
(by heartbeat, or at once on Ctrl-C), run again with the same parameters, and the study still ends with exactly
its requested number of COMPLETE trials."""
import os
import signal
import time

import optuna
import pytest
from optuna.trial import TrialState

from tests.conftest import load_study, run_tuner, start_tuner, write_study
from tuner.errors import UserError
from tuner.storage.open import open_storage
from tuner.study.file import read_study_file

TRIALS = 5
HEARTBEAT = {"heartbeat_interval": 1, "grace_period": 5}
# Seed pairs per trial: a trial lasts a second or two, mostly reporting each pair's result to the storage.
PAIRS = {"journal": 2000, "postgresql": 400}


class Watch:
    """The study as another process sees it while workers run."""

    def __init__(self, path):
        self.config = read_study_file(path)
        self.study = None

    def trials(self) -> list:
        if self.study is None:
            try:
                self.study = optuna.load_study(study_name=self.config.name,
                                               storage=open_storage(self.config.storage, create=False))
            except (UserError, KeyError):  # not created yet
                return []
        return self.study.get_trials(deepcopy=False)

    def wait(self, condition, processes, what: str, timeout: float = 180) -> list:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            trials = self.trials()
            if condition(trials):
                return trials
            for process in processes:
                assert process.poll() is None, f"a worker ended before {what}: {process.communicate()}"
            time.sleep(0.05)
        pytest.fail(f"timed out waiting until {what}")


def running_in_the_middle(trials, max_reports: int) -> list:
    """The trials after the baseline that are running and have reported some, not all, of their seed pairs."""
    return [t for t in trials if t.state == TrialState.RUNNING and t.number >= 1
            and 0 < len(t.intermediate_values) < max_reports]


def worker_of(trial, workers) -> tuple:
    """(the worker process running `trial`, the other ones), from the trial's `worker` attribute."""
    pid = int(trial.user_attrs["worker"].rsplit(":", 1)[1])
    return next(w for w in workers if w.pid == pid), [w for w in workers if w.pid != pid]


def finish(process, timeout: float = 240):
    try:
        return process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.fixture(params=["journal", "postgresql"])
def crash_study(request, tmp_path):
    """(kind, a study file with short heartbeats) on a journal file or on the test PostgreSQL database."""
    kind = request.param
    fields = dict(trials=TRIALS, pairs=PAIRS[kind], pruner="none", validation_pairs=10, **HEARTBEAT)
    if kind == "postgresql":
        name = request.getfixturevalue("postgres_study")("crash")
        return kind, write_study(tmp_path, name, storage=request.getfixturevalue("postgres_url"), **fields)
    return kind, write_study(tmp_path, "crash", **fields)


def check_rerun(study, lost) -> None:
    """The study has exactly TRIALS COMPLETE trials, `lost` failed, and a COMPLETE retry of it, same sample."""
    trials = study.get_trials()
    assert sum(t.state == TrialState.COMPLETE for t in trials) == TRIALS
    assert [t.number for t in trials if t.state != TrialState.COMPLETE] == [lost.number]
    retries = [t for t in trials if t.system_attrs.get("failed_trial") == lost.number]
    assert len(retries) == 1
    retry = retries[0]
    assert retry.state == TrialState.COMPLETE and retry.number > lost.number
    assert retry.params == lost.params and retry.system_attrs["retry_history"] == [lost.number]
    # Same CMA-ES sample, in the same generation; none of the lost trial's sampler state.
    for key, value in lost.system_attrs.items():
        if key.endswith(":generation") or key == "x_for_tell":
            assert retry.system_attrs[key] == value
    assert not [key for key in retry.system_attrs if ":optimizer:" in key]
    assert retry.user_attrs["pairs_played"] == retry.user_attrs["seeds"]["pairs"]  # played in full


def test_a_killed_worker_s_trial_is_failed_by_heartbeat_and_run_again_by_another(crash_study):
    kind, path = crash_study
    watch = Watch(path)
    workers = [start_tuner("tune", str(path), "--no-progress") for _ in range(2)]
    try:
        trials = watch.wait(lambda trials: running_in_the_middle(trials, PAIRS[kind]), workers, "a trial is running")
        victim, (survivor,) = worker_of(running_in_the_middle(trials, PAIRS[kind])[0], workers)
        os.kill(victim.pid, signal.SIGKILL)
        assert victim.wait(timeout=30) == -signal.SIGKILL
        out, err = finish(survivor)
    finally:
        for process in workers:
            if process.poll() is None:
                process.kill()
    assert survivor.returncode == 0, err
    study = load_study(path)
    lost = study.get_trials(states=(TrialState.FAIL,))
    assert len(lost) == 1 and 0 < len(lost[0].intermediate_values) < PAIRS[kind]  # killed in the middle
    check_rerun(study, lost[0])
    (retry,) = [t for t in study.trials if t.system_attrs.get("failed_trial") == lost[0].number]
    assert worker_of(lost[0], workers)[0] is victim and worker_of(retry, workers)[0] is survivor


def test_a_killed_worker_s_trial_is_run_again_when_the_study_is_resumed(tmp_path):
    path = write_study(tmp_path, "crash", trials=TRIALS, pairs=PAIRS["journal"], pruner="none", **HEARTBEAT)
    watch = Watch(path)
    worker = start_tuner("tune", str(path), "--no-progress")
    try:
        trials = watch.wait(lambda trials: running_in_the_middle(trials, PAIRS["journal"]), [worker],
                            "a trial is running")
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
    victim = next(t.number for t in trials if t.state == TrialState.RUNNING)
    assert load_study(path).trials[victim].state == TrialState.RUNNING  # the dead worker's: nobody failed it yet
    result = run_tuner("tune", str(path), "--no-progress")  # the same command again
    assert result.returncode == 0, result.stderr
    study = load_study(path)
    check_rerun(study, study.trials[victim])


def test_ctrl_c_fails_the_trial_at_once_and_another_worker_runs_it_again(tmp_path):
    # Two batches of 2000 pairs: the first Ctrl-C stops the trial when its running batch ends.
    pairs = 4001
    path = write_study(tmp_path, "stopped", trials=TRIALS, pairs=pairs, pruner="none", **HEARTBEAT)
    watch = Watch(path)
    workers = [start_tuner("tune", str(path), "--no-progress") for _ in range(2)]
    try:
        trials = watch.wait(lambda trials: running_in_the_middle(trials, 2 * 2000), workers, "a trial is running")
        stopped, (other,) = worker_of(running_in_the_middle(trials, 2 * 2000)[0], workers)
        stopped.send_signal(signal.SIGINT)
        out0, err0 = finish(stopped, 60)
        out1, err1 = finish(other)
    finally:
        for process in workers:
            if process.poll() is None:
                process.kill()
    assert stopped.returncode == 130 and "Traceback" not in err0, err0
    assert "interrupted" in out0 and other.returncode == 0, err1
    study = load_study(path)
    lost = study.get_trials(states=(TrialState.FAIL,))
    assert len(lost) == 1 and lost[0].user_attrs["interrupted"]
    check_rerun(study, lost[0])
    (retry,) = [t for t in study.trials if t.system_attrs.get("failed_trial") == lost[0].number]
    assert worker_of(lost[0], workers)[0] is stopped and worker_of(retry, workers)[0] is other


def test_a_trial_whose_worker_died_before_its_first_heartbeat_is_failed_and_retried(tmp_path):
    """On RDB storages Optuna ignores a running trial that never recorded a heartbeat; it must not stay RUNNING
    forever (the study would wait for it). SQLite is an RDB storage like PostgreSQL."""
    from tuner.storage.open import Heartbeat, open_storage

    storage = open_storage(f"sqlite:///{tmp_path / 'study.db'}", heartbeat=Heartbeat(interval=1, grace=1))
    study = optuna.create_study(study_name="gap", storage=storage)
    orphan = study.ask({"x": optuna.distributions.FloatDistribution(0, 1)})  # RUNNING, no heartbeat: never beats
    optuna.storages.fail_stale_trials(study)
    assert study.get_trials(deepcopy=False)[0].state == TrialState.RUNNING  # within the grace period: alive
    time.sleep(2.2)
    optuna.storages.fail_stale_trials(study)
    trials = study.get_trials(deepcopy=False)
    assert trials[0].state == TrialState.FAIL
    assert [t.state for t in trials[1:]] == [TrialState.WAITING] and trials[1].params == orphan.params
