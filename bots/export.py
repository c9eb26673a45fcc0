"""Export an in-engine bot as one standalone Python file to paste into CodinGame.

The file has the parameters embedded, reads the CodinGame protocol from stdin and answers one line per
turn. Its decisions come from the policy code the engine compiles, transpiled to plain Python
(`bots/transpile.py`), so the two cannot drift apart. It needs CPython 3.9+ and the standard library only.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bots.registry import Bot
from bots.seat import GREEDY_BOT, HEURISTIC_BOT
from bots.transpile import transpile
from engine.leagues import LEAGUES

CODINGAME_LIMIT = 100_000


class ExportError(ValueError):
    """A bot that cannot be exported, or a file that cannot be written."""


@dataclass(frozen=True)
class Exportable:
    bot: str
    entry: Callable[[], object]  # returns the compiled entry function (imported lazily)
    call: str  # how the adapter calls it; `{entry}` is the entry's name in the generated code
    param_names: Callable[[], list]


def _heuristic_entry():
    from bots.heuristic.policy import heuristic_move

    return heuristic_move


def _heuristic_names():
    from bots.heuristic.schema import SCHEMA

    return [p.name for p in SCHEMA]


def _greedy_entry():
    from bots.greedy import greedy_move

    return greedy_move


EXPORTABLE = {
    HEURISTIC_BOT: Exportable("heuristic", _heuristic_entry, "{entry}(mp, s, 0, PARAMS)", _heuristic_names),
    GREEDY_BOT: Exportable("greedy", _greedy_entry, "{entry}(mp, s, 0, int(PARAMS[0]), int(PARAMS[1]))",
                           lambda: ["complete_day", "max_seeds"]),
}

ADAPTER = '''
# ---- the CodinGame protocol ----------------------------------------------------------------------------

class Map:
    """What the policy reads of the map: the league's rules and each cell's richness."""

    def __init__(self, league, richness):
        self.league = league
        self.max_days, self.can_grow, self.can_seed, self.shadows = LEAGUE_RULES[league]
        self.richness = richness
        self.by_richness = [0, 0, 0, 0]
        for cell, rich in enumerate(richness):
            self.by_richness[rich] |= 1 << cell


class State:
    """One turn's input as the policy reads it; this bot is player 0, the opponent player 1."""

    def __init__(self, lines):
        self.day = int(lines[0])
        self.nutrients = int(lines[1])
        sun, score = lines[2].split()
        opp_sun, opp_score, opp_waiting = lines[3].split()
        self.sun = [int(sun), int(opp_sun)]
        self.score = [int(score), int(opp_score)]
        self.waiting = [0, int(opp_waiting)]
        self.active = [1, 1]
        self.trees = [0, 0, 0, 0]
        self.mine = [0, 0]
        self.dormant = 0
        for line in lines[5:5 + int(lines[4])]:
            cell, size, is_mine, is_dormant = (int(v) for v in line.split())
            self.trees[size] |= 1 << cell
            self.mine[0 if is_mine else 1] |= 1 << cell
            if is_dormant:
                self.dormant |= 1 << cell


def read_map(lines):
    """The map from the initialization lines (`37`, then `index richness n0..n5` per cell)."""
    richness = [0] * int(lines[0])
    for line in lines[1:1 + len(richness)]:
        index, rich = line.split()[:2]
        richness[int(index)] = int(rich)
    return Map(LEAGUE, richness)


def choose(mp, s):
    """This bot's answer to one turn."""
    kind, a, b = {call}
    if kind == SEED_KIND:
        return "SEED %d %d" % (a, b)
    if kind == GROW_KIND:
        return "GROW %d" % a
    if kind == COMPLETE_KIND:
        return "COMPLETE %d" % a
    return "WAIT"


def read_turn(readline):
    """One turn's input lines, or None at the end of input."""
    first = readline()
    if not first:
        return None
    lines = [first.strip()] + [readline().strip() for _ in range(4)]
    lines += [readline().strip() for _ in range(int(lines[4]))]
    moves = readline().strip()
    lines.append(moves)
    lines += [readline().strip() for _ in range(int(moves))]
    return lines


def main():
    readline = sys.stdin.readline
    cells = readline()
    mp = read_map([cells.strip()] + [readline().strip() for _ in range(int(cells))])
    while True:
        lines = read_turn(readline)
        if lines is None:
            return
        try:
            answer = choose(mp, State(lines))
        except Exception as error:  # never crash on CodinGame: wait, and say why on stderr
            print("policy error: %r" % (error,), file=sys.stderr)
            answer = "WAIT"
        print(answer, flush=True)


if __name__ == "__main__":
    main()
'''


def exportable_for(bot: Bot) -> Exportable:
    if not bot.in_engine:
        raise ExportError(f"bot {bot.name!r} is a program, not an in-engine bot: nothing to export")
    kind = int(bot.seat[0]["kind"])
    if kind not in EXPORTABLE:
        raise ExportError(f"bot {bot.name!r} cannot be exported "
                          f"(exportable: {', '.join(e.bot for e in EXPORTABLE.values())})")
    return EXPORTABLE[kind]


def bot_source(bot: Bot, league: int, header_lines: list) -> str:
    """The text of the standalone file for `bot` playing in `league`."""
    from engine import rules

    spec = exportable_for(bot)
    code, (entry,) = transpile(spec.entry())
    names = spec.param_names()
    values = [float(v) for v in bot.seat[0]["params"][: len(names)]]
    params = "\n".join(f"    {value!r},  # {name}" for name, value in zip(names, values))
    rules_by_league = {n: (l.max_days, int(l.can_grow), int(l.can_seed), int(l.shadows)) for n, l in LEAGUES.items()}
    header = "\n".join(header_lines)
    return (
        "#!/usr/bin/env python3\n"
        f'"""{header}\n"""\n'
        "import sys\n\n"
        f"LEAGUE = {league}\n"
        f"LEAGUE_RULES = {rules_by_league!r}  # league: (max_days, can_grow, can_seed, shadows)\n"
        f"SEED_KIND, GROW_KIND, COMPLETE_KIND = {rules.SEED}, {rules.GROW}, {rules.COMPLETE}\n"
        f"PARAMS = [\n{params}\n]\n\n"
        "# ---- generated from the engine's compiled policy (bots/transpile.py): regenerate, do not edit ----\n\n"
        f"{code}"
        + ADAPTER.replace("{call}", spec.call.format(entry=entry))
    )


def export_bot(bot: Bot, league: int, path: Path, header_lines: list) -> str:
    """Write the standalone file (atomically) and return its text."""
    text = bot_source(bot, league, header_lines)
    if len(text) >= CODINGAME_LIMIT:
        raise ExportError(f"the exported file has {len(text)} characters; CodinGame accepts fewer than "
                          f"{CODINGAME_LIMIT}")
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o755)
        tmp.replace(path)
    except OSError as error:
        raise ExportError(f"cannot write {path}: {error.strerror or error}") from None
    return text
