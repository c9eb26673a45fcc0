"""Bot names in a study file are built once per study read (`study_bot`): a `study:` opponent's study file and
storage are read the first time the study asks for it, not once per finalist, gauntlet or pool."""
from __future__ import annotations

from tests.conftest import write_study
from tuner.results.botnames import parse_bot_name, study_bot
from tuner.studyfile.file import read_study_file


def test_a_study_builds_each_named_bot_once_and_a_new_read_builds_it_again(tuned_study, tmp_path):
    name = f"study:{tuned_study}"
    config = read_study_file(write_study(tmp_path, "sparring", opponents=[name, "heuristic~0.1"]))
    first = study_bot(config, name)
    assert study_bot(config, name) is first and study_bot(config, "heuristic~0.1") is config.bots["heuristic~0.1"]
    assert first.params == parse_bot_name(name).params and first.source["study"] == "shared"
    again = read_study_file(config.path)
    assert study_bot(again, name) is not first and study_bot(again, name).params == first.params
