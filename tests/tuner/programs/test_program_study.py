"""Studies with programs, as real processes over the real protocol: the player's own program tuned end to end
(bots/examples/mybot.py), program opponents (one that breaks the rules mid-game, one that cannot start), a tuned
program that is disqualified in most games, and Ctrl-C while programs play: no program process survives."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import PROGRAMS, ROOT, load_study, run_tuner, start_tuner, write_study
from tuner.results.records import TrialRecord

MYBOT = ROOT / "bots" / "examples" / "mybot.py"
PARAMETERS = {  # every marked constant of the example (the template export needs them all)
    "complete_day": {"type": "int", "low": 0, "high": 23, "default": 12},
    "keep_large": {"type": "int", "low": 0, "high": 8, "default": 3},
    "max_seeds": {"type": "int", "low": 0, "high": 4, "default": 1},
    "seed_stop_left": {"type": "int", "low": 0, "high": 12, "default": 5},
    "w_rich": {"type": "float", "low": 0.0, "high": 4.0, "default": 1.0},
    "w_shade": {"type": "float", "low": 0.0, "high": 6.0, "default": 3.0},
}
COMMAND = f"cmd:{sys.executable} {MYBOT} --params {{params_file}}"  # every value through a parameter file
SLACK = {"first_timeout": 5000, "turn_timeout": 2000}  # a busy test machine must not time programs out


def program_study(tmp_path, name="mine", **fields):
    """A study file tuning the example program, with its [parameters] table."""
    values = {**dict(bot=COMMAND, trials=6, pairs=3, population=3, finals_pairs=2, finalists=2,
                     opponents=["greedy", "heuristic"], **SLACK), **fields}
    path = write_study(tmp_path, name, **values)
    lines = ["[parameters]"] + [f"{key} = {{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in spec.items()) + " }"
                                for key, spec in PARAMETERS.items()]
    path.write_text(path.read_text() + "\n".join(lines) + "\n")
    return path


def test_a_program_is_tuned_exported_and_its_filled_source_plays_like_its_trial(tmp_path):
    path = program_study(tmp_path)
    result = run_tuner("tune", str(path), "--no-progress", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert "chosen for export" in result.stdout and "gauntlet" in result.stdout
    # no game ran on the threads: the summary says where they ran, not "0% of the threads' time"
    assert re.search(r"games/s; every game with a program, on 2 processes: \d+% of their time in the programs' "
                     r"answers\)", result.stdout), result.stdout
    trials = load_study(path).trials
    assert len({json.dumps(t.user_attrs["bot_params"], sort_keys=True) for t in trials}) == len(trials) == 6
    best = tmp_path / "best.json"
    assert run_tuner("export", str(path), "-o", str(best)).returncode == 0
    exported = json.loads(best.read_text())
    assert set(exported["params"]) == set(PARAMETERS) and exported["source"]["study"] == "mine"
    for options, problem in ((["-o", str(tmp_path / "best.cpp")], "give -o FILE.json"),
                             (["-o", str(best), "--time-ms", "50"], "--time-ms applies to an exported bot"),
                             (["-o", str(best), "--lang", "cpp", "--params-out", str(tmp_path / "p.json")],
                              "--lang and --params-out apply to an exported bot")):
        refused = run_tuner("export", str(path), *options)
        assert refused.returncode == 2 and problem in refused.stderr, refused.stderr
    assert not (tmp_path / "best.cpp").exists() and json.loads(best.read_text()) == exported
    filled = tmp_path / "filled.py"
    result = run_tuner("export", str(path), "--template", str(MYBOT), "-o", str(filled))
    assert result.returncode == 0, result.stderr
    # The filled source, run without arguments, plays game for game as the study's chosen bot.
    args = ("--games", "4", "--seed", "5", "--json", "--turn-timeout", "2000", "--first-timeout", "5000")
    as_source = run_tuner("match", f"cmd:{sys.executable} {filled}", "heuristic", *args)
    as_study = run_tuner("match", f"study:{path}", "heuristic", *args)
    assert as_source.returncode == 0 and as_study.returncode == 0, as_source.stderr + as_study.stderr
    assert json.loads(as_source.stdout)["results"] == json.loads(as_study.stdout)["results"]


def test_a_program_study_writes_its_parameter_files_in_one_folder_removed_when_it_ends(tmp_path):
    """Every trial, hall-of-fame entry and finalist of a program study is a bot of its own, whose `{params_file}`
    goes to the one folder of the process: one folder while the study runs, none after."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    path = program_study(tmp_path, "folders", trials=4, population=2, opponents=["greedy", "hall-of-fame:2"])
    process = subprocess.Popen([sys.executable, "-m", "tuner.cli", "tune", str(path), "--no-progress"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "TMPDIR": str(temp)})
    seen: set[str] = set()
    while process.poll() is None:
        seen |= {folder.name for folder in temp.glob("tuner-params-*")}
        time.sleep(0.02)
    out, err = process.communicate()
    assert process.returncode == 0, err
    assert len(load_study(path).trials) == 4 and "chosen for export" in out
    assert len(seen) == 1, seen
    assert not list(temp.glob("tuner-params-*"))


def test_a_program_opponent_that_breaks_the_rules_is_recorded_per_trial(tmp_path):
    crashing = f"cmd:{sys.executable} {PROGRAMS / 'behave.py'} crash 15"
    path = write_study(tmp_path, "field", trials=3, pairs=4, population=2, finals_pairs=0,
                       opponents=["greedy", crashing], **SLACK)
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 0, result.stderr
    # half the games are against greedy, in the engine: the threads' share is said of them
    assert re.search(r"games/s; in-engine games \(50% of them\) on \d+% of the threads' time\)", result.stdout), \
        result.stdout
    for trial in load_study(path).trials:
        record = TrialRecord.from_trial(trial)
        against = record.opponents[crashing]
        assert against.opponent_disqualified == against.games == 2 * record.pairs_played
        assert against.wins == against.games and against.disqualified == 0
        first = against.first_disqualification
        assert first["side"] == "opponent" and "exited with code 1" in first["note"]
        assert any("ZeroDivisionError" in line or "Traceback" in line or "Error" in line for line in first["stderr"])


def test_a_program_that_cannot_start_stops_the_study_before_its_first_trial(tmp_path):
    path = write_study(tmp_path, "broken", opponents=["greedy", "cmd:/no/such/program --fast"])
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "field 'opponents'" in result.stderr and "/no/such/program" in result.stderr
    assert "cannot" in result.stderr
    assert not list(tmp_path.glob("broken.journal*"))  # nothing written
    crashing = write_study(tmp_path, "crashing", opponents=[f"cmd:{sys.executable} {PROGRAMS / 'behave.py'} exit 1"])
    result = run_tuner("tune", str(crashing), "--no-progress")
    assert result.returncode == 2 and "exited with code 3" in result.stderr and "field 'opponents'" in result.stderr


def test_a_tuned_program_disqualified_in_most_games_fails_with_its_reason(tmp_path):
    path = write_study(tmp_path, "garbage", bot=f"cmd:{sys.executable} {PROGRAMS / 'behave.py'} garbage {{turn}}",
                       trials=4, pairs=3, population=2, finals_pairs=0, **SLACK)
    path.write_text(path.read_text() + '[parameters]\nturn = { type = "int", low = 2, high = 4, default = 3 }\n')
    result = run_tuner("tune", str(path), "--no-progress")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "disqualified in" in result.stderr and "JUMP 3" in result.stderr
    assert "new best" not in result.stdout + result.stderr  # a failed trial is no one's best
    failed = load_study(path).trials[0]
    assert failed.state.name == "FAIL" and "Invalid Input" in failed.user_attrs["failure"]


def programs_running(marker: str) -> list[int]:
    """Pids of live processes whose command line holds `marker`."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    command = handle.read().replace(b"\0", b" ").decode(errors="replace")
                with open(f"/proc/{entry}/stat") as handle:
                    zombie = handle.read().split(") ", 1)[1].startswith("Z")
            except OSError:
                continue
            if marker in command and not zombie:
                pids.append(int(entry))
    return pids


@pytest.mark.parametrize("stop", [signal.SIGINT, pytest.param(signal.SIGKILL, marks=pytest.mark.slow)])  # SIGKILL: CI 2
def test_no_program_survives_a_stopped_tuner(tmp_path, stop):
    marker = f"marker-{stop.name}-{os.getpid()}"
    slow = f"cmd:{sys.executable} {PROGRAMS / 'behave.py'} play 1 {marker}"
    path = write_study(tmp_path, "stopped", trials=50, pairs=20, population=4, finals_pairs=0,
                       opponents=[slow], **SLACK)
    process = start_tuner("tune", str(path), "--no-progress", "--jobs", "2")
    try:
        deadline = time.monotonic() + 120
        while not programs_running(marker):
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.1)
        time.sleep(1.0)
        process.send_signal(stop)
        process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    deadline = time.monotonic() + 10
    while programs_running(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert programs_running(marker) == []
