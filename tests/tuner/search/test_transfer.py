"""Strength that transfers: a study scored by its worst gains over the baseline (`min-gain`), held-out opponents
that no trial meets, a choice that weighs them as much as the pool, and a gauntlet that reports the two groups
apart, in the run's summary, `tuner report` and the exported file."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from optuna.trial import TrialState

from tests.conftest import ROOT, load_study, run_tuner, write_study
from tuner.search.finals import BASELINE, choice_score, validation_panel
from tuner.search.race import soft_minimum
from tuner.studyfile.file import StudyFileError, read_study_file

POOL = ["heuristic~0.2", "rush"]
HELD_OUT = ["seeder", "sunrate"]


@pytest.fixture(scope="module")
def transfer_study(tmp_path_factory):
    directory = tmp_path_factory.mktemp("transfer")
    path = write_study(directory, "transfer", trials=10, pairs=24, population=4, race_first_pairs=8,
                       opponents=POOL, held_out_opponents=HELD_OUT, objectives="min-gain", finals_pairs=16,
                       finalists=2)
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    return path, result.stdout


def test_a_trial_s_value_is_the_soft_minimum_of_its_gains_over_the_baseline(transfer_study):
    path, _ = transfer_study
    study = load_study(path)
    softness = read_study_file(path).min_gain_softness
    baseline = study.trials[0]
    assert baseline.user_attrs["baseline"] and baseline.value == 0.0
    assert set(baseline.user_attrs["result"]["gains"].values()) == {0.0}
    complete = [t for t in study.trials if t.state == TrialState.COMPLETE]
    assert len(complete) >= 2
    for trial in complete:
        gains = trial.user_attrs["result"]["gains"]
        assert set(gains) == set(POOL)
        assert trial.value == pytest.approx(soft_minimum(np.array(list(gains.values())), softness), abs=1e-5)


def test_the_choice_weighs_the_held_out_group_as_much_as_the_pool(transfer_study):
    path, output = transfer_study
    study = load_study(path)
    chosen = study.user_attrs["chosen"]
    labels = [f["label"] for f in chosen["finalists"]]
    assert BASELINE in labels or "trial 0" in labels  # a finalist must beat the baseline to be chosen
    baseline = next(f for f in chosen["finalists"] if f["label"] in (BASELINE, "trial 0"))
    assert baseline["score"] == 0.0
    assert max(f["score"] for f in chosen["finalists"]) == next(f["score"] for f in chosen["finalists"]
                                                                 if f["label"] == chosen["label"])
    softness = read_study_file(path).min_gain_softness
    reference = study.user_attrs[f"validation:{baseline['trial']}"]["per_opponent"]
    for finalist in chosen["finalists"]:
        if finalist["trial"] is None:
            continue
        rates = study.user_attrs[f"validation:{finalist['trial']}"]["per_opponent"]
        assert list(rates) == POOL + HELD_OUT
        gains = {name: rates[name]["win_rate"] - reference[name]["win_rate"] for name in rates}
        pool = soft_minimum(np.array([gains[n] for n in POOL]), softness)
        held = soft_minimum(np.array([gains[n] for n in HELD_OUT]), softness)
        assert finalist["score"] == pytest.approx(soft_minimum(np.array([pool, held]), softness), abs=1e-5)
        assert finalist["score"] <= (pool + held) / 2 + 1e-9  # a large gain against one group cannot outvote the other
    assert "soft minimum of the two groups' soft minima" in chosen["how"]
    assert "against the held-out ones (seeder, sunrate)" in chosen["how"]


def test_the_gauntlet_reports_the_pool_and_the_held_out_opponents_apart(transfer_study, tmp_path):
    path, output = transfer_study
    gauntlet = load_study(path).user_attrs["gauntlet"]
    groups = {row["opponent"]: row["group"] for row in gauntlet["rows"]}
    assert groups == {**{n: "in the pool" for n in POOL}, **{n: "held out" for n in HELD_OUT}}
    for name, group in (("in the pool", POOL), ("held out", HELD_OUT)):
        rows = [r for r in gauntlet["rows"] if r["opponent"] in group]
        assert gauntlet["groups"][name]["difference"] == pytest.approx(
            np.mean([r["difference"]["mean"] for r in rows]), abs=1e-5)
    report = run_tuner("report", str(path), "--no-plots").stdout
    assert "held out: (no trial met them)" in report and "held-out gain / in-pool gain" in report
    assert "held out (no trial met them):" in output[output.index("before and after"):]
    exported = tmp_path / "bot.py"
    assert run_tuner("export", str(path), "-o", str(exported)).returncode == 0
    assert "held out: mean difference" in exported.read_text()


def test_study_file_rules_for_held_out_opponents_and_the_min_gain_objective(tmp_path):
    with pytest.raises(StudyFileError, match="'rush' is also in 'opponents': a held-out opponent is one no trial"):
        read_study_file(write_study(tmp_path, "a", opponents=["rush"], held_out_opponents=["rush"]))
    with pytest.raises(StudyFileError, match="'min-gain' is one objective; nsga2"):
        read_study_file(write_study(tmp_path, "b", sampler="nsga2", objectives="min-gain", race="none"))
    with pytest.raises(StudyFileError, match="field 'min_gain_softness' must be a number in \\[0, 1\\]"):
        read_study_file(write_study(tmp_path, "c", objectives="min-gain", min_gain_softness=2.0))
    with pytest.raises(StudyFileError, match="did you mean 'seeder'"):
        read_study_file(write_study(tmp_path, "d", held_out_opponents=["seedr"]))


def test_a_gauntlet_with_held_out_opponents_gives_each_group_s_gain_and_their_ratio():
    result = run_tuner("gauntlet", "sunrate", "--baseline", "heuristic", "--against", "rush", "greedy",
                       "--held-out", "seeder", "--games", "40", "--json")
    assert result.returncode in (0, 1), result.stderr
    import json

    data = json.loads(result.stdout)
    assert set(data["groups"]) == {"in the pool", "held out"} and data["groups"]["held out"]["opponents"] == 1
    if data["groups"]["in the pool"]["difference"] > 0:
        assert data["transfer"] == pytest.approx(
            data["groups"]["held out"]["difference"] / data["groups"]["in the pool"]["difference"], abs=1e-3)


def benchmark(name: str):
    """The module of `benchmarks/NAME.py` (a script, not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def leave_one_out_study(tmp_path, held: str):
    """The study `benchmarks/transfer.py` writes for the heuristic study's panel without `held`."""
    transfer = benchmark("transfer")
    pool = [style for style in transfer.STYLES if transfer.point(style) != held]
    text = transfer.study_text("loo", "heuristic", pool, "min-gain", 10, 8, 7, 0.05, {}, transfer.UNSEEN)
    path = tmp_path / "loo.toml"
    path.write_text(text)
    return read_study_file(path)


@pytest.mark.parametrize("held", ["heuristic", "seeder"])
def test_the_leave_one_out_study_is_the_heuristic_study_s_without_the_held_out_style(tmp_path, held):
    heuristic = read_study_file(ROOT / "studies" / "heuristic.toml")
    study = leave_one_out_study(tmp_path, held)
    assert study.opponents == [o for o in heuristic.opponents if not o.startswith(held)]
    assert study.validation_opponents == [o for o in heuristic.validation_opponents if o != held]
    assert study.held_out_opponents == heuristic.held_out_opponents
    assert study.objectives == heuristic.objectives and study.hall_of_fame == heuristic.hall_of_fame


@pytest.mark.parametrize("objective", ["min-gain", "mean"])
def test_a_large_held_out_gain_does_not_outvote_a_loss_against_the_pool_under_min_gain(tmp_path, objective):
    config = read_study_file(write_study(tmp_path, objective, opponents=POOL, held_out_opponents=HELD_OUT,
                                         objectives=objective))
    panel = validation_panel(config)
    fooled_the_held_out = dict(zip(panel, [-0.03, 0.02, 0.30, 0.25]))  # the pool's heuristic~0.2 and rush first
    sound = dict(zip(panel, [0.02, 0.03, 0.05, 0.04]))
    if objective == "min-gain":
        assert choice_score(config, sound, panel) > choice_score(config, fooled_the_held_out, panel)
        assert choice_score(config, fooled_the_held_out, panel) < 0
    else:
        assert choice_score(config, fooled_the_held_out, panel) == pytest.approx((0.5 * (-0.03 + 0.02) +
                                                                                  0.5 * (0.30 + 0.25)) / 2)


def test_the_naive_start_study_is_the_beam_study_from_sunrate_s_weights(tmp_path):
    """`benchmarks/naive_start.py --study studies/beam.toml --start sunrate`: the study it runs is the shipped one
    but for its baseline (beam's evaluation with sunrate's values for the same terms, the rest beam's defaults)
    and CMA-ES's first steps."""
    from bots.contract.paramfile import ParamFile, write_param_file
    from bots.registry import schema_for
    from tuner.studyfile.space import SearchSpace

    naive_start = benchmark("naive_start")
    shipped = read_study_file(ROOT / "studies" / "beam.toml")
    naive = naive_start.naive_params("beam", "sunrate", SearchSpace.for_config(shipped))
    sunrate, beam = schema_for("sunrate").defaults(), schema_for("beam").defaults()
    assert naive["ev_point"] == sunrate["sun_per_point"] != beam["ev_point"]
    assert naive["ev_place_line"] == sunrate["seed_w_line"] != beam["ev_place_line"]
    assert {k: v for k, v in naive.items() if not k.startswith("ev_")} == \
        {k: v for k, v in beam.items() if not k.startswith("ev_")}
    baseline = tmp_path / "naive.json"
    write_param_file(baseline, ParamFile("beam", 3, naive, {"start": "sunrate"}))
    path = naive_start.study_with_baseline(ROOT / "studies" / "beam.toml", tmp_path, baseline,
                                           {"trials": 32, "sigma": 0.15})
    study = read_study_file(path)
    assert study.sigma == 0.15 and study.trials == 32 and SearchSpace.for_config(study).baseline() == naive
    assert (study.opponents, study.held_out_opponents, study.search) == \
        (shipped.opponents, shipped.held_out_opponents, shipped.search)


def test_the_naive_start_replaces_a_study_files_own_baseline(tmp_path):
    """The quickstart names its first draft as its baseline: the benchmark's copy names the naive start instead
    (one `baseline` line: TOML refuses two)."""
    from bots.contract.paramfile import ParamFile, write_param_file
    from bots.registry import schema_for
    from tuner.studyfile.space import SearchSpace

    naive_start = benchmark("naive_start")
    shipped = read_study_file(ROOT / "studies" / "quickstart.toml")
    naive = naive_start.naive_params("mcts", "middle", SearchSpace.for_config(shipped))
    naive = {**naive, "grow_w_cost": 0.75}  # not the first draft's value, so the baseline read is the copy's
    baseline = tmp_path / "naive.json"
    write_param_file(baseline, ParamFile("mcts", 3, naive, {"start": "middle"}))
    path = naive_start.study_with_baseline(ROOT / "studies" / "quickstart.toml", tmp_path, baseline,
                                           {"trials": 28, "sigma": None})
    study = read_study_file(path)
    assert SearchSpace.for_config(study).baseline()["grow_w_cost"] == 0.75 != \
        SearchSpace.for_config(shipped).baseline()["grow_w_cost"]
    assert study.trials == 28 and study.sigma == shipped.sigma
    defaults = SearchSpace.for_config(study).shipped_defaults()  # what the benchmark's "defaults" column plays
    assert defaults["grow_w_cost"] == schema_for("mcts").defaults()["grow_w_cost"] != 0.75
    assert defaults["iterations"] == study.search["iterations"].value == 200


@pytest.mark.parametrize("margin_weight", [0.5, 0.0], ids=["margins", "points only"])
def test_a_search_from_a_start_that_loses_every_game_climbs_by_the_margins(tmp_path, margin_weight):
    """From the heuristic with every searched weight at its range's middle, which loses every game to the
    heuristic's defaults: with the margins in the score the search finds weights that lose by less, and the finals
    choose them over the start; on points alone every trial scores 0 and nothing is chosen but the start."""
    from bots.contract.paramfile import ParamFile, write_param_file
    from tuner.studyfile.space import SearchSpace

    naive_start = benchmark("naive_start")
    path = write_study(tmp_path, "climb", bot="heuristic", opponents=["heuristic"], trials=24, population=8,
                       pairs=16, race="none", sigma=0.3, finals_pairs=16, finalists=2, finals_confidence=0.9,
                       margin_weight=margin_weight)
    middle = naive_start.naive_params("heuristic", "middle", SearchSpace.for_config(read_study_file(path)))
    write_param_file(tmp_path / "middle.json", ParamFile("heuristic", 3, middle, {"start": "middle"}))
    path.write_text(path.read_text(encoding="utf-8") + 'baseline = "middle.json"\n', encoding="utf-8")
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    study = load_study(path)
    start = study.user_attrs[f"validation:{study.trials[0].number}"]["per_opponent"]["heuristic"]
    assert start["wins"] == 0, start  # the start loses every held-out game
    chosen = study.user_attrs["chosen"]
    table = result.stdout[result.stdout.index("before and after"):].splitlines()
    assert table[0].endswith("start = middle.json" + ("" if margin_weight else "; no finalist beat the start"))
    header = table[1].split()
    if margin_weight:
        assert chosen["trial"] != 0, chosen["finalists"]
        tuned = chosen["validation"]["per_opponent"]["heuristic"]
        assert tuned["mean_margin"] > start["mean_margin"] + 10, (tuned, start)
        assert header == ["opponent", "start", "trial", str(chosen["trial"]), "defaults"]
    else:
        assert chosen["trial"] == 0, chosen["finalists"]
        assert header == ["opponent", "start", "defaults"]  # the chosen bot is the start: no column of its own
    defaults = study.user_attrs["gauntlet_defaults"]
    assert defaults["baseline"] is None and all("baseline" not in r for r in defaults["rows"])  # played once, in
    # `gauntlet`: the defaults' gauntlet does not play the start again
    row = table[2].split()
    assert row[0] == "heuristic" and row[-1] == "itself"  # the defaults against themselves: no comparison
    columns = 3 if margin_weight else 2
    assert row[1] == "0.0%" and len(row) == 1 + 2 * (columns - 1) + 1
    assert table[-2].startswith("this run took ") and table[-1].startswith("export it: ")
