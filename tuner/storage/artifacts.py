"""Artifacts of a study: the exported bot file of each new best trial, uploaded to the study's file artifact
store so that optuna-dashboard lists it with the trial and offers it for download."""
from __future__ import annotations

import tempfile
from pathlib import Path

from optuna.artifacts import get_all_artifact_meta, upload_artifact

from bots.contract.names import Bot

MIMETYPE = "text/x-python"


def artifact_file_name(study_name: str, trial_number: int) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in study_name)
    return f"{safe}-trial{trial_number}.py"


def upload_bot(store, trial, bot: Bot, league: int, header_lines: list, study_name: str) -> str:
    """Export `bot` and attach the file to the running `trial`; returns the artifact id."""
    from export.standalone import export_bot  # the transpiler: not for every command that reads a study file

    with tempfile.TemporaryDirectory(prefix="tuner-artifact-") as directory:
        path = Path(directory) / artifact_file_name(study_name, trial.number)
        export_bot(bot, league, path, header_lines)
        return upload_artifact(artifact_store=store, file_path=str(path), study_or_trial=trial, mimetype=MIMETYPE,
                               encoding="utf-8")


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
