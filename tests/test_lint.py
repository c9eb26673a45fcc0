"""The project's style rules (pyproject.toml's [tool.ruff] and [tool.mypy]) hold on the whole tree: ruff's lint
rules everywhere, mypy on the typed modules around the compiled hot path."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    result = run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = run("mypy", "--no-incremental")
    assert result.returncode == 0, result.stdout + result.stderr
