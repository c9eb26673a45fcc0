"""The end of a run: choosing the bot to export on held-out games, and its gauntlet against the baseline.

The search's best value is optimistic (the maximum of many noisy estimates), and with a hall of fame the values of
trials are not even comparable (later trials meet stronger opponents). So the finalists are played again on the
held-out validation seeds (never used by the search) against the fixed validation panel, all on the same seeds:
  - the `finalists` best fully played trials of the study,
  - the best fully played trial of each of the latest batches (the search's latest state),
  - CMA-ES's current mean (its own estimate of the best parameters: no trial plays it).
The one of highest win rate over the panel becomes the study's chosen bot (study user attribute `chosen`: its
parameters, how it was chosen and every finalist's result), which `tuner export` and `study:` names follow.
Then the chosen bot and the baseline (trial 0, the defaults) play the gauntlet: the same held-out seeds, each
opponent in its own row, with their paired difference; a row where the chosen bot is significantly worse is a
regression, printed as a warning and recorded (`gauntlet`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from optuna.trial import TrialState

from bots.paramfile import now_iso
from tuner.measure.gauntlet import Gauntlet, run_gauntlet
from tuner.measure.runner import GameRunner, evaluate
from tuner.measure.seeds import game_seeds
from tuner.storage._optuna_compat import cmaes_mean
from tuner.study.botnames import study_bot
from tuner.study.bots import trial_params, validation_key
from tuner.study.file import StudyConfig
from tuner.study.ranking import ranked_trials
from tuner.study.records import TrialRecord

LATEST_BATCHES = 3


@dataclass
class Finalist:
    label: str  # "trial 12", "CMA-ES mean"
    trial: Optional[int]
    params: dict


def finalists(config: StudyConfig, study, space, sampler) -> list[Finalist]:
    """The bots competing to be exported (duplicates by parameters removed, the best first)."""
    if config.finalists == 0:
        return []
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    ranked = ranked_trials(complete, config.multi_objective)
    chosen = ranked[:config.finalists]
    batches: dict = {}
    for t in ranked:  # ranked best first: the first met per batch is its best
        record = TrialRecord.from_trial(t)
        if record is not None:
            batches.setdefault(record.order, t)
    chosen += [batches[order] for order in sorted(batches)[-LATEST_BATCHES:]]
    out, seen = [], set()
    for t in chosen:
        params = trial_params(config, t)
        key = tuple(sorted(params.items()))
        if key not in seen:
            seen.add(key)
            out.append(Finalist(f"trial {t.number}", t.number, params))
    if config.sampler == "cmaes" and config.program is None:
        mean = cmaes_mean(sampler, study)
        if mean is not None:
            params = space.full({**space.start_point(), **{k: v for k, v in mean.items() if k in space.start_point()}})
            key = tuple(sorted(params.items()))
            if key not in seen:
                out.append(Finalist("CMA-ES mean", None, params))
    return out


def choose(config: StudyConfig, runner: GameRunner, study, space, sampler, bot_of, notify=print) -> Optional[dict]:
    """Play the finalists on held-out seeds, record and return the chosen bot (None without any finalist)."""
    candidates = finalists(config, study, space, sampler)
    if not candidates:
        return None
    seeds = game_seeds(config.seed, config.validation_pairs, "validation")
    opponents = {name: study_bot(config, name) for name in config.validation_opponents}
    results = []
    for finalist in candidates:
        evaluation = evaluate(runner, bot_of(finalist.params, finalist.label), opponents, seeds)
        results.append((finalist, evaluation))
        if finalist.trial is not None:
            study.set_user_attr(validation_key(finalist.trial), _validation_record(config, finalist, evaluation))
    best, evaluation = max(results, key=lambda r: (r[1].overall.win_rate, r[0].trial is not None))
    notify(f"chosen on {evaluation.overall.games} held-out games: {best.label}, win rate "
           f"{evaluation.overall.win_rate:.1%} (among {len(results)} finalists: "
           + ", ".join(f"{f.label} {e.overall.win_rate:.1%}" for f, e in results) + ")")
    chosen = {"label": best.label, "trial": best.trial, "params": best.params,
              "how": f"the best win rate over {len(seeds)} held-out seed pairs against the validation panel "
                     f"({', '.join(opponents)}) among {len(results)} finalists: the {config.finalists} best fully "
                     f"played trials, the latest batches' best and CMA-ES's mean",
              "finalists": [{"label": f.label, "trial": f.trial, **e.overall.to_json()} for f, e in results],
              "validation": _validation_record(config, best, evaluation), "date": now_iso()}
    study.set_user_attr("chosen", chosen)
    study.set_user_attr("validation", chosen["validation"])
    return chosen


def _validation_record(config: StudyConfig, finalist: Finalist, evaluation) -> dict:
    return {"seed": config.seed, "stream": "validation", "pairs": config.validation_pairs,
            "opponents": config.validation_opponents, "trial": finalist.trial, "label": finalist.label,
            **evaluation.to_json(), "date": now_iso()}


def final_gauntlet(config: StudyConfig, runner: GameRunner, study, chosen: dict, baseline: dict, bot_of) -> Gauntlet:
    """The chosen bot and the baseline against the validation panel; recorded. Its seeds are held out from the
    search and from the choice among the finalists too (stream `gauntlet`): on the choice's own seeds the chosen
    bot's figures would be optimistic, the maximum of several noisy ones."""
    seeds = game_seeds(config.seed, config.validation_pairs, "gauntlet")
    opponents = {name: study_bot(config, name) for name in config.validation_opponents}
    gauntlet = run_gauntlet(runner, bot_of(chosen["params"], chosen["label"]), opponents, seeds,
                            bot_of(baseline, "baseline"))
    study.set_user_attr("gauntlet", {**gauntlet.to_json(), "chosen": chosen["label"], "date": now_iso()})
    return gauntlet
