import json
import math

import pytest

from tests.conftest import program, run_tuner
from tuner.play.seeds import game_seeds
from tuner.play.stats import elo_difference, tally, wilson_interval


def test_game_seeds_are_stable_distinct_and_stream_separated():
    assert game_seeds(7, 5) == game_seeds(7, 5)
    assert game_seeds(7, 3, start=2) == game_seeds(7, 5)[2:]
    search, validation = game_seeds(7, 2000, "search"), game_seeds(7, 2000, "validation")
    assert len(set(search)) == 2000 and not set(search) & set(validation)
    assert all(-(2**63) <= s < 2**63 for s in search)
    assert game_seeds(8, 5) != game_seeds(7, 5)


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson_interval(8, 10)  # 8 of 10: Wilson 95% is about [0.490, 0.943]
    assert math.isclose(low, 0.4902, abs_tol=1e-3) and math.isclose(high, 0.9433, abs_tol=1e-3)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0


def test_elo_is_zero_at_even_and_finite_at_the_extremes():
    assert elo_difference(0.5, 100) == 0
    assert math.isclose(elo_difference(0.75, 100), 400 * math.log10(3))
    assert math.isfinite(elo_difference(1.0, 100)) and elo_difference(1.0, 100) > 0


def test_tally_counts_draws_as_half():
    t = tally([3, 0, -1, 5])
    assert (t.wins, t.draws, t.losses) == (2, 1, 1)
    assert t.win_rate == pytest.approx(2.5 / 4)
    assert t.mean_margin == pytest.approx(7 / 4)
    assert t.margin_ci[0] < t.mean_margin < t.margin_ci[1]


def test_match_json_plays_each_seed_twice_with_sides_swapped():
    result = run_tuner("match", "greedy", "random:4", "--games", "40", "--seed", "3", "--jobs", "2", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 40 and len(report["results"]) == 40
    seeds = [r["seed"] for r in report["results"]]
    assert seeds[0::2] == seeds[1::2] and len(set(seeds)) == 20
    assert [r["a_side"] for r in report["results"][:4]] == [0, 1, 0, 1]
    margins = [r["scores"][r["a_side"]] - r["scores"][1 - r["a_side"]] for r in report["results"]]
    assert report["wins"] == sum(m > 0 for m in margins) and report["wins"] >= 38
    assert report["win_rate_ci"][0] <= report["win_rate"] <= report["win_rate_ci"][1]
    assert set(report) >= {"draws", "losses", "elo", "elo_ci", "mean_margin", "versions"}
    again = json.loads(run_tuner("match", "greedy", "random:4", "--games", "40", "--seed", "3", "--json").stdout)
    assert again["results"] == report["results"]  # one process or two: the same games
    every_core = json.loads(run_tuner("match", "greedy", "random:4", "--games", "40", "--seed", "3", "--jobs", "all",
                                      "--json").stdout)
    assert every_core["results"] == report["results"]


def test_match_with_a_program_runs_through_the_referee():
    result = run_tuner("match", program("behave.py"), "greedy", "--games", "2", "--json",
                       "--first-timeout", "3000", "--turn-timeout", "1000")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["losses"] == 2 and all(min(r["scores"]) >= 0 for r in report["results"])


def test_match_text_output_and_bad_input():
    result = run_tuner("match", "greedy:12,2", "greedy:14,3", "--games", "100")
    assert result.returncode == 0
    assert "win rate" in result.stdout and "Elo difference" in result.stdout and "95% CI" in result.stdout
    for args, needle in ((["--games", "3"], "must be even"), (["--league", "5"], "league must be"),
                         (["--jobs", "0"], "positive integer or 'all'")):
        bad = run_tuner("match", "greedy", "random", *args)
        assert bad.returncode == 2 and needle in bad.stderr and "Traceback" not in bad.stderr


def test_a_match_reports_the_games_a_program_was_disqualified_in():
    args = ("match", program("behave.py", "hang", "3"), "greedy", "--games", "2",
            "--first-timeout", "2000", "--turn-timeout", "200")
    report = json.loads(run_tuner(*args, "--json").stdout)
    assert report["disqualified"] == {"A": 2, "B": 0} and report["losses"] == 2
    for game in report["results"]:
        (entry,) = game["deactivated"]
        assert entry["player"] == game["a_side"] and entry["reason"] == "Timeout!"
        assert entry["note"] == "no answer in time"
        assert game["scores"][game["a_side"]] == -1
    text = run_tuner(*args).stdout
    assert "was disqualified in 2 game(s)" in text and "Timeout!" in text and "--turn-timeout" in text
    crashed = run_tuner("match", program("behave.py", "crash", "3"), "greedy", "--games", "2",
                        "--first-timeout", "2000", "--turn-timeout", "1000").stdout
    assert "was disqualified in 2 game(s)" in crashed and "(exited with code 1)" in crashed
    assert "stderr: RuntimeError: the bot crashed on purpose" in crashed and "--turn-timeout" not in crashed
    huge = run_tuner("match", program("behave.py", "bigline", "2"), "greedy", "--games", "2",
                     "--first-timeout", "2000", "--turn-timeout", "1000").stdout
    (line,) = [line for line in huge.splitlines() if "was disqualified" in line]
    assert "Invalid Input" in line and line.endswith("...") and len(line) < 400
    clean = json.loads(run_tuner("match", "greedy", "random:1", "--games", "2", "--json").stdout)
    assert clean["disqualified"] == {"A": 0, "B": 0} and all("deactivated" not in g for g in clean["results"])
