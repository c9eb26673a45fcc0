"""Study-file fields renamed for what they hold. A file that gives an old name is read as before, with a one-line
note on stderr; the settings a study recorded under an old name compare with the new name's (a study resumes)."""
from __future__ import annotations

from pathlib import Path

from tuner.studyfile.problems import StudyFileError

RENAMED = {
    "validation_pairs": "finals_pairs",  # the finals' held-out seed pairs
    "pruner": "race",  # the race of each generation (Optuna would say pruner)
    "pruner_p": "race_p",
    "pruner_startup_pairs": "race_first_pairs",  # the race's first block
    "finals": "playing_budget",  # the table of the budget the finals and the export play at
}
OLD_NAME = {new: old for old, new in RENAMED.items()}


def with_current_names(data: dict, path: Path) -> tuple[dict, list[str]]:
    """A study file's top-level fields under their current names, and a note for each old name it gave
    (StudyFileError when it gives both names of one field)."""
    out: dict = {}
    notes: list[str] = []
    for key, value in data.items():
        new = RENAMED.get(key)
        if new is None:
            out[key] = value
            continue
        if new in data:
            raise StudyFileError(f"{path}: field {key!r} is the old name of {new!r}: give {new!r} only")
        out[new] = value
        notes.append(f"note: {path}: field {key!r} is now {new!r} (read as before; rename it in the file)")
    return out, notes


def recorded_setting(recorded: dict, name: str, before_it_existed=None):
    """The value of setting `name` a study recorded, under its current name or its old one."""
    if name in recorded:
        return recorded[name]
    return recorded.get(OLD_NAME[name], before_it_existed) if name in OLD_NAME else before_it_existed
