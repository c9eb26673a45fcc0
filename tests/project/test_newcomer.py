"""What a newcomer hits in the first hour: every exported bot plays every league, `--version`, `tuner` alone, a
quick `--help`, `--jobs` explained, `tuner play` without a seed, "did you mean", a program that crashes in every
game, a pruned trial exported, parameter files from an export, the bench's checksum check, and no machine path in
an exported file."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from bots.contract.names import parse_bot
from bots.registry import REGISTERED, plugin
from bots.running.player import player_for
from engine.referee import play_refereed_game
from export.cpp.build import codingame_build
from tests.conftest import PROGRAMS, ROOT, run_tuner, write_study
from tuner.cli import main

EXPORTABLE = [name for name in REGISTERED if plugin(name).exports_in("python")]
# (the C++ exports play all three leagues in tests/export/test_export_cpp.py)


@pytest.mark.parametrize("bot", EXPORTABLE)
@pytest.mark.parametrize("exported_for", [1, 2, 3])
def test_every_export_plays_all_three_leagues_without_a_disqualification(tmp_path, bot, exported_for):
    path = tmp_path / f"{bot}.py"
    result = run_tuner("export", "--bot", bot, "--league", str(exported_for), "-o", str(path))
    assert result.returncode == 0, result.stderr
    program = f"cmd:{sys.executable} {path}"
    for league in (1, 2, 3):
        for seed in (3, 4):
            players = [player_for(parse_bot(program, league)), player_for(parse_bot("greedy", league))]
            report = play_refereed_game(seed, league, players, records=True)
            assert report.outcome.deactivated == [], (league, seed, report.outcome.deactivated)
            refused = [r["error"][0] for r in report.records if r.get("t") == "ACTIONS" and r["error"][0]]
            assert refused == [], (league, seed, refused)


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("tuner (photosynthesis-tuner) ")


def test_tuner_alone_lists_the_commands_and_exits_as_a_usage_error(capsys):
    from tuner.cli import COMMANDS

    assert main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: tuner") and all(f"\n    {name}" in out for name in COMMANDS), out
    assert main(["storage"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: tuner storage") and all(a in out for a in ("info", "export-plain", "import-plain"))


def test_help_imports_neither_numba_nor_optuna_nor_pandas():
    """`tuner --help` builds every command's parser: no command may import the engine or the tuner's libraries
    before it runs (tuner/cli/__init__.py)."""
    script = ("import sys\nfrom tuner.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
              "print('imported:', sorted({'numba', 'optuna', 'pandas'} & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "imported: []"


def test_jobs_help_says_threads_for_in_engine_games_and_processes_for_programs(capsys):
    for command in ("tune", "match", "gauntlet", "league"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert "in-engine games on K threads, programs' games on K processes" in help_text, command
        assert "worker processes" not in help_text


def test_play_without_a_seed_plays_seed_0_and_says_so(tmp_path):
    trace = tmp_path / "game.jsonl"
    result = run_tuner("play", "greedy", "random", "--trace", str(trace))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("seed 0, league 3: greedy ")
    assert json.loads(trace.read_text().splitlines()[0])["seed"] == 0
    assert run_tuner("play", "greedy", "random", "--seed", "0").stdout.splitlines()[0] == \
        result.stdout.splitlines()[0]


def test_did_you_mean_for_a_field_and_a_bot(tmp_path):
    path = write_study(tmp_path, pairz=3)
    result = run_tuner("tune", str(path))
    assert result.returncode == 2 and "did you mean 'pairs'?" in result.stderr
    result = run_tuner("match", "heurstic", "greedy", "--games", "2")
    assert result.returncode == 2 and "did you mean 'heuristic'?" in result.stderr
    path = write_study(tmp_path, "other", opponents=["greedi"])
    assert "did you mean 'greedy'?" in run_tuner("tune", str(path)).stderr


def test_a_program_that_crashes_in_every_game_is_named_and_the_match_exits_3():
    result = run_tuner("match", f"cmd:{sys.executable} {PROGRAMS / 'behave.py'} segv 2", "greedy", "--games", "2")
    assert result.returncode == 3, result.stderr
    assert "crashed with signal SIGSEGV" in result.stdout and "disqualified in every game" in result.stderr
    once = run_tuner("match", f"cmd:{sys.executable} {PROGRAMS / 'behave.py'}", "greedy", "--games", "2")
    assert once.returncode == 0


def test_the_bench_says_whether_its_checksum_is_the_yardstick_s():
    result = run_tuner("bench", "--games", "1000")
    assert result.returncode == 0 and "equals the speed yardstick's checksum" in result.stdout
    other = run_tuner("bench", "--games", "1001")
    assert other.returncode == 0 and "known for N = 1,000" in other.stdout


def test_exports_from_a_study(tuned_study, tmp_path):
    from tests.conftest import load_study

    pruned = next(t for t in load_study(tuned_study).trials if t.user_attrs.get("pruned"))
    out, params = tmp_path / "pruned.py", tmp_path / "pruned.json"
    result = run_tuner("export", str(tuned_study), "--trial", str(pruned.number), "-o", str(out), "--params-out",
                       str(params))
    assert result.returncode == 0, result.stderr
    assert "warning" in result.stderr and "dropped by the race" in result.stderr
    # No path of this machine in the exported file: the study's file name only.
    assert str(tuned_study.parent) not in out.read_text() and "shared.toml" in out.read_text()
    data = json.loads(params.read_text())
    assert data["bot"] == "heuristic" and data["params"] == pruned.user_attrs["bot_params"]
    # The parameter file is a bot name that plays as the trial does.
    args = ("greedy", "--games", "4", "--json")
    by_file = json.loads(run_tuner("match", f"heuristic:{params}", *args).stdout)
    by_trial = json.loads(run_tuner("match", f"study:{tuned_study}#{pruned.number}", *args).stdout)
    assert by_file["results"] == by_trial["results"]
    chosen = run_tuner("export", str(tuned_study), "-o", str(tmp_path / "chosen.py"))
    assert chosen.returncode == 0 and "warning" not in chosen.stderr
    # The same chosen bot in C++: the same parameters, the study named, the language said.
    in_cpp = run_tuner("export", str(tuned_study), "--lang", "cpp", "-o", str(tmp_path / "chosen.cpp"))
    assert in_cpp.returncode == 0, in_cpp.stderr
    cpp_text, py_text = (tmp_path / "chosen.cpp").read_text(), (tmp_path / "chosen.py").read_text()
    assert "// Study: " in cpp_text and "language: C++" in cpp_text
    build_line = [line for line in cpp_text.splitlines() if line.startswith("// Build it as CodinGame does")]
    assert build_line == [f"// Build it as CodinGame does (no -O flag: the file carries its optimisation): "
                          f"{' '.join(codingame_build('bot.cpp', 'bot'))}"]
    params = re.findall(r"^    (\S+),  # (\w+)$", py_text, re.M)
    assert re.findall(r"^    (\S+),  // (\w+)$", cpp_text, re.M) == params != []


def test_the_readme_commands_use_the_pinned_versions():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install -c constraints.txt -e .' in readme and 'pip install -c constraints.txt -e ".[test]"' in readme
    results = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    pinned = dict(line.split("==") for line in (ROOT / "constraints.txt").read_text().split()
                  if "==" in line and not line.startswith("#"))
    for name in ("numpy", "numba", "llvmlite", "optuna", "cmaes", "scipy"):
        assert name in pinned
        assert f"{name} {pinned[name]}" in results, f"the results page's figures name {name} of another version"
