"""No program outlives its referee, even a referee killed with SIGKILL (engine/watchdog.py)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import PROGRAMS, ROOT, start_tuner


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


def wait_until(condition, seconds, what):
    deadline = time.time() + seconds
    while not condition():
        if time.time() > deadline:
            raise AssertionError(f"still waiting after {seconds} s: {what}")
        time.sleep(0.05)


def watchdogs_of(referee_pid):
    """The pids of the watchdog processes watching `referee_pid` (from their command lines)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if any(a.endswith(b"watchdog.py") for a in argv) and str(referee_pid).encode() in argv and alive(
                    int(entry.name)):
                found.append(int(entry.name))
    return found


def read_pids(path):
    wait_until(path.exists, 120, "the program to answer twice and write its pid")
    return [int(p) for p in path.read_text().split()]


def test_a_program_dies_with_a_referee_killed_by_sigkill(tmp_path):
    pidfile = tmp_path / "pids"
    bot = f"cmd:{sys.executable} {PROGRAMS / 'stubborn.py'} {pidfile}"
    referee = start_tuner("play", bot, "heuristic", "--seed", "1", "--first-timeout", "60000",
                          "--turn-timeout", "60000")
    try:
        program, child = read_pids(pidfile)
        wait_until(lambda: watchdogs_of(referee.pid), 10, "the watchdog to start")
        time.sleep(0.5)  # mid-game: the program has answered twice, and now sleeps instead of answering
        assert referee.poll() is None and alive(program) and alive(child)
        watchdog = watchdogs_of(referee.pid)
    finally:
        referee.kill()
        referee.communicate()
    wait_until(lambda: not alive(program) and not alive(child), 5, "the program and its child to die")
    wait_until(lambda: not any(alive(w) for w in watchdog), 5, "the watchdog to exit")


THREAD_SCRIPT = """
import sys, threading, time
sys.path.insert(0, {root!r})
from engine.process import Process
from engine.watchdog import WATCHDOG

starter = threading.Thread(target=lambda: (WATCHDOG.start(), time.sleep(1.0)))
starter.start()
starter.join()  # the watchdog's parent thread is gone: Linux sent it the parent-death signal
program = Process(["sleep", "600"])
time.sleep(0.5)
print(WATCHDOG.pid, program.pid, flush=True)
time.sleep(600)
"""


def test_the_thread_that_started_the_watchdog_may_exit_before_the_referee(tmp_path):
    referee = subprocess.Popen([sys.executable, "-c", THREAD_SCRIPT.format(root=str(ROOT))], stdout=subprocess.PIPE,
                               text=True)
    try:
        watchdog, program = (int(p) for p in referee.stdout.readline().split())
        assert alive(watchdog) and alive(program)
        time.sleep(0.3)
        assert alive(watchdog) and alive(program)  # a thread's exit is not the referee's death
    finally:
        referee.send_signal(signal.SIGKILL)
        referee.wait()
    wait_until(lambda: not alive(program), 5, "the program to die with the referee")
    wait_until(lambda: not alive(watchdog), 5, "the watchdog to exit")


TABLE_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from engine.process import Process
from engine.watchdog import SLOTS, WATCHDOG

programs = [Process(["sleep", "600"]) for _ in range(SLOTS + 8)]  # more than the table's first size
for program in programs[:4]:  # reaped: the watchdog must not kill whatever may take their group ids later
    program.kill_group()
    program.wait(5)
    program.close()
spared = programs[4]
WATCHDOG.forget(spared.pid)
print(WATCHDOG.pid, spared.pid, *(p.pid for p in programs[5:]), flush=True)
sys.stdin.read()
"""


def test_the_watchdog_kills_every_program_still_registered_and_only_those():
    referee = subprocess.Popen([sys.executable, "-c", TABLE_SCRIPT.format(root=str(ROOT))], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    spared = None
    try:
        watchdog, spared, *watched = (int(p) for p in referee.stdout.readline().split())
        assert len(watched) > 512 and all(alive(p) for p in watched)
    finally:
        referee.send_signal(signal.SIGKILL)
        referee.wait()
    try:
        wait_until(lambda: not any(alive(p) for p in watched), 10, "every registered program to die")
        wait_until(lambda: not alive(watchdog), 5, "the watchdog to exit")
        assert alive(spared)
    finally:
        if spared is not None:
            os.kill(spared, signal.SIGKILL)
