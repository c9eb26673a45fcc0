"""Two budgets: a search bot's trials play at a short budget (fixed in [search]) and its finals and gauntlet at the
budget it will play at ([playing_budget]); a finalist whose gain at the short budget does not hold at the long one
is not chosen, and the gauntlet reports both."""
from __future__ import annotations

import json
from functools import partial

import numpy as np
import pytest

from tests.conftest import DATA, load_study, run_tuner, write_study
from tuner.play.runner import GameRunner
from tuner.search.finals import choose, choose_finalist, validation_panel
from tuner.search.samplers import build_sampler
from tuner.search.tune import open_or_create_study, trial_bot
from tuner.storage import open_storage
from tuner.studyfile.file import StudyFileError, read_study_file
from tuner.studyfile.space import SearchSpace

SHORT = {"iterations": 1, "bank_cap": 1}  # mcts:1 plays its rollout policy's move: a heuristic
LONG = {"iterations": 48}


def short_budget_only(space: SearchSpace) -> dict:
    """A finalist that gains at the short budget only: its rollout policy is a heuristic tuned against sunrate
    (tests/data/tuned_heuristic.json: +14.5% against sunrate over the heuristic's defaults), and its search never
    tries a move of its own but the rollout policy's (`first_play` 1: an untried move is valued a whole game
    below the tried ones). At one iteration a move it is that tuned heuristic, better than the defaults; at 48 it
    still is, where the defaults search."""
    tuned = json.loads((DATA / "tuned_heuristic.json").read_text())["params"]
    return {**space.baseline(), **tuned, "first_play": 1.0}


@pytest.mark.parametrize("finals, chosen", [(LONG, "trial 0"), ({}, "trial 1")])
def test_a_finalist_that_gains_only_at_the_short_budget_is_not_chosen(tmp_path, finals, chosen):
    """The finals at the playing budget choose the baseline (trial 0) over it; finals at the search's budget (no
    [playing_budget]) would choose it."""
    path = write_study(tmp_path, "budgets", bot="mcts", trials=2, pairs=10, opponents=["sunrate"],
                       finals_pairs=40, finalists=2, search=SHORT, playing_budget=finals)
    config = read_study_file(path)
    space = SearchSpace.for_config(config)
    sampler = build_sampler(config, space)
    study = open_or_create_study(config, open_storage(config.storage), space, sampler)
    for params, value in ((space.baseline(), 0.0), (short_budget_only(space), 0.1)):
        trial = study.ask()
        trial.set_user_attr("bot_params", params)
        study.tell(trial, value)
    record = choose(config, GameRunner(3, 2), study, space, sampler, partial(trial_bot, config), notify=lambda _: None)
    scores = {f.label: f.score for f in record.finalists}
    assert record.label == chosen, scores
    assert (scores["trial 1"] < 0 if finals else scores["trial 1"] > 0.05), scores
    assert record.params == {**space.baseline(), **finals} if finals else record.params["first_play"] == 1.0
    assert record.search_params["iterations"] == 1 and record.finals_params == finals


def test_the_gauntlet_is_played_at_both_budgets_and_export_takes_the_playing_one(tmp_path):
    path = write_study(tmp_path, "both", bot="mcts", trials=5, pairs=6, population=4, opponents=["heuristic"],
                       finals_pairs=10, finalists=1, search=SHORT, playing_budget={"iterations": 4})
    done = run_tuner("tune", str(path), "--no-progress")
    assert done.returncode == 0, done.stderr
    assert "at the playing budget (iterations = 4)" in done.stdout
    study = load_study(path)
    improved = study.user_attrs["chosen"]["trial"] != 0  # else its gauntlet would compare the baseline with itself
    assert ("gauntlet on fresh held-out seeds at the search's budget (iterations = 1)" in done.stdout) == improved
    assert ("no finalist beat the defaults" in done.stdout) != improved
    playing, searched = study.user_attrs["gauntlet"], study.user_attrs["gauntlet_search_budget"]
    assert playing["pairs"] == searched["pairs"] == 10 and playing["rows"] != searched["rows"]
    assert study.user_attrs["chosen"]["params"]["iterations"] == 4
    exported = run_tuner("export", str(path), "--params-out", str(tmp_path / "chosen.json"), "-o",
                         str(tmp_path / "chosen.cpp"))
    assert exported.returncode == 0, exported.stderr
    assert json.loads((tmp_path / "chosen.json").read_text())["params"]["iterations"] == 4
    again = run_tuner("tune", str(path), "--no-progress")  # a finished study prints its choice and both gauntlets
    assert again.returncode == 0 and again.stdout.count("gauntlet on fresh held-out seeds") == 2 * improved
    assert again.stdout[again.stdout.index("before and after"):] == done.stdout[done.stdout.index("before and after"):]\
        .replace(done.stdout.splitlines()[-2], again.stdout.splitlines()[-2])  # the same table; its own run time


@pytest.mark.parametrize("finals, message", [
    ({"iterationz": 8}, "field 'playing_budget.iterationz': unknown parameter 'iterationz' of bot 'mcts'"),
    ({"exploration": 1.5}, "field 'playing_budget.exploration': exploration is searched: a [playing_budget] value "
                           "replaces"),
    ({"iterations": 0}, "field 'playing_budget.iterations':"),
    ("iterations", "field 'playing_budget' must be a table of parameter = value, got \"iterations\""),
])
def test_study_file_rules_for_the_playing_budget(tmp_path, finals, message):
    path = write_study(tmp_path, "rules", bot="mcts", search=SHORT,
                       playing_budget=finals if isinstance(finals, dict) else None)
    if not isinstance(finals, dict):  # a top-level key, before the [search] table
        path.write_text(f"playing_budget = {json.dumps(finals)}\n" + path.read_text())
    with pytest.raises(StudyFileError) as error:
        read_study_file(path)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_study_without_a_playing_budget_plays_its_finals_at_the_search_s(tmp_path):
    config = read_study_file(write_study(tmp_path, "plain", bot="mcts", search=SHORT))
    assert config.playing_budget == {} and config.at_playing_budget({"iterations": 1}) == {"iterations": 1}


def test_a_baseline_file_is_where_the_search_starts_and_what_gains_are_measured_against(tmp_path):
    """`baseline`: a parameter file of the tuned bot replaces its defaults as the search's start (trial 0)."""
    from bots.contract.paramfile import ParamFile, write_param_file
    from bots.registry import schema_for

    naive = {**schema_for("mcts").defaults(), "grow_w_cost": 2.5, "seed_w_rich": -1.0}
    write_param_file(tmp_path / "naive.json", ParamFile("mcts", 3, naive))
    path = write_study(tmp_path, "naive", bot="mcts", baseline="naive.json", search=SHORT)
    space = SearchSpace.for_config(read_study_file(path))
    assert space.baseline() == {**naive, **SHORT}
    assert {d.name: d.default for d in space.dimensions}["grow_w_cost"] == 2.5


@pytest.mark.parametrize("baseline, message", [
    ("missing.json", "field 'baseline':"),
    ("heuristic.json", "is a parameter file of bot 'heuristic', not of the tuned bot 'mcts'"),
])
def test_study_file_rules_for_the_baseline(tmp_path, baseline, message):
    from bots.contract.paramfile import ParamFile, write_param_file
    from bots.registry import schema_for

    write_param_file(tmp_path / "heuristic.json", ParamFile("heuristic", 3, schema_for("heuristic").defaults()))
    path = write_study(tmp_path, "rules", bot="mcts", baseline=baseline, search=SHORT)
    with pytest.raises(StudyFileError) as error:
        read_study_file(path)
    assert message in str(error.value) and "\n" not in str(error.value)


def pair_differences(ups: int, downs: int, pairs: int = 20) -> np.ndarray:
    """A finalist's pair points minus the baseline's on `pairs` seed pairs: `ups` pairs half a point better (one
    game of the two won instead of lost), `downs` half a point worse, the rest the same."""
    return np.array([0.5] * ups + [-0.5] * downs + [0.0] * (pairs - ups - downs))


@pytest.mark.parametrize("confidence, chosen", [(0.0, "lucky"), (0.9, "baseline")])
def test_a_gain_within_the_finals_noise_keeps_the_baseline_when_the_study_asks_for_confidence(tmp_path, confidence,
                                                                                                chosen):
    """`finals_confidence`: a finalist a point or two above the baseline on 20 pairs, one pair in each direction
    from a tie, is chosen on its score alone and not when the finals must be 90% sure; a clear gain is chosen
    either way."""
    config = read_study_file(write_study(tmp_path, "sure", opponents=["heuristic", "sunrate"],
                                         finals_confidence=confidence))
    panel = validation_panel(config)
    baseline = np.full((len(panel), 20), 0.5)  # each pair a win and a loss
    lucky = baseline + np.stack([pair_differences(6, 5), pair_differences(6, 5)])
    clear = baseline + np.stack([pair_differences(10, 1), pair_differences(9, 1)])
    scores, sure, label = choose_finalist(config, {"baseline": baseline, "lucky": lucky}, panel, "baseline")
    assert label == chosen and scores["lucky"] > 0 and scores["baseline"] == 0, (scores, sure)
    if confidence:
        assert 0.3 < sure["lucky"] < 0.9 and sure["baseline"] == 0
    points = {"baseline": baseline, "lucky": lucky, "clear": clear}
    assert choose_finalist(config, points, panel, "baseline")[2] == "clear"


@pytest.mark.parametrize("value", [1.0, -0.1, "high"])
def test_finals_confidence_is_a_share_below_one(tmp_path, value):
    with pytest.raises(StudyFileError) as error:
        read_study_file(write_study(tmp_path, "bad", finals_confidence=value))
    assert "finals_confidence" in str(error.value) and "\n" not in str(error.value)


def test_a_changed_finals_confidence_chooses_again_on_resume(tmp_path):
    """A finished study run again with another `finals_confidence` plays its finals again under the new rule (the
    games are the same; which finalists may be chosen is not)."""
    fields = dict(trials=4, population=4, pairs=6, opponents=["greedy"], finals_pairs=6, finalists=1)
    path = write_study(tmp_path, "resume", **fields)
    first = run_tuner("tune", str(path), "--no-progress")
    assert first.returncode == 0, first.stderr
    assert load_study(path).user_attrs["chosen"]["finals_confidence"] == 0.0 and " sure" not in first.stdout
    write_study(tmp_path, "resume", finals_confidence=0.5, **fields)
    again = run_tuner("tune", str(path), "--no-progress")
    assert again.returncode == 0, again.stderr
    assert "only if 50% sure to beat it" in again.stdout
    assert load_study(path).user_attrs["chosen"]["finals_confidence"] == 0.5


def test_a_search_bot_plays_the_search_and_the_tuned_bot_the_finals(tmp_path):
    """`search_bot = "heuristic"` on an mcts study: every trial's games are the heuristic's with the trial's values
    of its parameters (replayed here on the search's seeds), and the finals and the gauntlet play mcts at the
    study's budget."""
    from bots.contract.names import bot_with_params, parse_bot
    from bots.registry import schema_for
    from tuner.play.seeds import game_seeds
    from tuner.play.stats import tally

    path = write_study(tmp_path, "rollouts", bot="mcts", search_bot="heuristic", trials=4, pairs=6, population=4,
                       race="none", opponents=["greedy"], finals_pairs=4, finalists=1, search=SHORT)
    done = run_tuner("tune", str(path), "--no-progress")
    assert done.returncode == 0, done.stderr
    study = load_study(path)
    runner = GameRunner(3, 1)
    seeds = game_seeds(5, 6, "search")
    for trial in study.trials:
        values = trial.user_attrs["bot_params"]
        heuristic = bot_with_params("heuristic", {p.name: values[p.name] for p in schema_for("heuristic")},
                                    "h", {}, 3)
        replayed = tally(runner.play(heuristic, [parse_bot("greedy", 3)], seeds).margins)
        recorded = trial.user_attrs["result"]["opponents"]["greedy"]
        assert (recorded["wins"], recorded["losses"]) == (replayed.wins, replayed.losses), trial.number
    config = read_study_file(path)
    finalist = study.user_attrs["chosen"]["params"]
    assert finalist["iterations"] == SHORT["iterations"]  # the tuned bot's own parameters, at the study's budget
    mcts = trial_bot(config, finalist, "mcts")
    replayed = tally(runner.play(mcts, [parse_bot(n, 3) for n in validation_panel(config)],
                                 game_seeds(5, 4, "validation")).margins)
    assert study.user_attrs["chosen"]["validation"]["overall"]["wins"] == replayed.wins
    runner.close()


def test_a_search_bot_must_have_only_parameters_of_the_tuned_bot(tmp_path):
    with pytest.raises(StudyFileError, match="field 'search_bot': 'sunrate' has parameters that 'mcts' has not"):
        read_study_file(write_study(tmp_path, "a", bot="mcts", search_bot="sunrate"))
    with pytest.raises(StudyFileError, match="field 'search_bot': unknown bot 'heuristc'"):
        read_study_file(write_study(tmp_path, "b", bot="mcts", search_bot="heuristc"))
