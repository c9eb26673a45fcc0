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


def run_tuner(*args: str, cwd=None, timeout: float = 600, env=None) -> subprocess.CompletedProcess:
    """Run the installed `tuner` command as a user would."""
    return subprocess.run([sys.executable, "-m", "tuner.cli", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=timeout, env={**os.environ, **(env or {})})


@pytest.fixture(scope="session")
def referee_maps() -> list:
    return read_jsonl_gz(DATA / "referee" / "maps.jsonl.gz")
