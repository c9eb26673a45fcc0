"""Every private part of Optuna that tuner/optuna_internals.py relies on still exists in the installed Optuna:
an Optuna upgrade that removes or renames one fails here, by name, instead of in the middle of a study."""
from __future__ import annotations

import inspect

import optuna
import pytest

from tuner import optuna_internals as internals
from tuner.search.cmaes_sampler import BatchCmaEsSampler, cmaes_mean

pytestmark = pytest.mark.filterwarnings("ignore::optuna.exceptions.ExperimentalWarning")


@pytest.fixture
def journal_study(tmp_path):
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(tmp_path / "internals.journal")))
    sampler = BatchCmaEsSampler(seed=1, popsize=4, warn_independent_sampling=False)
    study = optuna.create_study(storage=storage, sampler=sampler, direction="maximize")
    return storage, sampler, study


def _run_generations(study, generations: int = 3) -> None:
    for _ in range(generations * 4):
        trial = study.ask()
        x = trial.suggest_float("x", 0.0, 1.0)
        y = trial.suggest_int("y", 0, 10)
        study.tell(trial, -(x - 0.3) ** 2 - (y - 4) ** 2)


def test_a_tell_without_the_copy_tells_as_optuna_does(journal_study):
    _, _, study = journal_study
    trial = study.ask({"x": optuna.distributions.FloatDistribution(0.0, 1.0)})
    trial.report(0.25, 3)
    internals.tell(study, trial, state=optuna.trial.TrialState.PRUNED)
    internals.tell(study, study.ask(), 0.5)
    assert [(t.state.name, t.value) for t in study.trials] == [("PRUNED", 0.25), ("COMPLETE", 0.5)]


def test_the_stale_trial_method_is_the_one_heartbeat_storages_implement():
    assert internals.STALE_TRIAL_IDS in internals.BaseHeartbeat.__abstractmethods__
    assert callable(getattr(optuna.storages.RDBStorage, internals.STALE_TRIAL_IDS))


def test_journal_internals_the_snapshots_and_the_replay_cache_use(journal_study):
    storage, _, study = journal_study
    _run_generations(study, 1)
    assert isinstance(internals.journal_backend(storage), optuna.storages.journal.JournalFileBackend)
    assert isinstance(internals.journal_storage_module.SNAPSHOT_INTERVAL, int)
    internals.cache_journal_distributions()
    assert hasattr(internals.journal_storage_module.json_to_distribution, "cache_info")
    assert hasattr(internals.journal_storage_module.distribution_to_json, "cache_info")
    for name in ("_thread_lock", "_sync_with_backend", "_replay_result"):
        assert hasattr(storage, name), f"JournalStorage.{name}"
    assert internals.trial_id(study.trials[0]) == study.trials[0]._trial_id
    assert {op.name for op in internals.DURABLE_OPERATIONS} == {"CREATE_STUDY", "SET_TRIAL_STATE_VALUES"}


def test_cma_es_keeps_its_optimizer_where_the_markers_say_and_has_a_mean(journal_study):
    _, sampler, study = journal_study
    _run_generations(study)
    keys = [key for trial in study.trials for key in trial.system_attrs]
    assert any(marker in key for key in keys for marker in internals.CMA_STATE_KEY_MARKERS)
    mean = cmaes_mean(sampler, study)
    assert set(mean) == {"x", "y"} and 0.0 <= mean["x"] <= 1.0 and isinstance(mean["y"], int)


def test_rdb_and_redis_internals():
    models = internals.rdb_models()
    assert hasattr(models, "TrialModel") and hasattr(models, "TrialHeartbeatModel")
    assert internals.rdb_heartbeat_callback_argument() in inspect.signature(optuna.storages.RDBStorage).parameters
    assert "self._redis" in inspect.getsource(optuna.storages.journal.JournalRedisBackend)


def test_the_private_rdb_calls_of_optunas_cache_are_the_ones_a_worker_rides_through_an_outage():
    """Optuna's _CachedStorage (around every RDB storage of a study) calls these private methods of its backend
    and no other: tuner.storage.rdb tries them again through an outage, with the public ones."""
    import re

    from optuna.storages._cached_storage import _CachedStorage

    called = set(re.findall(r"self\._backend\.(_\w+)\(", inspect.getsource(_CachedStorage)))
    assert called == set(internals.RDB_PRIVATE_CALLS), called
    assert all(callable(getattr(optuna.storages.RDBStorage, name)) for name in internals.RDB_PRIVATE_CALLS)


def test_a_worker_asks_from_the_generation_a_running_trial_stored_without_storing_it_again(tmp_path):
    """Two workers (two samplers, one storage): the first trial of a new generation stores the updated optimizer
    and is still running when the other worker asks; that worker samples from the same generation and stores
    no copy of the optimizer."""
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(tmp_path / "workers.journal")))
    space = {"x": optuna.distributions.FloatDistribution(0.0, 1.0),
             "y": optuna.distributions.IntDistribution(0, 10)}

    def worker():
        sampler = BatchCmaEsSampler(search_space=space, seed=1, popsize=4, warn_independent_sampling=False)
        return optuna.create_study(study_name="s", storage=storage, sampler=sampler, direction="maximize",
                                   load_if_exists=True)

    a, b = worker(), worker()
    a.tell(a.ask(space), 0.0)
    for _ in range(2):
        batch = [a.ask(space) for _ in range(4)]
        for trial in batch:
            a.tell(trial, -(trial.params["x"] - 0.3) ** 2)
    first = a.ask(space)  # the first trial of generation 2: stores the optimizer, still RUNNING
    other = b.ask(space)
    attrs = {t.number: t.system_attrs for t in a.get_trials(deepcopy=False)}
    key = next(k for k in attrs[first.number] if k.endswith(":generation"))
    assert attrs[first.number][key] == attrs[other.number][key] == 2
    assert any(":optimizer:" in k for k in attrs[first.number])
    assert not any(":optimizer:" in k for k in attrs[other.number])


def _cma_study(path, name: str):
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(path)))
    sampler = BatchCmaEsSampler(search_space=SPACE, seed=7, popsize=4, with_margin=True,
                                       warn_independent_sampling=False)
    return optuna.create_study(study_name=name, storage=storage, sampler=sampler, direction="maximize")


SPACE = {"x": optuna.distributions.FloatDistribution(0.0, 1.0),
         "y": optuna.distributions.IntDistribution(0, 10),
         "fixed": optuna.distributions.FloatDistribution(2.0, 2.0)}


def _without_optimizer(trial) -> dict:
    return {k: v for k, v in trial.system_attrs.items() if not any(m in k for m in internals.CMA_STATE_KEY_MARKERS)}


def _records(path) -> int:
    return sum(1 for line in open(path) if line.strip())


def test_a_cma_es_trial_created_in_one_record_is_the_trial_optunas_ask_gives(tmp_path):
    """Batches asked both ways from the same seed, then told (sizes that match CMA-ES's population of 4 and sizes
    that straddle its generations): the same numbers, parameters (the first trial's sampled at random, a
    one-value distribution's included), CMA-ES's attributes (generation, x_for_tell, the optimizer stored once a
    generation) and user attributes; each trial of `BatchCmaEsSampler.ask_batch` is written in one record (then
    one for its tell)."""
    optunas, ours = _cma_study(tmp_path / "optuna.journal", "a"), _cma_study(tmp_path / "ours.journal", "b")
    before = _records(tmp_path / "ours.journal")
    for size in (1, 4, 4, 3, 5, 4, 4, 2, 4):
        theirs = [optunas.ask(SPACE) for _ in range(size)]
        for trial in theirs:
            trial.set_user_attr("worker", "w")
        mine = ours.sampler.ask_batch(ours, SPACE, size, {"worker": "w"})
        assert [(t.number, t.params) for t in mine] == [(t.number, t.params) for t in theirs]
        for study, batch in ((optunas, theirs), (ours, mine)):
            for trial in batch:
                study.tell(trial, -(trial.params["x"] - 0.3) ** 2 - (trial.params["y"] - 4) ** 2)
    theirs, mine = optunas.get_trials(), ours.get_trials()
    assert [t.params for t in mine] == [t.params for t in theirs]
    assert all(isinstance(t.params["y"], int) and t.params["fixed"] == 2.0 for t in mine)
    assert [_without_optimizer(t) for t in mine] == [_without_optimizer(t) for t in theirs]
    assert [t.user_attrs for t in mine] == [t.user_attrs for t in theirs] == [{"worker": "w"}] * len(mine)
    assert max(v for t in mine for k, v in t.system_attrs.items() if k.endswith(":generation")) >= 5
    # The optimizer is stored once a generation, by the same trials, in the same state. (Its pickle holds memory
    # numpy never initialised, `_funhist_values`: the bytes can differ.)
    stored = [t.number for t in mine if any(":optimizer:" in k for k in t.system_attrs)]
    assert stored == [t.number for t in theirs if any(":optimizer:" in k for k in t.system_attrs)]
    assert len(stored) == len({t.system_attrs["cmawm:generation"] for t in mine[1:]}) - 1
    for number in stored:
        a, b = (sampler._unpickle(study.trials[number]) for sampler, study in ((ours.sampler, ours),
                                                                              (optunas.sampler, optunas)))
        assert a.generation == b.generation and a.mean.tolist() == b.mean.tolist()
        assert a._cma._sigma == b._cma._sigma and a._cma._C.tolist() == b._cma._C.tolist()
    assert _records(tmp_path / "ours.journal") - before == 2 * len(mine)
