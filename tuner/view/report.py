"""`tuner report`: the top trials of a study as a table (pandas), and its plots as HTML files (plotly).

Trials are ranked as the best trial is chosen (`tuner.results.picks.best_trial`): fully played trials only, by
value (or mean win rate with several objectives). The plots are Optuna's: the optimisation history, the
parameter importances and the parallel coordinates of the most important parameters (for the best
PARALLEL_TRIALS trials), of the fully played (COMPLETE) trials: a pruned trial's value is an estimate, and most
trials of a big study are pruned. The HTML files load plotly from `plotly.min.js` in the same directory, so they
open offline.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import optuna
import pandas as pd

from tuner.errors import UserError
from tuner.play.gauntlet import Gauntlet
from tuner.results.chosen import ChosenRecord, read_chosen, read_gauntlet
from tuner.results.picks import load_existing_study, trial_params, validation_key
from tuner.results.ranking import fully_played, ranked_trials
from tuner.results.records import TrialRecord
from tuner.studyfile.file import StudyConfig
from tuner.studyfile.space import SearchSpace

PARALLEL_PARAMS = 8  # parameters shown in the parallel-coordinates plot (the most important ones)
# Trials drawn there (the best ones): a line is a plotly trace (~1.5 ms each); thousands are slow and unreadable.
PARALLEL_TRIALS = 300


@dataclass
class Report:
    table: object  # pandas DataFrame of the top trials
    params: object  # pandas DataFrame: parameters of the top trials and the baseline
    files: list = field(default_factory=list)
    skipped: list = field(default_factory=list)  # (plot, reason)
    counts: dict = field(default_factory=dict)
    chosen: Optional[ChosenRecord] = None  # the study's chosen bot (the last finished run's)
    gauntlet: Optional[Gauntlet] = None  # its gauntlet against the baseline, in-pool and held-out groups apart


def default_out_dir(config: StudyConfig) -> Path:
    return config.path.parent / f"{config.path.stem}-report"


def trials_table(study, config: StudyConfig, trials: list):
    validations = study.user_attrs
    rows = []
    for t in trials:
        record = TrialRecord.from_trial(t)
        row = {"trial": t.number, **{k: v for k, v in record.summary().items() if k != "pruned"}}
        if config.objectives == "min-gain":
            row["min gain"] = t.value
        rates = record.entry_win_rates()
        for entry in config.opponents:
            row[f"vs {entry}"] = rates.get(entry)
        validation = validations.get(validation_key(t.number))
        row["validation"] = validation["overall"]["win_rate"] if validation else None
        row["baseline"] = bool(t.user_attrs.get("baseline", False))
        rows.append(row)
    return pd.DataFrame(rows)


def params_table(config: StudyConfig, space, trials: list):
    columns = {"baseline": space.baseline()}
    for t in trials:
        columns[f"trial {t.number}"] = trial_params(config, t)
    frame = pd.DataFrame(columns)
    frame.index.name = "parameter"
    return frame


def _write(fig, path: Path, files: list) -> None:
    fig.write_html(str(path), include_plotlyjs="directory")
    files.append(path)


class UncopiedTrials(optuna.Study):
    """A study whose trials are never copied, for the plots. Optuna's plots ask for the trials many times, often
    deep-copied: the importance plot deep-copies every trial once per parameter (750 s for a 30,000-trial
    study), the history plot once (20 s). They use the COMPLETE trials' values only (the history plot marks the
    others incomplete, it needs them for the trial numbers)."""

    def __init__(self, storage, study, trials: Optional[list] = None):
        super().__init__(study_name=study.study_name, storage=storage)
        self._storage_object = storage
        self._all = study.get_trials(deepcopy=False) if trials is None else trials

    def subset(self, trials: list) -> UncopiedTrials:
        return UncopiedTrials(self._storage_object, self, trials)

    @property
    def trials(self) -> list:
        return list(self._all)

    def get_trials(self, deepcopy: bool = True, states=None) -> list:
        return [t for t in self._all if states is None or t.state in states]


def _optuna_visualization():
    """`optuna.visualization` (plotly), imported when plots are drawn (not for `--no-plots`) and without
    matplotlib: importing it imports Optuna's matplotlib plots too, which import matplotlib.pyplot (~1 s of a
    ~4 s report on a big study) when it is installed (it is, for `tuner league --plot`). Optuna imports it under
    `try_import`, which takes an ImportError as matplotlib missing: while `optuna.visualization` is imported,
    `matplotlib` is a None entry of sys.modules (which makes `import matplotlib` raise ImportError), then the
    entry is removed (matplotlib imports normally afterwards)."""
    import sys

    if "optuna.visualization" in sys.modules or "matplotlib" in sys.modules:
        import optuna.visualization as vis

        return vis
    sys.modules["matplotlib"] = None  # type: ignore[assignment]
    try:
        import optuna.visualization as vis
    finally:
        del sys.modules["matplotlib"]
    return vis


class OnceEvaluator(optuna.importance.BaseImportanceEvaluator):
    """Optuna's default importance evaluator (PED-ANOVA), its answer kept: the importances are needed twice (the
    parallel-coordinates plot shows the most important parameters), and they cost ~0.6 s at 30,000 trials."""

    def __init__(self) -> None:
        self._evaluator = optuna.importance.PedAnovaImportanceEvaluator()
        self._answers: dict = {}

    def evaluate(self, study, params=None, *, target=None) -> dict:
        key = (None if params is None else tuple(params), target)
        if key not in self._answers:
            self._answers[key] = self._evaluator.evaluate(study, params=params, target=target)
        return dict(self._answers[key])


def write_plots(study: UncopiedTrials, config: StudyConfig, out: Path) -> tuple:
    """Optuna's plots of the COMPLETE trials as HTML files in `out`: (files written, [(plot, reason skipped)])."""
    try:
        return _write_plots(study, config, out)
    except OSError as error:
        raise UserError(f"the plots cannot be written in {out}: {error.strerror or error}"
                        f"{'' if error.filename is None else f' ({error.filename})'}") from None


def _write_plots(study: UncopiedTrials, config: StudyConfig, out: Path) -> tuple:
    vis = _optuna_visualization()
    out.mkdir(parents=True, exist_ok=True)
    files, skipped = [], []
    if config.multi_objective:
        target, target_name = (lambda t: float(t.user_attrs.get("win_rate", float("nan")))), "mean win rate"
    else:
        target, target_name = None, "min gain over the baseline" if config.objectives == "min-gain" else "win rate"
    complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    _write(vis.plot_optimization_history(study, target=target, target_name=target_name), out / "history.html", files)
    if config.multi_objective and len(config.opponents) in (2, 3):
        _write(vis.plot_pareto_front(study, target_names=[f"vs {e}" for e in config.opponents]),
               out / "pareto_front.html", files)
    important = None
    if len(complete) >= 2:
        try:
            evaluator = OnceEvaluator()
            importances = optuna.importance.get_param_importances(study, evaluator=evaluator, target=target)
            important = list(importances)[:PARALLEL_PARAMS]
            _write(vis.plot_param_importances(study, evaluator=evaluator, target=target, target_name=target_name),
                   out / "importances.html", files)
        except (ValueError, RuntimeError, ZeroDivisionError) as error:
            skipped.append(("importances", str(error).splitlines()[0] if str(error) else type(error).__name__))
    else:
        skipped.append(("importances", "needs at least 2 finished trials"))
    if complete:
        best = study.subset(ranked_trials(complete, config.multi_objective)[:PARALLEL_TRIALS])
        _write(vis.plot_parallel_coordinate(best, params=important, target=target, target_name=target_name),
               out / "parallel_coordinates.html", files)
    else:
        skipped.append(("parallel coordinates", "no finished trial"))
    return files, skipped


def build_report(config: StudyConfig, out: Optional[Path], top: int = 10, plots: bool = True) -> Report:
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    storage, study = load_existing_study(config)
    space = SearchSpace.for_config(config)
    all_trials = study.get_trials(deepcopy=False)
    trials = ranked_trials(all_trials, config.multi_objective)[:top]
    counts = {"trials": len(all_trials), "fully played": sum(fully_played(t) for t in all_trials),
              "pruned": sum(t.state.name == "PRUNED" for t in all_trials),
              "failed": sum(t.state.name == "FAIL" for t in all_trials)}
    gauntlet = read_gauntlet(study)
    report = Report(trials_table(study, config, trials), params_table(config, space, trials[:5]), counts=counts,
                    chosen=read_chosen(study), gauntlet=None if gauntlet is None else Gauntlet.from_json(gauntlet))
    if plots:
        report.files, report.skipped = write_plots(UncopiedTrials(storage, study), config,
                                                   out or default_out_dir(config))
    return report
