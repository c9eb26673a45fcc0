"""The C++ export: every bot that exports in C++ compiles with Debian's g++ without a warning and under CodinGame's
limit, plays game for game like the engine in all three leagues through the referee (the search at a fixed budget
included), decides as the engine on random positions, keeps Python's arithmetic, refuses code outside the portable
subset with its file, line and function, and a timed search keeps CodinGame's time limits over 100 games."""
from __future__ import annotations

import collections
import fcntl
import json
import os
import random
import re
import shutil
import statistics
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from bots.contract.names import bot_with_params, parse_bot
from bots.registry import REGISTERED, plugin, schema_for
from bots.running.dispatch import decide
from bots.running.player import player_for
from engine.game import Game
from engine.jit import hot
from engine.players import TimeLimits
from engine.protocol import format_move
from engine.referee import play_refereed_game
from export.cpp import runtime
from export.cpp.bot_file import policy_cpp
from export.cpp.build import WARNINGS, codingame_build
from export.cpp.emit import cpp_program
from export.standalone import CODINGAME_LIMIT, export_bot
from export.transpile import TranspileError
from tests.bots.test_style_bots import away_from_defaults, params_file
from tests.export.test_export_fuzz import random_state
from tuner.play.matches import run_match

REQUIRE_GXX_ENV = "TUNER_REQUIRE_GXX"  # "1" (.ci/run): no g++ is a failure, not a skip
CPP_BOTS = [name for name in REGISTERED if plugin(name).exports_in("cpp")]
SEARCHING = [name for name in CPP_BOTS if policy_cpp(plugin(name).policy).searches]
TIMED_MS = 2  # the timed search's budget a move in the tests: short games, the limits checked are CodinGame's
STANDARD_HEADERS = {"algorithm", "array", "cctype", "chrono", "cmath", "cstdint", "cstring", "initializer_list",
                    "iostream", "iterator", "limits", "string", "tuple", "type_traits", "vector"}


def test_the_search_bots_are_the_policies_whose_cpp_asks_the_budget_hook():
    """`asks_within_budget` (the export's and the study hint's cheap answer, from the code objects) names the
    bots whose transpiled C++ calls the runtime's within_budget."""
    from bots.contract.searches import asks_within_budget

    assert [name for name in CPP_BOTS if asks_within_budget(plugin(name).policy)] == SEARCHING
    assert "mcts" in SEARCHING and "heuristic" not in SEARCHING


def gxx() -> str:
    found = shutil.which("g++")
    if found is None:
        reason = "g++ is not installed (Debian's package g++; .ci/run installs it)"
        if os.environ.get(REQUIRE_GXX_ENV) == "1":
            pytest.fail(f"{REQUIRE_GXX_ENV}=1 but {reason}")
        pytest.skip(reason)
    return found


def compile_cpp(source: Path, binary: Path, extra: tuple = ()) -> subprocess.CompletedProcess:
    return subprocess.run(codingame_build(str(source), str(binary), *WARNINGS, *extra, compiler=gxx()),
                          capture_output=True, text=True, timeout=300)


@dataclass
class CppExport:
    bot: str  # the in-engine bot it was exported from
    source: Path
    binary: Path
    returncode: int  # the compile's
    warnings: str  # what g++ printed

    @property
    def program(self) -> str:
        return f"cmd:{self.binary}"


def built_once(tmp_path_factory, name: str, build) -> dict:
    """`build(directory)` (a JSON-able dict) made once for the whole run, also when pytest-xdist spreads the tests
    over processes: the first to need it builds it under a lock in a directory the run's processes share, the
    others wait and read it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        directory = tmp_path_factory.getbasetemp().parent / name  # this run's, shared by its workers
    else:
        directory = tmp_path_factory.mktemp(name)
    directory.mkdir(exist_ok=True)
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = directory / "built.json"
        if not made.exists():
            made.write_text(json.dumps(build(directory)))
        return json.loads(made.read_text())


# Resources above their defaults in the game-for-game tests: at 12 iterations a move, mcts picks among tried moves by
# their statistics, searches the opponent's replies and goes deeper (its default, 2, mostly tries its own moves once).
# beam plays its best first moves out for 2 days against 3 replies, in 3 passes with the opponent's later moves drawn
# (its default, 0 days, plays its day plan's first move).
FIXED_BUDGETS = {"mcts": {"iterations": 12},
                 "beam": {"rollout_days": 2, "rollout_replies": 3, "rollout_samples": 3, "rollout_spread": 3}}


def style_away_from_defaults(bot: str) -> dict:
    """Every style parameter away from its default (`away_from_defaults`); the resources (a search's budget, which
    `NAME~J` leaves alone too) at theirs or at `FIXED_BUDGETS`, so that the games stay short."""
    away = away_from_defaults(bot)
    values = {p.name: away[p.name] if p.perturbed else p.default for p in schema_for(bot)}
    return {**values, **FIXED_BUDGETS.get(bot, {})}


def _build_exports(directory: Path) -> dict:
    exports = {}
    for name in CPP_BOTS:
        bot = f"{name}:{params_file(directory, name, style_away_from_defaults(name))}"
        source = directory / f"{name}.cpp"
        export_bot(parse_bot(bot, 3), 3, source, [f"test export of {bot}"], "cpp")
        exports[name] = (bot, source)
    (directory / "most").mkdir()
    for name in SEARCHING:
        # The budget at its largest: the clock, not the count, must end each move's work.
        most = {p.name: p.high if not p.perturbed and p.type != "choice" else p.default for p in schema_for(name)}
        bot = f"{name}:{params_file(directory / 'most', name, most)}"
        source = directory / f"{name}_timed.cpp"
        export_bot(parse_bot(bot, 3), 3, source, [f"test export of {bot}, timed"], "cpp", TIMED_MS)
        exports[f"{name}_timed"] = (bot, source)

    def build(item):
        bot, source = item
        compiled = compile_cpp(source, source.with_suffix(""))
        return {"bot": bot, "source": str(source), "binary": str(source.with_suffix("")),
                "returncode": compiled.returncode, "warnings": compiled.stderr}

    with ThreadPoolExecutor(2) as pool:
        return dict(zip(exports, pool.map(build, exports.values())))


@pytest.fixture(scope="session")
def cpp_exports(tmp_path_factory) -> dict:
    """Every bot that exports in C++, with its style parameters away from the defaults (a search at the fixed budget
    of its defaults), and each search bot again with a wall-clock budget (`NAME_timed`): exported and compiled once
    a run."""
    gxx()
    built = built_once(tmp_path_factory, "cpp-exports", _build_exports)
    return {key: CppExport(b["bot"], Path(b["source"]), Path(b["binary"]), b["returncode"], b["warnings"])
            for key, b in built.items()}


def test_every_cpp_export_compiles_without_a_warning_and_is_standalone(cpp_exports):
    assert set(CPP_BOTS) >= {"greedy", "heuristic", "sunrate", "rush", "seeder", "search", "mcts", "beam"}
    assert {"search", "mcts"} <= set(SEARCHING)
    for name, export in cpp_exports.items():
        assert export.returncode == 0 and export.warnings == "", (name, export.warnings)
        text = export.source.read_text()
        assert len(text) < CODINGAME_LIMIT, (name, len(text))
        assert set(re.findall(r"#include <(\w+)>", text)) <= STANDARD_HEADERS, name
        assert "numba" not in text and "numpy" not in text and text.count("int main()") == 1


def engine_player(bot: str, league: int):
    return player_for(parse_bot(bot, league))


def outputs(report, p: int) -> list:
    return [r["output"][p] for r in report.records if r.get("t") == "ACTIONS"]


@pytest.mark.parametrize("league", [1, 2, 3])
@pytest.mark.parametrize("bot", CPP_BOTS)
def test_cpp_export_plays_game_for_game_like_the_engine(cpp_exports, bot, league):
    """Through the referee, on both sides: the same answer at every turn, the same scores, no refused action."""
    export = cpp_exports[bot]
    for seed, side in ((11, 0), (12, 1)):
        players = [engine_player("heuristic", league), player_for(parse_bot(export.program, league))]
        engine = [engine_player("heuristic", league), engine_player(export.bot, league)]
        if side == 0:
            players.reverse()
            engine.reverse()
        program_game = play_refereed_game(seed, league, players, TimeLimits(10_000, 10_000))
        engine_game = play_refereed_game(seed, league, engine)
        assert program_game.outcome.deactivated == [], program_game.outcome.deactivated
        assert outputs(program_game, side) == outputs(engine_game, side), (bot, league, seed)
        assert program_game.outcome.final_scores == engine_game.outcome.final_scores
        refused = [r["error"][side] for r in program_game.records if r.get("t") == "ACTIONS" and r["error"][side]]
        assert refused == [] and len(outputs(program_game, side)) > 0


def random_positions(league: int, seed: int, count: int, rng: random.Random) -> tuple[Game, list]:
    """A map's initialization lines and first turn (from which the bot reads the league), then `count` random
    legal positions on it: (game, [(lines, state copy)])."""
    game = Game(seed, league)
    game.phase = "ACTIONS"
    turns = [(game.frame_input(0), game.states.copy())]
    for _ in range(count):
        random_state(game, rng)
        turns.append((game.frame_input(0), game.states.copy()))
    return game, turns


def test_cpp_exports_decide_as_the_engine_on_random_positions(cpp_exports):
    """Positions no normal game reaches, on maps of every league: each bot that does not search (and so keeps no
    memory from one move to the next) answers what the compiled policy answers, and only possible moves."""
    rng = random.Random(2023)
    maps = [random_positions(league, seed, 250, rng) for league in (1, 2, 3) for seed in (3, 4, 5, 6)]
    bots = sorted(set(CPP_BOTS) - set(SEARCHING))
    compared = 0
    for name in bots:
        export = cpp_exports[name]
        for game, turns in maps:
            text = "".join("\n".join(lines) + "\n" for lines, _ in turns)
            answers = subprocess.run([str(export.binary)], input=game.global_input_text().decode() + text,
                                     capture_output=True, text=True, timeout=60).stdout.splitlines()
            assert len(answers) == len(turns), (name, game.seed)
            seat = parse_bot(export.bot, game.league.number).seat
            for (lines, states), answer in list(zip(turns, answers))[1:]:
                game.states[:] = states
                expected = format_move(*(int(v) for v in decide(game.map, game.state, 0, seat.copy()[0])))
                assert answer == expected, (name, game.seed, lines)
                assert answer == "WAIT" or answer in lines
                compared += 1
    assert compared == len(bots) * len(maps) * 250 and len(bots) >= 5


@hot
def integer_arithmetic(a, b):
    """Every integer operator the portable subset allows, for the C++ export against Numba."""
    chained = 1 if a < b <= 7 else 0
    folded = 0
    for x in (a, b, 3):
        folded = folded * 7 + x
    pair = (b, a)
    for i in range(3):
        folded += i
    for j in range(2, a & 7, 2):
        j += 100
        folded += j
    for k in range(folded & 3, 0, -1):
        folded -= k
    return (a // b, a % b, a / b, min(a, b), max(b, a), abs(a), a << 3, a >> 2, a & b, a | b, a ^ b, ~a, -a,
            1 << (36 + (b & 3)), int(a / b), chained, float(a) * 0.5, a * b - (a + b), not a < b, folded,
            pair[1] - pair[0], float_arithmetic(b, 4.0)[2], i)


@hot
def float_arithmetic(x, y):
    return x // y, x % y, x / y, min(x, y), max(y, x), abs(x), int(x), -x, x * y - (x + y), x <= y


INTEGERS = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (0, 5), (2**40 + 3, -7), (5, 5), (3, 9)]
FLOATS = [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-0.5, 0.25), (3.0, 2.5), (-3.0, 2.5), (1e300, -3.0)]


@pytest.fixture(scope="session")
def runtime_harness(tmp_path_factory) -> list:
    """The runtime (`export/cpp/runtime.py` HELPERS) and the C++ of the arithmetic functions above, compiled once
    with a main that prints their results, `within_budget` without a time limit, then with one (the clock): its
    lines. TIME_MS is a variable here, where an export makes it a constant."""
    from numba import types

    code = (cpp_program(integer_arithmetic, (types.int64, types.int64)).code
            + cpp_program(float_arithmetic, (types.float64, types.float64)).code)
    calls = [f"    show(integer_arithmetic({a}, {b}));" for a, b in INTEGERS]
    calls += [f"    show(float_arithmetic({x!r}, {y!r}));" for x, y in FLOATS]
    main = """
template <class T> void show(const T& values) {
    std::apply([](auto... v) { ((std::cout << +v << ' '), ...); }, values);
    std::cout << '\\n';
}
int main() {
    std::cout.precision(17);
CALLS
    show(std::make_tuple(within_budget(1), within_budget(0), within_budget(-5)));
    TIME_MS = 5;
    auto start = std::chrono::steady_clock::now();
    DEADLINE = start + std::chrono::milliseconds(30);
    long calls = 0;
    while (within_budget(-1)) ++calls;
    double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cout << calls << ' ' << spent << ' ' << within_budget(1000) << '\\n';
}
""".replace("CALLS", "\n".join(calls))

    def build(directory: Path) -> dict:
        source = directory / "runtime.cpp"
        source.write_text(f"{runtime.INCLUDES}static int64_t TIME_MS = 0;\n{runtime.HELPERS}\n{code}\n"
                          f"{main}")
        compiled = compile_cpp(source, directory / "runtime")
        printed = subprocess.run([str(directory / "runtime")], capture_output=True, text=True, timeout=60) \
            if compiled.returncode == 0 else None
        return {"warnings": compiled.stderr, "lines": printed.stdout.splitlines() if printed else []}

    built = built_once(tmp_path_factory, "cpp-runtime", build)
    assert built["warnings"] == "", built["warnings"]
    return built["lines"]


def test_cpp_export_computes_as_numba_on_every_operator(runtime_harness):
    """Generated C++ against Numba (the engine's semantics) on mixed signs and types: Python's `//`, `%`, `/`,
    `min`, `max`, shifts of a literal past 32 bits, chained comparisons, loops; and without a time limit,
    `within_budget` is the engine's count."""
    expected = [integer_arithmetic(a, b) for a, b in INTEGERS] + [float_arithmetic(x, y) for x, y in FLOATS]
    assert len(runtime_harness) == len(expected) + 2 and runtime_harness[len(expected)].split() == ["1", "0", "0"]
    for values, line in zip(expected, runtime_harness):
        shown = line.split()
        assert len(shown) == len(values), line
        for value, text in zip(values, shown):
            assert (float(text) == value) if isinstance(value, float) else (int(text) == int(value)), (values, line)


def test_the_clock_ends_a_timed_search_at_its_deadline(runtime_harness):
    """`within_budget` with a time limit: true until the deadline whatever the count, false after it."""
    calls, spent, later = runtime_harness[-1].split()
    assert int(calls) > 0 and 30.0 <= float(spent) < 80.0 and later == "0"


def embedded_params(source: str) -> dict:
    """The PARAMS table of a C++ export's text: {name: value}."""
    body = re.search(r"std::array<double, \d+> PARAMS = \{(.*?)\};", source, re.S).group(1)
    return {name: float(value) for value, name in re.findall(r"^\s+(\S+),\s+// (\w+)$", body, re.M)}


@pytest.mark.parametrize("bot", SEARCHING)
def test_a_timed_export_plays_by_the_clock_with_the_values_its_bot_sets_for_it(bot):
    """A search bot's export with a time limit carries the parameter values its plugin sets for a move ended by
    the clock (`TimedExport.params`, said in the header) in place of the bot's values that are the defaults, and
    keeps the others (a study's or a parameter file's own); without a time limit it carries the bot's values, so
    that it plays the engine's games."""
    from export.standalone import export_source

    found = plugin(bot)
    names = [p.name for p in found.schema]
    defaults = found.defaults(3)
    moved = away_from_defaults(bot)
    timed_params = {}
    for label, values in (("defaults", {}), ("own values", moved),
                          ("some at their defaults", {**moved, **{name: defaults[name] for name in
                                                                   list(found.timed.params)[::2]}})):
        chosen = bot_with_params(bot, values, label.replace(" ", "-"), {})
        own = dict(zip(names, (float(v) for v in chosen.seat[0]["params"][:len(names)])))
        assert embedded_params(export_source(chosen, 3, ["untimed"], "cpp")) == pytest.approx(own), label
        timed_text = export_source(chosen, 3, ["timed"], "cpp", 90)
        timed_params[label] = embedded_params(timed_text)
        clock = {name: value for name, value in found.timed.params.items() if own[name] == float(defaults[name])}
        assert timed_params[label] == pytest.approx({**own, **clock}), label
        header = timed_text.split("#include")[0]
        for name, value in found.timed.params.items():
            assert (f"{name} = {value:g}" in header) == (name in clock), (label, name)
    if bot == "mcts":
        assert set(found.timed.params) > {"search_forced", "rollout_epsilon"}
        assert timed_params["own values"]["rollout_epsilon"] == pytest.approx(moved["rollout_epsilon"])
        assert timed_params["defaults"]["rollout_epsilon"] == pytest.approx(found.timed.params["rollout_epsilon"])


def reported_moves(export: CppExport, seed: int = 17) -> list[dict]:
    """The counters a C++ bot reported on stderr after each of its moves (`BotPlugin.stats`) in one game against
    the in-engine heuristic, under CodinGame's limits."""
    program = parse_bot(export.program)
    me = player_for(program)
    me.stderr_tail = collections.deque()  # every line, not the last few
    played = play_refereed_game(seed, 3, [me, player_for(parse_bot("heuristic"))], TimeLimits(1000, 100), records=False)
    assert played.disqualifications == []
    moves = []
    for line in me.stderr_tail:
        name, _, rest = line.partition(": ")
        words = rest.split()
        moves.append({label: int(value) for label, value in zip(words[::2], words[1::2])})
    return moves


def test_a_timed_mcts_grows_its_tree_beyond_the_engines_and_keeps_it(cpp_exports):
    """The timed C++ mcts carries a seat for a large tree: its first turn alone (20 ms at TIMED_MS, searched for
    the tree it keeps) grows it past the engine's 512 nodes, and at most moves the tree holds more nodes than the
    move's iterations added: the tree was kept from the moves before."""
    moves = reported_moves(cpp_exports["mcts_timed"])
    assert len(moves) > 20 and set(moves[0]) == {"iterations", "nodes", "edges"}
    assert moves[0]["iterations"] > 0 and max(m["nodes"] for m in moves) > 4 * 512
    searched = [m for m in moves[1:] if m["iterations"] > 0]
    kept = [m for m in searched if m["nodes"] > m["iterations"] + 1]
    assert len(kept) > 0.8 * len(searched), (len(kept), len(searched))


WIDEST_ROLLOUTS = "beam:rollout_days=24,rollout_candidates=16,rollout_width=16"


def timed_beam_moves(tmp_path: Path, bot: str, ms: int) -> list[dict]:
    """The counters of a timed C++ beam's moves in one game (`reported_moves`)."""
    source = tmp_path / f"beam_{ms}.cpp"
    export_bot(parse_bot(bot, 3), 3, source, [f"test export of {bot} at {ms} ms"], "cpp", ms)
    compiled = compile_cpp(source, source.with_suffix(""))
    assert compiled.returncode == 0, compiled.stderr
    moves = reported_moves(CppExport("beam", source, source.with_suffix(""), compiled.returncode, compiled.stderr))
    assert len(moves) > 20 and set(moves[0]) == {"horizon", "rollout_days", "passes"}
    return moves


@pytest.mark.slow  # timed games, 10 s: CI's second step
def test_a_timed_beam_plays_out_further_with_more_time(tmp_path):
    """With a time limit the beam's rollouts deepen until the move's deadline: at ten times the time, on the same
    seed, its moves look further ahead on average and play out more days; the horizon of a pass the deadline cut
    short is not reported (the pass is dropped), so the horizons are those of the schedule 1, 2, 4, 8, 16, 24. Its
    rollouts at their widest (16 candidates, plans 16 wide): at the defaults (4 candidates, 2 wide) 2 ms a move
    already plays most of them out to the game's end."""
    reach = {}
    for ms in (2, 20):
        moves = timed_beam_moves(tmp_path, WIDEST_ROLLOUTS, ms)
        assert {m["horizon"] for m in moves} <= {0, 1, 2, 4, 8, 16, 24}
        reach[ms] = (statistics.mean(m["horizon"] for m in moves), sum(m["rollout_days"] for m in moves))
    assert reach[20][0] > reach[2][0] and reach[20][1] > reach[2][1], reach


@pytest.mark.slow  # timed games, 10 s: CI's second step
def test_a_timed_beam_with_passes_plays_them_until_its_deadline(tmp_path):
    """The beam to submit at 90 ms (`bots/tuned/beam-timed.json`: 16 passes of rollouts in the engine) plays, timed,
    as many passes as the deadline allows rather than its 16: more at ten times the time, and beyond 16 at some
    moves even at 5 ms; the passes follow a finished pass of the deterministic rollouts (its horizon reported).
    Medians: near the game's end a pass is so short that a few moves play thousands at either budget."""
    passes = {}
    for ms in (5, 50):
        moves = timed_beam_moves(tmp_path, "beam:bots/tuned/beam-timed.json", ms)
        rolled = [m for m in moves if m["passes"] > 0]
        assert rolled and all(m["horizon"] in (1, 2, 4) for m in rolled)
        passes[ms] = [m["passes"] for m in rolled]
    assert max(passes[5]) > 16 and statistics.median(passes[50]) > 2 * statistics.median(passes[5]), passes


@pytest.mark.slow
def test_a_timed_search_keeps_codingames_time_limits_over_100_games(cpp_exports):
    """CodinGame's limits (1,000 ms for the first answer, 100 ms after), enforced by the referee, on each search
    bot at its largest budget (which, spent as a count, may take longer than that). This machine is shared: a game
    lost to a timeout is played again, alone, and must then keep the limits (a bot over its time is over it again;
    a stall of the machine does not come back on the same turn); any other disqualification fails at once."""
    limits = TimeLimits(1000, 100)
    for name in SEARCHING:
        export = cpp_exports[f"{name}_timed"]
        match = run_match(parse_bot(export.program), parse_bot(name), 100, league=3, seed=23, jobs=2, limits=limits)
        assert len(match.results) == 100
        for result in match.results:
            disqualified = result.disqualified("A")
            if disqualified is None:
                continue
            assert disqualified["slow"], (name, result.seed, disqualified)
            players = [player_for(parse_bot(name))]
            players.insert(result.a_side, player_for(parse_bot(export.program)))
            again = play_refereed_game(result.seed, 3, players, limits, records=False)
            assert again.disqualifications == [], (name, result.seed, disqualified, again.disqualifications)


# ---- code outside the portable subset ---------------------------------------------------------------------------

@hot
def uses_power(x, y):
    return x ** y


@hot
def chained_around_a_call(a, b):
    return 0 < fine(a, b) < 9


@hot
def or_of_integers(a, b):
    value = a or b
    return value


TABLE = np.array([1, 2, 3], dtype=np.int64)


@hot
def loop_over_a_table(a, b):
    total = a
    for x in TABLE:
        total += x * b
    return total


@hot
def fine(a, b):
    return a // b + a % b


def line_of(function, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(function.py_func)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("function, text", [(uses_power, "x ** y"), (chained_around_a_call, "0 < fine(a, b) < 9"),
                                            (or_of_integers, "a or b"), (loop_over_a_table, "for x in")])
def test_code_outside_the_portable_subset_is_refused_with_its_file_line_and_function(function, text):
    from numba import types

    with pytest.raises(TranspileError) as refused:
        cpp_program(function, (types.int64, types.int64))
    message = str(refused.value)
    where = f"tests/export/test_export_cpp.py:{line_of(function, text)}"
    assert message.startswith(f"{where} ({function.py_func.__name__})")
    assert "fine" in cpp_program(fine, (types.int64, types.int64)).code


def test_a_cpp_export_near_the_limit_goes_without_its_comments(monkeypatch):
    from export import standalone

    full = standalone.export_source(parse_bot("search"), 3, ["test"], "cpp")
    monkeypatch.setattr(standalone, "CODINGAME_LIMIT", len(full) - 1)
    short = standalone.export_source(parse_bot("search"), 3, ["test"], "cpp")
    assert "// Player p's move (kind, a, b)." in full and "// Player p's move" not in short
    assert len(short) < len(full) - 1 and short.count("int main()") == 1
