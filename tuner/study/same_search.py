"""A study file and the study its storage holds must describe the same search: `tuner tune` resumes a study only
then, and `tuner export`, `report` and `study:` bot names read one only then (else they would show or export the
trials of another search under this file's settings, e.g. a bot played in another league)."""
from __future__ import annotations

import json

from tuner.errors import UserError
from tuner.study.config import SETTING_BEFORE_IT_EXISTED, StudyConfig


def check_same_search(config: StudyConfig, study, action: str = "resumes") -> None:
    """UserError naming the first search setting of `config` that differs from those `study` was created with
    (`action`: what the command does with the study, for the message). A study without recorded settings passes
    (the caller decides what such a study means)."""
    recorded = study.user_attrs.get("search_settings")
    if recorded is None:
        return
    current = config.search_settings()
    for key in current:
        was = recorded.get(key, SETTING_BEFORE_IT_EXISTED.get(key))
        if was != current[key]:
            raise UserError(f"{config.path}: field {key!r} is {json.dumps(current[key])} but study {config.name!r} "
                            f"was created with {json.dumps(was)}; a study {action} only with the same "
                            f"search settings (restore the field, or change 'name' to start a new study)")
