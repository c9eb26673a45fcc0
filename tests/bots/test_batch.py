"""The compiled batch kernel: the yardstick's results, and agreement with the text-protocol referee."""
import csv
import gzip
import json

import numpy as np
import pytest

from bots.contract.names import parse_bot
from bots.contract.seat import new_seat_array
from bots.running.arena import play_batch
from bots.running.player import player_for
from engine.referee import play_refereed_game
from tests.conftest import DATA, run_tuner


def seats_for(*names, league=3):
    seats = new_seat_array(2)
    for i, name in enumerate(names):
        seats[i] = parse_bot(name, league).seat[0]
    return seats


def test_greedy_matches_the_yardstick_game_for_game():
    with gzip.open(DATA / "bench" / "results_1_1000.csv.gz", "rt") as handle:
        rows = list(csv.DictReader(handle))
    result = play_batch(np.arange(1, 1001), 3, seats_for("greedy:12,2", "greedy:14,3"))
    got = [(int(s0), int(s1), int(w)) for (s0, s1), w in zip(result.score, result.winner)]
    expected = [(int(r["score0"]), int(r["score1"]), int(r["winner"])) for r in rows]
    assert got == expected


@pytest.mark.parametrize("jobs", [1, 2])
def test_bench_command_prints_the_yardstick_checksum(jobs):
    result = run_tuner("bench", "--games", "1000", "--jobs", str(jobs), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["checksum"] == "16200177822221118652"
    assert (report["avg_turns"], report["avg_moves"], report["wins"]) == (84.109, 143.548, [745, 249, 6])
    assert report["games_per_sec"] > 0 and set(report) >= {"games", "seconds", "games_per_sec"}


@pytest.mark.parametrize("league, names", [
    (3, ("greedy", "random:5")),
    (3, ("random:1", "random:2")),
    (3, ("greedy:12,2", "greedy:14,3")),
    (2, ("random:3", "greedy")),
    (1, ("greedy", "random:9")),
    (3, ("wait", "greedy")),
])
def test_referee_and_batch_kernel_play_the_same_games(league, names):
    seeds = [1, 77, -5, 2**40 + 3]
    batch = play_batch(np.array(seeds), league, seats_for(*names, league=league))
    for g, seed in enumerate(seeds):
        bots = [parse_bot(name, league) for name in names]
        report = play_refereed_game(seed, league, [player_for(bot) for bot in bots])
        assert report.outcome.final_scores == batch.score[g].tolist(), (seed, names)


def test_swapped_seats_play_the_other_side():
    seats = seats_for("greedy:12,2", "greedy:14,3")
    straight = play_batch(np.array([3, 4]), 3, seats)
    swapped = play_batch(np.array([3, 4]), 3, seats_for("greedy:14,3", "greedy:12,2"), swapped=[True, True])
    assert straight.score.tolist() == swapped.score.tolist()


def test_random_bot_is_reproducible_and_depends_on_its_seed():
    a = play_batch(np.arange(1, 40), 3, seats_for("random:1", "random:2"))
    b = play_batch(np.arange(1, 40), 3, seats_for("random:1", "random:2"))
    c = play_batch(np.arange(1, 40), 3, seats_for("random:8", "random:2"))
    assert a.score.tolist() == b.score.tolist()
    assert a.score.tolist() != c.score.tolist()
