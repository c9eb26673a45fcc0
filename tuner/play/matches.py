"""Matches: N/2 seeds, each played twice with sides swapped (common random numbers for both bots).

Games between in-engine bots run in compiled batches on K threads, games with a program through the
text-protocol referee on K processes (`tuner.play.pools`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

import numpy as np

from bots.contract.names import Bot
from bots.contract.seat import new_seat_array
from bots.running.arena import play_batch
from bots.running.player import player_for
from engine.players import TimeLimits
from engine.referee import play_refereed_game
from tuner.play.pools import ProcessPool, ThreadPool, split
from tuner.play.seeds import game_seeds, paired_schedule
from tuner.play.stats import Tally, tally

STDERR_LINES = 5  # of a disqualified program's stderr, kept with the game's result


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


def _engine_chunk(seats, seeds, swapped, league):
    return play_batch(seeds, league, seats, swapped).score


def _play_engine_games(bot_a: Bot, bot_b: Bot, seeds, swapped, league: int, jobs: int = 1) -> np.ndarray:
    """Final scores (n, 2) by player index, for games between two in-engine bots (which never break a rule)."""
    seats = new_seat_array(2)
    seats[0] = bot_a.seat[0]
    seats[1] = bot_b.seat[0]
    threads = ThreadPool(jobs)  # each chunk plays on its own copy of the seats (play_batch)
    try:
        parts = threads.map(_engine_chunk, [(seats, seeds[c], swapped[c], league)
                                            for c in split(len(seeds), jobs, 2)])
    finally:
        threads.close()
    return np.concatenate(parts)


def _program_chunk(bot_a: Bot, bot_b: Bot, seeds, swapped, league, limits) -> list:
    outcomes = []
    for seed, swap in zip(seeds.tolist(), swapped.tolist()):
        bots = (bot_b, bot_a) if swap else (bot_a, bot_b)
        report = play_refereed_game(seed, league, [player_for(bots[0]), player_for(bots[1])], limits, records=False)
        deactivated = tuple(_disqualification_record(d) for d in report.disqualifications)
        outcomes.append((tuple(report.outcome.final_scores), deactivated))
    return outcomes


def _disqualification_record(d) -> dict:
    """A referee's Disqualification as JSON: the trace's reason, what became of the program (its crash, exit or
    silence), whether it was only slow (a time limit a busier machine can miss), its last stderr lines."""
    return {"player": d.player, "turn": d.turn, "reason": d.reason, "note": d.report.note, "slow": d.ending.slow,
            "stderr": d.report.stderr_tail[-STDERR_LINES:]}


REFEREE_ROUND_PAIRS = 4  # seed pairs per process between two progress steps (a program game takes ~0.1 s)


def _play_referee_games(bot_a: Bot, bot_b: Bot, seeds, swapped, league: int, jobs: int = 1,
                       limits: TimeLimits = TimeLimits(), progress: Optional[Callable[[int], None]] = None) -> list:
    """(final scores by player index, disqualifications) of each game, played through the referee, in rounds
    of a few games per process; `progress(games)` after each round."""
    pool = ProcessPool(jobs)
    out: list = []
    step = 2 * REFEREE_ROUND_PAIRS * pool.jobs
    for start in range(0, len(seeds), step):
        part_seeds, part_swapped = seeds[start:start + step], swapped[start:start + step]
        parts = pool.map(_program_chunk, [(bot_a, bot_b, part_seeds[c], part_swapped[c], league, limits)
                                          for c in split(len(part_seeds), jobs, 2)])
        out += [outcome for part in parts for outcome in part]
        if progress is not None:
            progress(len(part_seeds))
    return out


def play_schedule(bot_a: Bot, bot_b: Bot, seeds, swapped, league: int, jobs: int = 1,
                  limits: Optional[TimeLimits] = None, progress: Optional[Callable[[int], None]] = None) -> list:
    """(final scores by player index, disqualifications) of each scheduled game: compiled batches between
    in-engine bots, the referee when a program plays. `swapped[g]`: A is player 1 in game g."""
    if bot_a.in_engine and bot_b.in_engine:
        scores = _play_engine_games(bot_a, bot_b, seeds, swapped, league, jobs)
        return [((int(p0), int(p1)), ()) for p0, p1 in scores]
    return _play_referee_games(bot_a, bot_b, seeds, swapped, league, jobs, limits or TimeLimits(), progress)


def run_match(bot_a: Bot, bot_b: Bot, games: int, league: int = 3, seed: int = 0, jobs: int = 1,
              limits: Optional[TimeLimits] = None, progress: Optional[Callable[[int], None]] = None) -> MatchResult:
    """Play `games` (even) games between A and B and summarise them from A's side."""
    if games < 2 or games % 2:
        raise ValueError(f"games must be an even number >= 2 (each seed is played twice), got {games}")
    pair_seeds = game_seeds(seed, games // 2, "match")
    seeds, swapped = paired_schedule(pair_seeds)
    outcomes = play_schedule(bot_a, bot_b, seeds, swapped, league, jobs, limits, progress)
    results = [GameResult(int(s), 1 if w else 0, scores, deactivated)
               for s, w, (scores, deactivated) in zip(seeds, swapped, outcomes)]
    return MatchResult(bot_a.name, bot_b.name, league, seed, results, tally([r.margin for r in results]))
