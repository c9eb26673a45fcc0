"""Shared helpers: the copied referee records, and running `tuner` in-process or as a real command."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
GAMES = sorted((DATA / "referee" / "games").glob("game_*.jsonl.gz"))
PROGRAMS = Path(__file__).parent / "programs"
ROOT = Path(__file__).parent.parent


def read_jsonl_gz(path: Path) -> list:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def program(name: str, *args: str) -> str:
    """A `cmd:` bot name for one of the test programs, run by this interpreter."""
    return "cmd:" + " ".join([sys.executable, str(PROGRAMS / name), *args])


def run_tuner(*args: str, cwd=None, timeout: float = 600, env=None, process: bool = False
              ) -> subprocess.CompletedProcess:
    """Run the `tuner` command as a user would: its entry point, `tuner.cli.main`, on these arguments, with its
    output, errors and exit status. In this process (the engine already loaded: a command costs its work, not a
    second of start-up), unless `process` is set, `env` changes the environment (read when a process starts)
    or `cwd` is a copy of the project (whose code must run): then as a real `python -m tuner.cli` process."""
    where = Path(cwd or ROOT)
    if process or env or (where / "tuner" / "cli").is_dir() and where.resolve() != ROOT.resolve():
        return subprocess.run([sys.executable, "-m", "tuner.cli", *args], capture_output=True, text=True,
                              cwd=where, timeout=timeout, env={**os.environ, **(env or {})})
    return _run_tuner_here(list(args), where)


def _run_tuner_here(args: list, where: Path) -> subprocess.CompletedProcess:
    """`tuner.cli.main(args)` in this process, in folder `where`: what it prints, and its exit status as the
    `tuner` command's (an uncaught exception: its traceback on stderr and status 1, as Python's)."""
    import contextlib
    import io
    import traceback
    import warnings

    from tuner.cli import main

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2))
    before = os.getcwd()
    os.chdir(where)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.resetwarnings()  # a new interpreter's filters: what a user would see is on stderr
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            warnings.showwarning = warnings._showwarning_orig  # type: ignore[attr-defined]
            try:
                status = main(args)
            except SystemExit as stop:
                status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
                if isinstance(stop.code, str):
                    print(stop.code, file=sys.stderr)
            except Exception:
                traceback.print_exc()
                status = 1
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(["tuner", *args], status, out.buffer.getvalue().decode(),
                                       err.buffer.getvalue().decode())


def usage_error(capsys, argv: list) -> str:
    """The one line an argument error prints: argparse exits 2 before the command runs."""
    from tuner.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def command_error(capsys, argv: list) -> str:
    """The one line a command's own error prints (`tuner CMD: error: ...`), with exit status 2."""
    from tuner.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tuner {argv[0]}: error: "), err
    return lines[0]


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: a process per core, at most 4 (each compiles nothing but loads the engine, and more of them
    only add start-up time and load to the tests that time programs)."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


@pytest.fixture(autouse=True, scope="session")
def compiled_engine():
    """The engine compiled (or found in the cache) once for the session, on every core, before any test plays:
    the commands the tests start, and the copies of the project some of them make, find it in the cache."""
    from bots.running.warmup import compile_engine

    compile_engine()


@pytest.fixture(autouse=True, scope="session")
def snapshot_cache(tmp_path_factory):
    """Journal snapshots (a cache, tuner.storage.snapshots) go to the session's directory, not ~/.cache; the
    commands the tests start inherit it."""
    os.environ.setdefault("TUNER_SNAPSHOT_DIR", str(tmp_path_factory.mktemp("snapshots")))


@pytest.fixture(scope="session")
def referee_maps() -> list:
    return read_jsonl_gz(DATA / "referee" / "maps.jsonl.gz")


def toml_value(value) -> str:
    """A TOML value: JSON's, but a dict as an inline table."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def write_study(directory: Path, name: str = "tiny", **fields) -> Path:
    """A small study file in `directory` (TOML); `fields` override or add top-level fields; search= and
    playing_budget= a dict (the tables)."""
    values = {"name": name, "league": 3, "seed": 5, "trials": 6, "pairs": 30, "population": 4,
              "finals_pairs": 20, **fields}
    tables = {table: values.pop(table, None) for table in ("search", "playing_budget", "finals")}  # finals: old name
    lines = [f"{key} = {toml_value(value)}" for key, value in values.items() if value is not None]
    for table, entries in tables.items():
        if entries:
            lines.append(f"[{table}]")
            lines += [f"{key} = {json.dumps(value)}" for key, value in entries.items()]
    path = directory / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load_study(path: Path):
    """The Optuna study a study file's `tuner tune` wrote (its default journal storage)."""
    import optuna

    from tuner.storage.open import open_storage
    from tuner.studyfile.file import read_study_file

    config = read_study_file(path)
    return optuna.load_study(study_name=config.name, storage=open_storage(config.storage, create=False))


@pytest.fixture(scope="session")
def tuned_study(tmp_path_factory) -> Path:
    """A tiny study that `tuner tune` has run: 8 trials, pruning on, validation recorded."""
    directory = tmp_path_factory.mktemp("tuned")
    path = write_study(directory, "shared", trials=8, pairs=40, opponents=["heuristic", "greedy"])
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    return path


# ---- several processes, PostgreSQL ----------------------------------------------------------------------------

POSTGRES_URL_ENV = "TUNER_TEST_POSTGRES_URL"  # e.g. postgresql://USER:PASSWORD@127.0.0.1:5432/DATABASE
REQUIRE_POSTGRES_ENV = "TUNER_REQUIRE_POSTGRES"  # "1" (.ci/run): the PostgreSQL tests fail rather than skip


def start_tuner(*args: str) -> subprocess.Popen:
    """Start the `tuner` command as a real process (its output is read when it ends)."""
    return subprocess.Popen([sys.executable, "-m", "tuner.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def no_postgres(reason: str) -> None:
    """Skip a test that needs PostgreSQL, saying why; fail instead under TUNER_REQUIRE_POSTGRES=1."""
    if os.environ.get(REQUIRE_POSTGRES_ENV) == "1":
        pytest.fail(f"{REQUIRE_POSTGRES_ENV}=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The URL of a PostgreSQL database for the tests; skips (or fails, under TUNER_REQUIRE_POSTGRES=1) without."""
    url = os.environ.get(POSTGRES_URL_ENV, "").strip()
    if not url:
        no_postgres(f"no PostgreSQL server for the tests: set {POSTGRES_URL_ENV}="
                     f"postgresql://USER:PASSWORD@HOST:PORT/DB (.ci/run starts one)")
    import psycopg

    from tuner.storage import describe_storage

    try:
        psycopg.connect(url, connect_timeout=10).close()
    except psycopg.Error as error:
        no_postgres(f"PostgreSQL at {describe_storage(url)} is unreachable: {str(error).strip().splitlines()[0]}")
    return url


@pytest.fixture
def postgres_study(postgres_url):
    """`make(prefix)`: a fresh study name in the test database; the studies are deleted afterwards."""
    import uuid

    names = []

    def make(prefix: str) -> str:
        names.append(f"{prefix}-{uuid.uuid4().hex[:10]}")
        return names[-1]

    yield make
    import optuna

    from tuner.storage.open import open_storage

    storage = open_storage(postgres_url)
    for name in names:
        try:
            optuna.delete_study(study_name=name, storage=storage)
        except KeyError:
            pass


def frame_starts(data: bytes) -> list:
    """Byte offsets of the frames of a compact journal's bytes (`tuner.storage.compact_codec`: a varint length, the
    frame, a 4-byte crc)."""
    from tuner.storage.compact_codec import MAGIC

    offsets, i = [], len(MAGIC)
    while i < len(data):
        offsets.append(i)
        length, shift = 0, 0
        while True:
            byte = data[i]
            i += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        i += length + 4
    return offsets
