"""A study file and the study its storage holds must describe the same search: `tuner tune` resumes a study only
then. `tuner export`, `report`, `dashboard` and `study:` bot names read one only while the settings that decide
how its trials are read, ranked and exported are the same (else they would show or export the trials of another
search under this file's settings, e.g. a bot played in another league)."""
from __future__ import annotations

import json

from tuner.errors import UserError
from tuner.studyfile.config import SETTING_BEFORE_IT_EXISTED, StudyConfig
from tuner.studyfile.renamed import recorded_setting

READ_SETTINGS = ("bot", "parameters", "league", "objectives")
"""What a study's reader takes from the study file: the bot its trials' parameters belong to, the league it plays,
how trials rank. The rest (the pool, the seeds, a `baseline` file's values) only shaped the search, whose trials
keep their own parameters."""


def _shown(value, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_same_search(config: StudyConfig, study, reading: bool = False) -> None:
    """UserError naming the first search setting of `config` that differs from those `study` was created with:
    every one to resume it, those of READ_SETTINGS to read it (`reading`). A study without recorded settings
    passes (the caller decides what such a study means)."""
    recorded = study.user_attrs.get("search_settings")
    if recorded is None:
        return
    current = config.search_settings()
    for key in READ_SETTINGS if reading else current:
        was = recorded_setting(recorded, key, SETTING_BEFORE_IT_EXISTED.get(key))
        if was != current[key]:
            what = ("restore the field to read the study, or run a new one under another 'name'" if reading else
                    "a study resumes only with the same search settings (restore the field, or change 'name' to "
                    "start a new study)")
            raise UserError(f"{config.path}: field {key!r} is {_shown(current[key])} but study {config.name!r} "
                            f"was created with {_shown(was)}; {what}")
