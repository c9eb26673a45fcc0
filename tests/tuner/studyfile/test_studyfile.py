"""Study files: every field checked before any storage is touched; each mistake is one line naming the file,
the field and what is allowed, with exit status 2."""
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_tuner, write_study
from tuner.cli import main
from tuner.studyfile.file import FIELDS, StudyFileError, fields_markdown, read_study_file


def tune_error(capsys, path: Path) -> str:
    """Run `tuner tune` in-process on a bad file: exit 2, one line on stderr, nothing written beside it."""
    before = set(path.parent.iterdir())
    assert main(["tune", str(path), "--no-progress"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert set(path.parent.iterdir()) == before  # no journal, no artifact directory
    return lines[0]


@pytest.mark.parametrize("fields, field, allowed", [
    ({"name": None}, "name", "missing field 'name'"),
    ({"colour": "green"}, "colour", "allowed: name, league, seed"),
    ({"league": 4}, "league", "1 (Wood 2), 2 (Wood 1) or 3 (Bronze+)"),
    ({"pairs": "many"}, "pairs", "integer >= 1"),
    ({"pairs": 2.5}, "pairs", "integer >= 1"),
    ({"seed": True}, "seed", "integer"),
    ({"timeout": -3}, "timeout", "seconds > 0"),
    ({"sampler": "cma"}, "sampler", "cmaes, tpe, random, nsga2"),
    ({"race": "median"}, "race", "wilcoxon, none"),
    ({"opponents": ["heuristic", "grumpy"]}, "opponents", "known: greedy"),
    ({"opponents": []}, "opponents", "non-empty list"),
    ({"opponents": ["hall-of-fame:0"]}, "opponents", "K in [1, 50]"),
    ({"opponents": ["cmd:"]}, "opponents", "command line is empty"),
    ({"validation_opponents": ["hall-of-fame:2"]}, "validation_opponents", "in 'opponents' only"),
    ({"bot": "wait"}, "bot", "heuristic"),  # greedy has parameters now: it can be tuned
    ({"sampler": "cmaes", "objectives": "per-opponent"}, "objectives", "tpe, random or nsga2"),
    ({"sampler": "nsga2", "race": "wilcoxon"}, "race", "race = 'none'"),
    ({"race_p": 1.5}, "race_p", "(0, 1)"),
    ({"sigma": 0}, "sigma", "(0, 1]"),
    ({"sampler": "tpe", "sigma": 0.1}, "sigma", "'cmaes' only"),
    ({"trials": None, "timeout": None}, "trials", "'timeout'"),
    ({"storage": "ftp://host/x"}, "storage", "sqlite://, postgresql://"),
    ({"search": {"no_such_param": 1}}, "search.no_such_param", "tuner params"),
    ({"search": {"grow_horizon": [4, 1]}}, "search.grow_horizon", "inverted"),
    ({"search": {"grow_w_cost": [1.0, 1.0]}}, "search.grow_w_cost", "empty"),
    ({"search": {"grow_horizon": [0, 99]}}, "search.grow_horizon", "int in [0, 6]"),
    ({"search": {"grow_horizon": 2.5}}, "search.grow_horizon", "must be an integer"),
    ({"search": {"grow_horizon": [1, 2, 3]}}, "search.grow_horizon", "[low, high]"),
    # Each kind of mistake on more fields: missing, wrong type, out of range, unknown bot.
    ({"league": None}, "league", "missing field 'league' (1, 2 or 3"),
    ({"seed": None}, "seed", "missing field 'seed' (integer"),
    ({"name": 5}, "name", "non-empty string"),
    ({"league": "3"}, "league", "1 (Wood 2), 2 (Wood 1) or 3 (Bronze+)"),
    ({"sampler": 3}, "sampler", "cmaes, tpe, random, nsga2"),
    ({"timeout": "10"}, "timeout", "seconds > 0"),
    ({"trials": 0}, "trials", "integer >= 1"),
    ({"population": 1}, "population", "[2, 10000]"),
    ({"finals_pairs": -1}, "finals_pairs", "[0, 100000]"),
    ({"race_first_pairs": 1}, "race_first_pairs", "integer >= 2"),
    ({"opponents": "heuristic"}, "opponents", "non-empty list of bot names"),
    ({"opponents": [3]}, "opponents", "bot names (strings)"),
    ({"validation_opponents": ["grumpy"]}, "validation_opponents", "known: greedy"),
    ({"storage": 5}, "storage", "a journal file path or a storage URL"),
    ({"storage": ""}, "storage", "a journal file path or a storage URL"),
    ({"artifacts": 7}, "artifacts", "non-empty string"),
    ({"heartbeat_interval": 0}, "heartbeat_interval", "integer >= 1"),
    ({"heartbeat_interval": 1.5}, "heartbeat_interval", "integer >= 1"),
    ({"grace_period": "60"}, "grace_period", "integer > heartbeat_interval"),
    ({"heartbeat_interval": 30, "grace_period": 30}, "grace_period", "integer > heartbeat_interval (30)"),
    ({"search": {"grow_horizon": "wide"}}, "search.grow_horizon", "int in [0, 6]"),
    ({"opponent_shares": {"search:4": 0.2}}, "opponent_shares.search:4", "not an entry of 'opponents' (heuristic)"),
    ({"opponents": ["heuristic", "greedy"], "opponent_shares": {"greedy": 0}}, "opponent_shares.greedy",
     "a number in (0, 1], got 0"),
    ({"opponent_shares": {"heuristic": 1.5}}, "opponent_shares.heuristic", "a number in (0, 1]"),
    ({"opponent_shares": {"heuristic": "half"}}, "opponent_shares.heuristic", "a number in (0, 1]"),
    ({"opponent_shares": ["heuristic"]}, "opponent_shares", "a table of pool entry = a number in (0, 1]"),
])
def test_each_mistake_is_one_line_naming_file_field_and_allowed_values(tmp_path, capsys, fields, field, allowed):
    path = write_study(tmp_path, **fields)
    line = tune_error(capsys, path)
    assert str(path) in line and field in line and allowed in line, line


@pytest.mark.parametrize("storage, reason", [
    ("sqlite:////nonexistent-directory/x.db", "does not exist"),
    ("missing-directory/x.journal", "does not exist"),
    ("a-directory", "is not a file"),
    ("postgresql://user:secret@127.0.0.1:1/db", "cannot open postgresql://user:***@127.0.0.1:1/db: OperationalError"),
    ("redis://:secret@127.0.0.1:1/0", "cannot open redis://:***@127.0.0.1:1/0: ConnectionError"),
])
def test_an_unreachable_storage_is_one_line_without_the_password(tmp_path, capsys, storage, reason):
    (tmp_path / "a-directory").mkdir()
    path = write_study(tmp_path, storage=storage)
    line = tune_error(capsys, path)
    assert str(path) in line and "'storage'" in line and reason in line and "secret" not in line, line


def test_a_table_expected_and_something_else_given(tmp_path, capsys):
    path = tmp_path / "flat.toml"
    path.write_text('name = "flat"\nleague = 3\nseed = 1\ntrials = 3\nsearch = 3\n', encoding="utf-8")
    line = tune_error(capsys, path)
    assert str(path) in line and "field 'search' must be a table of parameter = value or [low, high]" in line


def _postgres_url_with(url: str, login: str = "", database: str = "") -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{login}@{host}" if login else parts.netloc,
                                     path=f"/{database}" if database else parts.path))


@pytest.mark.parametrize("change, reason", [
    ({"database": "no_such_database"}, 'database "no_such_database" does not exist'),
    ({"login": "nobody_at_all:wrong"}, 'user "nobody_at_all"'),
])
def test_a_postgresql_server_that_refuses_the_study(tmp_path, capsys, postgres_url, change, reason):
    """A real server: a database that does not exist, a role that cannot log in."""
    path = write_study(tmp_path, storage=_postgres_url_with(postgres_url, **change))
    line = tune_error(capsys, path)
    assert str(path) in line and "'storage'" in line and "OperationalError" in line and reason in line, line
    assert "wrong" not in line


def test_not_toml_and_missing_file(tmp_path, capsys):
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\nleague = \n', encoding="utf-8")
    line = tune_error(capsys, path)
    assert "not valid TOML" in line and "line 2" in line
    assert main(["tune", str(tmp_path / "absent.toml")]) == 2
    assert "no such study file" in capsys.readouterr().err


def test_a_real_process_exits_2_without_traceback(tmp_path):
    path = write_study(tmp_path, sampler="annealing")
    result = run_tuner("tune", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "field 'sampler'" in result.stderr and "cmaes, tpe, random, nsga2" in result.stderr
    assert not list(tmp_path.glob("*.journal"))


def test_defaults_paths_and_overrides(tmp_path):
    path = write_study(tmp_path, opponents=["greedy", "hall-of-fame:3"],
                       search={"seed_first": 1, "grow_horizon": [1, 4]})
    config = read_study_file(path)
    assert config.storage == str(tmp_path.resolve() / "tiny.journal")
    assert config.artifacts == tmp_path.resolve() / "tiny-artifacts"
    assert config.sampler == "cmaes" and config.race == "wilcoxon" and config.objectives == "mean"
    assert config.hall_of_fame == 3 and config.fixed_opponents == ["greedy"]
    assert config.validation_opponents == ["greedy"]
    assert config.search["seed_first"].fixed and config.search["seed_first"].value == 1
    assert (config.search["grow_horizon"].low, config.search["grow_horizon"].high) == (1, 4)
    nsga = read_study_file(write_study(tmp_path, "multi", sampler="nsga2", opponents=["greedy", "random"]))
    assert nsga.objectives == "per-opponent" and nsga.race == "none"
    relative = read_study_file(write_study(tmp_path, "rel", storage="sqlite:///sub.db"))
    assert relative.storage == "sqlite:///" + str(tmp_path.resolve() / "sub.db")


def test_the_config_gives_every_field_typed_as_the_file_declares_it(tmp_path):
    """Every field is an attribute of StudyConfig that mypy knows: as written (`AsWritten[T]`, T the field's type
    in the model), or resolved (a property or a dataclass field); no catch-all `__getattr__`, through which mypy
    would let a misspelt field pass."""
    import inspect
    import typing

    from tuner.studyfile.config import AsWritten, StudyConfig
    from tuner.studyfile.model import StudyFile

    assert "__getattr__" not in vars(StudyConfig)
    config = read_study_file(write_study(tmp_path, opponents=["greedy"], held_out_opponents=["rush"]))
    for name, info in StudyFile.model_fields.items():
        if name in StudyConfig.__dataclass_fields__:
            continue
        attribute = inspect.getattr_static(StudyConfig, name)
        if isinstance(attribute, AsWritten):
            assert typing.get_args(attribute.__orig_class__) == (info.annotation,), name
            assert getattr(config, name) == getattr(config.file, name), name
        else:
            assert isinstance(attribute, property), name


def test_fixing_every_parameter_is_refused(tmp_path):
    from bots.heuristic.schema import SCHEMA

    path = write_study(tmp_path, search=SCHEMA.defaults())
    with pytest.raises(StudyFileError, match="every parameter is fixed"):
        read_study_file(path)


def test_the_shipped_study_files_are_valid():
    files = sorted((ROOT / "studies").glob("*.toml"))
    assert {f.stem for f in files} >= {"quickstart", "heuristic", "beam", "beam-rollouts", "wood2", "wood1", "bronze"}
    for path in files:
        config = read_study_file(path)
        assert config.storage_is_journal_file and Path(config.storage).parent == path.parent.resolve()


def test_the_docs_document_every_field():
    """docs/study-files.md holds the table `fields_markdown()` generates from the model, as it is now."""
    page = (ROOT / "docs" / "study-files.md").read_text(encoding="utf-8")
    start = page.index("| field |")
    table = page[start:page.index("\n\n", start)]
    documented = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)
    assert documented == [f.name for f in FIELDS]
    assert table == fields_markdown(), "docs/study-files.md: paste tuner.studyfile.file.fields_markdown()'s table"


def test_a_kept_parameter_file_is_a_trial_of_its_shipped_study():
    """Each parameter file in bots/tuned/ names the shipped study it was chosen from, is a valid file of that
    study's bot and league, and holds the values the study fixes in [search], or plays in its [playing_budget] (the
    budget its chosen trial was chosen at), but for those its source says it changed: then it is the study's other kept
    file, the trial's values, with those changes only (beam-timed.json: beam-rollouts.json played out for the
    clock)."""
    from bots.contract.paramfile import read_param_file

    kept = sorted((ROOT / "bots" / "tuned").glob("*.json"))
    assert {p.name for p in kept} >= {"beam-rollouts.json", "beam-timed.json"}
    files = {path: read_param_file(path) for path in kept}
    for path, tuned in files.items():
        study = read_study_file(ROOT / tuned.source["study"])
        assert (tuned.bot, tuned.league) == (study.bot, study.league), path
        assert isinstance(tuned.source["trial"], int) and tuned.source["trial"] < study.trials, path
        changed = tuned.source.get("changed", {})
        fixed = {name: override.value for name, override in study.search.items() if override.fixed}
        fixed |= study.playing_budget
        fixed = {name: value for name, value in fixed.items() if name not in changed}
        assert fixed and {name: tuned.params[name] for name in fixed} == fixed, path
        if changed:
            origin = (tuned.source["study"], tuned.source["trial"])
            (trial,) = [other for other in files.values()
                        if not other.source.get("changed") and (other.source["study"], other.source["trial"]) == origin]
            assert tuned.params == trial.params | changed, path


def test_an_old_field_name_is_read_as_before_with_a_one_line_note(tmp_path, capsys):
    old = read_study_file(write_study(tmp_path, "old", pruner="none", pruner_p=0.2, pruner_startup_pairs=6,
                                      finals_pairs=None, validation_pairs=7))
    notes = capsys.readouterr().err.splitlines()
    assert [line.split(": field ")[1] for line in notes] == [
        f"{a!r} is now {b!r} (read as before; rename it in the file)"
        for a, b in (("pruner", "race"), ("pruner_p", "race_p"), ("pruner_startup_pairs", "race_first_pairs"),
                     ("validation_pairs", "finals_pairs"))]
    assert all(line.startswith(f"note: {tmp_path / 'old.toml'}: ") for line in notes)
    new = read_study_file(write_study(tmp_path, "new", race="none", race_p=0.2, race_first_pairs=6, finals_pairs=7))
    assert capsys.readouterr().err == ""
    assert (old.race, old.race_p, old.race_first_pairs, old.finals_pairs) == ("none", 0.2, 6, 7)
    assert old.search_settings() == new.search_settings()
    with pytest.raises(StudyFileError, match="field 'pruner' is the old name of 'race': give 'race' only"):
        read_study_file(write_study(tmp_path, "both", pruner="none", race="none"))


def test_a_study_recorded_under_the_old_names_resumes_under_the_new_ones(tmp_path):
    """Its recorded settings are compared by the new names: the same values resume it, another value is refused
    naming the new field."""
    import optuna

    from tests.conftest import load_study
    from tuner.studyfile.renamed import OLD_NAME

    path = write_study(tmp_path, "older", trials=2, pairs=4, population=2, finals_pairs=0, race_p=0.2)
    assert run_tuner("tune", str(path), "--no-progress").returncode == 0
    study = load_study(path)
    recorded = study.user_attrs["search_settings"]
    study.set_user_attr("search_settings", {OLD_NAME.get(key, key): value for key, value in recorded.items()})
    assert "pruner_p" in load_study(path).user_attrs["search_settings"]
    path.write_text(path.read_text(encoding="utf-8").replace("trials = 2", "trials = 3"), encoding="utf-8")
    resumed = run_tuner("tune", str(path), "--no-progress")
    assert resumed.returncode == 0, resumed.stderr
    finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    assert len(load_study(path).get_trials(states=finished)) == 3
    path.write_text(path.read_text(encoding="utf-8").replace("race_p = 0.2", "race_p = 0.3"), encoding="utf-8")
    changed = run_tuner("tune", str(path), "--no-progress")
    assert changed.returncode == 2 and "field 'race_p' is 0.3 but study 'older' was created with 0.2" in changed.stderr
