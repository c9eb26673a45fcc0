"""Workers that die or are stopped in the middle of a batch of trials (real processes, real signals): its trials
are failed (by heartbeat, or at once on Ctrl-C), run again with the same parameters, and the study still ends
with exactly its requested number of finished trials."""
import os
import signal
import time

import optuna
import pytest
from optuna.trial import TrialState

from tests.conftest import load_study, run_tuner, start_tuner, write_study
from tuner.errors import UserError
from tuner.search.generation import MAX_BLOCK_GAMES
from tuner.search.race import blocks
from tuner.storage.open import open_storage
from tuner.studyfile.file import read_study_file

TRIALS = 5
HEARTBEAT = {"heartbeat_interval": 1, "grace_period": 5}
# Seed pairs per trial: a batch of trials lasts a few seconds, so that it is seen running in the middle.
PAIRS = {"journal": 20000, "postgresql": 20000}
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)


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
    fields = dict(trials=TRIALS, pairs=PAIRS[kind], race="none", finals_pairs=10, **HEARTBEAT)
    if kind == "postgresql":
        name = request.getfixturevalue("postgres_study")("crash")
        return kind, write_study(tmp_path, name, storage=request.getfixturevalue("postgres_url"), **fields)
    return kind, write_study(tmp_path, "crash", **fields)


def check_rerun(study, lost: list) -> None:
    """The study has exactly TRIALS finished trials, the `lost` ones failed, and a finished retry of each, same
    sample."""
    trials = study.get_trials()
    assert lost and sum(t.state in FINISHED for t in trials) == TRIALS
    assert [t.number for t in trials if t.state not in FINISHED] == [t.number for t in lost]
    for failed in lost:
        retries = [t for t in trials if t.system_attrs.get("failed_trial") == failed.number]
        assert len(retries) == 1
        retry = retries[0]
        assert retry.state in FINISHED and retry.number > failed.number
        assert retry.params == failed.params and retry.system_attrs["retry_history"] == [failed.number]
        # Same CMA-ES sample, in the same generation; none of the lost trial's sampler state.
        for key, value in failed.system_attrs.items():
            if key.endswith(":generation") or key == "x_for_tell":
                assert retry.system_attrs[key] == value
        assert not [key for key in retry.system_attrs if ":optimizer:" in key]
        result = retry.user_attrs["result"]
        assert result["pairs_played"] == result["seeds"]["pairs"]  # played in full


@pytest.mark.slow  # 20 to 30 s of two workers: CI's second step
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
    seen = running_in_the_middle(trials, PAIRS[kind])[0]
    assert seen.number in [t.number for t in lost]
    assert 0 < len(study.trials[seen.number].intermediate_values) < PAIRS[kind]  # killed in the middle
    check_rerun(study, lost)
    for failed in lost:
        (retry,) = [t for t in study.trials if t.system_attrs.get("failed_trial") == failed.number]
        assert worker_of(failed, workers)[0] is victim and worker_of(retry, workers)[0] is survivor


@pytest.mark.slow  # a minute of processes: CI's second step
def test_a_killed_worker_s_trial_is_run_again_when_the_study_is_resumed(tmp_path):
    path = write_study(tmp_path, "crash", trials=TRIALS, pairs=PAIRS["journal"], race="none", **HEARTBEAT)
    watch = Watch(path)
    worker = start_tuner("tune", str(path), "--no-progress")
    try:
        watch.wait(lambda trials: running_in_the_middle(trials, PAIRS["journal"]), [worker], "a trial is running")
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
    victims = [t.number for t in load_study(path).trials if t.state == TrialState.RUNNING]
    assert victims  # the dead worker's: nobody failed them yet
    result = run_tuner("tune", str(path), "--no-progress")  # the same command again
    assert result.returncode == 0, result.stderr
    study = load_study(path)
    check_rerun(study, [study.trials[n] for n in victims])


@pytest.mark.slow  # a minute of processes: CI's second step
def test_ctrl_c_fails_the_trials_at_once_and_another_worker_runs_them_again(tmp_path):
    # The first Ctrl-C stops the batch when its running block of seed pairs ends: it comes while several blocks
    # are still to play (each of at most MAX_BLOCK_GAMES games).
    pairs = PAIRS["journal"]
    path = write_study(tmp_path, "stopped", trials=TRIALS, pairs=pairs, race="none", **HEARTBEAT)
    watch = Watch(path)
    workers = [start_tuner("tune", str(path), "--no-progress") for _ in range(2)]
    early = len(blocks(pairs, 20, MAX_BLOCK_GAMES // (2 * (TRIALS - 1)))) - 3
    try:
        trials = watch.wait(lambda trials: running_in_the_middle(trials, early), workers, "a trial is running")
        stopped, (other,) = worker_of(running_in_the_middle(trials, early)[0], workers)
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
    assert lost and all(t.user_attrs["interrupted"] for t in lost)
    check_rerun(study, lost)
    for failed in lost:
        (retry,) = [t for t in study.trials if t.system_attrs.get("failed_trial") == failed.number]
        assert worker_of(failed, workers)[0] is stopped and worker_of(retry, workers)[0] is other


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
