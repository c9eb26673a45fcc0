"""The Python export: an in-engine bot as one plain Python file to paste into CodinGame.

The file has the parameters embedded, reads the CodinGame protocol from stdin and answers one line per turn. Its
decisions come from the policy code the engine compiles, transpiled to plain Python (`export/transpile.py`,
`export/python/emit.py`), so the two cannot drift apart. It needs CPython 3.9+ and the standard library only.
"""
from __future__ import annotations

import functools

from bots.contract.names import Bot
from engine import rules
from engine.leagues import LEAGUES
from engine.rules import MAX_MOVES
from export.exportable import exportable_for, parameter_values
from export.python.emit import transpile

# The trees each league starts with: the exported file tells the league it plays from its first turn.
STARTING_TREES = {2 * league.starting_pairs: number for number, league in LEAGUES.items()}


ADAPTER = '''
# ---- the CodinGame protocol ----------------------------------------------------------------------------

class Seat:
    """What the policy reads of its seat: its parameters, a random state and scratch space for move lists."""

    def __init__(self, params):
        self.params = params
        self.seed = 0
        self.rng = 0
        self.moves = [0] * MAX_MOVES


SEAT = Seat(PARAMS)


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


def read_richness(lines):
    """Each cell's richness, from the initialization lines (`37`, then `index richness n0..n5` per cell)."""
    richness = [0] * int(lines[0])
    for line in lines[1:1 + len(richness)]:
        index, rich = line.split()[:2]
        richness[int(index)] = int(rich)
    return richness


def league_played(first_turn):
    """The league of this game, from its first turn: each league starts with its own number of trees (Wood 2:
    12, Wood 1: 8, Bronze+: 4). The policy then plays that league's rules, whatever league it was tuned in."""
    return STARTING_TREES.get(int(first_turn[4]), LEAGUE)


def choose(mp, s):
    """This bot's answer to one turn."""
    kind, a, b = {entry}(mp, s, 0, SEAT)
    if kind == SEED_KIND:
        return "SEED %d %d" % (a, b)
    if kind == GROW_KIND:
        return "GROW %d" % a
    if kind == COMPLETE_KIND:
        return "COMPLETE %d" % a
    return "WAIT"


def possible_moves(lines):
    """The possible-moves list at the end of a turn's input."""
    count = int(lines[5 + int(lines[4])])
    return lines[len(lines) - count:] if count else []


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
    if not cells.strip():  # no game: nothing to answer
        return
    richness = read_richness([cells.strip()] + [readline().strip() for _ in range(int(cells))])
    mp = None
    while True:
        lines = read_turn(readline)
        if lines is None:
            return
        if mp is None:
            mp = Map(league_played(lines), richness)
        try:
            answer = choose(mp, State(lines))
        except Exception as error:  # never crash on CodinGame: wait, and say why on stderr
            print("policy error: %r" % (error,), file=sys.stderr)
            answer = "WAIT"
        if answer != "WAIT" and answer not in possible_moves(lines):  # never an action this league refuses
            print("not a possible move here: %s" % answer, file=sys.stderr)
            answer = "WAIT"
        print(answer, flush=True)


if __name__ == "__main__":
    main()
'''


@functools.cache
def policy_source(policy) -> tuple[str, str]:
    """A compiled policy's plain-Python source and the name of its entry in it (made once a process: a study
    exports each new best trial's bot)."""
    code, (entry,) = transpile(policy)
    return code, entry


def bot_source(bot: Bot, league: int, header_lines: list) -> str:
    """The text of the standalone file for `bot`, exported for `league` (it plays whichever league it is in)."""
    found = exportable_for(bot)
    code, entry = policy_source(found.policy)
    names, values = parameter_values(bot, found)
    params = "\n".join(f"    {value!r},  # {name}" for name, value in zip(names, values))
    rules_by_league = {n: (l.max_days, int(l.can_grow), int(l.can_seed), int(l.shadows)) for n, l in LEAGUES.items()}
    header = "\n".join(header_lines)
    return (
        "#!/usr/bin/env python3\n"
        f'"""{header}\n"""\n'
        "import sys\n\n"
        f"LEAGUE = {league}  # exported for; the league played is read from the first turn\n"
        f"LEAGUE_RULES = {rules_by_league!r}  # league: (max_days, can_grow, can_seed, shadows)\n"
        f"STARTING_TREES = {STARTING_TREES!r}  # trees on the first turn: league\n"
        f"SEED_KIND, GROW_KIND, COMPLETE_KIND = {rules.SEED}, {rules.GROW}, {rules.COMPLETE}\n"
        f"MAX_MOVES = {MAX_MOVES}\n"
        f"BOT = {found.name!r}\n"
        f"PARAMS = [\n{params}\n]\n\n"
        "# ---- generated from the engine's compiled policy (export/transpile.py): regenerate, do not edit ----\n\n"
        f"{code}"
        + ADAPTER.replace("{entry}", entry)
    )
