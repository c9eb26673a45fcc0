"""Programs as players through the real protocol: time limits, disqualifications, traces, clean-up."""
import os
import re
import time

import pytest

from bots.contract.names import parse_bot
from bots.running.player import player_for
from engine.players import PlayerStartError, TimeLimits
from engine.referee import play_refereed_game
from engine.replay import replay_records
from tests.conftest import program, run_tuner

LIMITS = TimeLimits(first_ms=3000, turn_ms=1000)  # generous: CI machines are slow to start Python


def play(a, b, seed=11, league=3, limits=LIMITS):
    players = [player_for(parse_bot(a, league)), player_for(parse_bot(b, league))]
    return play_refereed_game(seed, league, players, limits)


def pids_in(report):
    return {int(p) for player in report.players for line in player.stderr_tail
            for p in re.findall(r"pid (\d+)", line)}


def assert_gone(pids):
    deadline = time.time() + 5
    while time.time() < deadline:
        alive = []
        for pid in pids:
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except ProcessLookupError:
                pass
        if not alive:
            return
        time.sleep(0.05)
    raise AssertionError(f"processes still alive: {alive}")


def test_a_program_plays_a_whole_game_and_its_trace_replays():
    report = play(program("behave.py"), "greedy")
    assert report.outcome.deactivated == []
    assert report.records[-1]["t"] == "END" and report.records[-1]["day"] == 24
    assert replay_records(report.records) is None
    asked = [r for r in report.records if r["t"] == "ACTIONS"]
    assert all(r["input"][0] is None for r in asked if r["before"]["players"][0]["waiting"])
    assert_gone(pids_in(report))


def test_a_hanging_program_times_out_and_is_killed():
    report = play(program("behave.py", "hang", "3"), "greedy", limits=TimeLimits(3000, 300))
    (entry,) = report.outcome.deactivated
    assert entry["player"] == 0 and entry["reason"] == "Timeout!"
    assert report.outcome.final_scores[0] == -1 and report.outcome.winner == 1
    end = report.records[-1]
    assert end["tree_bonus"][1] > 0  # the last active player always gets its tree bonus
    assert report.players[0].note == "no answer in time"
    assert_gone(pids_in(report))


@pytest.mark.parametrize("mode, action, reason", [
    ("garbage", "INVALID",
     "Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT but got 'JUMP 3'"),
    ("exit", "TIMEOUT", "Timeout!"),
    ("silent", "TIMEOUT", "Timeout!"),
])
def test_misbehaving_programs_are_disqualified_as_on_codingame(mode, action, reason):
    report = play("greedy", program("behave.py", mode, "4"), limits=TimeLimits(3000, 500))
    last = [r for r in report.records if r["t"] == "ACTIONS"][-1]
    assert last["action"][1] == action and last["error"][1] == reason
    assert report.outcome.deactivated[0]["reason"] == reason
    assert report.outcome.final_scores[1] == -1
    assert replay_records(report.records) is None


def test_a_legal_looking_illegal_action_only_puts_the_player_to_sleep():
    report = play(program("behave.py", "illegal", "2"), "greedy")
    errors = [r["error"][0] for r in report.records if r["t"] == "ACTIONS" and r["error"][0]]
    assert errors and errors[0] in ("There is no tree on cell 36", "The tree on cell 36 is owned by opponent",
                                    "The tree on cell 36 is not large enough")
    assert report.outcome.deactivated == []
    assert report.records[-1]["day"] == 24


def test_stderr_is_kept_and_a_start_failure_is_clear():
    report = play(program("behave.py"), "random:4", league=2)
    assert any("answer" in line for line in report.players[0].stderr_tail)
    with pytest.raises(PlayerStartError, match="cannot start"):
        play("cmd:/nonexistent/bot", "greedy")


def test_play_command_writes_a_replayable_trace(tmp_path):
    trace = tmp_path / "game.jsonl"
    result = run_tuner("play", program("behave.py"), "greedy:10,3", "--seed", "-123", "--trace", str(trace),
                       "--first-timeout", "3000", "--turn-timeout", "1000")
    assert result.returncode == 0, result.stderr
    assert "winner" in result.stdout
    check = run_tuner("replay", str(trace))
    assert check.returncode == 0 and check.stdout.strip() == f"{trace}: ok"


@pytest.mark.parametrize("args, needle", [
    (["nosuchbot", "greedy", "--seed", "1"], "unknown bot 'nosuchbot'"),
    (["greedy", "greedy:1", "--seed", "1"], "expected greedy:complete_day,max_seeds"),
    (["greedy", "cmd:", "--seed", "1"], "command line is empty"),
    (["greedy", "cmd:/no/such/program", "--seed", "1"], "cannot start"),
    (["greedy", "greedy", "--seed", "1", "--league", "0"], "league must be 1"),
    (["greedy", "random:x", "--seed", "1"], "seed must be an integer"),
])
def test_play_command_rejects_bad_input(args, needle):
    result = run_tuner("play", *args)
    assert result.returncode == 2
    assert needle in result.stderr and "Traceback" not in result.stderr
