"""Numbers out of any sensible range (huge timeouts, game counts, trials and heartbeats, look-alike integers in a
trace) and parameter kinds without a range: each is a one-line error with exit status 2, or works, never a
traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.registry import REGISTERED, plugin
from tests.conftest import command_error, usage_error, write_study
from tuner.cli import main


@pytest.mark.parametrize("bot", REGISTERED)
def test_params_lists_every_registered_bot(capsys, bot):
    assert main(["params", "--bot", bot]) == 0
    table = capsys.readouterr().out
    assert main(["params", "--bot", bot, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    schema = plugin(bot).schema
    assert [row["name"] for row in rows] == [p.name for p in schema or []]
    if schema is None:
        assert table == f"bot {bot!r} has no parameters\n"


def test_params_shows_a_choice_parameters_values_instead_of_a_range(capsys):
    assert main(["params", "--bot", "search"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("opponent "))
    assert row.split()[1] == "choice" and 'one of "heuristic", "sunrate", "both"' in row


def test_params_of_an_unknown_bot_is_an_error(capsys):
    assert "bot 'nope' has no parameter schema" in command_error(capsys, ["params", "--bot", "nope"])


@pytest.mark.parametrize("option, value", [
    ("--turn-timeout", "inf"), ("--turn-timeout", "1e300"), ("--first-timeout", "1e308"),
    ("--turn-timeout", "3600000.5"), ("--turn-timeout", "nan"), ("--first-timeout", "0"),
])
def test_play_refuses_a_timeout_above_one_hour(capsys, option, value):
    line = usage_error(capsys, ["play", "cmd:python3 h.py", "wait", option, value])
    assert line == (f"tuner play: error: argument {option}: expected a number of milliseconds in (0, 3,600,000] "
                    f"(at most one hour), got {value!r}")


@pytest.mark.parametrize("argv", [
    ["match", "heuristic", "wait"], ["gauntlet", "heuristic", "--against", "wait"], ["league"], ["bench"],
])
def test_games_has_an_upper_bound(capsys, argv):
    line = usage_error(capsys, [*argv, "--games", "100000000000000000000"])
    assert line == (f"tuner {argv[0]}: error: argument --games: expected a number of games in [1, 10,000,000], "
                    f"got 100000000000000000000")


def program_study(tmp_path: Path, **fields) -> Path:
    """A study file tuning a program bot (it is never started: the file is refused first)."""
    path = write_study(tmp_path, "prog", bot="cmd:python3 h.py --x {x}", **fields)
    path.write_text(path.read_text() + '[parameters]\nx = { type = "float", low = 0.0, high = 1.0, default = 0.5 }\n')
    return path


@pytest.mark.parametrize("field, value, allowed", [
    ("first_timeout", 1e308, "a number of milliseconds in (0, 3600000] (at most one hour), got 1e+308"),
    ("turn_timeout", 1e300, "a number of milliseconds in (0, 3600000] (at most one hour), got 1e+300"),
    ("trials", 10**30, f"an integer >= 1, at most 10000000, got {10**30}"),
    ("heartbeat_interval", 10**20, f"an integer >= 1, at most 86400 (seconds: one day), got {10**20}"),
    ("grace_period", 10**21, f"an integer > heartbeat_interval, at most 86400 (seconds: one day), got {10**21}"),
])
@pytest.mark.parametrize("program", [False, True])
def test_a_study_refuses_huge_numbers_before_anything_runs(tmp_path, capsys, field, value, allowed, program):
    path = program_study(tmp_path, **{field: value}) if program else write_study(tmp_path, **{field: value})
    before = set(tmp_path.iterdir())
    line = command_error(capsys, ["tune", str(path), "--no-progress"])
    assert line.startswith(f"tuner tune: error: {path}: field {field!r} must be ") and allowed in line, line
    assert set(tmp_path.iterdir()) == before


def test_the_largest_heartbeat_settings_are_accepted(tmp_path):
    from tuner.studyfile.file import read_study_file

    config = read_study_file(write_study(tmp_path, heartbeat_interval=86_399, grace_period=86_400))
    assert (config.heartbeat_interval, config.grace_period) == (86_399, 86_400)


@pytest.fixture(scope="module")
def trace_lines(tmp_path_factory) -> list:
    path = tmp_path_factory.mktemp("trace") / "game.jsonl"
    assert main(["play", "heuristic", "wait", "--seed", "3", "--trace", str(path)]) == 0
    return path.read_text().splitlines()


@pytest.mark.parametrize("key, value, message", [
    ("league", True, "header league True is not 1, 2 or 3"),
    ("league", 1.0, "header league 1.0 is not 1, 2 or 3"),
    ("league", 3.0, "header league 3.0 is not 1, 2 or 3"),
    ("seed", True, "header seed True is not a 64-bit integer"),
    ("seed", 3.0, "header seed 3.0 is not a 64-bit integer"),
])
def test_replay_wants_real_integers_in_the_header(tmp_path, capsys, trace_lines, key, value, message):
    header = json.loads(trace_lines[0])
    header[key] = value
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([json.dumps(header), *trace_lines[1:]]) + "\n")
    assert command_error(capsys, ["replay", str(path)]) == f"tuner replay: error: {path}: {message}"


def test_replay_prefixes_each_unreadable_file_and_goes_on(tmp_path, capsys, trace_lines):
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(trace_lines) + "\n")
    missing = tmp_path / "missing.jsonl"
    assert main(["replay", str(missing), str(good)]) == 2
    captured = capsys.readouterr()
    assert captured.out == f"{good}: ok\n"
    assert captured.err == f"tuner replay: error: {missing}: no such file\n"


def test_a_trace_that_cannot_be_written_leaves_no_temporary_file(tmp_path, trace_lines):
    from engine.referee import write_trace

    folder = tmp_path / "folder"
    folder.mkdir()
    users = tmp_path / "folder.tmp"
    users.write_text("the user's own file")
    with pytest.raises(IsADirectoryError):
        write_trace(folder, [json.loads(line) for line in trace_lines])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "folder.tmp"]
    assert list(folder.iterdir()) == [] and users.read_text() == "the user's own file"


def test_play_with_a_folder_as_trace_is_one_line(tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    assert str(folder) in command_error(capsys, ["play", "heuristic", "wait", "--trace", str(folder)])
    assert [p.name for p in tmp_path.iterdir()] == ["folder"] and list(folder.iterdir()) == []


def test_a_written_trace_leaves_a_users_tmp_file_alone(tmp_path, capsys):
    trace = tmp_path / "t.jsonl"
    users = tmp_path / "t.jsonl.tmp"
    users.write_text("mine")
    assert main(["play", "heuristic", "wait", "--trace", str(trace)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl", "t.jsonl.tmp"]
    assert users.read_text() == "mine" and json.loads(trace.read_text().splitlines()[0])["t"] == "header"
