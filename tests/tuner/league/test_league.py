"""`tuner league`: every pair on common seeds, games kept in SQLite, resumable; Bradley-Terry ratings."""
import json
import math
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.conftest import ROOT, program, run_tuner
from tuner.cli import main
from tuner.league.ratings import (
    ELO_PER_NAT,
    expected_score,
    fit_bradley_terry,
    rate,
    refit_many,
    separated,
    win_rate_matrix,
)

FIVE = ["greedy", "random:1", "wait", "heuristic", "greedy:10,3"]


# ---- ratings: pure functions ----------------------------------------------------------------------------------

def synthetic_league(true: np.ndarray, seeds: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Per-seed results of a league whose bots have the given true ratings: every pair plays each seed twice,
    each game won by i with the model's probability (no draws)."""
    n = len(true)
    points, games = np.zeros((seeds, n, n)), np.zeros((seeds, n, n))
    for i in range(n):
        for j in range(i + 1, n):
            won = rng.binomial(2, expected_score(true[i], true[j]), size=seeds)
            points[:, i, j], points[:, j, i] = won, 2 - won
            games[:, i, j] = games[:, j, i] = 2
    return points, games


def test_known_strengths_are_recovered_with_intervals_that_cover_them():
    """A beats B 75% of the time (+191 Elo), B beats C 75%: the fit finds the order, the gaps, and its 95%
    intervals cover the true (mean-0) ratings in about 95% of leagues."""
    gap = 400 * math.log10(3)
    true = np.array([gap, 0.0, -gap])
    true -= true.mean()
    rng = np.random.default_rng(11)
    covered, leagues = 0, 40
    for k in range(leagues):
        ratings = rate(*synthetic_league(true, 200, rng), draws=300)
        if k == 0:
            assert list(np.argsort(-ratings.rating)) == [0, 1, 2]
            assert abs(ratings.rating[0] - ratings.rating[1] - gap) < 60
            assert ratings.rating.sum() == pytest.approx(0, abs=1e-9)
        covered += int(((ratings.low <= true) & (true <= ratings.high)).sum())
    assert 0.88 <= covered / (3 * leagues) <= 1.0


def test_draws_count_half_and_an_all_draw_league_is_level():
    n = 3
    games = 10 * (1 - np.eye(n))
    assert np.allclose(fit_bradley_terry(games / 2, games), 0)
    # 6 wins, 2 draws, 2 losses is a 70% score: about +147 Elo between two bots (less the prior's pull)
    points = np.array([[0, 7.0], [3.0, 0]])
    gap = np.diff(fit_bradley_terry(points, np.array([[0, 10.0], [10.0, 0]])))[0]
    assert -400 * math.log10(7 / 3) < gap < -0.8 * 400 * math.log10(7 / 3)


def test_the_scipy_fit_and_the_bootstraps_newton_refits_agree():
    true = np.array([300.0, 120.0, 0.0, -50.0, -370.0])
    points, games = synthetic_league(true, 100, np.random.default_rng(3))
    fitted = fit_bradley_terry(points.sum(0), games.sum(0))
    again = refit_many(points.sum(0)[None], games.sum(0)[None], np.zeros(5))[0]
    assert np.allclose(fitted, again, atol=1e-4)
    # the fit is a maximum: the gradient of the log-likelihood vanishes (expected points == actual points + prior)
    x = fitted / ELO_PER_NAT
    p = 1 / (1 + np.exp(x[None, :] - x[:, None]))
    totals = games.sum(0) + (1 - np.eye(5))
    assert np.allclose((totals * p).sum(1), points.sum(0).sum(1) + 2, atol=1e-6)


def test_a_bot_that_wins_every_game_gets_a_finite_rating_and_is_reported():
    points = np.array([[0, 20.0, 20.0], [0, 0, 11.0], [0, 9.0, 0]])
    games = np.array([[0, 20.0, 20.0], [20.0, 0, 20.0], [20.0, 20.0, 0]])
    rating = fit_bradley_terry(points, games)
    assert np.isfinite(rating).all() and rating[0] > rating[1] > rating[2]
    assert separated(points, games) == [(0, 1), (0, 2)]


def test_the_win_rate_matrix_is_antisymmetric():
    points, games = synthetic_league(np.array([100.0, 0.0, -20.0, -80.0]), 50, np.random.default_rng(5))
    rates = win_rate_matrix(points.sum(0), games.sum(0))
    off = ~np.eye(4, dtype=bool)
    assert np.allclose((rates + rates.T)[off], 1.0) and np.isnan(np.diag(rates)).all()


def test_inconsistent_results_are_refused():
    with pytest.raises(ValueError, match="points"):
        fit_bradley_terry(np.array([[0, 3.0], [3.0, 0]]), np.array([[0, 4.0], [4.0, 0]]))
    with pytest.raises(ValueError, match="two bots"):
        fit_bradley_terry(np.zeros((1, 1)), np.zeros((1, 1)))


# ---- the command --------------------------------------------------------------------------------------------

def games_in(db) -> int:
    """Games stored in a league file (0 before it has its tables), read while another process writes it."""
    try:
        connection = sqlite3.connect(db, timeout=30)
        try:
            return connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.OperationalError:
        return 0


def stored_games(db) -> list:
    connection = sqlite3.connect(db)
    try:
        return connection.execute("SELECT b1.name, b2.name, pair_index, seed, a_side, score_a, score_b FROM games "
                                  "JOIN bots b1 ON b1.id = bot_a JOIN bots b2 ON b2.id = bot_b "
                                  "ORDER BY bot_a, bot_b, pair_index, a_side").fetchall()
    finally:
        connection.close()


def league_json(*args) -> dict:
    result = run_tuner("league", *args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def table(report: dict) -> dict:
    """What must not depend on how the games were played (in one run or several): all but the run's own facts."""
    return {key: value for key, value in report.items() if key != "played"} | {
        "settings": {k: v for k, v in report["settings"].items() if k != "database"}}


@pytest.fixture(scope="module")
def five(tmp_path_factory):
    """A league of five in-engine bots, 10 games per pair, and its JSON report."""
    db = tmp_path_factory.mktemp("league") / "five.db"
    return db, league_json(*FIVE, "--games", "10", "--db", str(db), "--jobs", "2")


def test_a_league_plays_every_pair_on_common_seeds(five):
    db, report = five
    assert report["played"] == 100 == report["games"] == games_in(db)
    assert [bot["name"] for bot in report["bots"]][0] == "heuristic"
    assert {bot["name"] for bot in report["bots"]} == set(FIVE)
    for bot in report["bots"]:
        assert bot["games"] == 40 and bot["wins"] + bot["draws"] + bot["losses"] == 40
        assert bot["rating_ci"][0] <= bot["rating"] <= bot["rating_ci"][1]
    assert abs(sum(bot["rating"] for bot in report["bots"])) < 0.1  # the anchor: mean 0
    matrix = report["matrix"]
    for a in FIVE:
        assert matrix[a][a] is None
        for b in FIVE:
            if a != b:
                assert matrix[a][b] + matrix[b][a] == pytest.approx(1.0)
    assert report["settings"].items() >= {"league": 3, "seed": 0, "games_per_pair": 10}.items()
    assert set(report) >= {"bots", "matrix", "settings", "versions", "rating", "separated"}
    # A pair's games are the games `tuner match` plays with the same seed: the same seeds, sides and scores.
    match = json.loads(run_tuner("match", "greedy", "random:1", "--games", "10", "--json").stdout)
    pair = [(seed, side, a, b) for name_a, name_b, _, seed, side, a, b in stored_games(db)
            if (name_a, name_b) == ("greedy", "random:1")]
    assert pair == [(g["seed"], g["a_side"], g["scores"][g["a_side"]], g["scores"][1 - g["a_side"]])
                    for g in match["results"]]


def test_the_table_text_and_the_plot(five, tmp_path):
    db, report = five
    picture = tmp_path / "matrix.png"
    result = run_tuner("league", *FIVE, "--db", str(db), "--plot", str(picture))
    assert result.returncode == 0, result.stderr
    assert "0 played now, 100 from" in result.stdout  # --games: the database's last run
    assert "95% CI" in result.stdout and "Win rate of the row's bot" in result.stdout
    assert result.stdout.index("heuristic") < result.stdout.index("wait")
    assert result.stderr == ""  # no progress bar in a pipe
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_progress_is_shown_on_a_terminal(tmp_path):
    """A tqdm bar of the games on stderr when it is a terminal (a pseudo-terminal here); quiet in pipes."""
    import fcntl
    import os
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "tuner.cli", "league", "greedy", "wait", "--games", "20",
                                "--db", str(tmp_path / "bar.db")], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    output = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        output.append(chunk)
    process.communicate(timeout=60)
    os.close(master)
    assert process.returncode == 0
    assert "20/20" in b"".join(output).decode(errors="replace")


def test_adding_a_bot_plays_only_its_new_games(five, tmp_path):
    db, _ = five
    copy = tmp_path / "six.db"
    copy.write_bytes(db.read_bytes())
    before = stored_games(copy)
    report = league_json(*FIVE, "greedy:14,2", "--games", "10", "--db", str(copy))
    assert report["played"] == 5 * 10 and games_in(copy) == 150
    assert set(before) < set(stored_games(copy))  # the old games are kept as they were
    # more games per pair extend the same seed list: only the new seeds are played
    report = league_json(*FIVE[:3], "--games", "14", "--db", str(copy))
    assert report["played"] == 3 * 4 and report["games"] == 3 * 14


def test_a_bot_is_known_by_what_it_is_not_by_its_name(five, tmp_path):
    """greedy:FILE.json with greedy's own defaults is greedy (no new game, its new name shown); changing the file
    makes another bot, which plays all its games."""
    db, _ = five
    copy = tmp_path / "renamed.db"
    copy.write_bytes(db.read_bytes())
    params = tmp_path / "greedy.json"
    params.write_text(json.dumps({"bot": "greedy", "league": 3, "params": {"complete_day": 12, "max_seeds": 2}}))
    named = f"greedy:{params}"
    report = league_json(named, *FIVE[1:], "--db", str(copy))
    assert report["played"] == 0 and named in report["matrix"]
    params.write_text(json.dumps({"bot": "greedy", "league": 3, "params": {"complete_day": 13, "max_seeds": 2}}))
    report = league_json(named, *FIVE[1:], "--db", str(copy))
    assert report["played"] == 4 * 10 and games_in(copy) == 140


def wait_for_games(process, db, at_least: int, timeout: float = 300) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = games_in(db)
        if count >= at_least:
            return count
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError(f"no {at_least} games in {db} after {timeout} s")


@pytest.mark.slow  # a league stopped and played again: CI's second step
def test_an_interrupted_league_keeps_its_games_and_resumes_to_the_same_table(tmp_path):
    """Ctrl-C, then SIGKILL, mid-run (a program plays through the referee: seconds a game), then a full run: the
    same table as one uninterrupted run, and every game once. The program waits 0.5 s before its first answer,
    so the run is still playing when it is stopped, however fast the machine."""
    bots = [program("behave.py", "slowstart"), "greedy", "wait", "random:1"]
    limits = ["--first-timeout", "5000", "--turn-timeout", "2000", "--games", "4"]
    reference = league_json(*bots, *limits, "--db", str(tmp_path / "reference.db"))
    db = tmp_path / "interrupted.db"
    args = [sys.executable, "-m", "tuner.cli", "league", *bots, *limits, "--db", str(db), "--json"]

    # Ctrl-C as from a terminal: a shell script's background job (`.ci/run ... &`) would pass SIGINT on ignored.
    stopped = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for_games(stopped, db, 2)
    stopped.send_signal(signal.SIGINT)
    out, err = stopped.communicate(timeout=120)
    assert stopped.returncode == 130 and "interrupted" in err and "Traceback" not in err and out == ""
    kept = games_in(db)
    assert 2 <= kept < reference["games"]

    killed = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_games(killed, db, kept + 2)
    killed.kill()
    assert killed.wait(timeout=60) == -signal.SIGKILL
    kept_after_kill = games_in(db)
    assert kept + 2 <= kept_after_kill < reference["games"]

    resumed = league_json(*bots, *limits, "--db", str(db))
    assert resumed["played"] == reference["games"] - kept_after_kill
    assert table(resumed) == table(reference)
    assert games_in(db) == reference["games"] == 6 * 4


def test_a_programs_disqualifications_are_stored_and_counted(tmp_path):
    db = tmp_path / "dq.db"
    hang = program("behave.py", "hang", "3")
    report = league_json(hang, "greedy", "--games", "2", "--db", str(db), "--first-timeout", "2000",
                         "--turn-timeout", "200")
    row = {bot["name"]: bot for bot in report["bots"]}[hang]
    assert row["disqualified"] == 2 and row["losses"] == 2
    connection = sqlite3.connect(db)
    stored = connection.execute("SELECT a_side, score_a, dq_a, dq_b FROM games").fetchall()
    assert len(stored) == 2 and all(dq_b is None and score_a == -1 for _, score_a, _, dq_b in stored)
    assert [json.loads(dq_a)["player"] for _, _, dq_a, _ in stored] == [side for side, *_ in stored]
    assert all(json.loads(dq_a)["reason"] == "Timeout!" for _, _, dq_a, _ in stored)


@pytest.mark.parametrize("args, needle", [
    (["greedy", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["greedy"], "at least two bots"),
    (["greedy", "wait", "--games", "5"], "--games must be even"),
    (["greedy", "greedy:12,2"], "are the same bot"),
    (["greedy", "wait", "wait"], "given twice"),
])
def test_bad_input_is_one_line(args, needle, tmp_path, capsys):
    db = tmp_path / "league.db"
    assert main(["league", *args, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
    assert not db.exists()  # nothing is created for a run that cannot start


def test_a_database_that_is_not_this_leagues_is_refused(five, tmp_path, capsys):
    db, _ = five
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is no database\n" * 100)
    foreign = tmp_path / "foreign.db"
    sqlite3.connect(foreign).execute("CREATE TABLE notes (text TEXT)").connection.commit()
    for path, extra, needle in ((garbage, [], "is not a league database"),
                                (foreign, [], "not a league's"),
                                (db, ["--seed", "5"], "not --seed 5"),
                                (db, ["--league", "2"], "not --league 2"),
                                (tmp_path, [], "is a directory")):
        assert main(["league", "greedy", "wait", "--db", str(path), *extra]) == 2
        err = capsys.readouterr().err
        assert needle in err and err.count("\n") == 1, err
    assert games_in(db) == 100
