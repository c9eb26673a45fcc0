"""`tuner tune`: create or resume a study, run its trials, choose the bot to keep and validate it on held-out seeds.

A study resumes when the same name is found in the same storage; its search settings (bot, league, seed,
pairs, opponents, sampler, pruner, search space) and the bot's parameter schema must be unchanged, else the
run stops before any trial with a line naming the first difference. `trials` counts the study's finished
trials (on resume too); `--trials N` runs N more whatever the count.

The first trial of a new study is the baseline, the schema defaults (enqueued), and CMA-ES starts its search
there (its initial mean). Each `tuner tune` process is a worker on the storage (`tuner.search.workers`): several,
on one machine or several, share a study and end it with exactly its `trials` COMPLETE trials; a worker that
dies or is stopped leaves its trials to be run again (heartbeats, `tuner.storage.retry`). A worker plays a batch
of trials at a time (a generation, raced on common seeds: `tuner.search.generation`). A worker rides out an outage
of its storage for up to the study's `outage_limit` seconds (`tuner.storage.outage`), then stops with
StorageUnavailable.

The run prints nothing itself: it tells a `RunReport` what happens (the command line prints it:
`tuner.cli.tune_report`).
"""
from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Optional, Protocol

import numpy as np
import optuna
from optuna.trial import FrozenTrial

from bots.contract.names import PROGRAM_PREFIX, Bot, BotSpecError, bot_with_params
from bots.contract.paramfile import now_iso
from bots.registry import schema_for
from engine.players import TimeLimits
from tuner.errors import UserError
from tuner.play.runner import GameRunner
from tuner.play.seeds import game_seeds
from tuner.programs.probe import probe_program
from tuner.results.botnames import study_bot
from tuner.results.chosen import (
    GAUNTLET_DEFAULTS,
    GAUNTLET_SEARCH_BUDGET,
    ChosenRecord,
    read_chosen,
    read_gauntlet,
    write_chosen,
)
from tuner.results.origin import export_header, origin_lines, shown_storage
from tuner.results.picks import best_trial, trial_params
from tuner.results.records import TrialRecord
from tuner.results.same_search import check_same_search
from tuner.search.best_artifacts import upload_new_best, warm_up_replays
from tuner.search.finals import Shared, choose, gauntlets, played_here
from tuner.search.generation import BatchPlayer
from tuner.search.interrupt import Interrupted, StopFlag
from tuner.search.opponent_pool import OpponentPool
from tuner.search.samplers import build_sampler, population_size
from tuner.search.shared_work import share
from tuner.search.workers import Plan, WorkerLoop, count_trials
from tuner.storage import Heartbeat, open_artifact_store, open_storage, save_snapshot, study_lock
from tuner.storage.lock import under_lock
from tuner.storage.outage import Outage
from tuner.studyfile.entries import CPP_PREFIX, STUDY_PREFIX
from tuner.studyfile.file import StudyConfig
from tuner.studyfile.space import SearchSpace
from tuner.studyfile.tunable import tuned_bot
from tuner.versions import versions, versions_key

SEEDS_RECORDED_MAX = 20_000  # record the search seeds themselves up to this many pairs (always their derivation)


@dataclass
class RunSummary:
    interrupted: bool = False
    best_number: Optional[int] = None
    validation: Optional[dict] = None


class RunReport(Protocol):
    """What a run tells, in this order, as it happens."""

    def opened(self, done: int, to_run: Optional[int]) -> None:
        """The study is open with `done` finished trials; the run plays `to_run` more (None: until its timeout)."""

    def searching(self, runner: GameRunner, to_run: Optional[int],
                  best: Optional[FrozenTrial]) -> AbstractContextManager[None]:
        """The search's progress, from the study's best trial so far; the search ends when the context does."""

    def message(self, text: str) -> None:
        """A line to show as it happens (a worker waiting, a stop requested, a trial failed, the finals' choice)."""

    def trial_finished(self, outcome) -> None:
        """The objective's outcome of a trial that finished (`tuner.search.workers`)."""

    def new_best(self, number: int, value: float, record: TrialRecord) -> None:
        """A trial that is the study's new best: its value (a win rate or a min gain) and its record."""

    def artifacts_failed(self, number: int, problems: list[str]) -> None:
        """What of a new best trial's artifacts could not be made (the study goes on)."""

    def searched(self, interrupted: bool, study_trials: int) -> None:
        """The search stopped (interrupted, or its trials or time done); the study has `study_trials` trials."""

    def best(self, trial: Optional[FrozenTrial]) -> None:
        """The search's best trial (None: no finished trial yet)."""

    def choice_skipped(self) -> None:
        """No choice and gauntlet: the run was interrupted."""

    def chosen(self, chosen: ChosenRecord, gauntlet: dict, search_gauntlet: Optional[dict]) -> None:
        """The bot chosen among the finalists on held-out games, and its gauntlet against the baseline."""

    def parameters(self, space: SearchSpace, values: dict) -> None:
        """The parameters of the bot the study keeps (the chosen one, else the best trial's)."""

    def before_after(self, chosen: ChosenRecord, gauntlet: dict, defaults_gauntlet: Optional[dict]) -> None:
        """The run's last lines: the start, the chosen bot and (`defaults_gauntlet`, when the start is another set
        of values) the bot's defaults on the same held-out seeds at the playing budget, and the run's time."""


def _quiet_optuna() -> None:
    optuna.logging.set_verbosity(optuna.logging.ERROR)  # our own lines replace Optuna's per-trial log
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    warnings.filterwarnings("ignore", category=FutureWarning, module="optuna")
    # Ask-and-tell runs its own heartbeats (`tuner.search.heartbeat`), which Optuna warns about.
    warnings.filterwarnings("ignore", message="Heartbeat of storage is supposed to be used with Study.optimize")
    logging.getLogger("joblib").setLevel(logging.ERROR)


def _study_records(config: StudyConfig, space) -> dict:
    seeds = {"seed": config.seed, "stream": "search", "pairs": config.pairs,
             "derivation": "tuner.play.seeds.game_seeds(seed, pairs, 'search'); each seed is played twice, "
                           "sides swapped"}
    if config.pairs <= SEEDS_RECORDED_MAX:
        seeds["seeds"] = game_seeds(config.seed, config.pairs, "search")
    return {
        "study_file": config.text, "study_file_path": str(config.path), "search_settings": config.search_settings(),
        "schema": space.schema.describe(), "baseline": space.baseline(), "search_seeds": seeds,
        "versions": versions(), "created": now_iso(),
    }


def _check_resume(config: StudyConfig, study, space) -> None:
    """A resumed study must be the same search: same settings, same parameter schema."""
    attrs = study.user_attrs
    if "search_settings" not in attrs:
        if study.get_trials(deepcopy=False):
            raise UserError(f"{config.path}: study {config.name!r} in {config.storage} was not created by "
                            f"`tuner tune` (no recorded settings); choose another 'name'")
        return
    check_same_search(config, study)
    if attrs.get("schema") != space.schema.describe():
        raise UserError(f"{config.path}: the parameters of bot {config.bot!r} changed since study {config.name!r} "
                        f"was created; change 'name' to start a new study")


def open_or_create_study(config: StudyConfig, storage, space, sampler, pruner=None):
    directions = ["maximize"] * (len(config.opponents) if config.multi_objective else 1)
    try:
        study = optuna.load_study(study_name=config.name, storage=storage, sampler=sampler, pruner=pruner)
        created = False
    except KeyError:
        try:
            study = optuna.create_study(study_name=config.name, storage=storage, sampler=sampler, pruner=pruner,
                                        directions=directions)
            created = True
        except optuna.exceptions.DuplicatedStudyError:  # another worker created it just now
            study = optuna.load_study(study_name=config.name, storage=storage, sampler=sampler, pruner=pruner)
            created = False
    if not created:
        _check_resume(config, study, space)
    if "search_settings" not in study.user_attrs:
        for key, value in _study_records(config, space).items():
            study.set_user_attr(key, value)
        if config.multi_objective:
            study.set_metric_names([f"win rate vs {entry}" for entry in config.opponents])
        else:
            study.set_metric_names(["win rate"])
    if not study.get_trials(deepcopy=False):
        baseline = space.baseline()
        study.enqueue_trial({d.name: baseline[d.name] for d in space.dimensions}, user_attrs={"baseline": True},
                            skip_if_exists=True)
    return study


def trial_bot(config: StudyConfig, values: dict, name: str) -> Bot:
    """The tuned bot with a full parameter set (the finals', the gauntlets' and the export's)."""
    return tuned_bot(config).bot(values, name, {"study": config.name})


def search_trial_bot(config: StudyConfig, values: dict, name: str) -> Bot:
    """The bot a trial plays in the search: the tuned bot, or its `search_bot` with the trial's values of that
    bot's parameters."""
    if config.search_bot is None:
        return trial_bot(config, values, name)
    own = {p.name: values[p.name] for p in schema_for(config.search_bot)}
    return bot_with_params(config.search_bot, own, name, {"study": config.name}, config.league)


BotOf = Callable[[dict, str], Bot]  # (a full parameter set, a name) -> the bot a trial plays


def finish(config: StudyConfig, runner: GameRunner, study, space, sampler, bot_of: BotOf,
           report: RunReport, shared: Shared = played_here) -> Optional[dict]:
    """The chosen bot (held-out games among the finalists) and its gauntlet against the baseline, reported; the
    chosen bot's held-out results (None when no bot was chosen). The games are `shared` with the study's other
    workers that end the search."""
    finished = count_trials(study)["COMPLETE"]
    chosen = read_chosen(study)
    if chosen is None or not chosen.is_current(finished, config.playing_budget, config.finals_confidence):
        chosen = choose(config, runner, study, space, sampler, bot_of, notify=report.message, shared=shared)
        if chosen is None:
            return None
        defaults = space.shipped_defaults() if config.baseline is not None else None  # the table's third column
        gauntlet, search_gauntlet = gauntlets(config, runner, study, chosen, space.baseline(), bot_of, shared,
                                              defaults=defaults)
        write_chosen(study, chosen.with_finished(finished))
    else:
        gauntlet = read_gauntlet(study)
        search_gauntlet = read_gauntlet(study, GAUNTLET_SEARCH_BUDGET) if config.playing_budget else None
    report.chosen(chosen, gauntlet, search_gauntlet)
    report.parameters(space, chosen.params)
    report.before_after(chosen, gauntlet,
                        read_gauntlet(study, GAUNTLET_DEFAULTS) if config.baseline is not None else None)
    return chosen.validation


def check_bots(config: StudyConfig, space, limits: TimeLimits) -> None:
    """Before any game: every `study:` bot of the study can be built (its study exists and has the trial), and
    every program (the tuned one, opponents) plays one game; UserError naming the field if one cannot. A finals'
    opponent that cannot be built would otherwise stop the run after the whole search. `cpp:` sources are built
    here, before any game (a source that does not compile stops the run with the compiler's message). The tuned
    program plays its game at the search's budget, judged by that budget's limits."""
    try:
        tuned = trial_bot(config, space.baseline(), "the tuned bot")
    except BotSpecError as error:  # its C++ source does not build
        raise UserError(f"{config.path}: field 'bot': {error}") from None
    programs = [("bot", tuned)] if not tuned.in_engine else []
    for field in ("opponents", "validation_opponents", "held_out_opponents"):
        for name in getattr(config, field):
            if name.startswith((STUDY_PREFIX, CPP_PREFIX)):
                try:
                    bot = study_bot(config, name)
                except BotSpecError as error:
                    raise UserError(f"{config.path}: field {field!r}: {error}") from None
            if name.startswith((PROGRAM_PREFIX, CPP_PREFIX)) and \
                    (field, name) not in [(f, b.name) for f, b in programs]:
                programs.append((field, bot if name.startswith(CPP_PREFIX) else study_bot(config, name)))
    for field, bot in programs:
        problem = probe_program(bot, config.league, limits)
        if problem is not None:
            raise UserError(f"{config.path}: field {field!r}: program {bot.command!r} cannot play: {problem}")


def _record_versions(study) -> str:
    """The key of this run's versions, recorded once in the study (`versions:KEY`)."""
    record = versions()
    key = versions_key(record)
    if f"versions:{key}" not in study.user_attrs:
        study.set_user_attr(f"versions:{key}", record)
    return key


def run_tune(config: StudyConfig, report: RunReport, trials: Optional[int] = None, timeout: Optional[float] = None,
             jobs: int = 1) -> RunSummary:
    _quiet_optuna()
    space = SearchSpace.for_config(config)
    limits = TimeLimits(config.first_timeout, config.turn_timeout)
    check_bots(config, space, limits)
    where = f"{config.path}: {config.storage_source}"
    outage = Outage(config.outage_limit, report.message, "journal" if config.storage_url.scheme == "journal"
                    else "database")
    storage = open_storage(config.storage, where, heartbeat=Heartbeat(config.heartbeat_interval, config.grace_period),
                           new_journal=config.journal_format, outage=outage)
    sampler = build_sampler(config, space)
    lock = study_lock(config.storage_url, storage, config.name)
    # One worker creates the study and enqueues the baseline.
    study = under_lock(lock, lambda: open_or_create_study(config, storage, space, sampler))
    artifact_store = open_artifact_store(config.artifacts)
    done = count_trials(study)["COMPLETE"]
    if trials is None and config.trials is not None:
        to_run = max(0, config.trials - done)
    else:
        to_run = trials
    report.opened(done, to_run)
    bot_of = partial(trial_bot, config)
    runner = GameRunner(config.league, jobs, limits)
    summary = RunSummary()
    try:
        if to_run != 0:
            plan = Plan(target=config.trials if trials is None else None, count=trials, timeout=timeout)
            summary.interrupted = _search(config, study, storage, lock, artifact_store, space, runner, plan, to_run,
                                          bot_of, report, outage)
        best = best_trial(study, config)
        report.best(best)
        if best is None:
            return summary
        summary.best_number = best.number
        if summary.interrupted:
            report.choice_skipped()
        elif config.finals_pairs > 0:
            shared = partial(share, study, lock, interval=config.heartbeat_interval, grace=config.grace_period,
                             notify=report.message, outage=outage)
            summary.validation = finish(config, runner, study, space, sampler, bot_of, report, shared)
        else:
            report.parameters(space, trial_params(config, best))
        return summary
    finally:
        runner.close()
        _leave_snapshot(storage)


def _search(config: StudyConfig, study, storage, lock, artifact_store, space: SearchSpace, runner: GameRunner,
            plan: Plan, to_run: Optional[int], bot_of: BotOf, report: RunReport, outage: Outage) -> bool:
    """Run the search's trials on this worker until the plan is done; whether it was interrupted."""
    limits = runner.limits
    runner.warm_up()
    warm_up_replays(config.league, limits)
    seeds = np.array(game_seeds(config.seed, config.pairs, "search"), dtype=np.int64)
    storage_text = shown_storage(config)
    tuned = tuned_bot(config)
    baseline = bot_of(space.baseline(), "baseline")

    def on_new_best(trial, values: dict, record: TrialRecord, value: float) -> None:
        report.new_best(trial.number, value, record)
        t = record.tally
        bot = tuned.bot(values, f"study:{config.path}#{trial.number}", {"study": config.name, "trial": trial.number})
        origin = origin_lines(config, storage_text, trial.number, t.win_rate, t.win_rate_ci, t.games, None)
        problems = upload_new_best(artifact_store, trial, bot, baseline, config.league,
                                   export_header(config.league, origin, "`tuner tune`, new best trial"),
                                   config.name, int(seeds[0]), limits)
        if problems:
            trial.set_user_attr("artifact_error", "; ".join(problems))
            report.artifacts_failed(trial.number, problems)

    search_bot_of = partial(search_trial_bot, config)  # the search's games: the tuned bot or its search_bot
    pool = OpponentPool(config, search_bot_of(space.baseline(), "baseline"), search_bot_of)
    stop = StopFlag(notify=report.message)
    outage.stopping = lambda: stop.requested  # Ctrl-C during an outage stops at once (its trials are retried)
    player = BatchPlayer(config, pool, runner, stop, seeds, search_bot_of, _record_versions(study),
                         on_new_best=on_new_best, notify=report.message)
    loop = WorkerLoop(study, storage, lock, player, stop, space.distributions, space.full,
                      population_size(config, len(space)), config.heartbeat_interval, notify=report.message,
                      on_outcomes=lambda outcomes: [report.trial_finished(o) for o in outcomes])
    interrupted = False
    with report.searching(runner, to_run, best_trial(study, config)):
        stop.install()
        try:
            loop.run(plan)
        except (Interrupted, KeyboardInterrupt):
            interrupted = True
        finally:
            interrupted = interrupted or stop.requested
            stop.restore()
    report.searched(interrupted, count_trials(study)["COMPLETE"])
    return interrupted


def _leave_snapshot(storage) -> None:
    """A snapshot of a compact journal at its end, so that the commands that follow (export, report, the next
    run) replay nothing. A cache: it never fails the run (an unwritable cache, or a journal another program
    damaged meanwhile, which the next command reports)."""
    try:
        save_snapshot(storage)
    except (OSError, UserError):
        pass
