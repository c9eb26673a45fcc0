"""A bot is a plug-in: adding one touches its own folder and one registration line, then the generated dispatch.

In a copy of the project a toy bot (always the first legal move, with one parameter) is added; after `python -m
bots.running.generate` it compiles alone (the copy shares the project's compile cache), plays in the compiled arena,
through the referee, as a bot name with parameters, in `tuner params`, and exports as a standalone file - and
nothing else of the project was edited."""
from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from engine.sources import PACKAGES
from tests.conftest import ROOT

TOY_INIT = '''"""`toy`: the first legal move, or WAIT while fewer than `patience` days have passed."""
from bots.contract.plugin import BotPlugin
from bots.contract.schema import Param, Schema
from bots.toy.policy import toy_move

SCHEMA = Schema("toy", [Param("patience", "int", 0, 23, 0, "days to wait before playing")])
PLUGIN = BotPlugin("toy", "the first legal move", toy_move, SCHEMA)
'''

TOY_POLICY = '''"""The toy bot's policy."""
from engine import rules
from engine.jit import hot


@hot
def toy_move(mp, s, p, seat):
    if s.day < seat.params[0]:
        return rules.WAIT, 0, 0
    count, _, _, _ = rules.legal_moves(mp, s, p, seat.moves)
    return rules.decode_move(seat.moves[count - 1])
'''

CHECK = '''
import json, numpy as np
from bots.running.arena import play_batch
from export.standalone import export_bot
from bots.contract.names import parse_bot
from bots.contract.seat import new_seat_array
from bots.running.player import player_for
from engine.referee import play_refereed_game
seats = new_seat_array(2)
seats[0] = parse_bot("toy").seat[0]
seats[1] = parse_bot("greedy").seat[0]
batch = play_batch(np.arange(1, 21), 3, seats)
report = play_refereed_game(5, 3, [player_for(parse_bot("toy:patience=3")), player_for(parse_bot("greedy"))])
export_bot(parse_bot("toy"), 3, "toy_export.py", ["a toy"])
print(json.dumps({"scores": batch.score.sum(axis=0).tolist(), "deactivated": report.outcome.deactivated}))
'''


@pytest.mark.slow  # a minute of processes: CI's second step
def test_a_toy_bot_is_its_folder_and_one_registration_line(tmp_path):
    copy = tmp_path / "project"
    for name in PACKAGES:
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.py[cod]"))
    (copy / "bots" / "toy").mkdir()
    (copy / "bots" / "toy" / "__init__.py").write_text(TOY_INIT)
    # A toy of its own for each run: the compile cache is keyed to the sources, and an earlier run's toy is in it.
    (copy / "bots" / "toy" / "policy.py").write_text(TOY_POLICY + f"\n# run {uuid.uuid4().hex}\n")
    registry = copy / "bots" / "registry.py"
    lines = registry.read_text().splitlines(keepends=True)
    end = lines.index(")\n", next(i for i, line in enumerate(lines) if line.startswith("REGISTERED = (")))
    registry.write_text("".join(lines[:end] + ['    "toy",\n'] + lines[end:]))
    env = {**os.environ, "PYTHONPATH": str(copy)}

    def run(*args):
        return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=900)

    check = run("-m", "bots.running.generate", "--check")
    assert check.returncode == 1 and "out of date" in check.stderr
    assert run("-m", "bots.running.generate").returncode == 0
    assert "toy_move" in (copy / "bots" / "running" / "dispatch.py").read_text()
    # The copy shares the project's compile cache: only the toy and what calls every policy compile again.
    warm = run("-m", "bots.running.warmup")
    assert warm.returncode == 0, warm.stderr
    compiled = {line.split("  ")[-1] for line in warm.stdout.splitlines()[1:-1]}
    assert compiled == {"toy's policy", "the dispatch", "the arena", "the referee's players"}
    played = run("-c", CHECK)
    assert played.returncode == 0, played.stderr
    assert '"deactivated": []' in played.stdout
    params = run("-m", "tuner.cli", "params", "--bot", "toy")
    assert params.returncode == 0 and "patience" in params.stdout
    # The exported file, as a program, plays game for game as the compiled toy.
    args = ("greedy", "--games", "4", "--json")
    as_program = run("-m", "tuner.cli", "match", f"cmd:{sys.executable} {copy / 'toy_export.py'}", *args)
    in_engine = run("-m", "tuner.cli", "match", "toy", *args)
    assert as_program.returncode == 0 and in_engine.returncode == 0, as_program.stderr + in_engine.stderr
    assert json.loads(as_program.stdout)["results"] == json.loads(in_engine.stdout)["results"]
    # Nothing else was edited: the registry gained one line, the dispatch was regenerated, the toy is new.
    changed = set()
    for name in PACKAGES:
        for path in (copy / name).rglob("*.py"):
            original = ROOT / path.relative_to(copy)
            if not original.exists() or not filecmp.cmp(path, original, shallow=False):
                changed.add(str(path.relative_to(copy)))
    assert changed == {"bots/registry.py", "bots/running/dispatch.py", "bots/toy/__init__.py", "bots/toy/policy.py"}
    added = set(registry.read_text().splitlines()) - set((ROOT / "bots" / "registry.py").read_text().splitlines())
    assert added == {'    "toy",'}
    assert Path(copy / "toy_export.py").read_text().count("def toy_move") == 1


def test_a_dispatch_out_of_date_stops_a_playing_command_in_one_line(tmp_path, monkeypatch, capsys):
    """A bot registered without regenerating the dispatch would play WAIT in every game, without a word."""
    from bots.running import generate
    from tuner.cli import main

    stale = tmp_path / "dispatch.py"
    stale.write_text(generate.DISPATCH.read_text(encoding="utf-8").replace("if kind == 9:  # beam", "if kind == 10:"))
    monkeypatch.setattr(generate, "DISPATCH", stale)
    assert main(["match", "greedy", "wait", "--games", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is out of date: run python -m bots.running.generate" in err, err
    monkeypatch.undo()
    assert main(["match", "greedy", "wait", "--games", "2"]) == 0


def test_a_registration_without_its_folder_or_plugin_is_one_line(tmp_path, monkeypatch, capsys):
    from bots import registry
    from tuner.cli import main

    monkeypatch.setattr(registry, "REGISTERED", (*registry.REGISTERED, "nofolder", "contract"))
    registry.plugin.cache_clear()
    try:
        for name, problem in (("nofolder", "has no folder bots/nofolder/"), ("contract", "defines no PLUGIN")):
            assert main(["params", "--bot", name]) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and problem in err, err
    finally:
        registry.plugin.cache_clear()
