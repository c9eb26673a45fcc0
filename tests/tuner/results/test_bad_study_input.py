"""Input that would have stopped a command late, exported the wrong bot or overwritten a file: a study that names a
study bot it cannot build, a study file changed since its study ran, an export written over what it reads, a
gauntlet opponent that never plays. Each is one line, a non-zero exit, and the files already written intact."""
from __future__ import annotations

import shutil
import sys

import pytest

from tests.conftest import PROGRAMS, run_tuner, write_study
from tuner.cli import main


def copy_of(study_file, tmp_path):
    """A copy of a tuned study's folder (study file and journal): the session's study stays as it is."""
    folder = tmp_path / "copy"
    shutil.copytree(study_file.parent, folder)
    return folder / study_file.name


def test_a_study_bot_that_cannot_be_built_stops_the_run_before_any_game(tmp_path, tuned_study, capsys):
    shutil.copy(tuned_study, tmp_path / "other.toml")  # a study file without its journal: no study yet
    for field, name, problem in (("validation_opponents", f"study:{tuned_study}#999", "has no trial 999"),
                                 ("held_out_opponents", f"study:{tuned_study}#999", "has no trial 999"),
                                 ("opponents", "study:other.toml", "does not exist yet")):
        path = write_study(tmp_path, f"uses_{field}", **{field: [name]})
        assert main(["tune", str(path), "--no-progress"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and f"field {field!r}" in err and problem in err, err
        assert not (tmp_path / f"uses_{field}.journal").exists()  # before the study was created: no game played


def test_export_report_and_study_bots_refuse_a_study_file_changed_since_its_study_ran(tmp_path, tuned_study, capsys):
    path = copy_of(tuned_study, tmp_path)
    path.write_text(path.read_text().replace("league = 3", "league = 1"))
    out = tmp_path / "bot.py"
    for args in (["export", str(path), "-o", str(out)], ["report", str(path)],
                 ["play", f"study:{path}", "wait"]):
        assert main(args) == 2, args
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "field 'league' is 1" in err and "created with 3" in err, err
    assert not out.exists()
    path.write_text(path.read_text().replace("league = 1", "league = 3"))
    assert main(["export", str(path), "-o", str(out)]) == 0 and out.exists()


def test_an_export_never_writes_over_what_it_reads(tmp_path, tuned_study, capsys):
    path = copy_of(tuned_study, tmp_path)
    journal = path.with_suffix(".journal")
    kept = {p: p.read_bytes() for p in (path, journal)}
    params = tmp_path / "p.json"
    assert main(["export", "--bot", "heuristic", "-o", str(tmp_path / "h.py"), "--params-out", str(params)]) == 0
    kept[params] = params.read_bytes()
    folder = tmp_path / "folder"
    folder.mkdir()
    for args, problem in ((["export", str(path), "-o", str(journal)], "is the study's storage"),
                          (["export", str(path), "-o", str(path)], "is the study file"),
                          (["export", "--params", str(params), "-o", str(params)], "is the parameter file"),
                          (["export", str(path), "-o", str(tmp_path / "b.py"), "--params-out", str(journal)],
                           "is the study's storage"),
                          (["export", "--bot", "greedy", "-o", str(tmp_path / "e.py"), "--params-out",
                            str(tmp_path / "e.py")], "is the file -o writes"),
                          (["export", "--bot", "greedy", "-o", str(folder)], "is a folder")):
        assert main(args) == 2, args
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and problem in err, (args, err)
    with pytest.raises(SystemExit) as usage:
        main(["export", "--bot", "greedy", "-o", ""])
    assert usage.value.code == 2 and "-o/--output: expected a file name, got ''" in capsys.readouterr().err
    assert all(p.read_bytes() == data for p, data in kept.items())
    assert not (tmp_path / "b.py").exists() and not (tmp_path / "e.py").exists()


def test_a_gauntlet_whose_opponent_never_plays_says_so_and_exits_3():
    broken = f"cmd:{sys.executable} {PROGRAMS / 'behave.py'} exit 1"
    result = run_tuner("gauntlet", "greedy", "--against", "heuristic", broken, "--games", "2")
    assert result.returncode == 3, result.stderr
    assert "[opponent disqualified in 2]" in result.stdout
    assert "was disqualified in every game" in result.stderr and "behave.py" in result.stderr
    result = run_tuner("gauntlet", broken, "--against", "heuristic", "greedy", "--games", "2")
    assert result.returncode == 3 and "[2 disqualified]" in result.stdout, result.stderr
    assert run_tuner("gauntlet", "greedy", "--against", "heuristic", "--games", "2").returncode == 0


def test_a_rewritten_baseline_file_keeps_its_study_readable_but_not_resumable(tmp_path, capsys):
    base = tmp_path / "base.json"
    assert main(["export", "--bot", "heuristic", "-o", str(tmp_path / "h.py"), "--params-out", str(base)]) == 0
    path = write_study(tmp_path, "based", baseline="base.json", trials=2, pairs=4, population=2, finals_pairs=2,
                       finalists=2, opponents=["greedy"])
    assert main(["tune", str(path), "--no-progress"]) == 0
    out = tmp_path / "based.py"
    err = (capsys.readouterr(), main(["export", str(path), "-o", str(out), "--params-out", str(base)]),
           capsys.readouterr().err)[2]
    assert "is the study's baseline file" in err and not out.exists()
    assert main(["export", "--bot", "heuristic:sell_ratio=1.5", "-o", str(tmp_path / "h2.py"), "--params-out",
                 str(base)]) == 0  # the baseline file rewritten by hand: the study's search is another one now
    assert main(["export", str(path), "-o", str(out)]) == 0 and out.exists()
    capsys.readouterr()
    assert main(["tune", str(path), "--no-progress", "--trials", "1"]) == 2
    assert "field 'baseline'" in capsys.readouterr().err
