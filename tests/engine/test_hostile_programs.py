"""Bot programs that misbehave: each game ends as on CodinGame, the reason is recorded, and no process
started for the game survives it."""
import os
import re
import time

import pytest

from bots.contract.names import parse_bot
from bots.running.player import player_for
from engine.game import Game
from engine.players import Ending, PlayerStartError, ProgramPlayer, TimeLimits
from engine.referee import play_refereed_game
from engine.replay import replay_records
from tests.conftest import program, run_tuner

LIMITS = TimeLimits(first_ms=3000, turn_ms=600)


def play(mode, turn="3", limits=LIMITS):
    players = [player_for(parse_bot(program("behave.py", mode, turn))), player_for(parse_bot("greedy"))]
    return play_refereed_game(21, 3, players, limits)


def pids_of(report):
    found = set()
    for line in report.players[0].stderr_tail:
        found.update(int(p) for p in re.findall(r"(?:pid|child) (\d+)", line))
    return found


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is not alive: read its state
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def assert_all_gone(pids):
    assert pids, "the test program should have reported its process ids"
    deadline = time.time() + 5
    while time.time() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    assert not [p for p in pids if alive(p)]


def last_actions(report):
    return [r for r in report.records if r["t"] == "ACTIONS"][-1]


@pytest.mark.parametrize("mode, action, reason, note", [
    ("hang", "TIMEOUT", "Timeout!", "no answer in time"),
    ("crash", "TIMEOUT", "Timeout!", "exited with code 1"),
    ("exit", "TIMEOUT", "Timeout!", "exited with code 3"),
    ("silent", "TIMEOUT", "Timeout!", "no answer in time"),
    ("garbage", "INVALID", "Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT but got "
                           "'JUMP 3'", ""),
])
def test_a_misbehaving_program_is_disqualified_and_leaves_nothing_behind(mode, action, reason, note):
    report = play(mode)
    last = last_actions(report)
    assert (last["action"][0], last["error"][0]) == (action, reason)
    assert report.outcome.deactivated == [{"player": 0, "turn": last["turn"], "reason": reason}]
    assert report.outcome.final_scores[0] == -1 and report.outcome.winner == 1
    assert report.players[0].note == note
    assert replay_records(report.records) is None
    assert_all_gone(pids_of(report))


@pytest.mark.parametrize("mode, ending, exit_code, signal, described", [
    ("hang", Ending.TIMEOUT, None, None, "no answer in time"),
    ("crash", Ending.EXITED, 1, None, "exited with code 1"),
    ("segv", Ending.EXITED, None, "SIGSEGV", "crashed with signal SIGSEGV"),
    ("closeout", Ending.CLOSED_OUTPUT, None, None, "closed its output"),
    ("closein", Ending.STOPPED_READING, None, None, "stopped reading its input"),
    ("garbage", Ending.FINISHED, None, None, "finished"),
])
def test_the_report_names_what_became_of_the_program(mode, ending, exit_code, signal, described):
    report = play(mode)
    player = report.players[0]
    assert (player.ending, player.exit_code, player.signal, player.describe()) == (ending, exit_code, signal,
                                                                                   described)
    assert player.ending.slow == (mode == "hang")
    (entry,) = report.disqualifications
    assert (entry.player, entry.turn, entry.ending) == (0, last_actions(report)["turn"], ending)
    if ending is Ending.FINISHED:  # lost on its answer, not on its process
        assert entry.describe() == entry.reason and entry.reason.startswith("Invalid Input")
    else:  # the trace says what CodinGame says; the report says what happened
        assert entry.reason == "Timeout!" and entry.describe() == f"Timeout! ({described})"
    assert_all_gone(pids_of(report))


def test_a_program_that_does_not_read_its_input_is_slow_not_dead():
    player = ProgramPlayer("sleeper", "sleep 600")
    player.start(Game(1, 3), 0)
    started = time.monotonic()
    assert player.answer(b"x" * 300_000 + b"\n", 0.3) is None  # more than a pipe holds
    assert 0.3 <= time.monotonic() - started < 3
    report = player.finish()
    assert report.ending is Ending.INPUT_TIMEOUT and report.ending.slow
    assert report.describe() == "did not read its input in time"
    assert not alive(player.process.pid)


class LatePoller:
    """A poller whose caller wakes `late_s` after its wait ends, with what arrived meanwhile: a referee thread
    that the machine kept from its core past the deadline."""

    def __init__(self, poller, late_s: float) -> None:
        self._poller, self._late_s = poller, late_s

    def poll(self, timeout_ms: float):
        time.sleep(timeout_ms / 1000 + self._late_s)
        return self._poller.poll(0)

    def __getattr__(self, name):
        return getattr(self._poller, name)


def test_an_answer_read_after_its_limit_is_a_timeout_though_written_before_the_referee_woke():
    """The answer's time is the referee's, from the write to the read: a program that answers 20 ms into a 10 ms
    limit is out, also when the referee wakes 50 ms late and finds the line already there."""
    player = ProgramPlayer("late", "python3 -c \"import sys, time\nfor line in sys.stdin: time.sleep(0.02); "
                                   "print('WAIT', flush=True)\"")
    player.start(Game(1, 3), 0)
    player.started = True  # the turn's lines alone, not the game's first input
    assert player.answer(b"x\n", 5.0) == "WAIT"  # the interpreter's start, then an answer in time
    player.poller = LatePoller(player.poller, 0.05)
    assert player.answer(b"x\n", 0.01) is None
    report = player.finish()
    assert report.ending is Ending.TIMEOUT and report.answers == 2


def test_a_program_that_cannot_start_is_reported_so():
    player = ProgramPlayer("missing", "/no/such/program --flag")
    with pytest.raises(PlayerStartError, match="cannot start '/no/such/program --flag': No such file"):
        player.start(None, 0)
    assert player.finish().ending is Ending.START_FAILED


def test_a_crash_keeps_the_traceback_in_the_report():
    report = play("crash")
    assert any("the bot crashed on purpose" in line for line in report.players[0].stderr_tail)


def test_a_one_megabyte_line_is_read_whole_and_rejected():
    report = play("bigline")
    last = last_actions(report)
    assert last["action"][0] == "INVALID" and len(last["output"][0]) == 1_000_000
    assert last["error"][0].endswith("y" * 100 + "'")


def test_a_stderr_flood_neither_blocks_the_program_nor_fills_memory():
    report = play("flood", limits=TimeLimits(3000, 1000))
    assert report.outcome.deactivated == [] and report.records[-1]["day"] == 24
    tail = report.players[0].stderr_tail
    assert 0 < len(tail) <= 20 and all(len(line) <= 300 for line in tail)


def test_extra_lines_are_read_as_later_answers_as_on_codingame():
    report = play("chatty")
    outputs = [r["output"][0] for r in report.records if r["t"] == "ACTIONS" and r["output"][0] is not None]
    assert outputs and set(outputs) == {"WAIT"}
    assert report.outcome.deactivated == []


def test_children_of_a_program_are_killed_with_it():
    report = play("spawn")
    pids = pids_of(report)
    assert len(pids) >= 2  # the bot and its sleeping child
    assert_all_gone(pids)


def test_play_command_shortens_a_huge_reason(tmp_path):
    result = run_tuner("play", program("behave.py", "bigline", "2"), "greedy", "--seed", "4",
                       "--first-timeout", "3000", "--turn-timeout", "600")
    assert result.returncode == 0
    line = next(l for l in result.stdout.splitlines() if "disqualified" in l)
    assert len(line) < 300 and line.endswith("...")
