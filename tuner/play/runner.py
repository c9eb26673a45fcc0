"""Playing seed pairs between candidate bots and opponents in big batches, on the run's pools.

A unit is (candidate, opponent, seed): the seed played twice, the candidate first as player 0, then as player 1
(common random numbers: every candidate meets every opponent on the same seeds). Units between in-engine bots are
played by the compiled arena (`bots.running.arena.play_pairings`) on the run's threads (`tuner.play.pools`),
in shares that shrink as the batch goes, so that the threads end together; units with a program go through the
text-protocol referee, one game a task on the run's processes, which take them as they become free (a game asks
its two programs in turn, as CodinGame does: one process keeps one core busy). Games take microseconds, so a batch
should hold many units: the tuner plays a whole generation's block of pairs at once, and starts its first trials'
games while it asks Optuna for the next ones (`start_units`). Results never depend on the number of threads or
processes: a game is a function of its seed and sides, and each thread plays on its own copy of the seats.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from bots.contract.names import Bot, parse_bot
from bots.contract.seat import new_seat_array
from bots.running.arena import SCORE0, SCORE1, pairing_margins, play_results
from bots.running.player import player_for
from engine.players import TimeLimits
from engine.referee import play_refereed_game
from tuner.play.pools import ProcessPool, Started, ThreadPool, guided
from tuner.play.stats import Tally, tally

# Compiled games: a share of 150 games (75 units) at least is worth handing to a thread, unless the batch is too small
# to give every thread SHARES_PER_THREAD shares of that size (`smallest_share`).
MIN_UNITS_PER_SHARE = 75
SHARES_PER_THREAD = 8
STDERR_LINES = 5  # of a disqualified program's stderr, kept with the result


@dataclass(frozen=True)
class Disqualification:
    """A game lost by a program's disqualification (a timeout, a crash, an unreadable answer)."""

    unit: int
    game: int  # 0: the candidate was player 0, 1: player 1
    candidate: bool  # whose: the candidate's (True) or the opponent's
    seed: int
    reason: str  # the referee's reason ("Timeout!", "Invalid Input: ...")
    note: str  # what became of the program ("exited with code 3", "no answer in time")
    stderr: tuple = ()
    turn: int = 0  # the referee's turn it happened in
    slow: bool = False  # only slow (a time limit a busier machine can miss), not broken

    @property
    def player(self) -> int:
        """The disqualified player's index in its game."""
        return self.game if self.candidate else 1 - self.game

    def to_json(self) -> dict:
        return {"side": "candidate" if self.candidate else "opponent", "seed": self.seed, "reason": self.reason,
                "note": self.note, "stderr": list(self.stderr)}

    def game_record(self) -> dict:
        """As a game's record holds it (`tuner match --json`, the league): by player index, with its turn."""
        return {"player": self.player, "turn": self.turn, "reason": self.reason, "note": self.note, "slow": self.slow,
                "stderr": list(self.stderr)}


@dataclass
class UnitResults:
    margins: np.ndarray  # (units, 2): the candidate's final score minus the opponent's, in game 0 and game 1
    disqualifications: list = field(default_factory=list)  # Disqualification, in unit order
    scores: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2), np.int64))  # (units, game, player)


def _engine_share(free_seats: queue.SimpleQueue, seeds, first, second, league: int) -> tuple[np.ndarray, float]:
    """Final scores (games, 2: by player index) of a share of compiled games, played on a copy of the seats no
    other thread is using, and the seconds they took."""
    seats = free_seats.get()
    start = time.perf_counter()
    try:
        results = play_results(seeds, league, seats, first, second)
        return results[:, SCORE0:SCORE1 + 1], time.perf_counter() - start
    finally:
        free_seats.put(seats)


@dataclass
class RefereeTime:
    """Where the time of games with programs went: the processes' wall time in them, and the part of it their
    programs were thinking (the referee waiting for an answer, from writing a turn's input to reading the line)."""

    games: int = 0
    answers: int = 0
    wall_s: float = 0.0
    thinking_s: float = 0.0

    def add(self, other: RefereeTime) -> None:
        self.games += other.games
        self.answers += other.answers
        self.wall_s += other.wall_s
        self.thinking_s += other.thinking_s

    @property
    def thinking_share(self) -> float:
        """The share of the processes' time spent waiting for the programs' answers."""
        return self.thinking_s / self.wall_s if self.wall_s > 0 else 0.0


def _referee_game(unit: int, game: int, candidate: Bot, opponent: Bot, seed: int, league: int,
                  limits: TimeLimits) -> tuple[list, list, RefereeTime]:
    """Game `game` of a unit (0: the candidate is player 0, 1: player 1), played through the referee: its final
    scores (by player index), its [Disqualification]s, and where its time went."""
    start = time.perf_counter()
    players = (candidate, opponent) if game == 0 else (opponent, candidate)
    report = play_refereed_game(seed, league, [player_for(players[0]), player_for(players[1])], limits, records=False)
    me = game  # the candidate's player index
    lost = [Disqualification(unit, game, d.player == me, seed, d.reason, d.report.note,
                             tuple(d.report.stderr_tail[-STDERR_LINES:]), d.turn, d.ending.slow)
            for d in report.disqualifications]
    spent = RefereeTime(1, sum(player.answers for player in report.players), time.perf_counter() - start,
                        sum(player.waited_s for player in report.players))
    return list(report.outcome.final_scores), lost, spent


def _warm(league: int) -> bool:
    bot = parse_bot("greedy", league).seat
    seats = new_seat_array(2)
    seats[0] = bot[0]
    seats[1] = bot[0]
    pairing_margins(np.array([1], np.int64), league, seats, [0], [1])
    return True


class GameRunner:
    """Plays units between candidates and opponents (Bots) on the run's process pool."""

    def __init__(self, league: int, jobs: int = 1, limits: TimeLimits = TimeLimits()):
        self.league = league
        self.jobs = max(1, int(jobs))
        self.limits = limits
        self.pool = ProcessPool(self.jobs)
        self.threads = ThreadPool(self.jobs)
        self.games_played = 0
        self.engine_games_played = 0  # of which in-engine (compiled, on the threads); the others had a program
        self.game_seconds = 0.0  # the threads' time in compiled games (with one thread, the calling thread's)
        self.referee_time = RefereeTime()  # the processes' time in games with programs

    def warm_up(self) -> None:
        """Compile (or load from the cache) the arena before the first games are timed."""
        _warm(self.league)

    def start_units(self, candidates: list, opponents: list, candidate_of, opponent_of, seeds) -> PendingUnits:
        """Start playing each unit u: candidates[candidate_of[u]] against opponents[opponent_of[u]] on seeds[u],
        twice. The compiled games start on the threads now (with one thread, they wait for `result`); the
        games of programs are played by `result`."""
        return PendingUnits(self, candidates, opponents, candidate_of, opponent_of, seeds)

    def play_units(self, candidates: list, opponents: list, candidate_of, opponent_of, seeds,
                   meanwhile: Optional[Callable] = None) -> UnitResults:
        """`start_units(...).result(meanwhile)`: the units played, `meanwhile()` run by the calling thread while the
        threads play the compiled games (with one thread or none of them, before the games): work that need not
        wait for the games, such as storage writes."""
        return self.start_units(candidates, opponents, candidate_of, opponent_of, seeds).result(meanwhile)

    def play(self, bot: Bot, opponents: list, pair_seeds, progress: Optional[Callable[[int], None]] = None
             ) -> UnitResults:
        """Every seed pair against every opponent: units ordered by opponent, then pair; `progress(games)` as
        each game with a program ends."""
        pair_seeds = np.asarray(pair_seeds, dtype=np.int64)
        n_opp, n_pairs = len(opponents), len(pair_seeds)
        return self.start_units([bot], opponents, np.zeros(n_opp * n_pairs, np.int64),
                                np.repeat(np.arange(n_opp), n_pairs), np.tile(pair_seeds, n_opp)
                                ).result(progress=progress)

    def close(self) -> None:
        self.threads.close()
        self.pool.close()


def smallest_share(units: int, jobs: int) -> int:
    """The smallest share of a batch of `units` compiled units for `jobs` threads: MIN_UNITS_PER_SHARE, or less in a
    batch too small for SHARES_PER_THREAD of those a thread. Small batches are the expensive games: a finalist's
    120 units at a search bot's playing budget, each costing a hundred cheap ones, which shares of 75 would leave
    mostly to one thread."""
    return max(1, min(MIN_UNITS_PER_SHARE, units // (SHARES_PER_THREAD * jobs)))


class PendingUnits:
    """Units started by `GameRunner.start_units`: `result()` waits for them, `cancel()` drops those not begun."""

    def __init__(self, runner: GameRunner, candidates: list, opponents: list, candidate_of, opponent_of, seeds):
        self.runner = runner
        self.candidates, self.opponents = candidates, opponents
        self.candidate_of = np.asarray(candidate_of, dtype=np.int64)
        self.opponent_of = np.asarray(opponent_of, dtype=np.int64)
        self.seeds = np.asarray(seeds, dtype=np.int64)
        n = len(self.seeds)
        self.in_engine = np.array([bot.in_engine for bot in candidates], dtype=bool)[self.candidate_of] \
            & np.array([bot.in_engine for bot in opponents], dtype=bool)[self.opponent_of] if n else np.zeros(0, bool)
        self.engine_units = np.flatnonzero(self.in_engine)
        self.shares: list = []
        self.started: Optional[Started] = None
        if len(self.engine_units):
            self._start_engine_units()

    def _start_engine_units(self) -> None:
        runner, units = self.runner, self.engine_units
        seats = new_seat_array(len(self.candidates) + len(self.opponents))
        for i, bot in enumerate(list(self.candidates) + list(self.opponents)):
            if bot.in_engine:
                seats[i] = bot.seat[0]
        a = self.candidate_of[units]
        b = len(self.candidates) + self.opponent_of[units]
        game_seeds = np.repeat(self.seeds[units], 2)
        first = np.column_stack([a, b]).ravel()
        second = np.column_stack([b, a]).ravel()
        # Shares that shrink as the batch goes, so that no thread waits long for another's last one.
        self.shares = [np.arange(len(units))] if runner.jobs == 1 else \
            guided(len(units), runner.jobs, smallest_share(len(units), runner.jobs))
        # A policy keeps scratch memory in its seat: each thread plays on its own copy of the seats.
        free_seats: queue.SimpleQueue = queue.SimpleQueue()
        for k in range(min(runner.jobs, len(self.shares))):
            free_seats.put(seats if k == 0 else seats.copy())
        tasks = []
        for share in self.shares:
            games = np.column_stack([2 * share, 2 * share + 1]).ravel()  # a unit's two games stay together
            tasks.append((free_seats, game_seeds[games], first[games], second[games], runner.league))
        self.started = runner.threads.start(_engine_share, tasks)

    def cancel(self) -> None:
        if self.started is not None:
            self.runner.threads.cancel(self.started)

    def result(self, meanwhile: Optional[Callable] = None, progress: Optional[Callable[[int], None]] = None
               ) -> UnitResults:
        """The units' results, once played; `meanwhile()` runs in the calling thread while the threads play,
        `progress(games)` as each game with a program ends (on the pool's threads, one call at a time)."""
        runner = self.runner
        n = len(self.seeds)
        scores = np.zeros((n, 2, 2), dtype=np.int64)
        if self.started is not None:
            played = runner.threads.results(self.started, meanwhile)
            meanwhile = None
            for share, (result, seconds) in zip(self.shares, played):
                runner.game_seconds += seconds
                scores[self.engine_units[share]] = result.reshape(-1, 2, 2)
        if meanwhile is not None:
            meanwhile()
        referee_units = np.flatnonzero(~self.in_engine)
        # One game a task: the processes take them as they become free, so a batch ends with every process busy
        # (a game of programs lasts a second or more, a task's own cost a millisecond); `progress(1)` as each ends.
        tasks = [(int(u), game, self.candidates[self.candidate_of[u]], self.opponents[self.opponent_of[u]],
                  int(self.seeds[u]), runner.league, runner.limits) for u in referee_units for game in (0, 1)]
        on_done = None
        if progress is not None:
            lock, report = threading.Lock(), progress  # the workers' games end on the pool's threads

            def on_done(_: int) -> None:
                with lock:
                    report(1)
        lost = []
        played = runner.pool.map(_referee_game, tasks, on_done=on_done)
        for task, (game_scores, game_lost, spent) in zip(tasks, played):
            runner.referee_time.add(spent)
            scores[task[0], task[1]] = game_scores
            lost.extend(game_lost)
        runner.games_played += 2 * n
        runner.engine_games_played += 2 * len(self.engine_units)
        margins = np.column_stack([scores[:, 0, 0] - scores[:, 0, 1], scores[:, 1, 1] - scores[:, 1, 0]])
        return UnitResults(margins, sorted(lost, key=lambda d: (d.unit, d.game)), scores)


@dataclass
class Evaluation:
    """A bot's results against named opponents."""

    overall: Tally
    per_opponent: dict  # name -> Tally
    margins: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 2), np.int64))  # (opponents, pairs, 2)
    disqualifications: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"overall": self.overall.to_json(),
                "per_opponent": {name: t.to_json() for name, t in self.per_opponent.items()}}


def evaluate(runner: GameRunner, bot: Bot, opponents: dict, pair_seeds) -> Evaluation:
    """Play every seed pair against every opponent ({name: Bot}) and tally the results."""
    names = list(opponents)
    played = runner.play(bot, [opponents[n] for n in names], pair_seeds)
    margins = played.margins.reshape(len(names), len(pair_seeds), 2)
    per = {name: tally(margins[i]) for i, name in enumerate(names)}
    return Evaluation(tally(margins), per, margins, played.disqualifications)
