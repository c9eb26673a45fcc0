"""The compile cache and the warm-up: compiled once per content, shared by every copy, only what an edit touches
compiled again, and a constant argument compiles no second copy."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
from numba import types

from engine import cache, sources
from engine.jit import typed_without_literals
from tests.conftest import ROOT


def copy_project(destination: Path) -> Path:
    for package in sources.PACKAGES:
        shutil.copytree(ROOT / package, destination / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py[cod]"))
    return destination


def digests(root: Path, modules: list[str]) -> dict:
    return {module: cache.module_digest(root / module, root) for module in modules}


MODULES = ["bots/heuristic/policy.py", "bots/search/simulate.py", "bots/running/dispatch.py", "bots/running/arena.py",
           "bots/greedy/policy.py", "engine/rules.py", "engine/frames.py"]


def test_a_copy_of_the_project_finds_the_same_cache_and_an_edit_recompiles_what_uses_it(tmp_path):
    copy = copy_project(tmp_path / "elsewhere")
    assert digests(copy, MODULES) == digests(ROOT, MODULES)
    policy = copy / "bots" / "heuristic" / "policy.py"
    policy.write_text(policy.read_text() + "\n# an edit\n")
    cache.module_digest.cache_clear()
    before, after = digests(ROOT, MODULES), digests(copy, MODULES)
    changed = {module for module in MODULES if before[module] != after[module]}
    assert changed == {"bots/heuristic/policy.py", "bots/search/simulate.py", "bots/running/dispatch.py",
                       "bots/running/arena.py"}
    rules = copy / "engine" / "rules.py"
    rules.write_text(rules.read_text() + "\n# an edit\n")
    cache.module_digest.cache_clear()
    assert all(digests(copy, MODULES)[module] != before[module] for module in MODULES)


def test_the_recorded_source_digest_ignores_exported_bots(tmp_path, monkeypatch):
    """Results record a digest of the sources (`tuner.versions`); an exported bot or an example program is not one
    of them, wherever the checkout lives (here under a folder that is also named `tuned`)."""
    checkout = copy_project(tmp_path / "tuned" / "checkout")
    monkeypatch.setattr(sources, "PACKAGE_ROOT", checkout)
    before = sources.source_digest()
    (checkout / "bots" / "tuned" / "exported.py").write_text("print('WAIT')\n")
    (checkout / "bots" / "examples" / "mine.py").write_text("print('WAIT')\n")
    assert sources.source_digest() == before
    policy = checkout / "bots" / "heuristic" / "policy.py"
    policy.write_text(policy.read_text() + "\n# an edit\n")
    assert sources.source_digest() != before


def test_a_constant_argument_compiles_one_copy_for_every_value():
    def twice(p):
        return 2 * p

    doubled = typed_without_literals(numba.njit(twice))

    def both():
        return doubled(0) + doubled(1)

    assert numba.njit(both)() == 2
    assert doubled.signatures == [(types.int64,)]
    plain = numba.njit(twice)
    numba.njit(lambda: plain(0) + plain(1))()
    assert len(plain.signatures) == 2  # what Numba does by default: one copy for 0, one for 1


def test_the_warm_up_compiles_what_the_cache_lacks_and_says_so_once(tmp_path):
    """A cache without greedy's policy (as after an edit of it): the next command compiles that piece alone, and
    in a pipe says so in one line; of two commands started together only one compiles; a later one compiles
    nothing."""
    from bots.greedy import policy

    root = tmp_path / "cache"
    shutil.copytree(cache.cache_root(), root / "photosynthesis-tuner")
    greedy = Path(policy.greedy_move._cache._cache_path)
    shutil.rmtree(root / "photosynthesis-tuner" / greedy.relative_to(cache.cache_root()))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(root)}
    warm = subprocess.run([sys.executable, "-m", "bots.running.warmup"], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.splitlines()[0] == "compiling 1 pieces on 1 processes"
    assert "greedy's policy" in warm.stdout
    shutil.rmtree(root / "photosynthesis-tuner" / greedy.relative_to(cache.cache_root()))
    command = [sys.executable, "-m", "tuner.cli", "match", "greedy", "wait", "--games", "2"]
    together = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                 cwd=ROOT) for _ in range(2)]
    outputs = [process.communicate(timeout=600) for process in together]
    assert all(process.returncode == 0 for process in together), outputs
    assert sum(err.count("compiling the engine for these sources (once)") for _, err in outputs) == 1
    again = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert again.returncode == 0 and "compiling" not in again.stderr
    assert outputs[0][0] == outputs[1][0] == again.stdout
