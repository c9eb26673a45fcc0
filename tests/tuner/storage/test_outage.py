"""Workers that outlive their database: real `tuner tune` processes on a private PostgreSQL server of their own
(postgres_server.py; the shared test server is never touched), restarted during the search and during the
finals, its connections terminated, kept down past the study's `outage_limit`, and a short soak of random faults.

After each: exactly the study's trials finished, each number once, nothing left RUNNING, every worker at exit 0
(75 past the limit), one line when the database went away and one when it was back, no traceback anywhere.
Without the riding out (`outage_limit = 0`: stop at the first failure) every restart fails; without the lost
connection replaced at once, a worker says one termination twice (once for each thread's connection).
"""
import re
import time

import pytest

from tests.conftest import no_postgres, write_study
from tests.tuner.storage.postgres_server import PrivateServer, missing
from tests.tuner.storage.soak import (
    DOWN,
    UP,
    Worker,
    check_study,
    check_workers,
    running_in_the_middle,
    soak,
    study_of,
    trials_of,
    wait_until,
)
from tuner.errors import EXIT_UNAVAILABLE
from tuner.search.shared_work import CLAIM

HEARTBEAT = {"heartbeat_interval": 1, "grace_period": 5}


@pytest.fixture(scope="module")
def server():
    """A PostgreSQL server of this module's own, started for it and removed after it."""
    reason = missing()
    if reason is not None:
        no_postgres(f"no private PostgreSQL server for the outage tests: {reason}")
    private = PrivateServer()
    yield private
    private.close()


def search_study(tmp_path, server, name: str, trials: int, **fields):
    """A study of a few seconds a trial on the private server (no race: every trial plays every pair)."""
    values = dict(trials=trials, pairs=1200, race="none", population=4, finals_pairs=10, finalists=2,
                  storage=server.url, **HEARTBEAT)
    return write_study(tmp_path, name, **{**values, **fields})


def finish(workers: list, timeout: float = 240) -> None:
    for worker in workers:
        worker.wait(timeout)


@pytest.mark.slow  # 20 s of two workers: CI's second step
def test_workers_ride_out_a_restart_during_the_search(tmp_path, server):
    path = search_study(tmp_path, server, "restart-search", trials=8)
    workers = [Worker(path) for _ in range(2)]
    wait_until(lambda: running_in_the_middle(server.url, "restart-search"), workers, "a trial is running")
    server.restart(down=1.5)
    finish(workers)
    check_workers(workers, faults=1)
    assert any(w.said(DOWN) for w in workers), [w.log() for w in workers]
    check_study(trials_of(server.url, "restart-search"), 8)


@pytest.mark.slow  # 15 s of two workers: CI's second step
def test_workers_ride_out_terminated_connections(tmp_path, server):
    path = search_study(tmp_path, server, "terminated", trials=8)
    workers = [Worker(path) for _ in range(2)]
    wait_until(lambda: running_in_the_middle(server.url, "terminated"), workers, "a trial is running")
    for _ in range(3):
        server.terminate()
        time.sleep(0.7)
    finish(workers)
    check_workers(workers, faults=3)
    check_study(trials_of(server.url, "terminated"), 8)


@pytest.mark.slow  # 15 s of two workers: CI's second step
def test_workers_ride_out_a_restart_during_the_finals(tmp_path, server):
    """Finals of a few seconds a finalist (2,000 held-out seed pairs), shared by both workers."""
    path = search_study(tmp_path, server, "restart-finals", trials=4, pairs=300, finals_pairs=2000)
    workers = [Worker(path) for _ in range(2)]
    study = lambda: study_of(server.url, "restart-finals")
    wait_until(lambda: study() is not None and any(k.startswith(CLAIM) for k in study().user_attrs), workers,
               "the finals start")
    server.restart(down=1.5)
    finish(workers)
    check_workers(workers, faults=1)
    check_study(trials_of(server.url, "restart-finals"), 4)
    said = [re.search(r"^chosen for export: .*$", "\n".join(w.out), re.M) for w in workers]
    assert said[0] and said[1] and said[0].group(0) == said[1].group(0), [w.log() for w in workers]
    assert study().user_attrs["chosen"]["label"] in said[0].group(0)


@pytest.mark.slow  # 20 s of a worker and its resumption: CI's second step
def test_a_server_down_past_the_limit_stops_the_worker_with_one_line_and_the_study_resumes(tmp_path, server):
    # Trials of 20,000 games (a second or two on a fast host): the study must outlast the moment it is stopped.
    path = search_study(tmp_path, server, "down", trials=4, outage_limit=2, grace_period=3, pairs=10_000)
    worker = Worker(path)
    wait_until(lambda: running_in_the_middle(server.url, "down"), [worker], "a trial is running")
    finished = sum(t.state.is_finished() for t in trials_of(server.url, "down"))
    server.stop()
    try:
        code = worker.wait(60)
    finally:
        server.start()
    assert code == EXIT_UNAVAILABLE, worker.log()
    assert "Traceback" not in worker.log(), worker.log()
    (line,) = worker.err
    assert line.startswith("tuner tune: error: database unreachable (") and "stopped after 2" in line and \
        "(outage_limit = 2 s)" in line and "run the same command again to resume" in line, line
    assert worker.said(DOWN) == 1 and "retrying for up to 2 s" in worker.log() and not worker.said(UP)
    # Nothing written was lost: the finished trials are there, the one in flight still RUNNING (its worker died).
    trials = trials_of(server.url, "down")
    assert sum(t.state.is_finished() for t in trials) >= finished
    assert any(t.state.name == "RUNNING" for t in trials)
    again = Worker(path)  # the same command resumes the study: the trial in flight is failed and run again
    finish([again])
    check_workers([again])
    check_study(trials_of(server.url, "down"), 4)


def test_a_connection_terminated_while_the_server_stays_up_is_replaced_without_a_line(server):
    """A pooled connection whose session the server ended (found out later, as a worker's other thread finds it
    after an outage) is no outage: the call is tried again at once on a new connection, no line said. A server that
    stays away is one: a line when it goes, one when it is back."""
    import threading

    import sqlalchemy

    from tuner.storage.outage import Outage

    engine = sqlalchemy.create_engine(server.url.replace("postgresql://", "postgresql+psycopg://"), pool_size=1)

    def query() -> int:
        with engine.connect() as connection:
            return connection.execute(sqlalchemy.text("SELECT 1")).scalar()

    lines: list = []
    outage = Outage(30, lines.append)
    try:
        assert outage.call(query) == 1
        assert server.terminate() >= 1
        assert outage.call(query) == 1 and lines == [] and outage.outages == 0
        server.stop()
        back = threading.Timer(1.0, server.start)
        back.start()
        try:
            assert outage.call(query) == 1
        finally:
            back.join()
    finally:
        engine.dispose()
    assert outage.outages == 1 and len(lines) == 2 and lines[0].startswith(DOWN) and lines[1].startswith(UP), lines


@pytest.mark.slow  # 30 s of three workers: CI's second step
def test_a_short_soak_of_random_faults(tmp_path, server):
    """Three workers; the server restarted, its connections terminated, a worker SIGKILLed and another started, at
    random moments of about 10 s."""
    path = search_study(tmp_path, server, "soak", trials=24)
    run = soak(server, path, workers=3, duration=10, every=2.5, seed=49, paced=True)
    assert all(run.faults[kind] for kind in ("restart", "terminate", "kill")), run.faults
    check_workers(run.workers, faults=sum(run.faults.values()))
    check_study(trials_of(server.url, "soak"), 24)


def test_a_journal_write_that_fails_for_a_while_is_tried_again_from_its_first_byte_not_written():
    """A real kernel error that passes: a full pipe (EAGAIN) that a reader drains half a second later. The data
    arrives whole and in order, with one line when the write failed and one when it went through."""
    import os
    import threading

    from tuner.storage.journal import write_all
    from tuner.storage.outage import Outage

    data = bytes(range(256)) * 2048  # 512 kB: several times a pipe's buffer
    read, write = os.pipe()
    os.set_blocking(write, False)
    received = bytearray()

    def drain() -> None:
        time.sleep(0.5)
        while chunk := os.read(read, 1 << 16):
            received.extend(chunk)

    lines: list = []
    reader = threading.Thread(target=drain)
    reader.start()
    try:
        write_all(write, data, Outage(30, lines.append, "journal"))
    finally:
        os.close(write)
        reader.join(timeout=30)
        os.close(read)
    assert bytes(received) == data
    assert len(lines) == 2 and lines[0].startswith("journal file not writable (") and "retrying for up to 30 s" in \
        lines[0] and lines[1].startswith("journal file writable again after "), lines


def test_a_full_disk_past_the_limit_stops_with_one_line():
    """/dev/full: every write fails with ENOSPC, as a disk that stays full."""
    import os

    from tuner.errors import StorageUnavailable
    from tuner.storage.journal import write_all
    from tuner.storage.outage import Outage

    lines: list = []
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        with pytest.raises(StorageUnavailable) as stopped:
            write_all(fd, b"record\n", Outage(0.5, lines.append, "journal"))
    finally:
        os.close(fd)
    assert lines == ["journal file not writable (No space left on device), retrying for up to 0.5 s..."]
    assert str(stopped.value).startswith("journal file not writable (No space left on device): stopped after 0.5 s")
