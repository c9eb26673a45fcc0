"""The rules a trial is scored and raced by, pinned down on data whose answer is known: a pair's points, the
blocks, who leads, who is dropped and when, the estimate of a dropped trial; the gauntlet's paired difference and
its regression flag, on real games with a bot made worse on purpose."""
import threading
import time

import numpy as np
import pytest

from bots.contract.names import parse_bot
from tuner.play.gauntlet import paired_difference, run_gauntlet
from tuner.play.runner import GameRunner
from tuner.play.seeds import game_seeds
from tuner.play.stats import pair_points, pair_value
from tuner.search.race import BELOW_BEST, Race, blocks, met_positions


def test_a_pair_s_points_count_a_win_1_a_draw_half_a_loss_0():
    margins = np.array([[5, 3], [5, 0], [5, -2], [0, 0], [0, -1], [-4, -1]])
    assert pair_points(margins).tolist() == [1.0, 0.75, 0.5, 0.5, 0.25, 0.0]


def test_a_pair_s_value_blends_its_points_with_a_reward_that_rises_with_the_margin():
    margins = np.array([[-60, -70], [-10, -20], [0, 0], [20, 20], [5, 3]])
    assert pair_value(margins).tolist() == pair_points(margins).tolist()  # weight 0: the points alone
    reward = pair_value(margins, 1.0, 20.0)
    assert reward[3] == pytest.approx(0.75) and reward[2] == 0.5
    assert 0 < reward[0] < reward[1] < 0.5 < reward[4] < reward[3] < 1  # a closer loss is worth more
    half = pair_value(margins, 0.5, 20.0)
    assert half.tolist() == pytest.approx((0.5 * pair_points(margins) + 0.5 * reward).tolist())


def test_blocks_grow_and_cover_every_pair_once():
    assert blocks(100, 20) == [(0, 20), (20, 30), (30, 45), (45, 67), (67, 100)]
    assert blocks(100, 20, max_block=15)[:3] == [(0, 15), (15, 25), (25, 37)]
    for pairs, first, cap in [(1, 20, 0), (37, 5, 0), (500, 20, 40), (3, 2, 1)]:
        covered = [p for start, stop in blocks(pairs, first, cap) for p in range(start, stop)]
        assert covered == list(range(pairs))
        assert all(stop - start <= cap for start, stop in blocks(pairs, first, cap) if cap)


def test_an_opponent_met_on_a_share_of_the_pairs_is_met_evenly_from_the_first_pair():
    assert np.flatnonzero(met_positions(12, 0.25)).tolist() == [0, 4, 8]
    assert np.flatnonzero(met_positions(7, 0.5)).tolist() == [0, 2, 4, 6]
    assert met_positions(9, 1.0).all()
    assert np.flatnonzero(met_positions(5, 1e-12)).tolist() == [0]  # the first pair, whatever the share
    for pairs, share in [(150, 0.2), (37, 0.3), (10, 0.1), (100, 1 / 3)]:
        met = met_positions(pairs, share)
        assert met[0] and all(met[:n].sum() == np.ceil(n * share - 1e-9) for n in range(pairs + 1))


def test_an_opponent_met_on_fewer_pairs_weighs_as_much_in_the_score():
    race = Race(2, 2, 20, 20, 0.1, shares=[1.0, 0.25])
    assert race.met[:, 1].sum() == 5 and race.met[:, 0].all()
    points = np.zeros((20, 2))
    points[:, 0] = 1.0  # wins every pair against the first opponent, loses every one against the second
    race.record(0, 0, 20, points)
    assert race.mean(0) == pytest.approx(0.5)  # not 20 / 25: each opponent counts the same
    other = points.copy()
    other[:, 1] = 0.75  # and better against the second by 0.75 on its 5 pairs
    other[~race.met[:, 1], 1] = 0.0  # what it scored where it did not play is never counted
    race.record(1, 0, 20, other)
    assert race.mean(1) == pytest.approx(0.875) and race.leader() == 1
    assert race.mean_points(race.points[0] - race.points[1]) == pytest.approx(-0.375)


def test_the_race_scales_a_sparse_opponent_s_differences_to_its_weight_in_the_score():
    """A little better against the dense opponent, worse by a quarter against the one met on a quarter of the
    pairs: dropped, because those differences count 4 times in the test as in the score (unscaled, they would be
    the smallest and the test would not find it worse)."""
    race = Race(2, 2, 200, 40, 0.1, shares=[1.0, 0.25])
    sparse = race.met[:40, 1]
    assert sparse.sum() == 10
    leader = np.full((40, 2), 0.5)
    other = np.column_stack([np.where(np.arange(40) < 21, 1.0, 0.0), np.full(40, 0.25)])
    race.record(0, 0, 40, leader)
    race.record(1, 0, 40, other)
    assert race.mean(1) == pytest.approx((0.525 + 0.25) / 2)
    assert race.check() == [1] and race.standings[1].p_value < 0.05
    assert race.value(1) < race.value(0)


def play(race: Race, strengths: list, rng) -> None:
    """Run a race where candidate c wins each game with probability strengths[c] (draws never)."""
    for start, stop in race.blocks:
        for c in race.alive:
            games = rng.random((stop - start, race.units_per_pair, 2)) < strengths[c]
            race.record(c, start, stop, games.mean(axis=-1))
        race.check()


def test_a_clearly_worse_candidate_is_dropped_early_and_the_best_plays_every_pair():
    race = Race(3, 2, 200, 20, 0.1)
    play(race, [0.8, 0.2, 0.75], np.random.default_rng(1))
    best, worse, close = race.standings
    assert best.alive and best.pairs_played == 200
    assert not worse.alive and worse.pairs_played == 20 and worse.dropped_by == 0 and worse.p_value < 0.1
    assert race.value(0) == pytest.approx(race.mean(0))
    # A dropped candidate's value: the best survivor's result plus their paired difference, below the best.
    expected = race.mean(0) + np.mean(race.points[1, :20] - race.points[0, :20])
    assert race.value(1) == pytest.approx(max(expected, 0.0)) and race.value(1) < race.value(0)


def test_nobody_is_dropped_without_pruning_and_equal_candidates_mostly_survive():
    race = Race(4, 1, 60, 10, 0.1, pruning=False)
    play(race, [0.9, 0.1, 0.5, 0.5], np.random.default_rng(2))
    assert all(s.alive and s.pairs_played == 60 for s in race.standings)
    equal = Race(6, 2, 300, 20, 0.01)
    play(equal, [0.5] * 6, np.random.default_rng(3))
    assert len(equal.alive) >= 5  # a false drop needs p < 0.01


def test_each_candidate_is_dropped_on_its_own_wilcoxon_test_against_the_leader():
    """Many candidates of mixed strengths, checked after one block: exactly those whose one-sided signed-rank
    test against the leader (scipy, one candidate at a time, zero differences split) gives p < the threshold
    are dropped, each with its own p-value."""
    from scipy.stats import wilcoxon

    rng = np.random.default_rng(4)
    strengths = rng.uniform(0.3, 0.7, 24)
    race = Race(24, 3, 100, 15, 0.2)
    for c in range(24):
        race.record(c, 0, 15, (rng.random((15, 3, 2)) < strengths[c]).mean(axis=-1))
    leader = race.leader()
    expected = {}
    for c in range(24):
        diff = (race.points[c, :15] - race.points[leader, :15]).ravel()
        if c != leader and diff.mean() < 0 and diff.any():
            expected[c] = wilcoxon(diff, alternative="less", zero_method="zsplit").pvalue
    dropped = race.check()
    assert dropped == sorted(c for c, p in expected.items() if p < 0.2) and 3 <= len(dropped) < 23
    for c in dropped:
        assert race.standings[c].p_value == pytest.approx(expected[c]) and race.standings[c].dropped_by == leader


def test_the_leader_is_the_highest_mean_and_a_candidate_better_than_it_is_never_dropped():
    race = Race(2, 1, 40, 20, 0.5)
    race.record(0, 0, 20, np.full((20, 1), 0.25))
    race.record(1, 0, 20, np.full((20, 1), 0.75))
    assert race.leader() == 1
    assert race.check() == [0]
    tie = Race(2, 1, 40, 20, 0.5)
    for c in range(2):
        tie.record(c, 0, 20, np.full((20, 1), 0.5))
    assert tie.check() == [] and tie.leader() == 0


def test_nobody_is_dropped_after_the_last_block_a_full_result_is_no_estimate():
    race = Race(2, 1, 20, 20, 0.5)
    race.record(0, 0, 20, np.full((20, 1), 0.25))
    race.record(1, 0, 20, np.full((20, 1), 0.75))
    assert race.check() == [] and len(race.alive) == 2
    assert race.value(0) == pytest.approx(0.25)


def test_an_estimate_stays_strictly_below_the_best_survivor():
    race = Race(2, 1, 40, 20, 0.5)
    race.record(0, 0, 20, np.full((20, 1), 0.5))
    race.record(1, 0, 20, np.r_[np.full((10, 1), 0.0), np.full((10, 1), 1.0)])  # mean 0.5: a tie
    race.standings[1].alive = False
    race.record(0, 20, 40, np.full((20, 1), 0.5))
    assert race.value(1) == pytest.approx(race.value(0) - BELOW_BEST)


def test_the_paired_difference_and_its_interval():
    bot = np.array([[1, 1], [1, -1], [1, 1], [-1, -1]])  # points 1, .5, 1, 0
    base = np.array([[-1, -1], [-1, -1], [1, -1], [-1, -1]])  # points 0, 0, .5, 0
    mean, (low, high) = paired_difference(bot, base)
    assert mean == pytest.approx(0.5) and low < 0.5 < high
    assert paired_difference(base, base) == (0.0, (0.0, 0.0))


def test_the_gauntlet_flags_a_bot_made_worse_as_a_regression():
    """A heuristic that never completes a tree before the last day, and seeds nothing, against the defaults; the
    defaults against themselves play their games once."""
    runner = GameRunner(3, 1)
    worse = parse_bot("heuristic:complete_max_left=0,seed_max_trees=1,grow_w_sun=0", 3)
    opponents = {"greedy": parse_bot("greedy"), "heuristic": parse_bot("heuristic")}
    gauntlet = run_gauntlet(runner, worse, opponents, game_seeds(11, 60, "match"), parse_bot("heuristic"))
    assert gauntlet.regressions == ["heuristic"] or set(gauntlet.regressions) == {"greedy", "heuristic"}
    row = {r.opponent: r for r in gauntlet.rows}["heuristic"]
    assert row.difference.regression and row.difference.ci[1] < 0 and row.difference.elo < 0
    played = runner.games_played
    same = run_gauntlet(runner, parse_bot("heuristic"), opponents, game_seeds(11, 60, "match"),
                        parse_bot("heuristic"))
    assert same.regressions == [] and all(r.difference.mean == 0 for r in same.rows)
    assert runner.games_played - played == 2 * 60 * len(opponents)  # a bot that plays as its baseline: once
    assert played == 2 * (2 * 60 * len(opponents))
    assert "REGRESSION" in "\n".join(gauntlet.table()) and "REGRESSION" not in "\n".join(same.table())


def test_a_batch_is_dealt_so_each_share_gets_every_opponent_and_the_games_do_not_change():
    """Each share of a batch meets several opponents, and two threads play the same games as one: the search bot
    keeps scratch memory in its seat, which threads must not share."""
    from tuner.play.pools import deal

    shares = deal(10, 3)
    assert sorted(np.concatenate(shares).tolist()) == list(range(10))
    units_of = np.repeat(np.arange(5), 2)  # units ordered by opponent, two each
    assert all(len(set(units_of[s].tolist())) >= 3 for s in shares)  # no process gets one opponent only
    assert [len(s) for s in deal(2, 8)] == [1, 1]
    bots = [parse_bot("heuristic"), parse_bot("heuristic:seed_max_trees=2")]
    opponents = [parse_bot(name) for name in ("greedy", "heuristic", "sunrate", "search:4")]
    n = 400
    rng = np.random.default_rng(4)
    args = (bots, opponents, rng.integers(0, 2, n), np.repeat(np.arange(4), n // 4), game_seeds(7, n, "match"))
    one, two = GameRunner(3, 1), GameRunner(3, 2)
    try:
        assert np.array_equal(one.play_units(*args).margins, two.play_units(*args).margins)
    finally:
        two.close()


def test_guided_shares_cover_the_units_once_shrink_to_the_smallest_and_each_takes_from_every_opponent():
    from tuner.play.pools import guided

    units_of = np.repeat(np.arange(8), 500)  # units grouped by opponent, as a batch gives them
    shares = guided(len(units_of), 2, 75)
    assert sorted(np.concatenate(shares).tolist()) == list(range(len(units_of)))
    sizes = [len(s) for s in shares]
    assert sizes[0] == 1000 and sizes == sorted(sizes, reverse=True) and min(sizes[:-1]) == 75
    assert len(shares) < 30
    for share in shares:  # however small, a share meets every opponent nearly in proportion
        counts = np.bincount(units_of[share], minlength=8)
        assert counts.max() - counts.min() <= max(2, len(share) // 20)
    assert [len(s) for s in guided(3, 2, 75)] == [3]


def test_a_small_batch_of_games_is_shared_by_every_thread():
    """A finalist's games at the playing budget (4 opponents x 30 pairs) go to both threads in small shares, not
    in one share of 75 units and one of 45; a large batch keeps shares of 75 units at least."""
    from tuner.play.pools import guided
    from tuner.play.runner import MIN_UNITS_PER_SHARE, smallest_share

    runner = GameRunner(3, 2)
    try:
        pending = runner.start_units([parse_bot("greedy")], [parse_bot("greedy")] * 4, np.zeros(120, np.int64),
                                     np.repeat(np.arange(4), 30), game_seeds(3, 120, "match"))
        pending.result()
    finally:
        runner.close()
    sizes = [len(share) for share in pending.shares]
    assert sum(sizes) == 120 and len(sizes) >= 2 * 4 and max(sizes) <= 120 // 4
    assert min(len(share) for share in guided(4000, 2, smallest_share(4000, 2))[:-1]) == MIN_UNITS_PER_SHARE


def test_started_units_play_on_the_threads_while_the_caller_goes_on_and_give_the_same_games():
    """The tuner starts a trial's games as soon as it is asked and asks the next meanwhile: `start_units` returns
    at once, the threads play without the caller waiting, and the margins are those of one thread."""
    bots = [parse_bot("heuristic"), parse_bot("heuristic:seed_max_trees=2")]
    opponents = [parse_bot(name) for name in ("greedy", "sunrate", "search:4")]
    n = 300
    args = (bots, opponents, np.arange(n) % 2, np.arange(n) % 3, game_seeds(9, n, "match"))
    one, two = GameRunner(3, 1), GameRunner(3, 2)
    try:
        pending = two.start_units(*args)
        futures = pending.started.futures
        assert len(futures) > 2
        deadline = time.monotonic() + 60
        while not all(f.done() for f in futures) and time.monotonic() < deadline:
            time.sleep(0.01)  # the caller does something else: nobody waits for the results
        assert all(f.done() for f in futures)
        assert np.array_equal(pending.result().margins, one.play_units(*args).margins)
        assert two.games_played == 2 * n
        cancelled = two.start_units(*args)
        cancelled.cancel()  # the shares not begun are dropped, the running ones waited for
        assert all(f.done() for f in cancelled.started.futures)
        assert any(f.cancelled() for f in cancelled.started.futures)
    finally:
        two.close()


def test_the_thread_pool_runs_its_tasks_at_once_and_gives_their_results_in_order():
    from tuner.play.pools import ThreadPool

    both_running = threading.Barrier(2, timeout=10)

    def task(i):
        both_running.wait()  # only two threads at once get past this
        return i * i

    pool = ThreadPool(2)
    try:
        assert pool.map(task, [(i,) for i in range(6)]) == [0, 1, 4, 9, 16, 25]
    finally:
        pool.close()
    assert ThreadPool(1).map(lambda i: -i, [(1,), (2,)]) == [-1, -2]


def test_the_calling_thread_works_while_the_threads_play_and_on_an_error_cancels_the_rest_and_waits():
    from tuner.play.pools import ThreadPool

    both = threading.Barrier(2, timeout=10)
    started, ended = [], []

    def task(i):
        started.append(i)
        if i == 0:
            both.wait()  # passes only once the calling thread runs `meanwhile`
        time.sleep(0.2)
        ended.append(i)
        return i

    def meanwhile():
        both.wait()
        raise OSError("a storage write failed")

    pool = ThreadPool(2)
    try:
        with pytest.raises(OSError):
            pool.map(task, [(i,) for i in range(8)], meanwhile)
        assert sorted(started) == sorted(ended)  # nothing runs on once the error is out
        assert 0 in ended and len(ended) < 8  # the tasks not started were cancelled
        started.clear()
        ended.clear()
        done = []
        assert pool.map(task, [(5,), (6,)], lambda: done.append(len(ended))) == [5, 6] and done == [0]
    finally:
        pool.close()
    order = []
    assert ThreadPool(1).map(lambda i: order.append(i) or i, [(1,)], lambda: order.append("first")) == [1]
    assert order == ["first", 1]


def test_the_soft_minimum_lies_between_the_worst_and_the_mean_gain():
    from tuner.search.race import soft_minima, soft_minimum

    gains = np.array([0.20, 0.15, 0.10, -0.05])
    assert soft_minimum(gains, 0.0) == pytest.approx(-0.05)
    assert -0.05 <= soft_minimum(gains, 0.02) < 0  # one loss outweighs three gains
    assert soft_minimum(gains, 10.0) == pytest.approx(gains.mean(), abs=1e-3)
    assert soft_minimum(np.full(5, 0.07), 0.02) == pytest.approx(0.07)
    rows = np.array([gains, gains + 0.1, np.full(4, 0.3)])
    assert soft_minima(rows, 0.02) == pytest.approx([soft_minimum(row, 0.02) for row in rows])


def test_with_min_gain_a_loss_to_one_opponent_is_not_bought_by_gains_elsewhere():
    """Against a reference that scores 0.5 everywhere: candidate 0 gains a lot against two opponents and loses to
    the third, candidate 1 gains a little against all three. By the mean, 0 leads; by the soft minimum of the
    gains, 1 leads and 0 is dropped (a paired bootstrap of the objective)."""
    rng = np.random.default_rng(3)
    race = Race(2, 3, 200, 40, 0.1, softness=0.02)
    assert race.reference == 2
    base = np.full((40, 3), 0.5)
    race.record(2, 0, 40, base)
    trader = np.clip(base + [0.4, 0.4, -0.15] + rng.normal(0, 0.1, (40, 3)), 0, 1)
    steady = np.clip(base + [0.08, 0.08, 0.08] + rng.normal(0, 0.1, (40, 3)), 0, 1)
    race.record(0, 0, 40, trader)
    race.record(1, 0, 40, steady)
    assert race.mean_points(race.points[0, :40]) > race.mean_points(race.points[1, :40])
    assert race.mean(1) > 0 > race.mean(0)
    assert race.gains(1, 40) == pytest.approx(steady.mean(axis=0) - 0.5)
    assert race.leader() == 1 and race.contenders == [0, 1] and race.alive == [0, 1, 2]
    assert race.check() == [0]
    assert race.alive == [1, 2]  # the reference plays on, never dropped nor leading
    assert race.value(0) < race.value(1) - BELOW_BEST / 2
    close = Race(2, 3, 200, 40, 0.1, softness=0.02)  # a candidate a hair behind the leader plays on
    close.record(2, 0, 40, base)
    close.record(0, 0, 40, steady)
    close.record(1, 0, 40, np.clip(steady - 0.005 + rng.normal(0, 0.05, (40, 3)), 0, 1))
    assert close.check() == []
    plain = Race(2, 3, 200, 40, 0.1)
    plain.record(0, 0, 40, trader)
    plain.record(1, 0, 40, steady)
    assert plain.leader() == 0 and plain.check() == [1]  # the mean would have kept the trader
