"""Files a command cannot or must not write: refused in one line (exit 2) before any work, inputs left intact."""
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import command_error, run_tuner, write_study
from tuner.cli import main
from tuner.cli.outputs import check_output, check_output_folder
from tuner.errors import UserError

UNWRITABLE = Path("/proc/tuner-test")  # in a folder where no file can be made (Linux)
needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


def refused(capsys, *argv: str) -> str:
    return command_error(capsys, list(argv))


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A tiny study that `tuner tune` has run (2 trials), with its journal."""
    path = write_study(tmp_path_factory.mktemp("study"), trials=2, pairs=4, finals_pairs=2,
                       opponents=["heuristic"])
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    return path


def contents(*paths: Path) -> list[bytes]:
    return [p.read_bytes() for p in paths]


# ---- the helpers ------------------------------------------------------------------------------------------------

def test_a_file_inside_a_file_cannot_be_written(tmp_path):
    (tmp_path / "a.txt").write_text("kept")
    with pytest.raises(UserError, match="a.txt is not a folder"):
        check_output(tmp_path / "a.txt" / "b.html", "-o")
    with pytest.raises(UserError, match="a.txt is not a folder"):
        check_output_folder(tmp_path / "a.txt" / "plots", "--out")
    check_output(tmp_path / "new" / "deeper" / "b.html", "-o")  # missing folders are made by the command


def test_an_output_folder_is_not_an_existing_file(tmp_path):
    (tmp_path / "a.txt").write_text("kept")
    with pytest.raises(UserError, match="is a file, not a folder"):
        check_output_folder(tmp_path / "a.txt", "--out")
    with pytest.raises(UserError, match="is the input"):
        check_output_folder(tmp_path / "a.txt", "--out", {"the input": tmp_path / "a.txt"})
    check_output_folder(tmp_path, "--out")
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]  # the try leaves nothing


# ---- tune: a journal that cannot be created ---------------------------------------------------------------------

@needs_proc
@pytest.mark.parametrize("given", ["--storage", "study file"])
def test_a_journal_that_cannot_be_created_is_one_line(tmp_path, given):
    journal = UNWRITABLE.with_suffix(".journal")  # its folder exists, the file cannot be made
    fields = {"storage": str(journal)} if given == "study file" else {}
    path = write_study(tmp_path, trials=2, pairs=4, finals_pairs=2, opponents=["heuristic"], **fields)
    extra = ["--storage", str(journal)] if given == "--storage" else []
    result = run_tuner("tune", str(path), "--no-progress", *extra)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"tuner tune: error: cannot create {journal}: No such file or directory\n"


# ---- report --out: a folder of plots ----------------------------------------------------------------------------

def test_report_refuses_the_study_file_and_its_journal_as_its_folder(study, capsys):
    journal = study.with_suffix(".journal")
    before = contents(study, journal)
    assert "is the study file" in refused(capsys, "report", str(study), "--out", str(study))
    assert "the study's storage" in refused(capsys, "report", str(study), "--out", str(journal))
    other = study.parent / "notes.txt"
    other.write_text("kept")
    assert "is a file, not a folder" in refused(capsys, "report", str(study), "--out", str(other))
    assert contents(study, journal) == before and other.read_text() == "kept"


@needs_proc
def test_report_to_an_unwritable_folder_is_one_line(study, capsys):
    assert "cannot be written" in refused(capsys, "report", str(study), "--out", str(UNWRITABLE))
    assert main(["report", str(study), "--out", str(UNWRITABLE), "--no-plots"]) == 0  # no plots: no folder


# ---- storage export-plain / import-plain ------------------------------------------------------------------------

def test_export_plain_never_overwrites_the_study_file_or_writes_a_folder(study, tmp_path, capsys):
    journal = study.with_suffix(".journal")
    before = contents(study, journal)
    assert "is the study file" in refused(capsys, "storage", "export-plain", str(study), str(study))
    assert "is the journal being read" in refused(capsys, "storage", "export-plain", str(study), str(journal))
    assert "is a folder" in refused(capsys, "storage", "export-plain", str(study), str(tmp_path))
    assert contents(study, journal) == before


@pytest.mark.parametrize("action", ["export-plain", "import-plain"])
def test_export_and_import_plain_keep_an_existing_journal_unless_replace_is_given(study, tmp_path, capsys, action):
    plain = tmp_path / "out.plain"
    assert main(["storage", "export-plain", str(study), str(plain)]) == 0
    source = study if action == "export-plain" else plain
    existing = tmp_path / "existing.journal"
    existing.write_bytes(b"a study's journal")
    err = refused(capsys, "storage", action, str(source), str(existing))
    assert "exists already" in err and "--replace" in err
    assert existing.read_bytes() == b"a study's journal"
    assert main(["storage", action, str(source), str(existing), "--replace"]) == 0
    assert existing.read_bytes()[:8] != b"a study'"


def test_import_plain_refuses_folders(study, tmp_path, capsys):
    plain = tmp_path / "out.plain"
    assert main(["storage", "export-plain", str(study), str(plain)]) == 0
    assert "is a folder" in refused(capsys, "storage", "import-plain", str(plain), str(tmp_path))
    assert "is a folder, not a plain Optuna journal" in refused(capsys, "storage", "import-plain", str(tmp_path),
                                                              str(tmp_path / "x.journal"))


@needs_proc
@pytest.mark.parametrize("action", ["export-plain", "import-plain"])
def test_a_journal_copy_that_cannot_be_written_is_one_line(study, tmp_path, capsys, action):
    source = study
    if action == "import-plain":
        source = tmp_path / "out.plain"
        assert main(["storage", "export-plain", str(study), str(source)]) == 0
    assert "cannot be written" in refused(capsys, "storage", action, str(source), str(UNWRITABLE))


# ---- view and play: an input or the other output given as the output --------------------------------------------

def test_view_refuses_to_write_its_page_over_the_trace(tmp_path, capsys):
    trace = tmp_path / "v.jsonl"
    assert main(["play", "heuristic", "wait", "--trace", str(trace)]) == 0
    before = trace.read_bytes()
    assert "is the trace" in refused(capsys, "view", str(trace), "-o", str(trace))
    assert "is the trace" in refused(capsys, "view", str(trace), "-o", str(tmp_path / "." / "v.jsonl"))
    assert "is a folder" in refused(capsys, "view", str(trace), "-o", str(tmp_path))
    assert trace.read_bytes() == before


def test_play_refuses_one_file_for_the_trace_and_the_page(tmp_path, capsys):
    same = tmp_path / "same.jsonl"
    assert "is the --trace file" in refused(capsys, "play", "heuristic", "wait", "--trace", str(same),
                                            "--html", str(same))
    assert "is a folder" in refused(capsys, "play", "heuristic", "wait", "--html", str(tmp_path))
    assert not same.exists()


# ---- league: --db and --plot checked before any game, and a damaged settings table ------------------------------

@pytest.mark.parametrize("plot, needle", [("p.txt", ".txt is not a picture format"), (".", "is a folder"),
                                          ("league.db", "is the league database")])
def test_a_bad_plot_is_refused_before_any_game(tmp_path, capsys, plot, needle):
    db = tmp_path / "league.db"
    err = refused(capsys, "league", "heuristic", "wait", "--games", "2", "--db", str(db), "--plot",
                  str(tmp_path / plot))
    assert needle in err
    assert not db.exists()


@needs_proc
def test_an_unwritable_plot_or_database_is_refused_before_any_game(tmp_path, capsys):
    db = tmp_path / "league.db"
    assert "cannot be written" in refused(capsys, "league", "heuristic", "wait", "--games", "2", "--db", str(db),
                                          "--plot", str(UNWRITABLE) + ".png")
    assert not db.exists()
    assert f"cannot create the league database {UNWRITABLE}.db" in refused(
        capsys, "league", "heuristic", "wait", "--games", "2", "--db", str(UNWRITABLE) + ".db")


def test_a_plot_without_an_extension_says_the_file_it_wrote(tmp_path, capsys):
    plot = tmp_path / "matrix"
    assert main(["league", "heuristic", "wait", "--games", "2", "--db", str(tmp_path / "l.db"), "--plot",
                 str(plot)]) == 0
    assert f"win-rate matrix written to {plot}.png" in capsys.readouterr().out
    assert Path(f"{plot}.png").stat().st_size > 0 and not plot.exists()


@pytest.fixture(scope="module")
def league_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("league") / "league.db"
    assert main(["league", "heuristic", "wait", "--games", "2", "--db", str(db)]) == 0
    return db


@pytest.mark.parametrize("change, needle", [
    ("UPDATE settings SET value = 'abc' WHERE key = 'league'", "setting 'league' is 'abc', not 1, 2 or 3"),
    ("UPDATE settings SET value = '99' WHERE key = 'league'", "setting 'league' is '99', not 1, 2 or 3"),
    ("DELETE FROM settings WHERE key = 'seed'", "setting 'seed' is missing"),
    ("UPDATE settings SET value = '1e3' WHERE key = 'seed'", "setting 'seed' is '1e3'"),
    ("UPDATE settings SET value = '-4' WHERE key = 'games'", "setting 'games' is '-4', not an even number"),
    ("UPDATE settings SET value = '1' WHERE key = 'games'", "setting 'games' is '1', not an even number"),
])
def test_a_damaged_settings_table_names_the_database_and_the_setting(league_db, tmp_path, capsys, change, needle):
    db = tmp_path / "damaged.db"
    db.write_bytes(league_db.read_bytes())
    connection = sqlite3.connect(db)
    connection.execute(change)
    connection.commit()
    connection.close()
    before = db.read_bytes()
    err = refused(capsys, "league", "heuristic", "wait", "--db", str(db))
    assert f"{db}: the league database's {needle}" in err
    assert db.read_bytes() == before


def test_a_damaged_games_setting_is_replaced_by_the_games_given(league_db, tmp_path, capsys):
    db = tmp_path / "damaged.db"
    db.write_bytes(league_db.read_bytes())
    connection = sqlite3.connect(db)
    connection.execute("UPDATE settings SET value = '1' WHERE key = 'games'")
    connection.commit()
    connection.close()
    assert main(["league", "heuristic", "wait", "--games", "2", "--db", str(db)]) == 0
    assert "0 played now, 2 from" in capsys.readouterr().out
