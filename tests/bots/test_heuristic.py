"""The `heuristic` bot: legal moves only (any parameters, every league), its schema and parameter files,
`tuner params`, its strength against greedy, and the exported file deciding as the compiled policy."""
import importlib.util
import json

import numpy as np
import pytest

from bots.contract.names import BotSpecError, bot_with_params, parse_bot
from bots.contract.seat import MAX_PARAMS, new_seat_array
from bots.heuristic.schema import SCHEMA
from bots.registry import kind_of
from bots.running.arena import DRAW, play_batch
from bots.running.dispatch import decide
from engine.game import Game
from engine.protocol import format_move
from export.standalone import export_bot
from tests.bots.checked_game import play_checked
from tests.conftest import run_tuner


def heuristic_seat(values=None):
    return bot_with_params("heuristic", values or {}, "heuristic", {}).seat


def random_values(rng):
    values = {}
    for p in SCHEMA:
        if p.type == "int":
            values[p.name] = int(rng.integers(p.low, p.high + 1))
        else:
            values[p.name] = float(rng.uniform(p.low, p.high))
    return values


@pytest.mark.parametrize("league", [1, 2, 3])
def test_every_decision_is_legal_with_defaults_and_random_parameters(league):
    rng = np.random.default_rng(league)
    extremes = [{p.name: p.low for p in SCHEMA}, {p.name: p.high for p in SCHEMA}]
    opponents = ["random:4", "greedy"]
    decisions = 0
    for g in range(24 if league == 3 else 12):
        if g < 8:
            values = None  # schema defaults
        elif g < 10:
            values = extremes[g - 8]
        else:
            values = random_values(rng)
        me = heuristic_seat(values)
        other = parse_bot(opponents[g % 2], league).seat.copy() if g % 3 else heuristic_seat(random_values(rng))
        seats = [me, other] if g % 2 else [other, me]
        decisions += play_checked(1000 + g, league, seats).decisions
    assert decisions > {1: 60, 2: 150, 3: 1500}[league]


def test_every_decision_is_legal_under_many_random_parameter_sets():
    rng = np.random.default_rng(7)
    decisions = 0
    for _ in range(40):
        decisions += play_checked(int(rng.integers(1, 2**40)), 3, [heuristic_seat(random_values(rng)),
                                                                  heuristic_seat(random_values(rng))]).decisions
    assert decisions > 2200  # 40 games of 24 days: two bots that only wait would make 1,920 decisions


def win_rate(bot, opponent, league, seeds):
    seats = new_seat_array(2)
    seats[0] = parse_bot(bot, league).seat[0]
    seats[1] = parse_bot(opponent, league).seat[0]
    both = np.concatenate([seeds, seeds])
    swapped = np.arange(len(both)) >= len(seeds)
    result = play_batch(both, league, seats, swapped)
    me = swapped.astype(np.int64)
    rate = (np.sum(result.winner == me) + 0.5 * np.sum(result.winner == DRAW)) / len(both)
    return rate, result


def test_heuristic_beats_greedy_in_league_3():
    rate, _ = win_rate("heuristic", "greedy", 3, np.arange(1, 201))
    assert rate > 0.6


def test_heuristic_beats_greedy_in_league_2_and_random_in_league_3():
    assert win_rate("heuristic", "greedy", 2, np.arange(1, 201))[0] > 0.6
    assert win_rate("heuristic", "random", 3, np.arange(1, 201))[0] > 0.95


def write_params(path, params, bot="heuristic"):
    path.write_text(json.dumps({"bot": bot, "league": 3, "params": params, "source": {"study": "test"}}))
    return path


def test_a_parameter_file_changes_how_the_bot_plays(tmp_path):
    values = {**SCHEMA.defaults(), "seed_max_cost": 2, "complete_max_left": 20, "grow_horizon": 0,
              "keep3_left12": 1.0}
    path = write_params(tmp_path / "p.json", values)
    bot = parse_bot(f"heuristic:{path}", 3)
    assert bot.params == values and bot.source["path"] == str(path) and bot.source["study"] == "test"
    assert bot.seat[0]["kind"] == kind_of("heuristic")
    assert bot.seat[0]["params"][SCHEMA.index("seed_max_cost")] == 2
    defaults = parse_bot("heuristic", 3)
    assert defaults.params == SCHEMA.defaults()
    seeds = np.arange(1, 41)
    _, tuned = win_rate(f"heuristic:{path}", "greedy", 3, seeds)
    _, default = win_rate("heuristic", "greedy", 3, seeds)
    assert tuned.score.tolist() != default.score.tolist()
    # the same file, read again, plays the same games
    assert win_rate(f"heuristic:{path}", "greedy", 3, seeds)[1].score.tolist() == tuned.score.tolist()


def test_a_parameter_file_from_before_the_new_terms_plays_as_it_did(tmp_path):
    """Parameters added since a file was written (`Param.since`) take their defaults, which play as the bot
    played without them; the new terms, set, change the play."""
    added = [p.name for p in SCHEMA if p.since]
    assert added == ["grow_w_points", "seed_w_sun"]
    old = {name: value for name, value in SCHEMA.defaults().items() if name not in added}
    path = write_params(tmp_path / "old.json", {**old, "keep3_left12": 1.0})
    seeds = np.arange(1, 41)
    from_old = win_rate(f"heuristic:{path}", "greedy", 3, seeds)[1]
    assert from_old.score.tolist() == win_rate("heuristic:keep3_left12=1.0", "greedy", 3, seeds)[1].score.tolist()
    for term in ("grow_w_points=0.5", "seed_w_sun=2.0"):
        changed = win_rate(f"heuristic:{term}", "sunrate", 3, seeds)[1].score.tolist()
        assert changed != win_rate("heuristic", "sunrate", 3, seeds)[1].score.tolist(), term


@pytest.mark.parametrize("change, needles", [
    ({"keep3_left1": 99}, ["keep3_left1", "[0.0, 15.0]", "99"]),
    ({"grow_horizon": 2.5}, ["grow_horizon", "integer", "[0, 6]"]),
    ({"seed_min_dist": 0}, ["seed_min_dist", "[1, 4]"]),
    ({"sell_ratio": "high"}, ["sell_ratio", "[0.0, 4.0]"]),
    ({"no_such_thing": 1}, ["unknown parameter 'no_such_thing'"]),
    (None, ["missing parameter 'seed_first'", "int in [0, 1]"]),
])
def test_parameter_file_errors_name_the_parameter_and_its_range(tmp_path, change, needles):
    values = SCHEMA.defaults()
    if change is None:
        del values["seed_first"]
    else:
        values.update(change)
    path = write_params(tmp_path / "bad.json", values)
    with pytest.raises(BotSpecError) as error:
        parse_bot(f"heuristic:{path}", 3)
    message = str(error.value)
    assert str(path) in message and all(needle in message for needle in needles), message


def test_parameter_file_of_another_bot_or_missing_file_is_an_error(tmp_path):
    with pytest.raises(BotSpecError, match="no such parameter file"):
        parse_bot(f"heuristic:{tmp_path / 'missing.json'}", 3)
    worse = write_params(tmp_path / 'b.json', {**SCHEMA.defaults(), 'keep3_left4': -1})
    result = run_tuner("play", f"heuristic:{worse}", "greedy",
                       "--seed", "1")
    assert result.returncode == 2 and "keep3_left4" in result.stderr and "Traceback" not in result.stderr


def test_schema_defaults_are_in_range_and_the_vector_fits():
    assert 20 <= len(SCHEMA) <= MAX_PARAMS
    for p in SCHEMA:
        assert p.check(p.default) == p.default and p.doc and p.low < p.high
    vector = SCHEMA.vector(SCHEMA.defaults(), MAX_PARAMS)
    assert vector[: len(SCHEMA)].tolist() == [float(p.default) for p in SCHEMA]


def test_tuner_params_lists_exactly_the_schema():
    result = run_tuner("params", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == SCHEMA.describe()
    table = run_tuner("params")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    for p in SCHEMA:
        row = next(line for line in lines if line.split()[:1] == [p.name])
        assert p.type in row and p.doc in row


def load_module(path):
    spec = importlib.util.spec_from_file_location("exported_heuristic", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_exported_heuristic_decides_as_the_compiled_policy(tmp_path):
    """The transpiled pure-Python policy gives the engine's answer at every position of a few games."""
    rng = np.random.default_rng(3)
    compared = 0
    for g, (league, values) in enumerate([(3, None), (3, None), (3, random_values(rng)), (2, None), (1, None)]):
        if values is None:
            bot = parse_bot("heuristic", league)
        else:
            bot = parse_bot(f"heuristic:{write_params(tmp_path / f'p{g}.json', values)}", league)
        export_bot(bot, league, tmp_path / f"bot{g}.py", ["test"])
        exported = load_module(tmp_path / f"bot{g}.py")
        game = Game(50 + g, league)
        greedy = parse_bot("greedy", league)
        mp = exported.Map(league, [int(r) for r in game.map["richness"]])

        def ask(p, lines):
            nonlocal compared
            seat = (bot if p == g % 2 else greedy).seat.copy()
            answer = format_move(*(int(v) for v in decide(game.map, game.state, p, seat[0])))
            if p == g % 2:
                assert exported.choose(mp, exported.State(lines)) == answer, (league, g, game.frame)
                compared += 1
            return answer

        while not game.over:
            game.play_frame(ask)
    assert compared > 150
