"""Trying a program once before a study relies on it: one game against `greedy` through the referee.

A study that names a program that cannot play (a typo in its path, a missing interpreter, a crash at its first
turn) must stop before its first trial with the program's reason, not fail trial after trial.
"""
from __future__ import annotations

from typing import Optional

from bots.names import Bot, parse_bot
from engine.players import Ending, PlayerStartError, TimeLimits
from engine.referee import play_game

PROBE_SEED = 1


def probe_program(bot: Bot, league: int, limits: TimeLimits) -> Optional[str]:
    """Why the program cannot play (one line), or None when it played a game without crashing. A timeout only is
    not a reason: it depends on the machine's load (the study's time limits give slack)."""
    try:
        report = play_game(PROBE_SEED, league, [bot.player(), parse_bot("greedy", league).player()], limits,
                           records=False)
    except PlayerStartError as error:
        return str(error)
    for d in report.disqualifications:
        if d.player == 0 and not d.ending.slow and d.ending is not Ending.FINISHED:
            stderr = f"; its stderr ended with: {d.report.stderr_tail[-1]}" if d.report.stderr_tail else ""
            return f"it {d.report.describe()} in its first game ({d.reason[:200]}){stderr}"
        if d.player == 0 and d.ending is Ending.FINISHED:
            return f"its answer was refused in its first game: {d.reason[:200]}"
    return None
