"""Ranking a study's trials: the best trial, the hall of fame and the report all rank them the same way.

Only fully played trials rank (COMPLETE, not pruned, with their parameters recorded); the best is the one of
highest value (with several objectives, of highest mean win rate), the earlier one first on a tie.
"""
from __future__ import annotations

from optuna.trial import TrialState

from tuner.results.records import TrialRecord


def trial_rank_value(trial, multi_objective: bool) -> float:
    """What ranks trials for the hall of fame and the best trial: the value, or the mean win rate."""
    if multi_objective:
        return float(trial.user_attrs.get("win_rate", float("-inf")))
    return float(trial.value)


def fully_played(trial) -> bool:
    return (trial.state == TrialState.COMPLETE and not trial.user_attrs.get("pruned", False)
            and "bot_params" in trial.user_attrs)


def ranked_trials(trials, multi_objective: bool) -> list:
    """The fully played trials among `trials`, best first (the earlier trial first on a tie)."""
    return sorted(filter(fully_played, trials), key=lambda t: (-trial_rank_value(t, multi_objective), t.number))


def race_best(trials, order: int):
    """The best fully played trial of the race whose trials have `order` in their record (its first trial): a
    dropped trial's estimate is relative to its result (unless that trial failed: a program disqualified in most
    of its games). None if the race has none, or with several objectives (nothing is dropped then)."""
    raced = [t for t in trials if (record := TrialRecord.from_trial(t)) is not None and record.order == order]
    if any(t.values is not None and len(t.values) > 1 for t in raced):
        return None
    ranked = ranked_trials(raced, False)
    return ranked[0] if ranked else None
