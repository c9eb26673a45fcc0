"""The style bots (`sunrate`, `rush`, `seeder`): legal moves only in every league, through the text-protocol
referee and under random parameters; deterministic; their parameters change how they play; the projection
helper they share is exact; and the exported file plays game for game like the engine."""
import importlib.util
import json
import sys

import numpy as np
import pytest

from bots.contract.names import BotSpecError, bot_with_params, parse_bot
from bots.contract.paramfile import ParamFile, write_param_file
from bots.contract.seat import new_seat_array, start_seat
from bots.registry import schema_for
from bots.running.arena import play_batch
from bots.running.dispatch import decide
from bots.running.player import BotPlayer, player_for
from bots.shared.sunlight import day_change
from engine import rules
from engine.game import Game
from engine.javarandom import seed_state
from engine.maps import generate_map
from engine.protocol import format_move
from engine.records import new_map_array, new_state_array
from engine.referee import play_refereed_game
from engine.replay import read_records
from export.standalone import export_bot
from tests.bots.checked_game import play_checked
from tests.conftest import GAMES, run_tuner

STYLE_BOTS = ["sunrate", "rush", "seeder"]


def random_values(bot, rng):
    values = {}
    for p in schema_for(bot):
        if p.type == "int":
            values[p.name] = int(rng.integers(p.low, p.high + 1))
        else:
            values[p.name] = float(rng.uniform(p.low, p.high))
    return values


def away_from_defaults(bot):
    """Every parameter moved a third of the way toward one of its bounds (alternately the low and the high); a
    choice takes the value after its default."""
    values = {}
    for i, p in enumerate(schema_for(bot)):
        if p.type == "choice":
            values[p.name] = p.choices[(list(p.choices).index(p.default) + 1) % len(p.choices)]
            continue
        value = p.default + ((p.high if i % 2 else p.low) - p.default) / 3
        values[p.name] = int(round(value)) if p.type == "int" else value
    return values


def params_file(directory, bot, values):
    path = directory / f"{bot}.json"
    write_param_file(path, ParamFile(bot, 3, values, {"study": "test", "trial": 0}))
    return path


@pytest.mark.parametrize("league", [1, 2, 3])
@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_referee_accepts_every_move(bot, league):
    """Whole games through the text protocol, on either side, against heuristic and random: no rejected
    action, no disqualification, and every answer is in the possible-moves list the referee sent."""
    answers = 0
    for g, opponent in enumerate(["heuristic", "random:3", "heuristic", "random:5"]):
        players = [BotPlayer(bot, parse_bot(bot, league).seat), player_for(parse_bot(opponent, league))]
        me = g % 2
        if me:
            players.reverse()
        report = play_refereed_game(500 + g, league, players)
        assert report.outcome.deactivated == []
        for record in report.records:
            if record["t"] != "ACTIONS" or record["input"][me] is None:
                continue
            lines = record["input"][me]
            moves = lines[-int(lines[5 + int(lines[4])]):]
            assert record["error"][me] is None, (bot, league, record["turn"], record["error"][me])
            assert record["output"][me] in moves or record["output"][me] == "WAIT", (bot, league, record["turn"])
            answers += 1
    assert answers > {1: 8, 2: 40, 3: 200}[league]


@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_every_decision_is_legal_under_random_and_extreme_parameters(bot):
    rng = np.random.default_rng(sum(map(ord, bot)))
    schema = schema_for(bot)
    sets = [{p.name: p.low for p in schema}, {p.name: p.high for p in schema}]
    sets += [random_values(bot, rng) for _ in range(10)]
    others = ["random:1", "greedy", "heuristic", *STYLE_BOTS]
    decisions = {1: 0, 2: 0, 3: 0}
    for i, values in enumerate(sets):
        for league in (1, 2, 3):
            me = bot_with_params(bot, values, bot, {}).seat
            other = parse_bot(others[i % len(others)], league).seat.copy()
            decisions[league] += play_checked(900 + i, league, [me, other] if i % 2 else [other, me]).decisions
    # 12 games a league of 1, 6 and 24 days: two bots that only wait would make 24, 144 and 576 decisions
    assert decisions[1] > 60 and decisions[2] > 180 and decisions[3] > 1000, decisions


def batch(bot, opponent, seeds, league=3):
    seats = new_seat_array(2)
    seats[0] = parse_bot(bot, league).seat[0]
    seats[1] = parse_bot(opponent, league).seat[0]
    both = np.concatenate([seeds, seeds])
    return play_batch(both, league, seats, np.arange(len(both)) >= len(seeds))


@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_deterministic_and_the_referee_plays_the_batch_games(bot):
    seeds = np.arange(11, 31)
    first = batch(bot, "heuristic", seeds)
    again = batch(bot, "heuristic", seeds)
    assert first.score.tolist() == again.score.tolist() and first.turns.tolist() == again.turns.tolist()
    for g, seed in enumerate(seeds[:3]):
        players = [player_for(parse_bot(bot, 3)), player_for(parse_bot("heuristic", 3))]
        report = play_refereed_game(int(seed), 3, players)
        assert report.outcome.final_scores == first.score[g].tolist()


@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_parameters_change_play_and_a_file_plays_the_same_games(bot, tmp_path):
    path = params_file(tmp_path, bot, away_from_defaults(bot))
    loaded = parse_bot(f"{bot}:{path}", 3)
    assert loaded.params == away_from_defaults(bot) and loaded.source["study"] == "test"
    seeds = np.arange(1, 41)
    tuned = batch(f"{bot}:{path}", "heuristic", seeds)
    default = batch(bot, "heuristic", seeds)
    assert tuned.score.tolist() != default.score.tolist()
    assert batch(f"{bot}:{path}", "heuristic", seeds).score.tolist() == tuned.score.tolist()


@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_every_parameter_is_read(bot):
    """Each parameter alone, moved from its default to its farther bound, changes some of 40 games: none is
    dead or read at another's index."""
    schema = schema_for(bot)
    seeds = np.arange(1, 21)
    default = batch_values(bot, schema.defaults(), seeds).score.tolist()
    for p in schema:
        bound = p.high if p.high - p.default >= p.default - p.low else p.low
        changed = batch_values(bot, {**schema.defaults(), p.name: bound}, seeds).score.tolist()
        assert changed != default, p.name


def batch_values(bot, values, seeds):
    seats = new_seat_array(2)
    seats[0] = bot_with_params(bot, values, bot, {}).seat[0]
    seats[1] = parse_bot("heuristic", 3).seat[0]
    both = np.concatenate([seeds, seeds])
    return play_batch(both, 3, seats, np.arange(len(both)) >= len(seeds))


def test_a_parameter_file_of_another_bot_is_refused(tmp_path):
    path = params_file(tmp_path, "rush", schema_for("rush").defaults())
    with pytest.raises(BotSpecError, match="holds parameters of bot 'rush', not 'seeder'"):
        parse_bot(f"seeder:{path}", 3)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"bot": "sunrate", "league": 3, "params": {**schema_for("sunrate").defaults(),
                                                                          "horizon": 99}}))
    with pytest.raises(BotSpecError, match="horizon"):
        parse_bot(f"sunrate:{bad}", 3)


def harvest(s, o):
    """What each player harvests on a day the sun points to o, from the rules' own shadows."""
    shade = [int(b) for b in rules.shadows(s, o)]
    out = []
    for p in range(2):
        mine = int(s["mine"][p])
        out.append(sum(k * bin(mine & int(s["trees"][k]) & ~shade[k - 1]).count("1") for k in (1, 2, 3)))
    return out


def test_day_change_is_the_harvest_difference():
    """`bots.shared.sunlight.day_change` against the rules' shadows, for every change of size of every tree of
    positions from real games (grow, complete, seed, and jumps)."""
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(1, 9):
        mp_array, s_array = new_map_array(), new_state_array()
        mp, s = mp_array[0], s_array[0]
        generate_map(seed_state(seed), 3, mp)
        rules.new_game(mp, s)
        seats = [parse_bot("random:7", 3).seat.copy(), parse_bot("greedy", 3).seat.copy()]
        for p in range(2):
            start_seat(seats[p][0], seed, p)
        rules.start_day(mp, s)
        while True:
            if rng.random() < 0.2:
                for c in range(37):
                    k = int(rules.size_at(s, c))
                    if k < 0:
                        continue
                    owner = int(s["mine"][1]) >> c & 1
                    for m in range(4):
                        o = int(rng.integers(6))
                        after = s_array.copy()
                        after[0]["trees"][k] &= ~(1 << c)
                        after[0]["trees"][m] |= 1 << c
                        before_sun, after_sun = harvest(s, o), harvest(after[0], o)
                        t = [int(v) for v in s["trees"]]
                        own, opp = day_change(int(s["mine"][owner]), c, k, m, o, t[1], t[2], t[3])
                        assert (own, opp) == (after_sun[owner] - before_sun[owner],
                                              after_sun[1 - owner] - before_sun[1 - owner]), (seed, c, k, m, o)
                        checked += 1
            moves = [(rules.WAIT, 0, 0) if s["waiting"][p] else decide(mp, s, p, seats[p][0]) for p in range(2)]
            rules.resolve_turn(mp, s, *moves[0], *moves[1])
            if s["waiting"][0] and s["waiting"][1]:
                if rules.end_day(mp, s):
                    break
                rules.start_day(mp, s)
    assert checked > 5000


def load_exported(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each style bot exported from a parameter file away from its defaults: {bot: (params file, bot file)}."""
    directory = tmp_path_factory.mktemp("style-export")
    out = {}
    for bot in STYLE_BOTS:
        path = params_file(directory, bot, away_from_defaults(bot))
        bot_file = directory / f"{bot}_bot.py"
        result = run_tuner("export", "--params", str(path), "-o", str(bot_file))
        assert result.returncode == 0, result.stderr
        out[bot] = (path, bot_file)
    return out


@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_exported_file_decides_as_the_engine_on_recorded_positions(bot, exported):
    path, bot_file = exported[bot]
    module = load_exported(bot_file, f"exported_{bot}")
    compared = 0
    for record_file in GAMES:
        records = read_records(record_file)
        header = records[0]
        game = Game(header["seed"], header["league"])
        engine_bot = parse_bot(f"{bot}:{path}", header["league"])
        mp = module.Map(header["league"], [int(r) for r in game.map["richness"]])
        frames = iter(records[1:-1])

        def ask(p, lines):
            nonlocal compared
            seat = engine_bot.seat.copy()
            engine = format_move(*(int(v) for v in decide(game.map, game.state, p, seat[0])))
            assert module.choose(mp, module.State(lines)) == engine, (record_file.name, game.frame)
            compared += 1
            return record["output"][p]

        while not game.over:
            record = next(frames)
            game.play_frame(ask)
    assert compared > 5000


@pytest.mark.parametrize("bot", STYLE_BOTS)
def test_exported_file_plays_the_same_games_as_the_engine(bot, exported):
    path, bot_file = exported[bot]
    program = run_tuner("match", f"cmd:{sys.executable} {bot_file}", "heuristic", "--games", "6", "--seed", "7",
                        "--json", "--jobs", "2", "--turn-timeout", "1000")
    engine = run_tuner("match", f"{bot}:{path}", "heuristic", "--games", "6", "--seed", "7", "--json")
    assert program.returncode == 0 and engine.returncode == 0, program.stderr + engine.stderr
    assert json.loads(program.stdout)["results"] == json.loads(engine.stdout)["results"]


def test_export_by_name_writes_a_standalone_file(tmp_path):
    for bot in STYLE_BOTS:
        path = tmp_path / f"{bot}.py"
        text = export_bot(parse_bot(bot, 3), 3, path, ["test"])
        assert "numba" not in text and "numpy" not in text and f"{bot}_move(mp, s, 0, SEAT)" in text


def test_a_parameter_given_twice_in_a_bot_name_is_refused():
    assert parse_bot("sunrate:horizon=3,w_cost=1", 3).params["horizon"] == 3
    with pytest.raises(BotSpecError, match="parameter 'horizon' is given twice"):
        parse_bot("sunrate:horizon=3,horizon=5", 3)
