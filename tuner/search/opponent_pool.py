"""A study's opponent pool: fixed bots (in-engine or programs), and `hall-of-fame:K`, the K best earlier trials.

The hall of fame changes with every batch a worker asks (a generation, or a worker's share of one): the trials
of a batch starting at trial T meet the K best fully played trials (COMPLETE, not dropped) among those numbered
below T. An empty hall of fame holds the baseline. All trials of a batch therefore meet the same opponents, and
with one worker the choice is reproducible.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from optuna.trial import TrialState

from bots.contract.names import Bot
from tuner.results.botnames import study_bot
from tuner.results.ranking import ranked_trials
from tuner.studyfile.file import HALL_OF_FAME, StudyConfig


@dataclass
class Opponent:
    name: str  # "heuristic", "hall-of-fame#12", "hall-of-fame#baseline"
    entry: str  # its pool entry: "heuristic", "hall-of-fame:3"
    bot: Bot


class OpponentPool:
    def __init__(self, config: StudyConfig, baseline: Bot, bot_of: Callable[[dict, str], Bot]):
        self.config = config
        self.fixed = [Opponent(entry, entry, study_bot(config, entry)) for entry in config.fixed_opponents]
        self.hall_size = config.hall_of_fame
        self.hall_entry = f"{HALL_OF_FAME}:{self.hall_size}"
        self.baseline = baseline
        self.bot_of = bot_of  # (full parameter dict, name) -> Bot

    @property
    def entries(self) -> list:
        """The pool's entries, in the study file's order (one objective each with `per-opponent`)."""
        return list(self.config.opponents)

    def hall_of_fame(self, study, first_trial: int) -> list:
        """The trials a batch starting at `first_trial` meets (FrozenTrials), best first."""
        earlier = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)) if t.number < first_trial]
        return ranked_trials(earlier, self.config.multi_objective)[:self.hall_size]

    def for_batch(self, study, first_trial: int) -> list:
        opponents = list(self.fixed)
        if self.hall_size:
            members = self.hall_of_fame(study, first_trial)
            for t in members:
                name = f"{HALL_OF_FAME}#{t.number}"
                opponents.append(Opponent(name, self.hall_entry, self.bot_of(t.user_attrs["bot_params"], name)))
            if not members:
                opponents.append(Opponent(f"{HALL_OF_FAME}#baseline", self.hall_entry, self.baseline))
        return opponents
