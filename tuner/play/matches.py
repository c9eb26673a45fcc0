"""Matches: N/2 seeds, each played twice with sides swapped (common random numbers for both bots).

Played by the one scheduler every command shares (`tuner.play.runner.GameRunner`): compiled batches on K threads
between in-engine bots, the text-protocol referee on K processes when a program plays.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

import numpy as np

from bots.contract.names import Bot
from engine.players import TimeLimits
from tuner.play.runner import GameRunner, UnitResults
from tuner.play.seeds import game_seeds
from tuner.play.stats import Tally, tally


@dataclass
class GameResult:
    seed: int
    a_side: int  # the player index bot A played
    scores: tuple  # final scores (player 0, player 1)
    # The referee's disqualifications (programs only): {"player", "turn", "reason"}, and what became of the
    # program ("note": its exit, if it exited) and the last lines of its stderr.
    deactivated: tuple = ()

    @property
    def margin(self) -> int:
        """A's final score minus B's."""
        return self.scores[self.a_side] - self.scores[1 - self.a_side]

    def disqualified(self, bot: str) -> Optional[dict]:
        """Bot "A" or "B"'s disqualification in this game, if it had one."""
        side = self.a_side if bot == "A" else 1 - self.a_side
        return next((d for d in self.deactivated if d["player"] == side), None)

    def to_json(self) -> dict:
        record = {"seed": self.seed, "a_side": self.a_side, "scores": list(self.scores)}
        if self.deactivated:
            record["deactivated"] = list(self.deactivated)
        return record


@dataclass
class MatchResult:
    bot_a: str
    bot_b: str
    league: int
    seed: int
    results: list
    stats: Tally

    def disqualifications(self, bot: str) -> list:
        """(seed, disqualification) of every game bot "A" or "B" was disqualified in."""
        return [(r.seed, d) for r in self.results if (d := r.disqualified(bot))]

    def to_json(self) -> dict:
        return {"bot_a": self.bot_a, "bot_b": self.bot_b, "league": self.league, "seed": self.seed,
                **self.stats.to_json(),
                "disqualified": {"A": len(self.disqualifications("A")), "B": len(self.disqualifications("B"))},
                "results": [r.to_json() for r in self.results]}


def match_games(played: UnitResults, pair_seeds) -> list[GameResult]:
    """The games of `played` (A against one B on `pair_seeds`, each seed twice: A as player 0, then as player 1),
    as GameResults in that order."""
    lost: dict = {}
    for d in played.disqualifications:
        lost.setdefault((d.unit, d.game), []).append(d.game_record())
    games = []
    for unit, seed in enumerate(np.asarray(pair_seeds).tolist()):
        for game in (0, 1):
            scores = tuple(int(x) for x in played.scores[unit, game])
            games.append(GameResult(int(seed), game, scores, tuple(lost.get((unit, game), ()))))
    return games


def run_match(bot_a: Bot, bot_b: Bot, games: int, league: int = 3, seed: int = 0, jobs: int = 1,
              limits: Optional[TimeLimits] = None, progress: Optional[Callable[[int], None]] = None) -> MatchResult:
    """Play `games` (even) games between A and B and summarise them from A's side."""
    if games < 2 or games % 2:
        raise ValueError(f"games must be an even number >= 2 (each seed is played twice), got {games}")
    pair_seeds = game_seeds(seed, games // 2, "match")
    runner = GameRunner(league, jobs, limits or TimeLimits())
    try:
        played = runner.play(bot_a, [bot_b], pair_seeds, progress)
    finally:
        runner.close()
    results = match_games(played, pair_seeds)
    return MatchResult(bot_a.name, bot_b.name, league, seed, results, tally([r.margin for r in results]))
