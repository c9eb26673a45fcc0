"""A game with programs plays on a core of its own (engine.cores): its programs see one core, two games at once
see two different ones, the referee's thread gets its cores back; with every core held, or TUNER_PIN_GAMES=0, a game
plays unpinned.
"""
import os
import re
import tempfile
import threading

import pytest

from bots.contract.names import parse_bot
from bots.running.player import player_for
from engine.cores import one_core
from engine.players import TimeLimits
from engine.referee import play_refereed_game
from tests.conftest import program

LIMITS = TimeLimits(first_ms=3000, turn_ms=1000)
CORES = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
pytestmark = pytest.mark.skipif(len(CORES) < 2, reason="pinning a game needs two cores or more")


@pytest.fixture(autouse=True)
def own_locks(tmp_path, monkeypatch):
    """The cores' lock files in a folder of the test's own: the games other tests play meanwhile hold none."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def cores_seen(seed: int) -> set:
    """The cores the program was allowed at each of its answers in a game against greedy, as it printed them."""
    players = [player_for(parse_bot(program("behave.py"), 3)), player_for(parse_bot("greedy", 3))]
    report = play_refereed_game(seed, 3, players, LIMITS)
    seen = {line.rsplit(" cores ", 1)[1] for line in report.players[0].stderr_tail if " cores " in line}
    assert seen and all(re.fullmatch(r"\d+(,\d+)*", cores) for cores in seen), report.players[0].stderr_tail
    return seen


def test_a_game_with_a_program_plays_on_one_core_and_the_referee_gets_its_cores_back():
    (cores,) = cores_seen(11)
    assert "," not in cores and int(cores) in CORES
    assert os.sched_getaffinity(0) == CORES


def test_two_games_at_once_play_on_two_cores():
    seen: dict = {}
    started = threading.Barrier(2)

    def game(seed: int) -> None:
        started.wait()
        seen[seed] = cores_seen(seed)

    threads = [threading.Thread(target=game, args=(seed,)) for seed in (11, 12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (first,), (second,) = seen[11], seen[12]
    assert first != second and "," not in first + second, seen


def test_a_game_plays_unpinned_when_every_core_is_held():
    held, release = [], threading.Event()
    ready = threading.Barrier(len(CORES) + 1)

    def hold() -> None:
        with one_core() as core:
            held.append(core)
            ready.wait()
            release.wait()

    holders = [threading.Thread(target=hold) for _ in CORES]
    for thread in holders:
        thread.start()
    try:
        ready.wait()
        assert sorted(held) == sorted(CORES)
        assert cores_seen(11) == {",".join(map(str, sorted(CORES)))}
    finally:
        release.set()
        for thread in holders:
            thread.join()


def test_tuner_pin_games_0_leaves_games_to_the_scheduler(monkeypatch):
    monkeypatch.setenv("TUNER_PIN_GAMES", "0")
    assert cores_seen(11) == {",".join(map(str, sorted(CORES)))}
