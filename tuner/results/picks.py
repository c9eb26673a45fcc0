"""Bots from tuning studies: `study:STUDY.toml` (the study's chosen bot) and `study:STUDY.toml#N` (trial N), and
the source of `tuner export STUDY.toml [--trial N]`.

The chosen bot is the one `tuner tune` chose at the end of its last run, on held-out games among the finalists
(`tuner.search.finals`, study user attribute `chosen`); before any choice, the best trial: the fully played trial
(not pruned) with the highest value (with `objectives = "per-opponent"`, the one of highest mean win rate). A
trial's bot is rebuilt from its recorded parameters (`bot_params`), so it does not depend on the study file's
search overrides being unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import optuna
from optuna.trial import TrialState

from bots.contract.names import Bot, BotSpecError
from bots.contract.schema import ParamError
from tuner.errors import UserError
from tuner.results.chosen import ChosenRecord, read_chosen
from tuner.results.ranking import ranked_trials
from tuner.results.same_search import check_same_search
from tuner.storage import describe_storage, open_storage
from tuner.studyfile.file import StudyConfig, read_study_file
from tuner.studyfile.tunable import tuned_bot


def validation_key(number: int) -> str:
    return f"validation:{number}"


def load_existing_study(config: StudyConfig, where: Optional[str] = None):
    """(storage, study) of a study that `tuner tune` created; UserError if the storage or study is missing."""
    where = where or f"{config.path}: {config.storage_source}"
    storage = open_storage(config.storage, where, create=False)
    try:
        study = optuna.load_study(study_name=config.name, storage=storage)
    except KeyError:
        names = [s.study_name for s in storage.get_all_studies()]
        raise UserError(f"{config.path}: study {config.name!r} is not in {describe_storage(config.storage)} "
                        f"(studies there: {', '.join(names) if names else 'none'}; run `tuner tune` first)") from None
    check_same_search(config, study, reading=True)
    return storage, study


def best_trial(study, config: StudyConfig):
    """The best fully played trial, or None."""
    ranked = ranked_trials(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)), config.multi_objective)
    return ranked[0] if ranked else None


@dataclass
class Pick:
    """A study's bot: a trial's, or the chosen one (which may be no trial: CMA-ES's mean)."""

    label: str  # "trial 12", "CMA-ES mean"
    trial: Optional[object]  # the FrozenTrial, if the bot is a trial's
    params: dict
    chosen: Optional[ChosenRecord] = None  # the study's chosen bot's record when it is that bot

    @property
    def number(self) -> Optional[int]:
        return None if self.trial is None else self.trial.number


def study_pick(study, config: StudyConfig, number: Optional[int]) -> Pick:
    """Trial `number`, else the chosen bot, else the best trial (UserError when there is none)."""
    chosen = read_chosen(study) if number is None else None
    if chosen is not None:
        trial = None
        if chosen.trial is not None:
            trial = next(t for t in study.get_trials(deepcopy=False) if t.number == chosen.trial)
        params = _recorded_params(config, chosen.params, f"the chosen bot ({chosen.label})")
        return Pick(chosen.label, trial, params, chosen)
    trial = _pick_trial(study, config, number)
    return Pick(f"trial {trial.number}", trial, trial_params(config, trial))


def _pick_trial(study, config: StudyConfig, number: Optional[int]):
    if number is None:
        trial = best_trial(study, config)
        if trial is None:
            raise UserError(f"{config.path}: study {config.name!r} has no finished trial yet (run `tuner tune`)")
        return trial
    trials = study.get_trials(deepcopy=False)
    match = [t for t in trials if t.number == number]
    if not match:
        raise UserError(f"{config.path}: study {config.name!r} has no trial {number} (trials 0 to {len(trials) - 1})"
                        if trials else f"{config.path}: study {config.name!r} has no trials yet")
    trial = match[0]
    if trial.state not in (TrialState.COMPLETE, TrialState.PRUNED) or "bot_params" not in trial.user_attrs:
        raise UserError(f"{config.path}: trial {number} of study {config.name!r} is {trial.state.name}, not a "
                        f"finished trial (give a COMPLETE or PRUNED trial, or no number for the best)")
    return trial


def _recorded_params(config: StudyConfig, values: dict, what: str) -> dict:
    """A full parameter set of the study's bot from parameters the study recorded (`what`: whose); UserError when
    they no longer fit the bot (the study file's `bot`, or the bot's parameters, changed since the study ran)."""
    schema = tuned_bot(config).schema
    try:
        checked = schema.validate(values, what, complete=False)
    except ParamError as error:
        raise UserError(f"{config.path}: {error} (the study file's bot, now {config.bot!r}, or its parameters "
                        f"changed since the study ran)") from None
    return {**schema.defaults(), **checked}


def trial_params(config: StudyConfig, trial) -> dict:
    return _recorded_params(config, trial.user_attrs["bot_params"], f"trial {trial.number}")


def bot_for_trial(config: StudyConfig, trial, name: str) -> Bot:
    values = trial_params(config, trial)
    return tuned_bot(config).bot(values, name,
                           {"study": config.name, "study_file": str(config.path), "trial": trial.number})


def load_pick(config: StudyConfig, number: Optional[int]):
    """(study, Pick) of a study's chosen bot, or of its trial `number`."""
    _, study = load_existing_study(config)
    return study, study_pick(study, config, number)


def bot_from_study(name: str, arg: str, league: int) -> Bot:
    """The bot `study:STUDY.toml[#N]` names (BotSpecError with one line when it cannot be built)."""
    target, sep, number_text = arg.rpartition("#") if "#" in arg else (arg, "", "")
    number = None
    if sep:
        try:
            number = int(number_text)
        except ValueError:
            raise BotSpecError(f"bot {name!r}: trial number must be an integer, got {number_text!r} "
                               f"(write study:STUDY.toml#N)") from None
    try:
        config = read_study_file(Path(target))
        _, chosen = load_pick(config, number)
        return tuned_bot(config).bot(chosen.params, name, {"study": config.name, "study_file": str(config.path),
                                                           "trial": chosen.number, "label": chosen.label})
    except UserError as error:
        raise BotSpecError(f"bot {name!r}: {error}") from None
