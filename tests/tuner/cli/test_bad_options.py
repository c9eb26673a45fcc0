"""Options a probe found unchecked: far too many jobs, an output that cannot be written, a C++ time budget beyond the
referee's limits, an empty dashboard host, disqualifications told in the wrong number or about the wrong bot."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, program, run_tuner, usage_error
from tuner.cli import main
from tuner.play.gauntlet import Difference, Gauntlet, GauntletRow
from tuner.play.pools import ProcessPool
from tuner.play.stats import tally

FULL = Path("/dev/full")


def test_jobs_above_the_bound_are_refused_and_all_still_works(capsys):
    line = usage_error(capsys, ["match", "heuristic", "greedy", "--jobs", "100000"])
    assert "--jobs" in line and "at most 256" in line and "100000" in line
    assert main(["match", "heuristic", "greedy", "--games", "4", "--jobs", "all"]) == 0


def test_a_pool_starts_no_more_workers_than_its_tasks():
    pool = ProcessPool(16)
    try:
        assert pool.map(pow, [(2, 1), (2, 2), (2, 3)]) == [2, 4, 8]
        assert pool._executor._max_workers == 2
    finally:
        pool.close()


def test_a_bench_with_more_jobs_than_games_uses_a_process_per_game():
    result = run_tuner("bench", "--games", "4", "--jobs", "8", "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["jobs"] == 4


def test_many_jobs_for_few_games_of_programs_or_threads_end_quickly(capsys):
    result = run_tuner("match", program("behave.py", "play"), "random", "--games", "4", "--jobs", "256",
                       timeout=60)
    assert result.returncode == 0, result.stderr
    assert main(["match", "heuristic", "greedy", "--games", "4", "--jobs", "256"]) == 0


def run_to_full_output(*args: str) -> subprocess.CompletedProcess:
    """`tuner ARGS > /dev/full`: every write to standard output fails with ENOSPC, buffered as a user's is (a
    small output fails when flushed)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    with FULL.open("w") as full:
        return subprocess.run([sys.executable, "-m", "tuner.cli", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=120, env=env)


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
@pytest.mark.parametrize("args", [("map", "--seed", "1"), ("match", "heuristic", "greedy", "--games", "2", "--json"),
                                  ("export", "--bot", "heuristic", "-o", "{tmp}/h.py")])
def test_a_full_output_is_one_line_and_exit_1(args, tmp_path):
    command = args[0]
    result = run_to_full_output(*(a.format(tmp=tmp_path) for a in args))
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines() == [f"tuner {command}: error: cannot write the output: "
                                                  f"No space left on device"]


def test_export_time_ms_is_bounded_by_the_time_limits(capsys, tmp_path):
    out = tmp_path / "e.cpp"
    line = usage_error(capsys, ["export", "--bot", "mcts", "--lang", "cpp", "--time-ms", "99999999999999999999",
                                "-o", str(out)])
    assert "--time-ms" in line and "360,000" in line and not out.exists()
    usage_error(capsys, ["export", "--bot", "mcts", "--lang", "cpp", "--time-ms", "360001", "-o", str(out)])
    assert main(["export", "--bot", "mcts", "--lang", "cpp", "--time-ms", "360000", "-o", str(out)]) == 0
    assert "FIRST_TURN_MS = 3600000;" in out.read_text()


@pytest.mark.parametrize("time_ms, warned", [("99", False), ("100", True)])
def test_export_time_ms_from_codingames_turn_limit_warns(capsys, tmp_path, time_ms, warned):
    assert main(["export", "--bot", "mcts", "--lang", "cpp", "--time-ms", time_ms, "-o", str(tmp_path / "e.cpp")]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == warned
    assert not warned or "--time-ms 100" in warnings[0] and "exceed CodinGame's limits" in warnings[0]


@pytest.mark.parametrize("host", ["", " "])
def test_an_empty_dashboard_host_is_refused(capsys, tmp_path, host):
    line = usage_error(capsys, ["dashboard", str(tmp_path / "study.toml"), "--host", host])
    assert "--host" in line and "0.0.0.0" in line


def test_two_bots_disqualified_in_every_game_were(capsys):
    assert main(["match", "cmd:true", "cmd:false", "--games", "2"]) == 3
    assert "cmd:true and cmd:false were disqualified in every game" in capsys.readouterr().err


def test_a_baseline_disqualified_in_every_game_is_named():
    bot, baseline = program("behave.py", "segv", "2"), program("behave.py", "exit", "1")
    result = run_tuner("gauntlet", bot, "--against", "greedy", "random", "--baseline", baseline, "--games", "2",
                       timeout=120)
    assert result.returncode == 3, result.stderr
    assert result.stdout.count("[baseline: 2 disqualified]") == 2
    assert f"{bot} and {baseline} were disqualified in every game" in result.stderr


def test_a_gauntlets_baseline_disqualifications_are_read_back_and_count_for_always_disqualified():
    row = GauntletRow("greedy", tally([-1, -1]), tally([-1, -1]), Difference(0.0, (0.0, 0.0), 0.0),
                      baseline_disqualified=2)
    data = Gauntlet("bot", "base", 1, [row]).to_json()
    read = Gauntlet.from_json(data)
    assert read.rows[0].baseline_disqualified == 2 and read.always_disqualified == ["base"]
    del data["rows"][0]["baseline_disqualified"]  # written before baselines' disqualifications were counted
    assert Gauntlet.from_json(data).rows[0].baseline_disqualified == 0
