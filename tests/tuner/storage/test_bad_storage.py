"""Storages that cannot hold a study: each is refused with one line naming it and what is allowed (exit 2, no
traceback), and leaves nothing behind: no `.tuner-lock` beside a folder or a file that is no database, no
database file for a URL that names none."""
from pathlib import Path

import pytest

from tests.conftest import run_tuner, write_study
from tuner.cli import main
from tuner.storage.url import StorageURL, StorageURLError

USAGE = "must be sqlite:///RELATIVE.db or sqlite:////ABSOLUTE.db"


def tiny_study(directory: Path, **fields) -> Path:
    return write_study(directory, "w", trials=2, pairs=4, population=2, finals_pairs=2, finalists=2,
                       opponents=["greedy"], **fields)


def files(*folders: Path) -> set:
    return {path for folder in folders for path in folder.rglob("*")}


def contents(folder: Path) -> dict:
    return {path: path.read_bytes() if path.is_file() else None for path in folder.rglob("*")}


def command_error(capsys, *argv: str) -> str:
    """Run `tuner ARGV` in-process: exit 2 and one line on stderr, returned."""
    assert main([*argv]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.fixture
def place(tmp_path, monkeypatch) -> Path:
    """A folder holding the study file (the current directory, where relative `--storage` paths lead) and a
    sibling folder `elsewhere` (where a lock beside `elsewhere` would land)."""
    study = tmp_path / "study"
    study.mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(study)
    return tmp_path


@pytest.mark.parametrize("command", ["tune", "dashboard", "report"])
def test_an_sqlite_url_naming_a_folder_is_refused_without_a_lock_beside_it(place, capsys, command):
    path = tiny_study(place / "study")
    before = files(place)
    line = command_error(capsys, command, str(path), "--storage", f"sqlite:///{place / 'elsewhere'}")
    assert f"{place / 'elsewhere'} is not a file but a folder" in line and "SQLite database file" in line, line
    assert files(place) == before


@pytest.mark.parametrize("command", ["tune", "dashboard", "report"])
def test_a_journal_path_naming_a_folder_says_it_is_a_folder(place, capsys, command):
    """Not "does not exist yet (run `tuner tune` ...)": running it would not help."""
    path = tiny_study(place / "study")
    before = files(place)
    line = command_error(capsys, command, str(path), "--storage", str(place / "elsewhere"))
    assert f"{place / 'elsewhere'} is not a file but a folder" in line and "a journal file" in line, line
    assert "does not exist yet" not in line
    assert files(place) == before


@pytest.mark.parametrize("command, database", [
    ("tune", "w.toml"),  # the study file itself
    ("tune", "garbage.journal"),
    ("dashboard", "garbage.journal"),
])
def test_a_file_that_is_no_sqlite_database_is_left_alone_without_a_lock(place, capsys, command, database):
    (place / "study" / "garbage.journal").write_bytes(b"not a database\n")
    path = tiny_study(place / "study", storage=f"sqlite:///{database}")
    before = contents(place)
    line = command_error(capsys, command, str(path))
    assert f"{place / 'study' / database} is not a usable SQLite database" in line and "left unchanged" in line
    assert "it starts with b'" in line, line  # refused by its first bytes, before a lock is made beside it
    assert contents(place) == before


def test_a_database_sqlite_cannot_open_leaves_no_lock_made_for_it(place, capsys):
    """SQLite's header, then garbage: refused by SQLite itself, once the creation lock is held."""
    (place / "study" / "bad.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    path = tiny_study(place / "study")
    before = files(place)
    line = command_error(capsys, "tune", str(path), "--storage", "sqlite:///bad.db")
    assert "bad.db is not a usable SQLite database" in line, line
    assert files(place) == before


@pytest.mark.parametrize("storage, message", [
    ("sqlite:///", USAGE),
    ("sqlite:///?mode=ro", USAGE),
    ("sqlite:///:memory:", "in-memory SQLite database, lost when the command ends"),
    ("sqlite:///file::memory:?uri=true", "in-memory SQLite database"),
    ("sqlite:///w.db?mode=memory&uri=true", "in-memory SQLite database"),
])
@pytest.mark.parametrize("given", ["--storage", "study file"])
def test_an_sqlite_url_naming_no_database_file_is_refused_alike_in_both_places(place, capsys, storage, message,
                                                                              given):
    path = tiny_study(place / "study", **({"storage": storage} if given == "study file" else {}))
    before = files(place)
    argv = ["tune", str(path)] + (["--storage", storage] if given == "--storage" else [])
    line = command_error(capsys, *argv)
    assert repr(storage) in line and message in line, line
    assert ("--storage" if given == "--storage" else "'storage'") in line, line
    assert "ValueError" not in line
    assert files(place) == before


@pytest.mark.parametrize("url, database", [
    ("sqlite:///%zz.db?mode=ro", "%zz.db"),
    ("sqlite:///a%20b.db?timeout=5", "a b.db"),  # as SQLAlchemy reads it: percent-decoded
    ("sqlite:////abs/x.db?uri=true&mode=ro", "/abs/x.db"),
])
def test_the_database_file_and_its_lock_are_named_without_the_query_string(tmp_path, url, database):
    parsed = StorageURL.parse(url, tmp_path)
    assert parsed.file == tmp_path / database
    assert parsed.lock_file == tmp_path / f"{database}.tuner-lock"
    assert parsed.text.endswith(url.partition("?")[1] + url.partition("?")[2])  # the query reaches SQLAlchemy


def test_the_lock_of_a_root_folder_is_named_without_a_crash():
    assert StorageURL.parse("sqlite:////", Path("/")).lock_file == Path("/.tuner-lock")
    with pytest.raises(StorageURLError, match="must be sqlite"):
        StorageURL.parse("sqlite://", Path("/"))


def test_an_unreachable_redis_is_one_line_without_optuna_s_experimental_warning(tmp_path):
    path = tiny_study(tmp_path)
    result = run_tuner("dashboard", str(path), "--storage", "redis://127.0.0.1:1/0", timeout=120)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot open redis://127.0.0.1:1/0: ConnectionError" in lines[0], result.stderr
    assert "ExperimentalWarning" not in result.stderr
