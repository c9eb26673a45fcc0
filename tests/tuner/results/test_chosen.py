"""The chosen bot's record (`tuner.results.chosen`): what a run writes reads back field for field, and a record
written before budgets, scores and the finished count existed still reads."""
from __future__ import annotations

from tests.conftest import load_study, run_tuner
from tuner.results.chosen import BASELINE, ChosenRecord, chosen_gauntlet, read_chosen


def test_a_runs_chosen_record_reads_back_as_written(tuned_study):
    study = load_study(tuned_study)
    written = study.user_attrs["chosen"]
    chosen = read_chosen(study)
    assert chosen is not None and chosen.to_json() == written
    assert chosen.finished == sum(t.state.name in ("COMPLETE", "PRUNED") for t in study.get_trials(deepcopy=False))
    assert chosen.held_out.games == written["validation"]["overall"]["games"] > 0
    assert [f.label for f in chosen.finalists] == [f["label"] for f in written["finalists"]]
    assert chosen.scored and {BASELINE, "trial 0"} & {f.label for f in chosen.finalists}  # the start is a finalist
    assert chosen.improved == (written["trial"] != 0 and written["label"] != BASELINE)
    gauntlet = chosen_gauntlet(study, chosen)
    assert gauntlet is not None and gauntlet.pairs == study.user_attrs["gauntlet"]["pairs"]
    assert chosen_gauntlet(study, ChosenRecord.from_json({**written, "label": "another bot"})) is None


def test_a_run_does_not_choose_again_while_its_choice_holds(tuned_study):
    """`is_current`: the same finished trials and finals' settings keep the choice (the run prints it again without
    playing); a new finals setting makes it stale."""
    chosen = read_chosen(load_study(tuned_study))
    assert chosen.is_current(chosen.finished, chosen.finals_params, chosen.finals_confidence)
    assert not chosen.is_current(chosen.finished + 1, chosen.finals_params, chosen.finals_confidence)
    assert not chosen.is_current(chosen.finished, {"iterations": 9}, chosen.finals_confidence)
    again = run_tuner("tune", str(tuned_study), "--no-progress")
    assert again.returncode == 0, again.stderr
    assert "chosen on" not in again.stdout and f"chosen for export: {chosen.label}" in again.stdout


def test_an_older_record_reads_with_its_missing_fields_defaulted(tuned_study):
    written = load_study(tuned_study).user_attrs["chosen"]
    old = {key: written[key] for key in ("label", "trial", "params", "how", "validation")}
    old["finalists"] = [{key: value for key, value in f.items() if key not in ("score", "confidence")}
                        for f in written["finalists"]]
    chosen = ChosenRecord.from_json(old)
    assert chosen.search_params == written["params"] and chosen.finals_params == {} and chosen.budget is None
    assert not chosen.scored and chosen.finished is None and chosen.finals_confidence == 0.0
    assert "budget" not in chosen.to_json() and "finished" not in chosen.to_json()
