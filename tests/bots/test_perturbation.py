"""Opponents that are a distribution (`NAME~J`): each game seed draws the style parameters anew, the same on both
sides of a seed pair, within the parameters' ranges, the name's own settings and resources untouched."""
from __future__ import annotations

import numpy as np
import pytest

from bots.contract.names import BotSpecError, bot_with_params, parse_bot
from bots.contract.perturbation import drawn_params
from bots.contract.seat import new_seat_array
from bots.registry import schema_for
from bots.running.arena import play_batch
from bots.running.player import player_for
from engine.referee import play_refereed_game
from tests.conftest import run_tuner
from tuner.league.league import identity_key


def drawn(name: str, seed: int) -> dict:
    bot = parse_bot(name)
    schema = schema_for(bot.plugin)
    vector = drawn_params(bot.seat, seed)
    return {p.name: float(vector[i]) for i, p in enumerate(schema)}


def test_the_same_seed_draws_the_same_opponent_and_other_seeds_other_ones():
    first = [drawn("heuristic~0.2", seed) for seed in range(1, 21)]
    assert first == [drawn("heuristic~0.2", seed) for seed in range(1, 21)]
    distinct = {tuple(d.values()) for d in first}
    assert len(distinct) == 20
    defaults = schema_for("heuristic").defaults()
    moved = {name for d in first for name in d if d[name] != defaults[name]}
    assert len(moved) >= 25  # nearly every parameter moves on some seed


def test_draws_stay_within_the_spread_and_the_ranges_and_respect_types():
    schema = schema_for("heuristic")
    defaults = schema.defaults()
    for seed in range(1, 200):
        for param in schema:
            value = drawn("heuristic~0.2", seed)[param.name]
            low, high = param.bounds()
            assert low <= value <= high
            assert abs(value - defaults[param.name]) <= 0.2 * (high - low) + 0.5
            if param.type == "int":
                assert value == int(value)


def test_the_name_s_own_settings_and_resources_are_not_drawn():
    for seed in range(1, 30):
        search = drawn("search:20~0.5", seed)
        assert search["budget"] == 20 and search["bank_cap"] == 4 and search["max_alternatives"] == 200
        changed = drawn("heuristic:sell_ratio=1.2~0.5", seed)
        assert changed["sell_ratio"] == 1.2
    assert len({drawn("search~0.5", seed)["min_gain"] for seed in range(1, 30)}) > 10  # half clip at 0
    assert {drawn("search~0.5", seed)["budget"] for seed in range(1, 30)} == {40}


def test_games_meet_the_drawn_parameters_on_both_sides_in_the_arena_and_the_referee():
    """A distribution's game on a seed is the game of the point bot with that seed's draw, whichever side it plays
    and whichever engine plays it."""
    spread = parse_bot("heuristic~0.3")
    greedy = parse_bot("greedy")
    schema = schema_for("heuristic")
    for seed in (3, 11, 19):
        vector = drawn_params(spread.seat, seed)
        point = bot_with_params("heuristic", {p.name: vector[i] for i, p in enumerate(schema)}, "point", {})
        for swapped in (False, True):
            seats, fixed = new_seat_array(2), new_seat_array(2)
            seats[0], seats[1] = spread.seat[0], greedy.seat[0]
            fixed[0], fixed[1] = point.seat[0], greedy.seat[0]
            a = play_batch(np.array([seed]), 3, seats, [swapped])
            b = play_batch(np.array([seed]), 3, fixed, [swapped])
            assert a.score.tolist() == b.score.tolist()
        refereed = play_refereed_game(seed, 3, [player_for(spread), player_for(greedy)], records=False)
        assert refereed.outcome.final_scores == play_batch(np.array([seed]), 3, seats).score[0].tolist()
    plain = play_batch(np.arange(1, 41), 3, _seats("heuristic", "greedy"))
    drawn_games = play_batch(np.arange(1, 41), 3, _seats("heuristic~0.3", "greedy"))
    assert plain.score.tolist() != drawn_games.score.tolist()


def _seats(a: str, b: str) -> np.ndarray:
    seats = new_seat_array(2)
    seats[0], seats[1] = parse_bot(a).seat[0], parse_bot(b).seat[0]
    return seats


def test_bad_spreads_are_one_line_errors_and_a_league_tells_a_distribution_from_its_point():
    with pytest.raises(BotSpecError, match=r"in \(0, 1\]"):
        parse_bot("heuristic~1.5")
    with pytest.raises(BotSpecError, match="no parameters to draw"):
        parse_bot("wait~0.2")
    with pytest.raises(BotSpecError, match="did you mean 'heuristic'"):
        parse_bot("heurstic~0.2")
    assert identity_key(parse_bot("heuristic")) != identity_key(parse_bot("heuristic~0.2"))
    assert identity_key(parse_bot("heuristic~0.2")) != identity_key(parse_bot("heuristic~0.3"))


def test_a_match_and_a_gauntlet_take_a_distribution():
    match = run_tuner("match", "heuristic", "heuristic~0.25", "--games", "20", "--json")
    assert match.returncode == 0, match.stderr
    gauntlet = run_tuner("gauntlet", "heuristic", "--against", "sunrate~0.2", "rush~0.2", "--games", "10")
    assert gauntlet.returncode == 0, gauntlet.stderr
    assert "sunrate~0.2" in gauntlet.stdout and "rush~0.2" in gauntlet.stdout


def test_a_distribution_is_not_exported(tmp_path):
    result = run_tuner("export", "--bot", "heuristic~0.2", "-o", str(tmp_path / "bot.py"))
    assert result.returncode == 2 and "is a distribution of bots" in result.stderr
    assert "'heuristic'" in result.stderr and not (tmp_path / "bot.py").exists()
