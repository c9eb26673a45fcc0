"""The project's style rules (pyproject.toml's [tool.ruff] and [tool.mypy]) hold on the whole tree: ruff's lint
rules everywhere, mypy on the typed modules around the compiled hot path."""
import re
import subprocess
import sys
import tomllib

from tests.conftest import ROOT


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    result = run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = run("mypy", "--no-incremental")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_tools_target_the_python_the_project_requires():
    """ruff and mypy check the code for the Python of `requires-python`, and no dependency is only for an older
    one (such as a `tomli` fallback for `tomllib`: it can never be installed)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    major, minor = map(int, re.fullmatch(r">=(\d+)\.(\d+)", project["project"]["requires-python"]).groups())
    assert project["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    assert project["tool"]["mypy"]["python_version"] == f"{major}.{minor}"
    for dependency in project["project"]["dependencies"] + project["project"]["optional-dependencies"]["test"]:
        for bound in re.findall(r"python_version\s*<\s*['\"](\d+\.\d+)['\"]", dependency):
            assert tuple(map(int, bound.split("."))) > (major, minor), dependency
