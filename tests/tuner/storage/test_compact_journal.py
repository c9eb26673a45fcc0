"""The compact journal (tuner/storage/compact_codec.py, compact_journal.py, convert.py): what Optuna writes comes
back the same, from one process or several at once, as a plain Optuna journal too; damaged files are refused,
unchanged, with the right line; the snapshot cache is used only while it matches the journal."""
from __future__ import annotations

import datetime
import hashlib
import json
import multiprocessing
import os
import time

import optuna
import pytest
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import FrozenTrial, TrialState

from tests.conftest import frame_starts, write_study
from tuner.cli import main as tuner_main
from tuner.errors import UserError
from tuner.optuna_internals import journal_backend, trial_id
from tuner.search.heartbeat import Heartbeats
from tuner.storage import compact_journal, save_snapshot, snapshots
from tuner.storage.compact_codec import MAGIC
from tuner.storage.compact_journal import CompactJournalFile
from tuner.storage.convert import export_plain, import_plain
from tuner.storage.journal import HEARTBEAT_ATTR, DamagedJournal, HeartbeatJournalStorage
from tuner.storage.open import Heartbeat, open_storage
from tuner.storage.retry import RetryTrial

optuna.logging.set_verbosity(optuna.logging.WARNING)
SPACE = {"x": optuna.distributions.FloatDistribution(-20, 20), "n": optuna.distributions.IntDistribution(0, 23),
         "c": optuna.distributions.CategoricalDistribution(["a", "b"])}


def fill(storage, trials: int, name: str = "s", start: int = 0) -> None:
    """Trials shaped like the tuner's: parameters, reports, attributes with floats, PRUNED or COMPLETE."""
    study = optuna.create_study(storage=storage, study_name=name, load_if_exists=True, direction="maximize")
    for i in range(start, start + trials):
        trial = study.ask(SPACE)
        trial.report(0.1 * i + 1 / 3, 20)
        trial.set_user_attr("result", {"games": 40, "rate": i / 7, "ci": [0.123456789, 0.987654321], "w": i})
        trial.set_user_attr("x_for_tell", [1 / (i + 3), -2.5e-07, 1e300])
        if i % 3:
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, trial.params["x"])


def outline(storage, name: str = "s") -> list:
    study = optuna.load_study(study_name=name, storage=storage)
    return [(t.number, t.state, t.values, t.params, t.distributions, t.user_attrs, t.system_attrs,
             t.intermediate_values, t.datetime_start, t.datetime_complete) for t in study.trials]


def compact_storage(path) -> JournalStorage:
    return open_storage(str(path), new_journal="compact")


def test_what_optuna_writes_reads_back_and_exports_as_optunas_own_journal(tmp_path):
    path = tmp_path / "s.journal"
    fill(compact_storage(path), 40)
    assert path.read_bytes().startswith(MAGIC)
    expected = outline(compact_storage(path))
    assert len(expected) == 40 and expected[0][5]["x_for_tell"] == [1 / 3, -2.5e-07, 1e300]
    plain = tmp_path / "plain.journal"
    records = export_plain(str(path), str(plain))
    assert records == plain.read_bytes().count(b"\n")
    assert outline(JournalStorage(JournalFileBackend(str(plain)))) == expected
    # Optuna's own file backend writes the same bytes, record for record.
    direct = tmp_path / "direct.journal"
    direct_backend = JournalFileBackend(str(direct))
    for line in plain.read_bytes().splitlines():
        direct_backend.append_logs([json.loads(line)])
    assert direct.read_bytes() == plain.read_bytes()
    # And back: the compact journal of that plain one is the one written in one stream.
    again = tmp_path / "again.journal"
    import_plain(str(plain), str(again))
    assert again.read_bytes() == path.read_bytes()


def test_the_compact_journal_is_much_smaller_than_the_plain_one(tmp_path):
    path = tmp_path / "s.journal"
    fill(compact_storage(path), 60)
    export_plain(str(path), str(tmp_path / "plain.journal"))
    assert path.stat().st_size * 4 < (tmp_path / "plain.journal").stat().st_size


def test_a_reader_decoding_in_small_chunks_reads_the_same(tmp_path, monkeypatch):
    path = tmp_path / "s.journal"
    fill(compact_storage(path), 12)
    expected = outline(compact_storage(path))
    monkeypatch.setattr(compact_journal, "READ_CHUNK", 97)
    assert outline(JournalStorage(CompactJournalFile(str(path), snapshots=False))) == expected


def test_a_record_being_written_is_read_once_complete(tmp_path):
    path = tmp_path / "s.journal"
    fill(compact_storage(path), 3)
    data = path.read_bytes()
    writer = tmp_path / "w.journal"
    cut = len(data) - 5
    writer.write_bytes(data[:cut])  # the last frame is not all there yet
    reader = CompactJournalFile(str(writer), snapshots=False)
    reader_storage = JournalStorage(reader)
    trials = optuna.load_study(study_name="s", storage=reader_storage).trials
    assert trials[-1].state == TrialState.RUNNING  # its tell is the frame being written
    with open(writer, "ab") as handle:
        handle.write(data[cut:])
    trials = optuna.load_study(study_name="s", storage=reader_storage).trials
    assert [t.state for t in trials] == [t[1] for t in outline(compact_storage(path))]


def _worker(path: str, name: str, first: int) -> None:
    storage = JournalStorage(CompactJournalFile(path, snapshots=False))
    fill(storage, 25, name, start=first)


def test_several_processes_append_to_one_journal_at_once(tmp_path):
    path = tmp_path / "shared.journal"
    fill(compact_storage(path), 1)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_worker, args=(str(path), "s", 1000 * (k + 1))) for k in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
        assert worker.exitcode == 0
    trials = optuna.load_study(study_name="s", storage=compact_storage(path)).trials
    assert len(trials) == 76 and all(t.state.is_finished() for t in trials)
    assert sorted(t.user_attrs["result"]["w"] for t in trials) == [0] + [w for k in (1, 2, 3)
                                                                       for w in range(1000 * k, 1000 * k + 25)]
    export_plain(str(path), str(tmp_path / "plain.journal"))  # every byte decodes


def test_heartbeats_fail_a_silent_trial_and_retry_it(tmp_path):
    path = tmp_path / "s.journal"
    storage = open_storage(str(path), heartbeat=Heartbeat(1, 2), new_journal="compact")
    assert isinstance(storage, HeartbeatJournalStorage)
    study = optuna.create_study(storage=storage, study_name="s")
    study.enqueue_trial({"x": 1.5, "n": 3, "c": "a"})
    trial = study.ask(SPACE)
    storage.record_heartbeat(trial_id(trial))
    time.sleep(2.5)
    optuna.storages.fail_stale_trials(study)
    states = [t.state for t in optuna.load_study(study_name="s", storage=compact_storage(path)).trials]
    assert states == [TrialState.FAIL, TrialState.WAITING]
    assert isinstance(storage.get_heartbeat_stale_trial_callback(), RetryTrial)


def test_a_batch_beats_at_once_so_a_start_written_by_another_clock_does_not_make_its_trial_stale(tmp_path):
    """A trial created by a worker whose clock (or time zone) is an hour behind looks an hour old to the others:
    its first heartbeat, at once, keeps it alive; with none it is stale."""
    storage = open_storage(str(tmp_path / "s.journal"), heartbeat=Heartbeat(5, 10), new_journal="compact")
    study = optuna.create_study(storage=storage, study_name="s")
    hour_behind = datetime.datetime.now() - datetime.timedelta(hours=1)
    beating, silent = (storage.get_trial(storage.create_new_trial(study._study_id, template_trial=FrozenTrial(
        number=-1, state=TrialState.RUNNING, value=None, datetime_start=hour_behind, datetime_complete=None,
        params={}, distributions={}, user_attrs={}, system_attrs={}, intermediate_values={}, trial_id=-1)))
        for _ in range(2))
    with Heartbeats(storage, 5) as beats:
        beats.start([beating])  # the first beat is written before it returns: then the lock is released
        assert HEARTBEAT_ATTR in storage.get_trial(trial_id(beating)).system_attrs
        assert storage._get_stale_trial_ids(study._study_id) == [trial_id(silent)]


def test_a_plain_optuna_journal_is_still_opened_and_appended_to_as_plain_json_lines(tmp_path):
    path = tmp_path / "old.journal"
    fill(JournalStorage(JournalFileBackend(str(path))), 4)
    fill(open_storage(str(path)), 2, start=4)
    assert path.read_bytes().startswith(b'{"op_code":0')
    assert len(outline(JournalStorage(JournalFileBackend(str(path))))) == 6


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(path) -> str:
    before = digest(path)
    with pytest.raises(UserError) as error:
        open_storage(str(path), "storage", create=False)
    assert digest(path) == before
    message = str(error.value)
    assert "\n" not in message and str(path) in message and "left unchanged" in message
    return message


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "s.journal"
    fill(compact_storage(path), 6)
    return path


@pytest.mark.parametrize("cut", [1, 3, 6])
def test_a_cut_last_record_is_refused_with_how_to_keep_the_complete_ones(journal, cut):
    last = frame_starts(journal.read_bytes())[-1]
    complete = outline(compact_storage(journal))
    os.truncate(journal, last + cut)
    message = refused(journal)
    assert "cut short" in message and f"truncate -s {last} {journal}" in message
    os.truncate(journal, last)  # what it says
    trials = outline(compact_storage(journal))
    assert trials[:-1] == complete[:-1] and trials[-1][1] == TrialState.RUNNING  # only its tell is gone


def test_a_last_record_with_a_bad_crc_is_refused_with_the_truncate_advice(journal):
    last = frame_starts(journal.read_bytes())[-1]
    data = bytearray(journal.read_bytes())
    data[-1] ^= 0x40
    journal.write_bytes(bytes(data))
    assert f"truncate -s {last} {journal}" in refused(journal)


def test_zeros_left_by_a_crash_at_the_end_are_refused_with_the_truncate_advice(journal):
    size = journal.stat().st_size
    with open(journal, "ab") as handle:
        handle.write(bytes(300))
    assert f"truncate -s {size} {journal}" in refused(journal)


def test_a_damaged_record_in_the_middle_is_refused_without_truncate_advice(journal):
    middle = frame_starts(journal.read_bytes())[20]
    data = bytearray(journal.read_bytes())
    data[middle + 3] ^= 0x01  # one bit of a payload: its crc fails
    journal.write_bytes(bytes(data))
    message = refused(journal)
    assert "a record cannot be read" in message and f"byte {middle}" in message and "truncate" not in message


@pytest.mark.parametrize("content", [b'name = "tiny"\nleague = 3\nseed = 5\n', os.urandom(3000),
                                     b'{"hello": "world"}\n', MAGIC[:10]])
def test_a_file_that_is_no_journal_is_refused_without_truncate_advice(tmp_path, content):
    path = tmp_path / "s.journal"
    path.write_bytes(content)
    message = refused(path)
    assert "truncate -s" not in message or content == MAGIC[:10]
    if content != MAGIC[:10]:
        assert "no journal at all" in message


def test_a_writer_appends_nothing_after_bytes_it_cannot_decode(journal):
    storage = compact_storage(journal)
    study = optuna.load_study(study_name="s", storage=storage)
    with open(journal, "ab") as handle:  # another program damages the file while this worker runs
        handle.write(b"\x07garbage")
    before = digest(journal)
    with pytest.raises(DamagedJournal, match="nothing more was written"):
        study.ask(SPACE)
    assert digest(journal) == before


def test_a_snapshot_is_used_then_ignored_once_the_journal_no_longer_matches(tmp_path):
    path = tmp_path / "s.journal"
    storage = compact_storage(path)
    fill(storage, 10)
    assert save_snapshot(storage) and snapshots.snapshot_path(str(path)).is_file()
    expected = outline(storage)
    reopened = compact_storage(path)
    assert journal_backend(reopened).replayed == 0 and outline(reopened) == expected  # all from the snapshot
    fill(reopened, 2, start=10)
    expected = outline(reopened)
    again = compact_storage(path)
    assert 0 < journal_backend(again).replayed < 60 and outline(again) == expected  # the snapshot and the records after
    # Another journal at the same path (same size even): the snapshot does not describe it.
    other = tmp_path / "other.journal"
    fill(compact_storage(other), 12, name="t")
    os.replace(other, path)
    replaced = compact_storage(path)
    assert journal_backend(replaced).replayed == export_plain(str(path), str(tmp_path / "plain.journal"))
    assert [s.study_name for s in replaced.get_all_studies()] == ["t"]


def test_a_damaged_snapshot_is_never_unpickled(tmp_path):
    path = tmp_path / "s.journal"
    storage = compact_storage(path)
    fill(storage, 5)
    save_snapshot(storage)
    expected = outline(storage)
    cached = snapshots.snapshot_path(str(path))
    data = bytearray(cached.read_bytes())
    data[-100] ^= 0x04  # a bit of the pickle
    cached.write_bytes(bytes(data))
    reopened = compact_storage(path)
    assert journal_backend(reopened).replayed > 0 and outline(reopened) == expected


def test_a_snapshot_of_another_optuna_version_is_never_unpickled(tmp_path, monkeypatch):
    path = tmp_path / "s.journal"
    storage = compact_storage(path)
    fill(storage, 3)
    save_snapshot(storage)
    assert journal_backend(compact_storage(path)).replayed == 0
    monkeypatch.setattr(optuna, "__version__", "99.0.0")
    assert journal_backend(compact_storage(path)).replayed > 0


def test_export_plain_command_writes_the_study_for_other_tools(tmp_path, capsys):
    study_file = write_study(tmp_path, "tiny")
    fill(compact_storage(tmp_path / "tiny.journal"), 5, name="tiny")
    out = tmp_path / "out.journal"
    assert tuner_main(["storage", "export-plain", str(study_file), str(out)]) == 0
    assert outline(JournalStorage(JournalFileBackend(str(out))), "tiny") == \
        outline(compact_storage(tmp_path / "tiny.journal"), "tiny")
    assert tuner_main(["storage", "info", str(study_file)]) == 0
    assert "compact journal" in capsys.readouterr().out
    assert tuner_main(["storage", "export-plain", str(study_file), str(tmp_path / "tiny.journal")]) == 2


@pytest.mark.parametrize("compact_file", [True, False], ids=["compact", "plain"])
def test_a_batch_of_tells_is_forced_to_disk_once_at_its_end(tmp_path, monkeypatch, compact_file):
    """A finished trial is forced to disk (fsync) at once; inside `synced_once` (a batch of tells) once, at its
    end, with every record in the file."""
    from tuner.storage.journal import TrialSyncedJournalFile, synced_once

    path = tmp_path / ("s.journal" if compact_file else "s.log")
    backend = CompactJournalFile(str(path)) if compact_file else TrialSyncedJournalFile(str(path))
    storage = JournalStorage(backend)
    study = optuna.create_study(storage=storage, direction="maximize")
    syncs = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (syncs.append(fd), real_fsync(fd)))
    study.tell(study.ask(SPACE), 1.0)
    assert len(syncs) == 1
    with synced_once(storage):
        for value in (2.0, 3.0, 4.0):
            study.tell(study.ask(SPACE), value)
        assert len(syncs) == 1
    assert len(syncs) == 2
    assert [t.value for t in optuna.load_study(study_name=study.study_name, storage=JournalStorage(
        CompactJournalFile(str(path)) if compact_file else TrialSyncedJournalFile(str(path)))).trials] == \
        [1.0, 2.0, 3.0, 4.0]
