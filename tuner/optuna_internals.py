"""Every private part of Optuna this tuner relies on, in one place: the storages' (journal files, RDB, Redis,
heartbeats), the tell without a copy, and what the CMA-ES sampler (`tuner.search.cmaes_sampler`) builds on.

Optuna's public API has no way to do these things; each is named here with what it is for, and
tests/tuner/test_optuna_internals.py checks each against the installed Optuna, so that an Optuna release that changes
one fails a test that names it instead of breaking a study.
"""
from __future__ import annotations

import functools
import inspect
import pickle

import optuna
from optuna._transform import _SearchSpaceTransform as SearchSpaceTransform  # CMA-ES's parameters <-> its space
from optuna.distributions import _get_single_value as single_value  # the value of a one-value distribution
from optuna.samplers import _cmaes as cmaes_sampler_module  # where CmaEsSampler looks up its transform's class
from optuna.storages import RDBStorage
from optuna.storages._heartbeat import BaseHeartbeat  # the heartbeat protocol journals lack (Optuna 5)
from optuna.storages._rdb.storage import _create_scoped_session as rdb_session
from optuna.storages.journal import _storage as journal_storage_module
from optuna.storages.journal._base import BaseJournalSnapshot  # snapshots of a journal's replay (not exported)
from optuna.storages.journal._file import BaseJournalFileLock  # the lock interface of journal files
from optuna.storages.journal._storage import JournalOperation  # journal record kinds
from optuna.study._tell import _tell_with_warning  # Study.tell without its deep copy of the told trial

__all__ = ["BaseHeartbeat", "BaseJournalFileLock", "BaseJournalSnapshot", "JournalOperation", "rdb_models", "tell",
           "rdb_session", "trial_id", "redis_client", "rdb_heartbeat_callback_argument", "RetryCallback",
           "CMA_STATE_KEY_MARKERS", "STALE_TRIAL_IDS", "RDB_PRIVATE_CALLS", "DURABLE_OPERATIONS",
           "SearchSpaceTransform", "single_value", "cmaes_sampler_module", "cache_journal_distributions",
           "set_snapshot_interval", "journal_backend", "snapshot_journal_storage"]

# The journal records after which a journal file is synced to disk: a study created, a trial finished.
DURABLE_OPERATIONS = frozenset({JournalOperation.CREATE_STUDY, JournalOperation.SET_TRIAL_STATE_VALUES})

# The method a heartbeat storage implements to list its stale trials (BaseHeartbeat's abstract method, also
# overridden on RDBStorage to count trials that never recorded a heartbeat).
STALE_TRIAL_IDS = "_get_stale_trial_ids"

# The private methods of RDBStorage that Optuna's `_CachedStorage` (the wrapper every study puts around an RDB
# storage) calls besides the public ones: a storage that tries its calls again through an outage wraps them too.
RDB_PRIVATE_CALLS = ("_create_new_trial", "_set_trial_param", "_get_best_trial_id", "_get_trials",
                     STALE_TRIAL_IDS)

# Substrings of the trial system attributes where CmaEsSampler keeps its optimizer (`cma:optimizer:0`, ...):
# a retried trial drops them, else it would roll the sampler back to its generation when it completes.
CMA_STATE_KEY_MARKERS = (":optimizer:",)

# Optuna >= 4.9 names the retry callback RetryHeartbeatStaleTrialCallback, earlier versions
# RetryFailedTrialCallback (the old name is deprecated).
RetryCallback = getattr(optuna.storages, "RetryHeartbeatStaleTrialCallback", None) or \
    optuna.storages.RetryFailedTrialCallback


def tell(study, trial, values=None, state=None) -> None:
    """`study.tell(trial, values, state)`, less the deep copy of the told trial that Study.tell returns (the
    tuner never uses it; with a trial's records it costs about as much as the tell)."""
    _tell_with_warning(study=study, trial=trial, value_or_values=values, state=state)


def trial_id(trial) -> int:
    """The storage's id of a FrozenTrial (`FrozenTrial._trial_id`: storages speak ids, studies numbers)."""
    return trial._trial_id


def rdb_models():
    """Optuna's RDB tables (`optuna.storages._rdb.models`: trials without any heartbeat), imported when needed: it
    imports SQLAlchemy (~0.4 s), which a command on a journal file does not need."""
    from optuna.storages._rdb import models

    return models


def redis_client(backend):
    """The redis client of a JournalRedisBackend, to check the server answers before the first write."""
    return backend._redis


def cache_journal_distributions() -> None:
    """Replaying a journal parses the distribution's JSON of every parameter record (`json_to_distribution`, which
    `optuna.storages.journal._storage` imported by name: patching `optuna.distributions` would not reach it). A
    study has a handful of distinct distributions: cached, the replay saves ~15% and the trials share their
    distribution objects, which makes a pickled snapshot ~30% smaller and 10x faster to load (Optuna never
    mutates a distribution). Writing a trial created with its parameters (`BatchCmaEsSampler.ask_batch`) encodes
    every distribution's JSON again (`distribution_to_json`): cached too. Idempotent."""
    for name in ("json_to_distribution", "distribution_to_json"):  # reading, and writing a trial's record
        current = getattr(journal_storage_module, name)
        if not hasattr(current, "cache_info"):
            setattr(journal_storage_module, name, functools.lru_cache(maxsize=4096)(current))


def set_snapshot_interval(trials: int) -> None:
    """JournalStorage pickles its whole replay state for the backend's `save_snapshot` whenever this process
    creates a trial whose id is a multiple of the module global `SNAPSHOT_INTERVAL` (100 in Optuna 5): at 30,000
    trials a pickle costs ~1.5 s, too often at 100. Only backends with snapshots (BaseJournalSnapshot) are
    concerned."""
    journal_storage_module.SNAPSHOT_INTERVAL = trials


def journal_backend(storage):
    """The backend of a JournalStorage (`_backend`), or None for another storage."""
    return getattr(storage, "_backend", None) if isinstance(storage, optuna.storages.JournalStorage) else None


def snapshot_journal_storage(storage) -> None:
    """What JournalStorage does every SNAPSHOT_INTERVAL trials, now: under its lock, read the journal to its end
    and hand the pickled replay state (`_replay_result`) to the backend's `save_snapshot`."""
    with storage._thread_lock:
        storage._sync_with_backend()
        storage._backend.save_snapshot(pickle.dumps(storage._replay_result))


def rdb_heartbeat_callback_argument() -> str:
    """RDBStorage's argument for the stale-trial callback: `heartbeat_stale_trial_callback` since Optuna 4.9,
    `failed_trial_callback` before."""
    names = inspect.signature(RDBStorage).parameters
    return "heartbeat_stale_trial_callback" if "heartbeat_stale_trial_callback" in names else "failed_trial_callback"
