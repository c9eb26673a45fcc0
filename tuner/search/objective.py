"""One trial: the sampled bot plays every seed pair against every opponent; Optuna hears each pair's result.

The order of the seed pairs is shuffled per trial (seeded by the study's seed and the trial number), as
Optuna advises for the Wilcoxon pruner, so a pruned trial's estimate is not always drawn from the same pairs.
Games run in batches that end at the pruning checks (`rounds`), then each pair's result against each opponent
is reported as its own step. At each check the pruner compares the trial with the best one on the steps both
played; a trial it stops returns an estimate of its full result instead of raising
`TrialPruned` (Optuna's advice for this pruner): the best trial's value plus the mean difference of the two
on the pairs played (common random numbers), kept below the best value. It is recorded as COMPLETE with the
user attribute `pruned`, so that CMA-ES ranks it within its generation.
"""
from __future__ import annotations

import os
import socket
from dataclasses import dataclass

import numpy as np

from optuna.trial import TrialState

from bots.names import bot_with_params
from bots.paramfile import now_iso
from tuner.measure.runner import GameRunner, pair_points
from tuner.search.interrupt import Interrupted, StopFlag
from tuner.search.pool import OpponentPool
from tuner.study.ranking import ranked_trials, trial_rank_value
from tuner.measure.seeds import MASK64, game_seeds
from tuner.measure.stats import tally
from tuner.study.file import StudyConfig
from tuner.storage import upload_bot
from tuner.study.export import export_header, origin_lines
from tuner.versions import versions

ROUND_GAMES = 4000  # at most this many games per batch
PRUNE_EVERY = 10  # seed pairs between the first pruning checks; later ones are 25% further apart each


@dataclass
class TrialOutcome:
    """What the progress bar shows of a finished trial."""

    number: int
    value: float
    pruned: bool
    games: int
    new_best: bool


def rounds(pairs: int, startup: int, max_pairs: int):
    """(start, stop, check) of the batches of a trial's seed pairs: a batch ends at each pruning check.

    Checks come after `startup` pairs, then every PRUNE_EVERY pairs, then 25% further apart each time (a
    check costs a few milliseconds: a trial that survives the first ones is probably not bad), never at the
    last pair (a trial that played everything is complete).
    """
    checks = []
    at = max(2, startup)
    while at < pairs:
        checks.append(at)
        at = max(at + PRUNE_EVERY, int(at * 1.25))
    start = 0
    for end in checks + [pairs]:
        while end - start > max(1, max_pairs):  # huge batches split (many opponents)
            yield start, start + max_pairs, False
            start += max_pairs
        yield start, end, end < pairs
        start = end


class Objective:
    def __init__(self, config: StudyConfig, space, pool: OpponentPool, runner: GameRunner, stop: StopFlag,
                 artifact_store=None, storage_text: str = "", notify=print):
        self.config = config
        self.space = space
        self.pool = pool
        self.runner = runner
        self.stop = stop
        self.artifact_store = artifact_store
        self.storage_text = storage_text
        self.notify = notify
        self.seeds = np.array(game_seeds(config.seed, config.pairs, "search"), dtype=np.int64)
        self.last: TrialOutcome | None = None
        self.versions = versions()
        self.worker = f"{socket.gethostname()}:{os.getpid()}"

    def order(self, trial_number: int) -> np.ndarray:
        rng = np.random.default_rng([self.config.seed & MASK64, trial_number])
        return rng.permutation(self.config.pairs)

    def __call__(self, trial):
        try:
            self.stop.check()  # Ctrl-C while the trial was being created
            return self._run(trial)
        except (Interrupted, KeyboardInterrupt):
            trial.set_user_attr("interrupted", True)
            raise

    def _run(self, trial):
        trial.set_user_attr("worker", self.worker)  # which machine and process runs it, from its start
        config = self.config
        values = self.space.suggest(trial)
        seat = self.pool.seat_of(values)
        opponents = self.pool.for_trial(trial.study, trial.number)
        n_opp = len(opponents)
        reporting = not config.multi_objective
        pruning = reporting and config.pruner == "wilcoxon"
        order = self.order(trial.number)
        margins = np.zeros((n_opp, config.pairs, 2), dtype=np.int64)
        played = np.zeros(config.pairs, dtype=bool)
        n_played, pruned = 0, False
        reported = {}  # step -> value, as told to Optuna
        for start, stop_, check in rounds(config.pairs, config.pruner_startup_pairs if pruning else config.pairs,
                                          ROUND_GAMES // (2 * n_opp)):
            batch = order[start:stop_]
            with self.stop.interruptible():
                result = self.runner.play(seat, [o.seat for o in opponents], self.seeds[batch])
            self.stop.check()
            points = pair_points(result)  # (opponents, pairs)
            margins[:, batch] = result
            played[batch] = True
            n_played = stop_
            if reporting:
                for j, pair in enumerate(batch.tolist()):
                    for o, opponent in enumerate(opponents):
                        step, value = opponent.step(pair), float(points[o, j])
                        trial.report(value, step)
                        reported[step] = value
            if pruning and check and trial.should_prune():
                pruned = True
                break
        return self._finish(trial, values, opponents, margins[:, played], n_played, pruned, reported)

    def _finish(self, trial, values, opponents, margins, n_played, pruned, reported):
        config = self.config
        overall = tally(margins.ravel().tolist())
        by_entry = {}
        for o, opponent in enumerate(opponents):
            by_entry.setdefault(opponent.entry, []).append(margins[o])
        entry_rates = {entry: tally(np.concatenate(m).ravel().tolist()).win_rate for entry, m in by_entry.items()}
        attrs = {
            "games": overall.games, "wins": overall.wins, "draws": overall.draws, "losses": overall.losses,
            "win_rate": round(overall.win_rate, 6), "win_rate_ci": [round(x, 6) for x in overall.win_rate_ci],
            "elo": round(overall.elo, 1), "elo_ci": [round(x, 1) for x in overall.elo_ci],
            "mean_margin": round(overall.mean_margin, 3),
            **{f"win_rate:{entry}": round(rate, 6) for entry, rate in entry_rates.items()},
            "opponents": {o.name: round(tally(margins[i].ravel().tolist()).win_rate, 6)
                          for i, o in enumerate(opponents)},
            "pruned": pruned, "pairs_played": n_played,
            "seeds": {"seed": config.seed, "stream": "search", "pairs": config.pairs, "played": n_played},
            "bot_params": values, "versions": self.versions,
        }
        if config.multi_objective:
            value = [entry_rates[entry] for entry in self.pool.entries]
        elif pruned:
            value, against = self._estimate(trial, overall.win_rate, reported)
            attrs["estimated_against_trial"] = against
        else:
            value = overall.win_rate
        attrs["date"] = now_iso()
        for key, attr in attrs.items():
            trial.set_user_attr(key, attr)
        new_best = not pruned and self._is_new_best(trial, value, overall.win_rate)
        if new_best:
            self.notify(f"trial {trial.number}: new best, win rate {overall.win_rate:.1%} (95% CI "
                        f"{overall.win_rate_ci[0]:.1%} - {overall.win_rate_ci[1]:.1%}) over {overall.games} games")
            if self.artifact_store is not None:
                try:
                    self._upload(trial, values, overall)
                except Exception as error:  # the bot file is a by-product: its failure must not stop the study
                    message = f"{type(error).__name__}: {error}".splitlines()[0]
                    trial.set_user_attr("artifact_error", message)
                    self.notify(f"trial {trial.number}: its bot file could not be exported ({message}); "
                                f"the study goes on")
        self.last = TrialOutcome(trial.number, overall.win_rate if config.multi_objective else value, pruned,
                                 2 * n_played * len(opponents), new_best)
        return value

    def _estimate(self, trial, own_rate: float, reported: dict):
        """A pruned trial's value: best value + mean paired difference on the steps both played, below best."""
        try:
            best = trial.study.best_trial
        except ValueError:
            return own_rate, None
        theirs = best.intermediate_values
        diffs = [v - theirs[step] for step, v in reported.items() if step in theirs]
        if not diffs or best.value is None:
            return own_rate, None
        estimate = best.value + sum(diffs) / len(diffs)
        return float(min(max(estimate, 0.0), best.value - 1e-6)), best.number

    def _is_new_best(self, trial, value, win_rate: float) -> bool:
        """Better than every fully played trial (this one is not COMPLETE yet)."""
        multi = self.config.multi_objective
        ranked = ranked_trials(trial.study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)), multi)
        return not ranked or (win_rate if multi else value) > trial_rank_value(ranked[0], multi)

    def _upload(self, trial, values, overall) -> None:
        bot = self.space_bot(values, trial.number)
        origin = origin_lines(self.config, self.storage_text, trial.number, overall.win_rate, overall.win_rate_ci,
                              overall.games, None)
        upload_bot(self.artifact_store, trial, bot, self.config.league,
                   export_header(self.config.league, origin, "`tuner tune`, new best trial"), self.config.name)

    def space_bot(self, values, number):
        return bot_with_params(self.config.bot, values, f"study:{self.config.path}#{number}",
                        {"study": self.config.name, "trial": number})

