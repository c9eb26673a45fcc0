"""Damaged storage files: every command that opens the study stops with one line naming the file and what is
wrong (exit 2, no traceback), and the file's bytes are unchanged afterwards. Journals in both formats: the
compact one `tuner tune` writes for `journal_format = "compact"`, and Optuna's plain JSON lines."""
import hashlib
import os
from typing import Optional

import pytest

from tests.conftest import frame_starts, run_tuner, write_study
from tuner.storage.convert import export_plain
from tuner.storage.journal import DamagedJournal, TrialSyncedJournalFile


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    """A real journal written by `tuner tune` (a tiny study): its bytes, and those of its plain export."""
    directory = tmp_path_factory.mktemp("journal")
    path = write_study(directory, "damaged", trials=3, pairs=20, journal_format="compact")
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    export_plain(str(directory / "damaged.journal"), str(directory / "plain.journal"))
    return (directory / "damaged.journal").read_bytes(), (directory / "plain.journal").read_bytes()


@pytest.fixture(scope="module")
def journal(journals):
    """The plain journal."""
    return journals[1]


@pytest.fixture(scope="module")
def compact(journals):
    return journals[0]


def cut_mid_line(data: bytes) -> bytes:
    return data[:-40]


def garbage_line_at_the_end(data: bytes) -> bytes:
    return data + b"\x00\xff\xfe garbage bytes\n"


def garbage_line_in_the_middle(data: bytes) -> bytes:
    lines = data.split(b"\n")
    return b"\n".join(lines[:5] + [b"\x89PNG\r\x1a garbage"] + lines[5:])


def not_a_record_in_the_middle(data: bytes) -> bytes:
    lines = data.split(b"\n")
    return b"\n".join(lines[:5] + [b'{"hello": "world"}'] + lines[5:])


def only_garbage(data: bytes) -> bytes:
    return bytes(range(256)) * 20


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(result) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


TUNE = ["tune", "{study}", "--no-progress"]
EXPORT = ["export", "{study}", "-o", "{dir}/bot.py"]
REPORT = ["report", "{study}", "--no-plots"]


@pytest.mark.parametrize("damage, reason, commands", [
    (cut_mid_line, "cut short", [TUNE, EXPORT, REPORT]),
    (garbage_line_at_the_end, "not a journal record", [TUNE, EXPORT]),
    (garbage_line_in_the_middle, "a record cannot be read", [TUNE]),
    (not_a_record_in_the_middle, "a record cannot be read", [TUNE]),
    (only_garbage, "not a usable Optuna journal file", [TUNE]),
])
def test_a_damaged_journal_is_refused_and_left_unchanged(tmp_path, journal, damage, reason, commands):
    check_refused_and_unchanged(tmp_path, damage(journal), reason, commands)


def check_refused_and_unchanged(tmp_path, damaged: bytes, reason: str, commands: list,
                                truncate_advice: Optional[bool] = None) -> None:
    """Each command refuses the damaged journal in one line naming it and the reason, and changes nothing;
    `truncate_advice`, if given: whether that line offers the `truncate` command."""
    path = write_study(tmp_path, "damaged", trials=6, pairs=20)
    stored = tmp_path / "damaged.journal"
    stored.write_bytes(damaged)
    before = digest(stored)
    for command in commands:
        line = one_line_error(run_tuner(*[arg.format(study=path, dir=tmp_path) for arg in command]))
        assert str(stored) in line and "'storage'" in line and reason in line and "left unchanged" in line, line
        if truncate_advice is not None:
            assert ("truncate -s" in line) == truncate_advice, line
        assert digest(stored) == before
    assert not (tmp_path / "bot.py").exists()


def cut_last_frame(data: bytes) -> bytes:
    return data[:-3]


def bad_frame_in_the_middle(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1:]


def a_study_file_instead(data: bytes) -> bytes:
    return b'name = "damaged"\nleague = 3\nseed = 5\n'


@pytest.mark.parametrize("damage, reason, commands", [
    (cut_last_frame, "cut short", [TUNE, EXPORT, REPORT]),
    (bad_frame_in_the_middle, "a record cannot be read", [TUNE, EXPORT]),
    (only_garbage, "no journal at all", [TUNE, REPORT]),
    (a_study_file_instead, "no journal at all", [TUNE, EXPORT]),
])
def test_a_damaged_compact_journal_is_refused_and_left_unchanged(tmp_path, compact, damage, reason, commands):
    check_refused_and_unchanged(tmp_path, damage(compact), reason, commands, truncate_advice=damage is cut_last_frame)


def test_a_cut_compact_journal_says_how_to_keep_its_complete_records(tmp_path, compact):
    path = write_study(tmp_path, "damaged", trials=4, pairs=20)
    stored = tmp_path / "damaged.journal"
    stored.write_bytes(cut_last_frame(compact))
    line = one_line_error(run_tuner("tune", str(path), "--no-progress"))
    keep = frame_starts(compact)[-1]
    assert f"truncate -s {keep} {stored}" in line
    os.truncate(stored, keep)
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr


def test_a_cut_journal_says_how_to_keep_its_complete_records(tmp_path, journal):
    path = write_study(tmp_path, "damaged", trials=4, pairs=20)
    stored = tmp_path / "damaged.journal"
    stored.write_bytes(cut_mid_line(journal))
    line = one_line_error(run_tuner("tune", str(path), "--no-progress"))
    keep = journal.rindex(b"\n", 0, len(journal) - 40) + 1
    assert f"truncate -s {keep} {stored}" in line
    # Doing what it says gives a readable study again (the trial whose end was cut is run again).
    os.truncate(stored, keep)
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr


def test_a_journal_damaged_while_a_worker_runs_gets_nothing_appended(tmp_path, journal):
    stored = tmp_path / "damaged.journal"
    stored.write_bytes(cut_mid_line(journal))
    before = digest(stored)
    backend = TrialSyncedJournalFile(str(stored))
    with pytest.raises(DamagedJournal, match="cut short"):
        backend.append_logs([{"op_code": 4, "worker_id": "w", "trial_id": 0, "param_name": "x"}])
    assert digest(stored) == before


@pytest.mark.parametrize("content", [b"not a database, just text\n" * 100, "truncated"])
def test_a_file_that_is_not_an_sqlite_database_is_refused_and_left_unchanged(tmp_path, content):
    db = tmp_path / "study.db"
    if content == "truncated":  # a real study database, cut in half
        source = write_study(tmp_path, "source", trials=2, pairs=10, storage="sqlite:///source.db")
        assert run_tuner("tune", str(source), "--no-progress").returncode == 0
        data = (tmp_path / "source.db").read_bytes()
        db.write_bytes(data[:len(data) // 2])
    else:
        db.write_bytes(content)
    path = write_study(tmp_path, "sqlite", storage="sqlite:///study.db")
    before = digest(db)
    line = one_line_error(run_tuner("tune", str(path), "--no-progress"))
    assert str(db) in line and "'storage'" in line and "not a usable SQLite database" in line, line
    assert digest(db) == before
    assert not (tmp_path / "sqlite-artifacts").exists()


def test_the_damaged_file_is_named_even_through_the_command_line_storage(tmp_path, journal):
    path = write_study(tmp_path, "damaged", trials=4, pairs=20)
    other = tmp_path / "elsewhere.journal"
    other.write_bytes(garbage_line_at_the_end(journal))
    before = digest(other)
    line = one_line_error(run_tuner("tune", str(path), "--storage", str(other)))
    assert str(other) in line and "--storage" in line
    assert digest(other) == before
