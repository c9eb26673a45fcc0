"""A batch of trials asked together, raced on common seeds and told together: the tuner's unit of work.

The worker asks Optuna for a batch (a CMA-ES population, or its share of one) and plays it as a race
(`tuner.search.race`): every trial of the batch meets every opponent on the same seed pairs, in an order
shuffled per batch (from the study's seed and the batch's first trial number: every batch starts on other
pairs; an opponent with a share below 1 on that share of them). With `--jobs` 2 or more, a trial's games of the
first block start on the threads as soon as it is asked, so the threads play while Optuna samples and writes
the next trials; each later block is one call to the game runner for all the batch's surviving trials (with one
thread, the first block too). After each block every surviving trial reports its score so far (step = seed
pairs played): a few intermediate values per trial, not one per pair. Those reports and the records of the
trials a block dropped are written while the next block plays: the storage's work overlaps the games (with one
thread, it comes before them).

At the end each trial is told: a trial that played every pair is COMPLETE with its score; a trial the race
dropped is PRUNED, its last intermediate value (at step `pairs`) the race's estimate of its full result, which
CMA-ES ranks it by in its generation (`consider_pruned_trials`). optuna-dashboard shows dropped trials as
PRUNED, apart from the fully played ones: its history, importances and parallel coordinates use COMPLETE trials
only, never estimates. With several objectives (nsga2) nothing is dropped or reported: every trial is told its
win rate per pool entry.
"""
from __future__ import annotations

import functools
import itertools
import os
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Optional

import numpy as np
from optuna.trial import TrialState

from bots.contract.names import Bot
from bots.contract.paramfile import now_iso
from tuner.errors import UserError
from tuner.optuna_internals import tell
from tuner.play.runner import GameRunner, PendingUnits
from tuner.play.seeds import MASK64
from tuner.play.stats import opponent_mean, tally
from tuner.results.ranking import ranked_trials, trial_rank_value
from tuner.results.records import OpponentResult, TrialRecord
from tuner.search.interrupt import StopFlag
from tuner.search.opponent_pool import Opponent, OpponentPool
from tuner.search.race import Race
from tuner.studyfile.file import StudyConfig
from tuner.studyfile.program_budget import budget_record

# Games in one block of a batch at most: a block is what Ctrl-C waits for, and what a progress step shows.
MAX_BLOCK_GAMES = 100_000


@dataclass
class TrialOutcome:
    """What the progress bar and the summary show of a finished trial."""

    number: int
    value: float
    pruned: bool
    games: int
    new_best: bool


class ProgramFailure(UserError):
    """A tuned program that is disqualified in most of its games: the study cannot learn anything from it."""


def program_failure(record: TrialRecord) -> Optional[str]:
    """Why a trial failed when its bot (a program) was disqualified in most of its games, else None: the
    referee's reason, what became of the program and its last stderr line."""
    lost = sum(r.disqualified for r in record.opponents.values())
    if not lost or 2 * lost <= record.tally.games:
        return None
    first = next(r.first_disqualification for r in record.opponents.values() if r.disqualified)
    detail = f" ({first['note']})" if first.get("note") else ""
    stderr = f"; its stderr ended with: {first['stderr'][-1]}" if first.get("stderr") else ""
    return (f"its program was disqualified in {lost} of its {record.tally.games} games, first in seed "
            f"{first['seed']}: {first['reason'][:200]}{detail}{stderr}")


def race_order(seed: int, first_trial: int, pairs: int) -> np.ndarray:
    """The order in which a batch plays the study's seed pairs (from the study's seed and its first trial)."""
    return np.random.default_rng([seed & MASK64, first_trial]).permutation(pairs)


@dataclass
class StartedBlock:
    """A block's games started for candidates `alive`: units (candidate, position_of[u], opponent_of[u])."""

    alive: list
    position_of: np.ndarray
    opponent_of: np.ndarray
    pending: PendingUnits


def _cancel(started: list) -> None:
    """Started blocks' games not begun cancelled, the running ones waited for."""
    for block in started:
        block.pending.cancel()


class BatchPlayer:
    """Plays batches of trials for one worker: the race, the reports, the records and the tells."""

    def __init__(self, config: StudyConfig, pool: OpponentPool, runner: GameRunner, stop: StopFlag,
                 seeds: np.ndarray, bot_of: Callable[[dict, str], Bot], versions_key: str,
                 on_new_best: Optional[Callable] = None, notify=print):
        self.config = config
        self.pool = pool
        self.runner = runner
        self.stop = stop
        self.seeds = seeds
        self.bot_of = bot_of
        self.versions_key = versions_key
        self.on_new_best = on_new_best
        self.notify = notify
        self.worker = f"{socket.gethostname()}:{os.getpid()}"

    def play(self, study, batch: Iterable, size: int) -> list:
        """Race a batch of `size` trials, given as (trial, its full parameter set) as they are asked (`batch`), and
        tell each; [TrialOutcome]. With threads and in-engine bots, a trial's first block of games starts as soon
        as it is given: the threads play while the next trials are asked."""
        config = self.config
        multi = config.multi_objective
        batch = iter(batch)
        first_trial, first_params = next(batch)
        opponents = self.pool.for_batch(study, first_trial.number)
        order = race_order(config.seed, first_trial.number, config.pairs)
        race = Race(size, len(opponents), config.pairs, config.race_first_pairs, config.race_p,
                    pruning=config.race == "wilcoxon" and not multi,
                    max_block=max(1, MAX_BLOCK_GAMES // (2 * (size + 1) * len(opponents))),
                    shares=[config.opponent_shares.get(o.entry, 1.0) for o in opponents],
                    softness=config.min_gain_softness if config.objectives == "min-gain" else None)
        racers = size + (race.reference is not None)
        margins = np.zeros((racers, config.pairs, len(opponents), 2), dtype=np.int64)
        lost: list = [[] for _ in range(racers)]
        trials, params, bots = [], [], []
        # The first block, one start per trial as it is asked, when threads can play meanwhile: with one thread,
        # or games of programs (played by processes, when their results are asked for), the block is one call.
        first_bot = self.bot_of(first_params, f"trial {first_trial.number}")
        streamed = self.runner.jobs > 1 and first_bot.in_engine and all(o.bot.in_engine for o in opponents)
        started: list = []
        try:
            for trial, values in itertools.chain([(first_trial, first_params)], batch):
                trials.append(trial)
                params.append(values)
                bots.append(self.bot_of(values, f"trial {trial.number}") if bots else first_bot)
                if streamed:
                    started.append(self._start_block(bots, opponents, [len(bots) - 1], order, race.met,
                                                     *race.blocks[0]))
            if race.reference is not None:  # the baseline, whose gains the candidates are scored by
                bots.append(self.pool.baseline)
                if streamed:
                    started.append(self._start_block(bots, opponents, [race.reference], order, race.met,
                                                     *race.blocks[0]))
        except BaseException:
            _cancel(started)
            raise
        records: dict = {}  # candidate -> its TrialRecord, made when it is dropped or the race ends
        writes: list = []  # storage writes that need not wait: done while the next block's games play

        def write_pending() -> None:
            with self.stop.uninterruptible():  # a second Ctrl-C never cuts a storage write
                while writes:
                    writes.pop(0)()

        def record_dropped(c: int, played: int) -> None:
            """A dropped trial's record, made and written while the games go on (its results no longer change)."""
            records[c] = self._record(params[c], margins[c, :played], race.met[:played], opponents, played, lost[c],
                                      order, first_trial.number, pruned=True, gains=_gains(race, c, opponents))
            self._write_record(trials[c], records[c])

        for start, stop in race.blocks:
            alive = race.alive
            started = started or [self._start_block(bots, opponents, alive, order, race.met, start, stop)]
            self._end_blocks(started, opponents, margins, lost, write_pending)
            started = []
            write_pending()
            for c in alive:
                race.record(c, start, stop, self.config.pair_value(margins[c, start:stop]))
            for c in alive:
                if not multi and c != race.reference:
                    writes.append(functools.partial(trials[c].report, race.mean(c), stop))
            self.stop.check()
            for c in race.check():
                writes.append(functools.partial(record_dropped, c, stop))
        write_pending()
        return self._tell(study, trials, params, opponents, race, margins, lost, order, records)

    def _start_block(self, bots, opponents, alive, order, met, start, stop) -> StartedBlock:
        """The games of candidates `alive` against every opponent on the block's pair positions where it is met,
        started."""
        position_of, opponent_of = np.nonzero(met[start:stop])  # the block's units of one candidate
        position_of += start
        n = len(position_of)
        candidate_of = np.repeat(np.arange(len(alive)), n)
        seeds = np.tile(self.seeds[order[position_of]], len(alive))
        pending = self.runner.start_units([bots[c] for c in alive], [o.bot for o in opponents], candidate_of,
                                          np.tile(opponent_of, len(alive)), seeds)
        return StartedBlock(alive, position_of, opponent_of, pending)

    def _end_blocks(self, started: list, opponents, margins, lost, meanwhile) -> None:
        """The started blocks' results in `margins` and `lost`; `meanwhile()` runs while their games play, which a
        second Ctrl-C may cut (a second one held since the blocks started cuts at once). On an error or Ctrl-C,
        the games not begun are cancelled and the running ones waited for."""
        try:
            with self.stop.interruptible():
                for block in started:
                    played = block.pending.result(meanwhile)
                    meanwhile = None
                    n = len(block.position_of)
                    results = played.margins.reshape(len(block.alive), n, 2)
                    for i, c in enumerate(block.alive):
                        margins[c, block.position_of, block.opponent_of] = results[i]
                    for d in played.disqualifications:
                        c, unit = divmod(d.unit, n)
                        lost[block.alive[c]].append((opponents[block.opponent_of[unit]].name, d))
        except BaseException:
            _cancel(started)
            raise

    @staticmethod
    def _write_record(trial, record: TrialRecord) -> None:
        """A finished trial's record in its user attributes, and why it failed if it did."""
        for key, value in record.to_attrs().items():
            trial.set_user_attr(key, value)
        failure = program_failure(record)
        if failure is not None:
            trial.set_user_attr("failure", failure)

    def _tell(self, study, trials, params, opponents, race: Race, margins, lost, order, dropped: dict) -> list:
        """The survivors' records written, and every trial of the batch told (the dropped ones' records were
        written while the games went on)."""
        config = self.config
        multi = config.multi_objective
        records, values = [], []
        for c in range(len(trials)):
            record = dropped.get(c) or self._record(params[c], margins[c], race.met, opponents, config.pairs,
                                                    lost[c], order, trials[0].number, gains=_gains(race, c, opponents))
            records.append(record)
            values.append(record.win_rate if multi else race.value(c))
        # A new best trial gets its exported bot as an artifact while it runs (artifacts attach to running trials).
        incumbent = self._incumbent(study)
        survivors = [c for c, r in enumerate(records) if not r.pruned and program_failure(r) is None]
        best = max(survivors, key=lambda c: (values[c], -c)) if survivors else None
        new_best = best is not None and (incumbent is None or values[best] > incumbent)
        if new_best and self.on_new_best is not None:
            self.on_new_best(trials[best], params[best], records[best], values[best])
        outcomes, failures = [], []
        for c, (trial, record) in enumerate(zip(trials, records)):
            if c not in dropped:
                self._write_record(trial, record)
            failure = program_failure(record)
            if failure is not None:
                tell(study, trial, state=TrialState.FAIL)
                failures.append(f"trial {trial.number}: {failure}")
                self.notify(failures[-1])
                continue
            if multi:
                rates = record.entry_win_rates()
                tell(study, trial, [rates[entry] for entry in self.pool.entries])
            elif record.pruned:
                trial.report(values[c], config.pairs)
                tell(study, trial, state=TrialState.PRUNED)
            else:
                tell(study, trial, values[c])
            outcomes.append(TrialOutcome(trial.number, values[c], record.pruned, record.tally.games,
                                         new_best and c == best))
        if failures and not outcomes:
            raise ProgramFailure(f"every trial of the batch failed, so the study stops; {failures[0]}")
        return outcomes

    def _incumbent(self, study) -> Optional[float]:
        """The rank value of the study's best fully played trial before this batch."""
        ranked = ranked_trials(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)),
                               self.config.multi_objective)
        return trial_rank_value(ranked[0], self.config.multi_objective) if ranked else None

    def _record(self, values: dict, margins: np.ndarray, met: np.ndarray, opponents: list, played: int, lost: list,
                order, first_trial: int, pruned: bool = False, gains: Optional[dict] = None) -> TrialRecord:
        """margins: (played, opponents, 2); met: (played, opponents), the units played; `gains`: per opponent, the
        gain over the baseline (objective min-gain)."""
        results, tallies = {}, []
        for o, opponent in enumerate(opponents):
            t = tally(margins[met[:, o], o])
            tallies.append(t)
            mine = [d for name, d in lost if name == opponent.name and d.candidate]
            theirs = [d for name, d in lost if name == opponent.name and not d.candidate]
            first = (mine or theirs)[0].to_json() if (mine or theirs) else None
            results[opponent.name] = OpponentResult(opponent.entry, t.games, t.wins, t.draws, t.losses,
                                                    len(mine), len(theirs), first)
        overall = tally(margins[met])
        if not met.all():  # opponents met on fewer pairs weigh the same as the others
            overall = opponent_mean(overall, tallies)
        extra: dict = {} if gains is None else {"gains": gains}
        budget = budget_record(self.config, values)
        if budget:
            extra["budget"] = budget  # the budget the trial played at: a program's time per move and its limits
        return TrialRecord(values, overall, results, played, self.config.pairs,
                           self.config.seed, first_trial, pruned, versions=self.versions_key, date=now_iso(),
                           extra=extra)


def _gains(race: Race, candidate: int, opponents: list) -> Optional[dict]:
    """Per opponent, the candidate's gain over the race's reference on the pairs it played (None without one)."""
    if race.reference is None:
        return None
    played = race.standings[candidate].pairs_played
    return {o.name: round(float(g), 6) for o, g in zip(opponents, race.gains(candidate, played))}


__all__ = ["BatchPlayer", "Opponent", "TrialOutcome", "race_order"]
