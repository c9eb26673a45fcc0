"""The kit for tuning a bot program: its description in a study file (`tuner.programs.program`), exporting its values
into its own source or a JSON file (`tuner.programs.template`), and the example bot `bots/examples/mybot.py`."""
from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tomllib

import pytest

from bots.contract.names import parse_bot
from bots.contract.schema import Param, ParamError
from bots.running.player import player_for
from engine.players import ProgramPlayer, TimeLimits
from engine.referee import play_refereed_game
from tests.conftest import ROOT, run_tuner
from tuner.programs.program import ProgramBot, ProgramError, format_value, program_paths_relative_to
from tuner.programs.template import TemplateError, fill_template, template_marks, write_program_params

MYBOT = ROOT / "bots" / "examples" / "mybot.py"
STUDY = ROOT / "studies" / "program.toml"
SLACK = TimeLimits(first_ms=10_000, turn_ms=5_000)  # a busy machine must not turn a slow answer into a loss

AGGRESSION = {"type": "float", "low": 0.0, "high": 2.0, "default": 1.0}
MAX_SEEDS = {"type": "int", "low": 0, "high": 5, "default": 2}
COMMAND = "cmd:./mybot --aggression {aggression} --max-seeds {max_seeds}"


def bot(command=COMMAND, **parameters) -> ProgramBot:
    table = {"aggression": AGGRESSION, "max_seeds": MAX_SEEDS}
    table.update(parameters)
    return ProgramBot.parse(command, {k: v for k, v in table.items() if v is not None})


# ---- the program bot's description --------------------------------------------------------------------------------

@pytest.mark.parametrize("command, parameters, field, words", [
    ("cmd:./mybot {aggression} {max_seeds} {agression}", {}, "bot",
     ["{agression}", "names no parameter", "did you mean {aggression}"]),
    ("cmd:./mybot {aggression}", {}, "parameters.max_seeds", ["used nowhere", "{max_seeds}", "{params_file}"]),
    (COMMAND, {"aggression": {**AGGRESSION, "low": 2.0, "high": 1.0}}, "parameters.aggression",
     ["[2.0, 1.0]", "inverted"]),
    (COMMAND, {"aggression": {**AGGRESSION, "low": 1.0, "high": 1.0}}, "parameters.aggression", ["empty"]),
    (COMMAND, {"aggression": {**AGGRESSION, "default": 3.0}}, "parameters.aggression",
     ["default 3.0 is outside [0.0, 2.0]"]),
    (COMMAND, {"max_seeds": {**MAX_SEEDS, "default": -1}}, "parameters.max_seeds", ["default -1 is outside [0, 5]"]),
    (COMMAND, {"aggression": {**AGGRESSION, "log": True}}, "parameters.aggression", ["log = true needs low > 0"]),
    (COMMAND, {"aggression": {"type": "choice", "choices": ["a", "b"], "default": "c"}}, "parameters.aggression",
     ['default "c" is not one of the choices ["a", "b"]']),
    (COMMAND, {"aggression": {"type": "choice", "choices": [1, 2], "default": True}}, "parameters.aggression",
     ["default true is not one of the choices [1, 2]"]),
    (COMMAND, {"aggression": {"type": "choice", "choices": []}}, "parameters.aggression", ["choices is empty"]),
    (COMMAND, {"aggression": {"type": "choice"}}, "parameters.aggression", ["needs choices"]),
    (COMMAND, {"aggression": {"type": "choice", "choices": ["a", "a"]}}, "parameters.aggression", ['"a" twice']),
    (COMMAND, {"aggression": {"type": "choice", "choices": ["a"], "low": 0}}, "parameters.aggression",
     ["low and high apply to int and float"]),
    (COMMAND, {"aggression": {"type": "choice", "choices": ["a"], "log": True}}, "parameters.aggression",
     ["log applies to int and float"]),
    (COMMAND, {"aggression": {"type": "str", "low": 0, "high": 1}}, "parameters.aggression",
     ['type "str" is unknown', "int, float, choice"]),
    (COMMAND, {"aggression": {"type": "float", "low": 0, "high": 1, "lo": 0}}, "parameters.aggression",
     ["unknown field 'lo'", "did you mean 'low'", "allowed: type, low, high, default, log, choices"]),
    (COMMAND, {"aggression": {"low": 0, "high": 1}}, "parameters.aggression", ["missing field 'type'"]),
    (COMMAND, {"aggression": {"type": "float", "low": 0}}, "parameters.aggression", ["needs low and high", "high"]),
    (COMMAND, {"aggression": 1.5}, "parameters.aggression", ["must be a table"]),
    (COMMAND, {"aggression": {"type": "float", "low": "0", "high": 1}}, "parameters.aggression",
     ['low must be a number, got "0"']),
    (COMMAND, {"aggression": {"type": "float", "low": 0, "high": 1, "default": "x"}}, "parameters.aggression",
     ['default "x" must be a number']),
    (COMMAND, {"aggression": {"type": "float", "low": 0, "high": 1, "log": "yes"}}, "parameters.aggression",
     ["log must be true or false"]),
    (COMMAND, {"max_seeds": {"type": "int", "low": 0, "high": 5.5}}, "parameters.max_seeds",
     ["high 5.5 is not an integer"]),
    (COMMAND, {"aggression": {"type": "float", "low": 0.1, "high": 2, "choices": [1]}}, "parameters.aggression",
     ["choices apply to choice parameters only"]),
    ("cmd:./mybot {aggression} {max_seeds} {params_file} {my-x}", {}, "bot", ["{my-x} is not a parameter name"]),
    ("cmd:./mybot {aggression} {max_seeds} {}", {}, "bot", ["empty placeholder"]),
    ("cmd:./mybot {aggression} {max_seeds} {", {}, "bot", ["unmatched '{'", "{{"]),
    ("cmd:./mybot {aggression} {max_seeds} }", {}, "bot", ["unmatched '}'", "}}"]),
    ("cmd:./mybot '{aggression} {max_seeds}", {}, "bot", ["cannot split the command line", "quotation"]),
    ("cmd:  ", {}, "bot", ["the command line is empty"]),
    ("cmd:./mybot {aggression} {max_seeds} {params_file}", {"params_file": MAX_SEEDS}, "parameters.params_file",
     ["reserved"]),
    ("cmd:./mybot {params_file}", {"2x": MAX_SEEDS}, "parameters.2x", ["letters, digits and _"]),
])
def test_each_mistake_is_one_line_naming_its_field(command, parameters, field, words):
    table = {"aggression": AGGRESSION, "max_seeds": MAX_SEEDS, **parameters}
    with pytest.raises(ProgramError) as caught:
        ProgramBot.parse(command, table)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(field + ": ") and caught.value.field == field, message
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("parameters, message", [
    ({}, "parameters: a program bot needs at least one parameter"),
    ([1, 2], "parameters: must be a table"),
])
def test_the_parameter_table_itself(parameters, message):
    with pytest.raises(ProgramError, match=f"^{message}"):
        ProgramBot.parse("cmd:./mybot --params {params_file}", parameters)


def test_the_params_file_placeholder_uses_every_parameter():
    program = bot("cmd:./mybot --params {params_file}")
    assert program.uses_params_file and program.placeholders == ["params_file"]


def test_defaults_without_a_default():
    program = bot(aggression={"type": "float", "low": 1.0, "high": 100.0, "log": True},
                  max_seeds={"type": "int", "low": 0, "high": 5},
                  mode={"type": "choice", "choices": ["safe", "greedy"]},
                  command="cmd:./mybot {aggression} {max_seeds} {mode}")
    assert program.defaults() == {"aggression": 10.0, "max_seeds": 2, "mode": "safe"}
    assert type(program.defaults()["max_seeds"]) is int


def test_numbers_take_their_parameter_type():
    program = bot(max_seeds={"type": "int", "low": 0.0, "high": 5.0, "default": 2.0},
                  aggression={"type": "float", "low": 0, "high": 2, "default": 1})
    p = program.parameters
    assert (p["max_seeds"].low, p["max_seeds"].high, p["max_seeds"].default) == (0, 5, 2)
    assert all(type(getattr(p["max_seeds"], f)) is int for f in ("low", "high", "default"))
    assert all(type(getattr(p["aggression"], f)) is float for f in ("low", "high", "default"))


def test_the_schema_of_a_program_bot():
    program = bot(command="cmd:./mybot {aggression} {max_seeds} {mode} {rate}",
                  mode={"type": "choice", "choices": ["safe", 2, 0.5, True], "default": 2},
                  rate={"type": "float", "low": 0.001, "high": 1.0, "default": 0.1, "log": True})
    schema = program.to_schema("mine")
    assert [p.name for p in schema] == ["aggression", "max_seeds", "mode", "rate"]
    mode, rate = schema.by_name["mode"], schema.by_name["rate"]
    assert (mode.type, mode.choices, mode.default, mode.low, mode.high) == ("choice", ("safe", 2, 0.5, True), 2, None,
                                                                             None)
    assert rate.log and rate.type == "float" and schema.by_name["aggression"].log is False
    assert mode.check(2.0) == 2 and mode.check(True) is True and mode.check("safe") == "safe"
    for wrong in ("2", 1, False, "Safe"):
        with pytest.raises(ParamError, match="must be one of"):
            mode.check(wrong)
    assert list(schema.vector({"mode": True}, 4)) == [1.0, 2.0, 3.0, 0.1]  # a choice's index
    described = {d["name"]: d for d in schema.describe()}
    assert described["mode"]["choices"] == ["safe", 2, 0.5, True] and described["rate"]["log"] is True
    assert "log" not in described["aggression"] and "choices" not in described["aggression"]


@pytest.mark.parametrize("fields, message", [
    (dict(type="choice", low=None, high=None, default="c", choices=("a", "b")), "not one of"),
    (dict(type="choice", low=None, high=None, default="a", choices=()), "at least one value"),
    (dict(type="float", low=0.0, high=1.0, default=0.5, log=True), "log scale needs low > 0"),
    (dict(type="choice", low=None, high=None, default="a", choices=("a",), log=True), "int and float"),
    (dict(type="bool", low=0, high=1, default=0), "int, float or choice"),
])
def test_a_param_refuses_what_it_cannot_search(fields, message):
    with pytest.raises(ValueError, match=message):
        Param("x", doc="", **fields)


# ---- rendering the command line -----------------------------------------------------------------------------------

def test_render_formats_values_as_programs_parse_them():
    program = bot(command="cmd:./mybot --a {aggression} --m {max_seeds} --mode {mode} --on {on}",
                  mode={"type": "choice", "choices": ["x", 0.25]}, on={"type": "choice", "choices": [False, True]})
    line = program.render({"aggression": 0.1, "max_seeds": 3.0, "mode": 0.25, "on": True})
    assert line == "./mybot --a 0.1 --m 3 --mode 0.25 --on true"
    assert program.render({"aggression": 1 / 3}).split()[2] == repr(1 / 3)
    assert program.render({"aggression": 1e-7}).split()[2] == "1e-07"
    assert program.render({}) == "./mybot --a 1.0 --m 2 --mode x --on false"  # the defaults


def test_render_quotes_each_value_as_one_word():
    choices = ["two words", "it's", '"quoted"', "$HOME;rm -rf /", "", "{braces}"]
    program = bot(command="cmd:'my bot' --mode={mode} \"--pair={aggression},{max_seeds}\" --literal {{x}}",
                  mode={"type": "choice", "choices": choices})
    for choice in choices:
        argv = shlex.split(program.render({"mode": choice, "aggression": 0.5}))
        assert argv == ["my bot", f"--mode={choice}", "--pair=0.5,2", "--literal", "{x}"]


def test_render_with_a_params_file(tmp_path):
    program = bot("cmd:./mybot --params {params_file} --seeds {max_seeds}")
    path = tmp_path / "a folder" / "params.json"
    written = program.write_params_file({"aggression": 0.75}, path)
    assert json.loads(path.read_text()) == written == {"aggression": 0.75, "max_seeds": 2}
    assert shlex.split(program.render({"max_seeds": 4}, path)) == ["./mybot", "--params", str(path), "--seeds", "4"]
    with pytest.raises(ValueError, match="params_file"):
        program.render({})


@pytest.mark.parametrize("values, message", [
    ({"aggression": 2.5}, "'aggression' = 2.5 is out of range"),
    ({"max_seeds": 1.5}, "'max_seeds' must be an integer"),
    ({"agression": 1.0}, "unknown parameter 'agression'"),
])
def test_render_refuses_values_outside_the_declaration(values, message):
    with pytest.raises(ParamError, match=message):
        bot().render(values)


def test_format_value():
    assert [format_value(v) for v in (3, 0.1, 2.0, True, False, "a b")] == ["3", "0.1", "2.0", "true", "false", "a b"]


# ---- the program's path -------------------------------------------------------------------------------------------

def test_program_paths_are_relative_to_the_study_folder(tmp_path):
    (tmp_path / "mybot.py").write_text("")
    (tmp_path / "data.txt").write_text("")
    folder = tmp_path.resolve()
    same = "python3 -u --x {max_seeds} /abs/bot.py -o data.txt"
    assert program_paths_relative_to("./mybot --a {aggression}", tmp_path) == f"{folder}/mybot --a {{aggression}}"
    assert program_paths_relative_to("bin/mybot {{x}} {aggression}", tmp_path) == \
        f"{folder}/bin/mybot '{{{{x}}}}' {{aggression}}"
    assert program_paths_relative_to("python3 mybot.py {aggression}", tmp_path) == \
        f"python3 {folder}/mybot.py {{aggression}}"
    assert program_paths_relative_to("mybot.py", tmp_path) == f"{folder}/mybot.py"  # a file in the folder
    (tmp_path / "sub").mkdir()
    assert program_paths_relative_to("python3 ../mybot.py", tmp_path / "sub") == f"python3 {folder}/mybot.py"
    assert program_paths_relative_to(same, tmp_path) == same.replace("data.txt", f"{folder}/data.txt")
    assert program_paths_relative_to("python3 -u {max_seeds}", tmp_path) == "python3 -u {max_seeds}"


def test_a_bot_with_its_paths_resolved_renders_the_same_words(tmp_path):
    (tmp_path / "my bot.py").write_text("")
    program = bot("cmd:python3 'my bot.py' --a={aggression} --m {max_seeds} --lit {{}}")
    moved = program.with_program_paths(tmp_path)
    argv = shlex.split(moved.render({"aggression": 0.5}))
    assert argv == ["python3", str(tmp_path.resolve() / "my bot.py"), "--a=0.5", "--m", "2", "--lit", "{}"]
    assert moved.placeholders == program.placeholders


# ---- filling a template ----------------------------------------------------------------------------------------------

def test_fill_template_in_several_languages():
    source = "\n".join([
        "AGGRESSION = 1.0  # tuner: aggression",
        "const double aggression = 1.5f; // tuner: aggression",
        "let seeds: i64 = -2; // tuner: max_seeds",
        "val mode = \"safe\" // tuner: mode",
        "const bool ON = true; // tuner: on",
        "on = False  # tuner: on",
        "let limit = 0x10 (* tuner: max_seeds *)",
        "x = y-1 -- tuner: max_seeds",
        "print(\"level 2:\", 3)  # tuner: max_seeds",
        "KEEP = 1.0  # not a mark: tuner stays",
        "",
    ])
    values = {"aggression": 0.1 + 0.2, "max_seeds": -4, "mode": 'it\'s "greedy"', "on": False}
    filled = fill_template(source, values).splitlines()
    assert filled == [
        f"AGGRESSION = {0.1 + 0.2!r}  # tuner: aggression",
        f"const double aggression = {0.1 + 0.2!r}f; // tuner: aggression",
        "let seeds: i64 = -4; // tuner: max_seeds",
        "val mode = \"it's \\\"greedy\\\"\" // tuner: mode",
        "const bool ON = false; // tuner: on",
        "on = False  # tuner: on",
        "let limit = -4 (* tuner: max_seeds *)",
        "x = y-(-4) -- tuner: max_seeds",
        "print(\"level 2:\", -4)  # tuner: max_seeds",
        "KEEP = 1.0  # not a mark: tuner stays",
    ]


def test_an_int_value_in_a_float_literal_stays_a_float():
    assert fill_template("double x = 1.5; // tuner: x\n", {"x": 3}) == "double x = 3.0; // tuner: x\n"
    assert fill_template("x = 2.  # tuner: x\n", {"x": 3}) == "x = 3.0  # tuner: x\n"
    assert fill_template("long x = 10L; // tuner: x\n", {"x": 3}) == "long x = 3L; // tuner: x\n"


@pytest.mark.parametrize("source, values, message", [
    ("a = 1\nb = 1, 2  # tuner: x\n", {"x": 1}, "bot.py:2: expected exactly one numeric literal before the comment, "
                                                "found 2"),
    ("a = 1\nb = c  # tuner: x\n", {"x": 1}, "bot.py:2: expected exactly one numeric literal before the comment, "
                                             "found 0"),
    ("b = 'a' + 'b'  # tuner: x\n", {"x": "c"}, "bot.py:1: expected exactly one string literal"),
    ("b = 1  # tuner: x\n", {"x": True}, "bot.py:1: expected exactly one boolean literal"),
    ("b = 1  # tuner: y\n", {"x": 1}, "bot.py:1: the mark 'tuner: y' names no parameter (parameters: x)"),
    ("b = 1  # tuner: my-x\n", {"x": 1}, "bot.py:1: the mark 'tuner: my-x' does not name a parameter"),
    ("b = 1  # tuner: x\n", {"x": 1, "y": 2, "z": 3}, "bot.py: no line is marked '# tuner: y'"),
])
def test_each_template_mistake_is_one_line_naming_the_line_or_parameter(source, values, message):
    with pytest.raises(TemplateError) as caught:
        fill_template(source, values, "bot.py")
    assert "\n" not in str(caught.value) and str(caught.value).startswith(message), str(caught.value)


def test_the_example_bot_is_its_own_template():
    """Filled with its defaults the example is unchanged; filled with other values, only the marked lines
    change, and filling it back restores it."""
    source = MYBOT.read_text(encoding="utf-8")
    defaults = example_defaults()
    assert fill_template(source, defaults) == source
    other = {**defaults, "complete_day": 9, "w_shade": 0.125}
    filled = fill_template(source, other)
    changed = [(a, b) for a, b in zip(source.splitlines(), filled.splitlines()) if a != b]
    assert changed == [("COMPLETE_DAY = 12  # tuner: complete_day", "COMPLETE_DAY = 9  # tuner: complete_day"),
                       ("W_SHADE = 3.0  # tuner: w_shade", "W_SHADE = 0.125  # tuner: w_shade")]
    assert fill_template(filled, defaults) == source


def test_write_program_params(tmp_path):
    path = tmp_path / "best.json"
    data = write_program_params(path, {"a": 0.1, "b": 2, "c": "x"}, {"study": "s", "trial": 3, "win_rate": 0.6})
    assert json.loads(path.read_text()) == data == {"params": {"a": 0.1, "b": 2, "c": "x"},
                                                     "source": {"study": "s", "trial": 3, "win_rate": 0.6}}


# ---- the example: its study and its games -------------------------------------------------------------------------

def example_study() -> ProgramBot:
    data = tomllib.loads(STUDY.read_text(encoding="utf-8"))
    return ProgramBot.parse(data["bot"], data["parameters"]).with_program_paths(STUDY.parent)


def example_defaults() -> dict:
    return example_study().defaults()


def test_the_example_study_describes_the_example_bot():
    """Every parameter of studies/program.toml is a marked constant of mybot.py with the same default."""
    program = example_study()
    marks = [name for _, name in template_marks(MYBOT.read_text(encoding="utf-8"))]
    assert sorted(marks) == sorted(program.parameters)
    assert shlex.split(program.render({}))[:2] == ["python3", str(MYBOT)]
    games = play_games(program.render({}), [(3, 7)], "random")
    assert games and all(r["deactivated"] == [] for r in games)


def play_games(command: str, setups, opponent: str) -> list:
    """Play `command` against `opponent` through the referee: for each (league, seed), one game on each side.
    Returns, per game, the program's answers and the outcome."""
    out = []
    for league, seed in setups:
        for side in (0, 1):
            players = [ProgramPlayer("mybot", command), player_for(parse_bot(opponent, league))]
            if side:
                players.reverse()
            report = play_refereed_game(seed, league, players, SLACK)
            answers = [r["output"][side] for r in report.records if r.get("t") == "ACTIONS"]
            errors = [r["error"][side] for r in report.records if r.get("t") == "ACTIONS" and r["error"][side]]
            out.append({"league": league, "seed": seed, "side": side, "answers": answers, "errors": errors,
                        "deactivated": report.outcome.deactivated, "scores": report.outcome.final_scores})
    return out


@pytest.mark.parametrize("opponent", ["heuristic", "random"])
def test_the_example_bot_plays_only_legal_moves(opponent):
    """In every league, on both sides: no disqualification, no rejected action, and it does play."""
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(MYBOT))}"
    games = play_games(command, [(1, 11), (2, 12), (3, 13), (3, 14)], opponent)
    for game in games:
        assert game["deactivated"] == [] and game["errors"] == [], game
        kinds = {answer.split()[0] for answer in game["answers"] if answer}
        expected = {1: {"COMPLETE"}, 2: {"GROW", "COMPLETE"}, 3: {"SEED", "GROW", "COMPLETE"}}[game["league"]]
        assert expected <= kinds, (game["league"], kinds)


def tuned_values() -> dict:
    """Values away from the example's defaults, each of a kind the template must write right."""
    return {**example_defaults(), "complete_day": 9, "keep_large": 1, "max_seeds": 2, "w_rich": 2.5,
            "w_shade": 0.1 + 0.2}


def test_the_filled_template_plays_as_the_program_given_the_values(tmp_path):
    """The template round trip through the real referee: the example filled with values, run as a program,
    plays the same games as the example given the same values on its command line; the defaults do not."""
    values = tuned_values()
    program = example_study()
    filled = tmp_path / "filled.py"
    filled.write_text(fill_template(MYBOT.read_text(encoding="utf-8"), values), encoding="utf-8")
    runs = {}
    for name, command in (("filled", f"python3 {filled}"), ("flags", program.render(values)),
                          ("defaults", program.render({}))):
        result = run_tuner("match", f"cmd:{command}", "heuristic", "--games", "4", "--seed", "3", "--json",
                           "--first-timeout", "10000", "--turn-timeout", "5000")
        assert result.returncode == 0, result.stderr
        runs[name] = json.loads(result.stdout)["results"]
        assert all("deactivated" not in r for r in runs[name]), runs[name]
    assert runs["filled"] == runs["flags"]
    assert runs["filled"] != runs["defaults"]


def test_the_example_reads_its_values_from_a_params_file(tmp_path):
    """`--params FILE` (the flat file of {params_file}, or the one `tuner export -o best.json` writes) plays
    answer for answer as the values given on the command line."""
    values = tuned_values()
    program = example_study()
    flat, exported = tmp_path / "params.json", tmp_path / "best.json"
    program.write_params_file(values, flat)
    write_program_params(exported, values, {"study": "program", "trial": 1})
    setups = [(3, 21)]
    expected = play_games(program.render(values), setups, "heuristic")
    for path in (flat, exported):
        assert play_games(f"python3 {MYBOT} --params {path}", setups, "heuristic") == expected
    assert play_games(program.render({}), setups, "heuristic") != expected


def test_export_template_writes_a_trial_into_a_source(tuned_study, tmp_path):
    """`tuner export STUDY --template SOURCE -o OUT` with a study's best trial; a broken template is one line."""
    from bots.heuristic.schema import SCHEMA
    from tuner.results.origin import trial_values
    from tuner.studyfile.file import read_study_file

    template = tmp_path / "bot.py"
    template.write_text("".join(f"{p.name.upper()} = {'0' if p.type == 'int' else '0.0'}  # tuner: {p.name}\n"
                                for p in SCHEMA), encoding="utf-8")
    out = tmp_path / "out" / "tuned.py"
    result = run_tuner("export", str(tuned_study), "--template", str(template), "-o", str(out))
    assert result.returncode == 0, result.stderr
    values, source = trial_values(read_study_file(tuned_study), None)
    namespace: dict = {}
    exec(out.read_text(encoding="utf-8"), namespace)  # noqa: S102 - the file the test just wrote
    assert {p.name: namespace[p.name.upper()] for p in SCHEMA} == values
    assert source["study"] == "shared" and isinstance(source["trial"], int) and 0 <= source["win_rate"] <= 1
    template.write_text("X = 1  # tuner: nothing\n", encoding="utf-8")
    result = run_tuner("export", str(tuned_study), "--template", str(template), "-o", str(out))
    assert result.returncode == 2 and result.stderr.strip().count("\n") == 0
    assert f"{template}:1: the mark 'tuner: nothing' names no parameter" in result.stderr
    result = run_tuner("export", "--bot", "heuristic", "--template", str(template), "-o", str(out))
    assert result.returncode == 2 and "--template takes STUDY.toml" in result.stderr


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler (g++) on PATH")
def test_the_cpp_example_filled_compiles_and_plays_as_the_python_one(tmp_path):
    """bots/examples/mybot.cpp filled with values compiles, and answers turn for turn as mybot.py given the
    same values on its command line (or as itself given them in a `tuner export` file), in every league."""
    values = tuned_values()
    source = tmp_path / "mybot.cpp"
    source.write_text(fill_template((MYBOT.parent / "mybot.cpp").read_text(encoding="utf-8"), values), "utf-8")
    binary = tmp_path / "mybot"
    build = subprocess.run(["g++", "-O2", "-std=c++17", "-ffp-contract=off", "-o", str(binary), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr
    exported = tmp_path / "best.json"
    write_program_params(exported, values, {"study": "program", "trial": 1})
    setups = [(1, 31), (2, 32), (3, 33)]
    expected = play_games(example_study().render(values), setups, "heuristic")
    assert play_games(str(binary), setups, "heuristic") == expected
    assert play_games(f"{binary} --params {exported}", setups, "heuristic") == expected
    assert all(game["errors"] == [] and game["deactivated"] == [] for game in expected)
