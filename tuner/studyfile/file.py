"""Study files (TOML): reading one into the study it describes (`read_study_file`).

    name = "quickstart"
    league = 3
    seed = 2021
    trials = 3000
    timeout = 420
    pairs = 250
    opponents = ["heuristic"]

    [search]
    seed_first = 0              # fix a parameter
    grow_horizon = [1, 4]       # narrow its range

The whole file is checked before any storage is touched, and the first problem is one line naming the file, the
field, the value and what is allowed (`StudyFileError`, a `UserError`). The parts, one module each: the fields
(`tuner.studyfile.model`), bot names in a study file (`entries`), the `[search]` table (`overrides`), problems and
their wording (`problems`, `messages`), the study with its defaults resolved (`config`) and the documentation's
table of fields (`field_table`). Their public names are importable from here too.
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Optional

from pydantic import ValidationError

from bots.contract.user_files import read_user_file
from tuner.studyfile.config import SEARCH_SETTINGS, SETTING_BEFORE_IT_EXISTED, StudyConfig, default_artifacts
from tuner.studyfile.entries import HALL_OF_FAME, STUDY_PREFIX, check_bot_name
from tuner.studyfile.field_table import FIELDS, fields_markdown
from tuner.studyfile.messages import first_problem
from tuner.studyfile.model import StudyFile
from tuner.studyfile.overrides import Override, search_overrides
from tuner.studyfile.problems import FieldProblem, StudyFileError
from tuner.studyfile.renamed import with_current_names


def read_study_file(path, storage: Optional[str] = None) -> StudyConfig:
    """The study a file describes, fully checked; no storage is opened. `storage` (a command's `--storage`)
    replaces the file's storage."""
    path = Path(path)
    if path.suffix != ".toml":
        raise StudyFileError(f"{path}: a study file is a .toml file")
    text = read_user_file(path, "study file", StudyFileError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyFileError(f"{path}: not valid TOML ({error})") from None
    data, notes = with_current_names(data, path)
    for note in notes:
        print(note, file=sys.stderr)
    config = parse_study(data, path, text)
    return config if storage is None else config.with_storage(storage)


def parse_study(data: dict, path: Path, text: str = "") -> StudyConfig:
    """The study `data` (a study file's TOML, its fields under their current names: `with_current_names`)
    describes, or StudyFileError with one line."""
    folder = path.parent
    try:
        model = StudyFile.model_validate(data, context={"folder": folder})
    except ValidationError as error:
        raise StudyFileError(first_problem(path, error, data)) from None
    storage = model.storage or str(folder.resolve() / f"{path.stem}.journal")
    if model.artifacts is not None:
        artifacts = Path(model.artifacts)
        artifacts = artifacts if artifacts.is_absolute() else (folder / artifacts).resolve()
    else:
        artifacts = default_artifacts(path, storage)
    return StudyConfig(path, text, model, storage, artifacts, model.overrides)


__all__ = ["FIELDS", "HALL_OF_FAME", "SEARCH_SETTINGS", "SETTING_BEFORE_IT_EXISTED", "STUDY_PREFIX", "FieldProblem",
           "Override", "StudyConfig", "StudyFile", "StudyFileError", "check_bot_name", "fields_markdown",
           "parse_study", "read_study_file", "search_overrides"]
