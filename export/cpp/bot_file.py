"""The C++ export: an in-engine bot as one C++17 file (standard library only) to paste into CodinGame.

The file holds the bot's parameters, the records' structs (from their numpy dtypes), the fixed runtime and
protocol adapter (`export/cpp/runtime.py`), and the policy with everything it calls, rules included, generated from
the code the engine compiles (`export/cpp/emit.py`). It reads the league from its first turn and never answers an
action outside the possible-moves list, as the Python export does.

A search bot (one whose policy asks `bots.contract.budget.within_budget`) spends the same budget as in the engine
and plays the same game; with a time limit (`time_ms`), it spends a wall-clock budget per move instead: `time_ms` on
each turn, ten times that on the first (CodinGame allows 100 ms and 1,000 ms).
"""
from __future__ import annotations

import functools
from typing import Optional

import numpy as np

from bots.contract.seat import SEAT_DTYPE
from engine import rules
from engine.geometry import CELLS
from engine.leagues import LEAGUES
from export.cpp import runtime
from export.cpp.emit import CppProgram, cpp_program, float_literal
from export.cpp.inferred_types import structs_source
from export.languages import FIRST_TURN_FACTOR


@functools.cache
def policy_cpp(policy, comments: bool = True) -> CppProgram:
    """A compiled policy's C++ (made once a process)."""
    return cpp_program(policy, comments=comments)


def _comment(lines: list) -> str:
    return "\n".join(f"// {line}".rstrip() for text in lines for line in str(text).splitlines())


def stats_source(bot: str, stats: tuple) -> str:
    """`report_stats()`: one line on standard error after each move with the bot's counters (`BotPlugin.stats`),
    e.g. `mcts: iterations 8123 nodes 41020`, which CodinGame's IDE shows and `benchmarks/export_turn_time.py`
    reads."""
    if not stats:
        return "static void report_stats() {}"
    fields = " << ".join(f'" {label} " << SEAT.ints[{index}]' for label, index in stats)
    return f'static void report_stats() {{ std::cerr << "{bot}:" << {fields} << std::endl; }}'


def cpp_source(policy, names: list, values: list, league: int, header_lines: list,
               time_ms: Optional[int] = None, comments: bool = True, seat: np.dtype = SEAT_DTYPE,
               stats: tuple = (), bot: str = "bot") -> str:
    """The text of the C++ file for a policy with these parameter values; `comments`: the functions' docstrings
    as comments (a file near CodinGame's limit goes without); `seat`: the seat record it carries (a timed export's
    may hold larger arrays); `stats`: the counters it reports after each move."""
    program = policy_cpp(policy, comments)
    params = "\n".join(f"    {float_literal(value)},  // {name}" for name, value in zip(names, values))
    rules_by_league = ",\n".join(
        f"    {{{n}, {lg.max_days}, {int(lg.can_grow)}, {int(lg.can_seed)}, {int(lg.shadows)}, "
        f"{2 * lg.starting_pairs}}}" for n, lg in LEAGUES.items())
    timed = time_ms or 0
    adapter = runtime.ADAPTER.replace("ENTRY(", f"{program.entry}(").replace("REPORT_STATS", stats_source(bot, stats))
    unpack = f"static void unpack_tables() {{\n{program.unpack}\n}}" if program.unpack else \
        "static void unpack_tables() {}"
    return (
        f"{_comment(header_lines)}\n"
        f"{runtime.INCLUDES}\n"
        f"constexpr int64_t LEAGUE = {league};  // exported for; the league played is read from the first turn\n"
        f"// league, max_days, can_grow, can_seed, shadows, trees on the first turn\n"
        f"static const int64_t LEAGUE_RULES[][6] = {{\n{rules_by_league}\n}};\n"
        f"constexpr int64_t SEED_KIND = {rules.SEED}, GROW_KIND = {rules.GROW}, COMPLETE_KIND = {rules.COMPLETE};\n"
        f"constexpr int64_t CELL_COUNT = {CELLS};\n"
        f"// A search's wall-clock budget per move in ms (0: the fixed budget of its parameters, as in the engine)\n"
        f"constexpr int64_t TIME_MS = {timed}, FIRST_TURN_MS = {FIRST_TURN_FACTOR * timed};\n"
        f"static const std::array<double, {len(values)}> PARAMS = {{\n{params}\n}};\n\n"
        f"{structs_source(seat)}\n"
        f"{runtime.HELPERS}\n"
        "// ---- generated from the engine's compiled code (export/cpp/emit.py): regenerate, do not edit ----\n\n"
        f"{program.code}\n"
        f"{unpack}\n"
        f"{adapter}"
    )
