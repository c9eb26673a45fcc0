"""Where studies live: storage URLs, Optuna storages (compact or plain journal files with heartbeats and
snapshots, RDB, Redis), the study lock, retries of dead workers' trials and the artifact store. Optuna's private
parts come from `tuner.optuna_internals`."""
from tuner.storage.artifact_store import artifact_file_name, trial_artifacts, upload_text
from tuner.storage.compact_journal import save_snapshot
from tuner.storage.lock import StudyLock, study_lock
from tuner.storage.open import Heartbeat, open_artifact_store, open_storage
from tuner.storage.retry import RetryTrial
from tuner.storage.url import StorageURL, StorageURLError, describe_storage

__all__ = ["Heartbeat", "RetryTrial", "StorageURL", "StorageURLError", "StudyLock", "describe_storage",
           "open_artifact_store", "open_storage", "save_snapshot", "study_lock", "trial_artifacts", "upload_text",
           "artifact_file_name"]
