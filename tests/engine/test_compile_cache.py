"""The compile cache and the warm-up: compiled once per content, shared by every copy, only what an edit touches
compiled again, and a constant argument compiles no second copy."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
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


@pytest.mark.slow  # four processes that load or compile the engine: CI's second step
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


def missing_on_an_empty_cache(tmp_path, kinds: str) -> list:
    """The stages `bots.running.warmup` would compile for seats of `kinds` ("None": the whole engine) on an empty
    cache, by piece name (a process of its own: the cache's folder is read when the dispatchers are made)."""
    script = ("import json; from bots.running import warmup; "
              f"print(json.dumps([[piece.name for piece in stage] for stage in warmup.missing({kinds})]))")
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300,
                           env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty")})
    assert found.returncode == 0, found.stderr
    return json.loads(found.stdout)


def test_a_match_of_two_bots_on_an_empty_cache_compiles_their_policies_and_an_arena_for_them(tmp_path):
    from bots.registry import REGISTERED, kind_of

    kinds = f"frozenset({{{kind_of('heuristic')}, {kind_of('greedy')}}})"
    assert missing_on_an_empty_cache(tmp_path, kinds) == [
        ["heuristic's policy", "greedy's policy", "the maps"], ["the arena for greedy and heuristic"]]
    whole = missing_on_an_empty_cache(tmp_path, "None")
    assert [len(stage) for stage in whole] == [len(REGISTERED) + 3, 1, 2] and "the dispatch" in whole[1]


@pytest.mark.slow  # an arena's compile, 10 to 20 s of one process: CI's second step
def test_the_arena_for_a_few_bots_plays_the_whole_arenas_games_and_is_cached_apart():
    from bots.contract.names import parse_bot
    from bots.contract.seat import new_seat_array
    from bots.registry import REGISTERED, plugin
    from bots.running import arena

    seats = new_seat_array(2)
    seats[0], seats[1] = parse_bot("random", 3).seat[0], parse_bot("rush", 3).seat[0]
    kinds = arena.seat_kinds(seats)
    few = arena.arena_for(kinds)
    seeds = np.arange(1, 21, dtype=np.int64)
    first, second = np.arange(20) % 2, 1 - np.arange(20) % 2
    assert arena.pairings_for(kinds) is arena.play_pairings  # the session compiled the whole engine
    whole = arena.play_results(seeds, 3, seats.copy(), first, second, arena.play_pairings)
    assert (arena.play_results(seeds, 3, seats.copy(), first, second, few) == whole).all()
    assert Path(few._cache._cache_path).name.endswith("-random+rush")
    assert Path(few._cache._cache_path).parent == Path(arena.play_pairings._cache._cache_path).parent
    dispatch = few.py_func.__globals__["play_compiled_game"].py_func.__globals__["decide"].py_func.__globals__
    assert dispatch["rush_move"] is plugin("rush").policy and dispatch["random_move"] is plugin("random").policy
    assert all(dispatch[plugin(name).policy.py_func.__name__] is arena.unplayed
               for name in REGISTERED if name not in ("random", "rush"))


@pytest.mark.slow  # the engine's first compile, on an empty cache: CI's second step
def test_a_first_match_on_an_empty_cache_compiles_what_it_plays_and_plays_the_same_games(tmp_path):
    """`tuner match heuristic greedy` on an empty cache compiles four pieces, not the whole engine, and prints
    what it prints with the whole engine cached; a later match finds them."""
    command = [sys.executable, "-m", "tuner.cli", "match", "heuristic", "greedy", "--games", "10"]
    cached = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty")}
    first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert first.returncode == 0, first.stderr
    assert "compiling the engine for these sources (once): 4 pieces" in first.stderr
    assert first.stdout == cached.stdout
    again = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert again.returncode == 0 and "compiling" not in again.stderr and again.stdout == cached.stdout
