"""What `tuner tune` prints of its run (`tuner.search.tune.RunReport`): the study it opens, the search's progress
bar and messages, each new best trial, the search's best trial, the chosen bot with its gauntlet, the parameters
kept, and how to export them."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional

from optuna.trial import FrozenTrial

from bots.contract.searches import asks_within_budget
from bots.registry import plugin
from export.languages import DEFAULT_TIME_MS
from tuner.cli.before_after import before_after_lines
from tuner.cli.tune_progress import Progress
from tuner.play.gauntlet import Gauntlet
from tuner.play.runner import GameRunner
from tuner.results.chosen import ChosenRecord
from tuner.results.records import TrialRecord
from tuner.storage import describe_storage
from tuner.studyfile.file import StudyConfig
from tuner.studyfile.program_budget import shown_budget
from tuner.studyfile.space import SearchSpace


def _playing_budget(chosen: ChosenRecord) -> str:
    """" at the playing budget (...)" for a study with [playing_budget], " (...)" for a program's recorded budget,
    or "": the budget the chosen bot's figures were played at, with its limits for a program (older records: the
    values)."""
    recorded = chosen.budget or chosen.finals_params
    return f" at the playing budget ({shown_budget(recorded)})" if chosen.finals_params else \
        f" ({shown_budget(recorded)})" if recorded else ""


def _fmt_ci(rate: float, ci) -> str:
    return f"{rate:.1%} (95% CI {ci[0]:.1%} - {ci[1]:.1%})"


class TuneReport:
    """The run's report on stdout, with a progress bar on stderr when it is a terminal (`progress`: None) or when
    asked (True)."""

    def __init__(self, config: StudyConfig, trials: Optional[int], timeout: Optional[float],
                 progress: Optional[bool] = None):
        self.config = config
        self.trials = trials  # `--trials N`, when given
        self.timeout = timeout
        self.progress = progress
        self.gains = config.objectives == "min-gain"
        self.bar: Optional[Progress] = None
        self.started = time.monotonic()

    def opened(self, done: int, to_run: Optional[int]) -> None:
        config = self.config
        print(f"study {config.name!r} in {describe_storage(config.storage)}: {done} finished trials"
              + (f", running {to_run} more" if to_run is not None else "")
              + (f" (time budget {self.timeout:g}s)" if self.timeout is not None else ""))
        if to_run == 0 and config.trials is not None and self.trials is None:
            print(f"the study has its {config.trials} trials (raise 'trials', or pass --trials N to run more)")

    @contextmanager
    def searching(self, runner: GameRunner, to_run: Optional[int], best: Optional[FrozenTrial]) -> Iterator[None]:
        shown = None if best is None else best.value if self.gains else best.user_attrs.get("win_rate")
        self.bar = Progress(self.config.name, to_run, runner, self.progress, best=shown,
                            best_number=None if best is None else best.number,
                            value_name="min gain" if self.gains else "win rate")
        try:
            yield
        finally:
            self.bar.close()

    def message(self, text: str) -> None:
        if self.bar is not None:
            self.bar.write(text)
        else:
            print(text)

    def trial_finished(self, outcome) -> None:
        if self.bar is not None:
            self.bar.trial_finished(outcome)

    def new_best(self, number: int, value: float, record: TrialRecord) -> None:
        t = record.tally
        gain = f"min gain {value:+.1%} over the baseline, " if self.gains else ""
        self.message(f"trial {number}: new best, {gain}win rate {_fmt_ci(t.win_rate, t.win_rate_ci)} over {t.games} "
                     f"games")

    def artifacts_failed(self, number: int, problems: list[str]) -> None:
        for problem in problems:
            self.message(f"trial {number}: {problem}; the study goes on")

    def searched(self, interrupted: bool, study_trials: int) -> None:
        bar = self.bar
        assert bar is not None, "searched() ends a search that searching() started"
        print(f"{'interrupted' if interrupted else 'done'}: {bar.done} trials ({bar.pruned} pruned) in "
              f"{bar.seconds:.0f}s, {bar.games:,} games ({bar.games_per_second():,.0f} games/s; "
              f"{bar.where_games_ran()}); the study has {study_trials} finished trials")
        self.bar = None

    def best(self, trial: Optional[FrozenTrial]) -> None:
        if trial is None:
            print("no finished trial yet")
            return
        record = TrialRecord.from_trial(trial)
        assert record is not None, "the best trial is a finished trial of the tuner's"
        t = record.tally
        print(f"best trial of the search: {trial.number} of study {self.config.name!r}"
              + (" (the baseline: the parameters' defaults, with the study's overrides)"
                 if trial.user_attrs.get("baseline") else ""))
        budget = record.extra.get("budget")
        print(f"  search: win rate {_fmt_ci(t.win_rate, t.win_rate_ci)} over {t.games} games "
              + (f"at {shown_budget(budget)} " if budget else "")
              + f"(Elo {t.elo:+.0f}, mean margin {t.mean_margin:+.2f})")
        for name, result in record.opponents.items():
            print(f"    vs {name}: {result.win_rate:.1%}")

    def choice_skipped(self) -> None:
        print("choice and gauntlet skipped (interrupted); run the same command again to resume the study")

    def chosen(self, chosen: ChosenRecord, gauntlet: dict, search_gauntlet: Optional[dict]) -> None:
        overall = chosen.held_out
        budget = _playing_budget(chosen)
        print(f"chosen for export: {chosen.label}, win rate {_fmt_ci(overall.win_rate, overall.win_rate_ci)} "
              f"over {overall.games} held-out games{budget} ({len(chosen.finalists)} finalists, "
              + ("score over the baseline: " if chosen.scored else "win rate: ")
              + ", ".join(f"{f.label} " + (f"{f.score:+.1%}" if chosen.scored else f"{f.tally.win_rate:.1%}")
                          for f in chosen.finalists) + ")")
        if chosen.improved:
            self._gauntlet(chosen, gauntlet, budget)
            if search_gauntlet is not None:
                searched = search_gauntlet.get("budget") or \
                    {name: chosen.search_params[name] for name in chosen.finals_params}
                self._gauntlet(chosen, search_gauntlet, f" at the search's budget ({shown_budget(searched)})")

    def before_after(self, chosen: ChosenRecord, gauntlet: dict, defaults_gauntlet: Optional[dict]) -> None:
        config = self.config
        budget = _playing_budget(chosen) if chosen.finals_params else \
            f" as {config.bot} (the search played {config.search_bot})" if config.search_bot else ""
        improved = chosen.improved
        start = "start" if config.baseline is not None else "defaults"
        named = config.file.baseline or "the bot's defaults"
        print(f"before and after, win rate (95% CI) on {gauntlet['games_per_opponent']} fresh held-out games per "
              f"opponent{budget}: {start} = {named}" + ("" if improved else f"; no finalist beat the {start}"))
        for line in before_after_lines(start, chosen.label if improved else None, gauntlet, defaults_gauntlet):
            print(line)
        minutes, seconds = divmod(round(time.monotonic() - self.started), 60)
        print(f"this run took {minutes} min {seconds} s" if minutes else f"this run took {seconds} s")

    @staticmethod
    def _gauntlet(chosen: ChosenRecord, gauntlet: dict, budget: str) -> None:
        print(f"gauntlet on fresh held-out seeds{budget}, {gauntlet['games_per_opponent']} games per opponent: "
              f"{chosen.label} against the baseline (trial 0)")
        for line in Gauntlet.from_json(gauntlet).table():
            print("  " + line)
        if gauntlet["regressions"]:
            print(f"warning: the chosen bot is significantly worse than the baseline against "
                  f"{', '.join(gauntlet['regressions'])}")

    def parameters(self, space: SearchSpace, values: dict) -> None:
        # the budget the values are given at is the baseline's too (the chosen bot's: the playing one)
        base = {**space.baseline(), **{name: values[name] for name in self.config.playing_budget if name in values}}
        changed = [(p.name, base[p.name], values[p.name]) for p in space.schema if values[p.name] != base[p.name]]
        print(f"  parameters: {len(changed)} of {len(space.schema)} differ from the baseline"
              + (":" if changed else ""))
        for name, old, new in changed:
            fmt = (lambda v: f"{v:g}") if isinstance(new, float) else str
            print(f"    {name}: {fmt(old)} -> {fmt(new)}")


def print_export_hint(config: StudyConfig) -> None:
    source = config.program.source if config.program is not None else None
    if source is not None:
        print(f"export it: tuner export {config.path} -o {source.stem}-tuned{source.suffix}  ({source.name} with the "
              f"chosen values: the file to submit; or -o {config.path.stem}-best.json, the values)")
    elif config.program is not None:
        print(f"export it: tuner export {config.path} -o {config.path.stem}-best.json  (or --template SOURCE -o OUT)")
    elif plugin(config.bot).exports_in("python"):
        print(f"export it: tuner export {config.path} -o bots/tuned/{config.path.stem}.py")
    else:
        timed = f" --time-ms {DEFAULT_TIME_MS}" if asks_within_budget(plugin(config.bot).policy) else ""
        print(f"export it: tuner export {config.path}{timed} -o bots/tuned/{config.path.stem}.cpp")
