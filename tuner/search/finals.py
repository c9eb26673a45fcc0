"""The end of a run: choosing the bot to export on held-out games, and its gauntlet against the baseline.

The search's best value is optimistic (the maximum of many noisy estimates), and with a hall of fame the values of
trials are not even comparable (later trials meet stronger opponents). So the finalists are played again on the
held-out validation seeds (never used by the search), all on the same seeds, against the validation panel: the
pool's opponents (`validation_opponents`) and the held-out ones no trial met (`held_out_opponents`):
  - the `finalists` best fully played trials of the study,
  - the best fully played trial of each of the latest batches (the search's latest state),
  - CMA-ES's current mean (its own estimate of the best parameters: no trial plays it),
  - the baseline (trial 0, the defaults): a finalist must beat it to be chosen.
Each finalist's gain over the baseline against each opponent (its mean points minus the baseline's) is summed up
per group by the study's objective (the mean gain, or with `min-gain` the soft minimum), and the two groups'
summaries are summed up the same way (the pool's alone without held-out opponents): the held-out group weighs as
much as the pool, however few its opponents, because the pool's gains are the ones the search may have bought by
exploiting its sparring partners, and the held-out ones are the only estimate of how the bot meets opponents it
never saw. With `min-gain` the score is the soft minimum of the two: either group can set it, and a large gain
against one group cannot outvote the other. A mean of the two let the held-out search bots, whose gains are large
and come partly from fooling their playouts, choose the finalist that fooled them most: against styles that no
study met, that choice lost where the pool's alone gained (docs/strength.md, "Choosing with held-out
opponents"). With `finals_confidence` c > 0, a finalist other than the baseline is chosen only if its score is
above the baseline's in a share c of bootstrap resamples of the seed pairs: a gain within the finals' noise keeps
the baseline. The finalist of best score becomes the study's chosen bot (study user attribute `chosen`: its
parameters, how it was chosen and every finalist's result), which `tuner export` and `study:` names follow.
Then the chosen bot and the baseline play the gauntlet on other held-out seeds (the `gauntlet` stream), each
opponent in its own row and each group apart, with their paired differences; a row where the chosen bot is
significantly worse is a regression, printed as a warning and recorded (`gauntlet`).

Two budgets (`[playing_budget]`): a search bot's trials can play at a short budget (fixed in `[search]`, cheap
enough for thousands of trials) and its finals and gauntlet at the budget it will play at (`[playing_budget]`, as
Fishtest confirms a short time control's result at a long one). Every finalist and the baseline then play the
finals at the playing budget, so a finalist whose gain at the short budget does not hold there scores below the
baseline and is not chosen; the chosen bot's parameters are the ones it played the finals with. The gauntlet is
played at both budgets (`gauntlet`, the playing budget's; `gauntlet_search_budget`).

Shared by the study's workers: each finalist's games and each gauntlet are a unit of work (`units`, keyed by what
decides their result: the parameters, the seeds, the opponents, the versions), that the workers ending the search
take one by one (`tuner.search.shared_work`), so that N workers play the finals in about 1/N of the time and all
choose the same bot from the same results.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Optional

import numpy as np
from optuna.trial import TrialState

from bots.contract.paramfile import now_iso
from tuner.play.gauntlet import run_gauntlet
from tuner.play.runner import Evaluation, GameRunner, evaluate
from tuner.play.seeds import game_seeds
from tuner.play.stats import tally
from tuner.results.botnames import study_bot
from tuner.results.chosen import (
    BASELINE,
    GAUNTLET,
    GAUNTLET_DEFAULTS,
    GAUNTLET_SEARCH_BUDGET,
    ChosenRecord,
    FinalistScore,
    write_chosen,
    write_gauntlet,
)
from tuner.results.picks import trial_params, validation_key
from tuner.results.ranking import ranked_trials
from tuner.results.records import TrialRecord
from tuner.search.cmaes_sampler import cmaes_mean
from tuner.search.race import soft_minimum
from tuner.studyfile.file import StudyConfig
from tuner.studyfile.program_budget import budget_record, shown_budget
from tuner.versions import versions, versions_key

LATEST_BATCHES = 3
FINALS_BOOTSTRAP = 2000  # resamples of the seed pairs behind `finals_confidence`

Shared = Callable[[dict], dict]  # {key: play() -> result} -> {key: result}, played here or by other workers


def played_here(units: dict) -> dict:
    """Every unit played by this worker alone."""
    return {key: play() for key, play in units.items()}


def unit_key(kind: str, config: StudyConfig, **inputs) -> str:
    """A unit of the finals' work, named by everything its result depends on: not the machine's CPU (games play
    the same on every CPU), so that workers on several machines share it."""
    code = {name: version for name, version in versions().items() if name != "cpu"}
    described = {"kind": kind, "league": config.league, "seed": config.seed, "pairs": config.finals_pairs,
                 "panel": validation_panel(config), "versions": versions_key(code), **inputs}
    digest = hashlib.sha256(json.dumps(described, sort_keys=True, default=str).encode()).hexdigest()[:20]
    return f"{kind}:{digest}"


@dataclass
class Finalist:
    label: str  # "trial 12", "CMA-ES mean", BASELINE
    trial: Optional[int]
    params: dict


def finalists(config: StudyConfig, study, space, sampler) -> list[Finalist]:
    """The bots competing to be exported (duplicates by parameters removed, the best first, the baseline last)."""
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
                seen.add(key)
                out.append(Finalist("CMA-ES mean", None, params))
    baseline = space.baseline()
    if tuple(sorted(baseline.items())) not in seen:
        first = next((t for t in study.get_trials(deepcopy=False) if t.user_attrs.get("baseline")), None)
        out.append(Finalist(BASELINE, None if first is None else first.number, baseline))
    return out


def validation_panel(config: StudyConfig) -> dict:
    """{name: held out?} of the validation panel: the pool's opponents, then the held-out ones."""
    return {**{name: False for name in config.validation_opponents},
            **{name: True for name in config.held_out_opponents}}


def choice_score(config: StudyConfig, gains: dict, panel: dict) -> float:
    """A finalist's score from its gains over the baseline ({opponent: gain}): per group, the objective's summary
    (the mean gain, or with `min-gain` the soft minimum), then the same summary of the groups'."""
    def summary(values: list) -> float:
        array = np.array(values, dtype=float)
        if config.objectives == "min-gain":
            return soft_minimum(array, config.min_gain_softness)
        return float(array.mean())

    groups = [[gains[name] for name, held in panel.items() if held == group] for group in (False, True)]
    return summary([summary(values) for values in groups if values])


def confidence_over_baseline(config: StudyConfig, gains: np.ndarray, panel: dict) -> float:
    """The share of bootstrap resamples of the validation seed pairs in which a finalist's score is above the
    baseline's: `gains` are its pair points minus the baseline's on the same pairs (opponents, pairs), resampled
    pair by pair across the panel (every opponent plays the same seeds), with the study's seed."""
    rng = np.random.default_rng([config.seed, FINALS_BOOTSTRAP])
    picks = rng.integers(0, gains.shape[1], size=(FINALS_BOOTSTRAP, gains.shape[1]))
    means = gains[:, picks].mean(axis=2).T  # (resamples, opponents)
    return float(np.mean([choice_score(config, dict(zip(panel, row)), panel) > 0 for row in means]))


def choose_finalist(config: StudyConfig, points: dict, panel: dict, baseline_label: str) -> tuple[dict, dict, str]:
    """Each finalist's score and confidence over the baseline, and the label of the one to choose, from their pair
    points on the same seeds ({label: (opponents, pairs)}): the best score among the baseline and the finalists
    sure enough to beat it (`finals_confidence`); on a tie, the baseline."""
    reference = points[baseline_label]
    scores = {label: choice_score(config, dict(zip(panel, (p - reference).mean(axis=1))), panel)
              for label, p in points.items()}
    confidence = {label: confidence_over_baseline(config, p - reference, panel) if config.finals_confidence else 1.0
                  for label, p in points.items()}
    eligible = [label for label in points
                if label == baseline_label or confidence[label] >= config.finals_confidence]
    return scores, confidence, max(eligible, key=lambda label: (scores[label], label == baseline_label))


def choose(config: StudyConfig, runner: GameRunner, study, space, sampler, bot_of, notify=print,
           shared: Shared = played_here) -> Optional[ChosenRecord]:
    """Play the finalists on held-out seeds (`shared` with the study's other workers), record and return the chosen
    bot (None without any finalist)."""
    candidates = finalists(config, study, space, sampler)
    if not candidates:
        return None
    seeds = game_seeds(config.seed, config.finals_pairs, "validation")
    panel = validation_panel(config)
    opponents = {name: study_bot(config, name) for name in panel}

    def finalist_unit(finalist: Finalist) -> tuple[str, Callable[[], dict]]:
        params = config.at_playing_budget(finalist.params)

        def play() -> dict:
            margins = evaluate(runner, bot_of(params, finalist.label), opponents, seeds).margins
            return {"label": finalist.label, "margins": margins.tolist()}
        return unit_key("finalist", config, params=params), play

    units = dict(finalist_unit(f) for f in candidates)
    played = shared(units)
    results = [(f, evaluation_of(played[key]["margins"], list(panel))) for f, key in zip(candidates, units)]
    for finalist, evaluation in results:
        if finalist.trial is not None:
            study.set_user_attr(validation_key(finalist.trial), _validation_record(config, finalist, evaluation))
    baseline_label = next(f.label for f, _ in results if f.params == space.baseline())
    scores, confidence, label = choose_finalist(config, {f.label: config.pair_value(e.margins) for f, e in results},
                                                panel, baseline_label)
    best, evaluation = next(r for r in results if r[0].label == label)
    sure = {label: f", {c:.0%} sure" if config.finals_confidence and label != baseline_label else ""
            for label, c in confidence.items()}
    notify(f"chosen on {evaluation.overall.games} held-out games: {best.label}, score {scores[best.label]:+.1%} "
           f"over the baseline (among {len(results)} finalists: "
           + ", ".join(f"{f.label} {scores[f.label]:+.1%}{sure[f.label]}" for f, _ in results) + ")"
           + (f"; a finalist replaces the baseline only if {config.finals_confidence:.0%} sure to beat it"
              if config.finals_confidence else ""))
    summary, summaries = ("soft minimum", "soft minima") if config.objectives == "min-gain" else ("mean", "means")
    groups = (f"the {summary} of the two groups' {summaries} of its gains: against the pool's opponents "
              f"({', '.join(config.validation_opponents)}) and against the held-out ones "
              f"({', '.join(config.held_out_opponents)})" if config.held_out_opponents else
              f"the {summary} of its gains against the validation panel ({', '.join(config.validation_opponents)})")
    playing, searched = (budget_record(config, params) for params in (config.at_playing_budget(best.params),
                                                                        best.params))
    budget = (f", every finalist played at the playing budget ({shown_budget(playing)}; the search played "
              f"{shown_budget(searched)})" if config.playing_budget else
              f", every finalist played with {shown_budget(playing)}" if playing else "")
    how = (f"the best gain over the baseline on {len(seeds)} held-out seed pairs{budget}: {groups}; among "
           f"{len(results)} finalists: the {config.finalists} best fully played trials, the latest batches' best, "
           f"CMA-ES's mean and the baseline"
           + (f"; a finalist replaces the baseline only if its score is above the baseline's in "
              f"{config.finals_confidence:.0%} of {FINALS_BOOTSTRAP} resamples of the seed pairs"
              if config.finals_confidence else ""))
    chosen = ChosenRecord(
        best.label, best.trial, config.at_playing_budget(best.params), best.params, how,
        [FinalistScore(f.label, f.trial, e.overall, scores[f.label], confidence[f.label]) for f, e in results],
        _validation_record(config, best, evaluation), config.playing_budget, playing or None,
        searched if playing else None, config.finals_confidence, now_iso())
    write_chosen(study, chosen)
    study.set_user_attr("validation", chosen.validation)
    return chosen


def evaluation_of(margins: list, opponents: list) -> Evaluation:
    """A finalist's evaluation from its recorded margins ((opponents, pairs, 2), the opponents in panel order)."""
    array = np.asarray(margins, dtype=np.int64).reshape(len(opponents), -1, 2)
    return Evaluation(tally(array), {name: tally(array[i]) for i, name in enumerate(opponents)}, array)


def gauntlets(config: StudyConfig, runner: GameRunner, study, chosen: ChosenRecord, baseline: dict, bot_of,
              shared: Shared = played_here, defaults: Optional[dict] = None) -> tuple[dict, Optional[dict]]:
    """The chosen bot and the baseline against the validation panel, recorded: at the playing budget
    (`gauntlet`), and with a playing budget (`[playing_budget]`) at the search's too (`gauntlet_search_budget`: the
    gain the search saw, beside the one that holds where the bot plays; None without one). Their seeds are held out
    from the search and from the choice among the finalists too (stream `gauntlet`): on the choice's own seeds the
    chosen bot's figures would be optimistic, the maximum of several noisy ones. Played `shared` with the study's other
    workers. With `defaults` (the bot's own, when the baseline is another start: a first draft), those play the
    same seeds at the playing budget too (`gauntlet_defaults`): the before/after table's third column, played
    without the baseline, whose games on these seeds `gauntlet` holds already."""
    playing_baseline = config.at_playing_budget(baseline)
    budgets: dict[str, tuple[str, dict, Optional[dict]]] = {
        GAUNTLET: (chosen.label, chosen.params, playing_baseline)}
    if config.playing_budget:
        budgets[GAUNTLET_SEARCH_BUDGET] = (chosen.label, chosen.search_params, baseline)
    if defaults is not None and defaults != baseline:
        budgets[GAUNTLET_DEFAULTS] = ("defaults", config.at_playing_budget(defaults), None)

    def play(label: str, params: dict, against: Optional[dict]) -> dict:
        seeds = game_seeds(config.seed, config.finals_pairs, "gauntlet")
        opponents = {name: study_bot(config, name) for name in validation_panel(config)}
        gauntlet = run_gauntlet(runner, bot_of(params, label), opponents, seeds,
                                None if against is None else bot_of(against, "baseline"),
                                tuple(config.held_out_opponents))
        budget = budget_record(config, params)
        return {**gauntlet.to_json(), "chosen": chosen.label, **({"budget": budget} if budget else {}),
                "date": now_iso()}

    keys = {name: unit_key("gauntlet", config, params=params, baseline=against)
            for name, (_, params, against) in budgets.items()}
    played = shared({keys[name]: partial(play, *budget) for name, budget in budgets.items()})
    records = {name: played[keys[name]] for name in budgets}
    for name, record in records.items():
        write_gauntlet(study, name, record)
    return records[GAUNTLET], records.get(GAUNTLET_SEARCH_BUDGET)


def _validation_record(config: StudyConfig, finalist: Finalist, evaluation) -> dict:
    budget = budget_record(config, config.at_playing_budget(finalist.params))
    return {"seed": config.seed, "stream": "validation", "pairs": config.finals_pairs,
            "opponents": config.validation_opponents, "held_out_opponents": config.held_out_opponents,
            "trial": finalist.trial, "label": finalist.label, **({"budget": budget} if budget else {}),
            **evaluation.to_json(), "date": now_iso()}


def shown(values: dict) -> str:
    """Parameter values as a study file writes them: `iterations = 100, width = 8`."""
    return ", ".join(f"{name} = {value:g}" if isinstance(value, float) else f"{name} = {value}"
                     for name, value in values.items())
