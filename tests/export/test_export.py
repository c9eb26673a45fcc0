"""The exported single-file bot decides exactly as the compiled policy it was generated from."""
import ast
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

from bots.contract.names import parse_bot
from bots.running.dispatch import decide
from engine.game import Game
from engine.protocol import format_move
from engine.replay import read_records
from export.standalone import CODINGAME_LIMIT, export_bot
from tests.conftest import GAMES, program, run_tuner


def load_exported(path, name="exported_bot"):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def engine_answer(bot, game, p):
    seat = bot.seat.copy()
    return format_move(*(int(v) for v in decide(game.map, game.state, p, seat[0])))


def compare_on_recorded_games(bot_name, exported, files):
    """Replay recorded games; at every position a player is asked, both deciders must agree."""
    compared = 0
    for path in files:
        records = read_records(path)
        header = records[0]
        game = Game(header["seed"], header["league"])
        bot = parse_bot(bot_name, header["league"])
        mp = exported.Map(header["league"], [int(r) for r in game.map["richness"]])
        frames = iter(records[1:-1])

        def ask(p, lines):
            nonlocal compared
            assert exported.choose(mp, exported.State(lines)) == engine_answer(bot, game, p), (path.name, game.frame)
            compared += 1
            return record["output"][p]

        while not game.over:
            record = next(frames)
            game.play_frame(ask)
    return compared


def tuned_params_file(directory):
    """A heuristic parameter file away from the defaults: each value moved a third of the way to a bound."""
    from bots.contract.paramfile import ParamFile, write_param_file
    from bots.heuristic.schema import SCHEMA

    values = {}
    for i, p in enumerate(SCHEMA):
        bound = p.high if i % 2 else p.low
        value = p.default + (bound - p.default) / 3
        values[p.name] = int(round(value)) if p.type == "int" else value
    path = directory / "tuned.json"
    write_param_file(path, ParamFile("heuristic", 3, values, {"study": "test", "trial": 0}))
    return path


@pytest.fixture(scope="module")
def heuristic_export(tmp_path_factory):
    directory = tmp_path_factory.mktemp("heuristic")
    params = tuned_params_file(directory)
    bot_file = directory / "tuned_bot.py"
    result = run_tuner("export", "--params", str(params), "-o", str(bot_file))
    assert result.returncode == 0, result.stderr
    return params, bot_file


def test_exported_heuristic_matches_the_engine_on_every_recorded_position(heuristic_export):
    params, bot_file = heuristic_export
    assert compare_on_recorded_games(f"heuristic:{params}", load_exported(bot_file, "tuned_bot"), GAMES) > 5000


def test_exported_heuristic_plays_the_same_games_as_the_engine(heuristic_export):
    """The issue's check: `tuner match "cmd:python3 X.py" greedy` equals `tuner match heuristic:X.json greedy`."""
    params, bot_file = heuristic_export
    program = run_tuner("match", f"cmd:{sys.executable} {bot_file}", "greedy", "--games", "20", "--seed", "7",
                        "--json", "--jobs", "2")
    engine = run_tuner("match", f"heuristic:{params}", "greedy", "--games", "20", "--seed", "7", "--json")
    assert program.returncode == 0 and engine.returncode == 0, program.stderr + engine.stderr
    assert json.loads(program.stdout)["results"] == json.loads(engine.stdout)["results"]


def test_exported_heuristic_plays_a_whole_game_against_a_program(heuristic_export, tmp_path):
    _, bot_file = heuristic_export
    trace = tmp_path / "game.jsonl"
    result = run_tuner("play", f"cmd:{sys.executable} {bot_file}", program("behave.py"), "--seed", "99",
                       "--trace", str(trace))  # CodinGame's own limits: 1000 ms first, 100 ms after
    assert result.returncode == 0, result.stderr
    assert "disqualified" not in result.stdout and "winner: player 0" in result.stdout
    assert run_tuner("replay", str(trace)).returncode == 0


@pytest.fixture(scope="module")
def greedy_export(tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "greedy_bot.py"
    export_bot(parse_bot("greedy:12,2"), 3, path, ["test export"])
    return path


def test_exported_greedy_matches_the_engine_on_every_recorded_position(greedy_export):
    exported = load_exported(greedy_export)
    assert compare_on_recorded_games("greedy:12,2", exported, GAMES) > 5000


def test_exported_file_is_standalone_python39_under_the_limit(greedy_export):
    text = greedy_export.read_text()
    assert len(text) < CODINGAME_LIMIT
    ast.parse(text, feature_version=(3, 9))
    tree = ast.parse(text)
    imports = {alias.name for n in ast.walk(tree) if isinstance(n, ast.Import) for alias in n.names}
    imports |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "sys" in imports and imports <= set(sys.stdlib_module_names)  # the standard library only
    assert "@hot" not in text and "numba" not in text and "numpy" not in text


def find_python39():
    candidates = [shutil.which("python3.9"),
                  *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9*/bin/python3.9")))]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 9)"],
                          capture_output=True).returncode == 0:
            return candidate
    return None


def test_exported_bot_runs_on_python39_when_installed(greedy_export, tmp_path):
    python39 = find_python39()
    if python39 is None:
        pytest.skip("python3.9 is not installed here; syntax is still checked with feature_version=(3, 9)")
    result = run_tuner("play", f"cmd:{python39} {greedy_export}", "greedy", "--seed", "5",
                       "--first-timeout", "3000", "--turn-timeout", "1000")
    assert result.returncode == 0 and "disqualified" not in result.stdout


def test_exported_greedy_plays_the_same_games_as_the_engine(greedy_export):
    program = run_tuner("match", f"cmd:{sys.executable} {greedy_export}", "greedy:14,3", "--games", "10",
                        "--seed", "7", "--json", "--jobs", "2")
    engine = run_tuner("match", "greedy:12,2", "greedy:14,3", "--games", "10", "--seed", "7", "--json")
    assert program.returncode == 0 and engine.returncode == 0, program.stderr + engine.stderr
    assert json.loads(program.stdout)["results"] == json.loads(engine.stdout)["results"]


def test_export_command_errors_are_one_line(tmp_path):
    bad = tmp_path / "params.json"
    bad.write_text(json.dumps({"bot": "heuristic", "params": {"no_such_param": 1}}))
    no_bot, true_league = tmp_path / "no_bot.json", tmp_path / "true_league.json"
    no_bot.write_text(json.dumps({"bot": None, "params": {}}))
    true_league.write_text(json.dumps({"bot": "heuristic", "league": True, "params": {}}))
    for args, needle in ((["--bot", "random"], "cannot be exported"),
                         (["--params", str(tmp_path / "missing.json")], "no such parameter file"),
                         (["--params", str(bad)], "unknown parameter 'no_such_param'"),
                         (["--params", str(no_bot)], f"{no_bot}: field 'bot': must be a bot's name, got null"),
                         (["--params", str(true_league)], "field 'league' must be 1, 2 or 3, got true"),
                         (["--bot", "greedy", "--params", str(bad)], "give one of")):
        result = run_tuner("export", *args, "-o", str(tmp_path / "out.py"))
        assert result.returncode == 2 and needle in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out.py").exists()


def test_export_language_errors_are_one_line(tmp_path, capsys):
    from tuner.cli import main

    out = tmp_path / "out.cpp"
    for args, needle in ((["--bot", "random", "--lang", "cpp"], "cannot be exported"),
                         (["--bot", "search", "--lang", "python"], "cannot be exported in Python: its playouts"),
                         (["--bot", "heuristic", "--lang", "cpp", "--time-ms", "50"], "has no budget of work per move"),
                         (["--bot", "greedy", "--lang", "cpp", "--time-ms", "50"], "applies to search, mcts, beam"),
                         (["--bot", "search", "--lang", "python", "--time-ms", "50"],
                          "--time-ms applies to the C++ export")):
        assert main(["export", *args, "-o", str(out)]) == 2
        assert needle in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["export", "--bot", "search", "--lang", "rust", "-o", str(out)])
    assert stop.value.code == 2 and "invalid choice: 'rust'" in capsys.readouterr().err
    assert not out.exists()


def test_export_language_follows_the_file_name(tmp_path, capsys):
    """Without --lang, a file named *.cpp gets C++ and any other name Python; --lang wins over the name."""
    from tuner.cli import main

    for name, args, language in (("bot.cpp", [], "C++"), ("bot.cc", [], "C++"), ("bot.py", [], "Python"),
                                 ("bot.txt", [], "Python"), ("other.cpp", ["--lang", "python"], "Python")):
        assert main(["export", "--bot", "greedy", *args, "-o", str(tmp_path / name)]) == 0
        assert f"{language})" in capsys.readouterr().out
        text = (tmp_path / name).read_text()
        assert ("#include <" in text) == (language == "C++")


def test_the_end_of_study_hint_names_a_file_the_bot_exports_to(tmp_path, capsys):
    """A study of a bot exported in Python is told to write a .py file; one of a C++-only bot (beam), a .cpp file,
    which `tuner export` then writes in C++ (test_export_language_follows_the_file_name)."""
    from tests.conftest import write_study
    from tuner.cli.tune_report import print_export_hint
    from tuner.studyfile.file import read_study_file

    for bot, suffix in (("heuristic", ".py"), ("beam", ".cpp")):
        print_export_hint(read_study_file(write_study(tmp_path, f"hint-{bot}", bot=bot)))
        hint = capsys.readouterr().out.strip()
        assert hint.endswith(f"-o bots/tuned/hint-{bot}{suffix}")
        assert ("--time-ms 90 " in hint) == (bot == "beam")


SEARCH_MODULE = """
from engine.jit import hot
import bots.contract.budget as budget


@hot
def step(count):
    return budget.within_budget(count)


@hot
def searching_policy(count):
    total = 0
    while step(count - total):
        total += 1
    return total


@hot
def plain_policy(count):
    return count + 1
"""


def test_whether_a_policy_searches_is_read_from_the_code_it_runs(tmp_path, monkeypatch):
    """A policy that asks within_budget through a function it calls (reached as module.name) searches, one that
    does not ask it does not; the answer still holds after the policy's file was edited under the running process
    (a user editing the bot while its study runs: the end-of-study hint asks it), where its source is gone."""
    import importlib

    from bots.contract.searches import asks_within_budget

    (tmp_path / "edited_search_bot.py").write_text(SEARCH_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("edited_search_bot")
    (tmp_path / "edited_search_bot.py").write_text("# rewritten\n")
    assert asks_within_budget(module.searching_policy) and not asks_within_budget(module.plain_policy)
