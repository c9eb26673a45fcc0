"""A study's artifact store: files attached to its trials (a new best trial's bot, its replay page:
`tuner.search.best_artifacts`), which optuna-dashboard lists with the trial and offers for download."""
from __future__ import annotations

import tempfile
from pathlib import Path

from optuna.artifacts import get_all_artifact_meta, upload_artifact


def artifact_file_name(study_name: str, trial_number: int) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in study_name)
    return f"{safe}-trial{trial_number}.py"


def trial_artifacts(storage, trial) -> list:
    """The artifacts (meta: artifact_id, filename) of a finished trial."""
    return get_all_artifact_meta(trial, storage=storage)


def upload_text(store, trial, filename: str, text: str, mimetype: str) -> str:
    """Attach a text file (a replay page, a parameter file) to the running `trial`; returns the artifact id."""
    with tempfile.TemporaryDirectory(prefix="tuner-artifact-") as directory:
        path = Path(directory) / filename
        path.write_text(text, encoding="utf-8")
        return upload_artifact(artifact_store=store, file_path=str(path), study_or_trial=trial, mimetype=mimetype,
                               encoding="utf-8")
