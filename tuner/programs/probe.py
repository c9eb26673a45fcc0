"""Trying a program once before a study relies on it: one game against `greedy` through the referee.

A study that names a program that cannot play (a typo in its path, a missing interpreter, a crash at its first
turn) must stop before its first trial with the program's reason, not fail trial after trial.
"""
from __future__ import annotations

from typing import Optional

from bots.contract.names import Bot, parse_bot
from bots.running.player import player_for
from engine.players import Ending, PlayerStartError, TimeLimits
from engine.referee import play_refereed_game

PROBE_SEED = 1


FIRST_ANSWER_FRAME = 2  # frame 1 is the first day's harvest, frame 2 the first turn


def probe_program(bot: Bot, league: int, limits: TimeLimits) -> Optional[str]:
    """Why the program cannot play (one line), or None. It cannot play when it cannot be started, or when it is
    disqualified at its very first answer for any other reason than being slow (a first timeout depends on the
    machine's load: the study's `first_timeout` gives slack). A program that breaks later in a game plays: its
    disqualifications are counted in each trial's results."""
    try:
        report = play_refereed_game(PROBE_SEED, league, [player_for(bot), player_for(parse_bot("greedy", league))],
                                    limits, records=False)
    except PlayerStartError as error:
        return str(error)
    for d in report.disqualifications:
        if d.player != 0 or d.turn > FIRST_ANSWER_FRAME or d.ending.slow:
            continue
        if d.ending is Ending.FINISHED:
            return f"its first answer was refused: {d.reason[:200]}"
        stderr = f"; its stderr ended with: {d.report.stderr_tail[-1]}" if d.report.stderr_tail else ""
        return f"it {d.report.describe()} before its first answer{stderr}"
    return None
