"""A study's opponent pool: fixed bots, and `hall-of-fame:K`, the K best earlier trials of the study.

Every opponent has a key. A trial reports the seed pair `p` against opponent key `k` as step `k * STEP_STRIDE
+ p`, so the Wilcoxon pruner pairs a trial's results with the best trial's on the same opponent and the same
seeds only: fixed opponents keep their pool index as key; a hall-of-fame member's key is `HALL_OF_FAME_KEY +
its trial number` (an empty hall of fame holds the baseline, key `HALL_OF_FAME_KEY - 1`).

The hall of fame changes once per population (the sampler's generation; every 10 trials for tpe and random):
trial T meets the K best trials, fully played (not pruned), among those numbered below T - T mod population.
All trials of a generation therefore meet the same opponents, and with one worker the choice is reproducible.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tuner.study.botnames import study_bot
from tuner.study.file import HALL_OF_FAME, StudyConfig
from tuner.study.ranking import ranked_trials

STEP_STRIDE = 100_000  # > MAX_PAIRS
HALL_OF_FAME_KEY = 1_000


@dataclass
class Opponent:
    name: str  # "heuristic", "hall-of-fame#12"
    entry: str  # its pool entry: "heuristic", "hall-of-fame:3"
    key: int
    seat: np.ndarray

    def step(self, pair: int) -> int:
        return self.key * STEP_STRIDE + pair


class OpponentPool:
    def __init__(self, config: StudyConfig, baseline_seat: np.ndarray, refresh: int, seat_of):
        self.config = config
        self.fixed = []
        for index, entry in enumerate(config.opponents):
            if entry.startswith(HALL_OF_FAME):
                continue
            bot = study_bot(config, entry)
            self.fixed.append(Opponent(entry, entry, index, bot.seat))
        self.hall_size = config.hall_of_fame
        self.hall_entry = f"{HALL_OF_FAME}:{self.hall_size}"
        self.refresh = max(1, refresh)
        self.baseline_seat = baseline_seat
        self.seat_of = seat_of  # full parameter dict -> seat

    @property
    def entries(self) -> list:
        """The pool's entries, in the study file's order (one objective each with `per-opponent`)."""
        return list(self.config.opponents)

    def hall_of_fame(self, study, trial_number: int) -> list:
        """The trials trial `trial_number` meets (FrozenTrials), best first."""
        cutoff = trial_number - trial_number % self.refresh
        earlier = [t for t in study.get_trials(deepcopy=False) if t.number < cutoff]
        return ranked_trials(earlier, self.config.multi_objective)[:self.hall_size]

    def for_trial(self, study, trial_number: int) -> list:
        opponents = list(self.fixed)
        if self.hall_size:
            members = self.hall_of_fame(study, trial_number)
            for t in members:
                opponents.append(Opponent(f"{HALL_OF_FAME}#{t.number}", self.hall_entry, HALL_OF_FAME_KEY + t.number,
                                          self.seat_of(t.user_attrs["bot_params"])))
            if not members:
                opponents.append(Opponent(f"{HALL_OF_FAME}#baseline", self.hall_entry, HALL_OF_FAME_KEY - 1,
                                          self.baseline_seat))
        return opponents
