"""`tuner tune`: create or resume a study, run its trials, print the best and validate it on held-out seeds.

A study resumes when the same name is found in the same storage; its search settings (bot, league, seed,
pairs, opponents, sampler, pruner, search space) and the bot's parameter schema must be unchanged, else the
run stops before any trial with a line naming the first difference. `trials` counts the study's finished
trials (on resume too); `--trials N` runs N more whatever the count.

The first trial of a new study is the baseline, the schema defaults (enqueued), and CMA-ES starts its search
there (its initial mean). Each `tuner tune` process is a worker on the storage (`tuner.search.workers`): several,
on one machine or several, share a study and end it with exactly its `trials` COMPLETE trials; a worker that
dies or is stopped leaves its trials to be run again (heartbeats, `tuner.storage.retry`). A worker plays a batch
of trials at a time (a generation, raced on common seeds: `tuner.search.generation`).
"""
from __future__ import annotations

import json
import logging
import warnings
from dataclasses import dataclass
from typing import Optional

import numpy as np
import optuna

from bots.contract.names import PROGRAM_PREFIX, Bot
from bots.contract.paramfile import now_iso
from bots.registry import plugin
from engine.players import TimeLimits
from tuner.errors import UserError
from tuner.measure.gauntlet import Gauntlet
from tuner.measure.probe import probe_program
from tuner.measure.runner import GameRunner
from tuner.measure.seeds import game_seeds
from tuner.search.best_artifacts import upload_new_best, warm_up_replays
from tuner.search.finals import choose, final_gauntlet
from tuner.search.generation import BatchPlayer
from tuner.search.interrupt import Interrupted, StopFlag
from tuner.search.opponent_pool import OpponentPool
from tuner.search.samplers import build_sampler, population_size
from tuner.search.tune_progress import Progress
from tuner.search.workers import Plan, WorkerLoop, count_trials
from tuner.storage import Heartbeat, describe_storage, open_artifact_store, open_storage, save_snapshot, study_lock
from tuner.study.botnames import study_bot
from tuner.study.bots import best_trial, trial_params
from tuner.study.export_origin import export_header, origin_lines, shown_storage
from tuner.study.file import SETTING_BEFORE_IT_EXISTED, StudyConfig
from tuner.study.records import TrialRecord
from tuner.study.space import SearchSpace
from tuner.study.tunable import tuned_bot
from tuner.versions import versions, versions_key

SEEDS_RECORDED_MAX = 20_000  # record the search seeds themselves up to this many pairs (always their derivation)


@dataclass
class RunSummary:
    trials: int
    pruned: int
    seconds: float
    games: int
    interrupted: bool
    best_number: Optional[int]
    validation: Optional[dict]


def _quiet_optuna() -> None:
    optuna.logging.set_verbosity(optuna.logging.ERROR)  # our own lines replace Optuna's per-trial log
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    warnings.filterwarnings("ignore", category=FutureWarning, module="optuna")
    # Ask-and-tell runs its own heartbeats (`tuner.search.heartbeat`), which Optuna warns about.
    warnings.filterwarnings("ignore", message="Heartbeat of storage is supposed to be used with Study.optimize")
    logging.getLogger("joblib").setLevel(logging.ERROR)


def _study_records(config: StudyConfig, space) -> dict:
    seeds = {"seed": config.seed, "stream": "search", "pairs": config.pairs,
             "derivation": "tuner.measure.seeds.game_seeds(seed, pairs, 'search'); each seed is played twice, "
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
    recorded = attrs["search_settings"]
    current = config.search_settings()
    for key in current:
        was = recorded.get(key, SETTING_BEFORE_IT_EXISTED.get(key))
        if was != current[key]:
            raise UserError(f"{config.path}: field {key!r} is {json.dumps(current[key])} but study {config.name!r} "
                            f"was created with {json.dumps(was)}; a study resumes only with the same "
                            f"search settings (restore the field, or change 'name' to start a new study)")
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
    """The bot a trial plays with its full parameter set."""
    return tuned_bot(config).bot(values, name, {"study": config.name})


def _fmt_ci(rate: float, ci) -> str:
    return f"{rate:.1%} (95% CI {ci[0]:.1%} - {ci[1]:.1%})"


def print_best(config: StudyConfig, trial) -> None:
    record = TrialRecord.from_trial(trial)
    t = record.tally
    print(f"best trial of the search: {trial.number} of study {config.name!r}"
          + (" (the baseline: the parameters' defaults, with the study's overrides)" if trial.user_attrs.get("baseline")
             else ""))
    print(f"  search: win rate {_fmt_ci(t.win_rate, t.win_rate_ci)} over {t.games} games "
          f"(Elo {t.elo:+.0f}, mean margin {t.mean_margin:+.2f})")
    for name, result in record.opponents.items():
        print(f"    vs {name}: {result.win_rate:.1%}")


def print_parameters(space, values: dict) -> None:
    base = space.baseline()
    changed = [(p.name, base[p.name], values[p.name]) for p in space.schema if values[p.name] != base[p.name]]
    print(f"  parameters: {len(changed)} of {len(space.schema)} differ from the baseline"
          + (":" if changed else ""))
    for name, old, new in changed:
        fmt = (lambda v: f"{v:g}") if isinstance(new, float) else str
        print(f"    {name}: {fmt(old)} -> {fmt(new)}")


def print_export_hint(config: StudyConfig) -> None:
    if config.program is not None:
        print(f"export it: tuner export {config.path} -o {config.path.stem}-best.json  (or --template SOURCE -o OUT)")
    else:
        suffix = ".py" if plugin(config.bot).exports_in("python") else ".cpp"
        print(f"export it: tuner export {config.path} -o bots/tuned/{config.path.stem}{suffix}")


def finish(config: StudyConfig, runner: GameRunner, study, space, sampler) -> Optional[dict]:
    """The chosen bot (held-out games among the finalists) and its gauntlet against the baseline; printed."""
    finished = count_trials(study)["COMPLETE"]
    recorded = study.user_attrs.get("chosen")
    if recorded is None or recorded.get("finished") != finished:
        def bot_of(values: dict, name: str) -> Bot:
            return trial_bot(config, values, name)

        chosen = choose(config, runner, study, space, sampler, bot_of)
        if chosen is None:
            return None
        gauntlet = final_gauntlet(config, runner, study, chosen, space.baseline(), bot_of).to_json()
        study.set_user_attr("chosen", {**chosen, "finished": finished})
    else:
        chosen, gauntlet = recorded, study.user_attrs["gauntlet"]
    print_choice(config, chosen, gauntlet)
    print_parameters(space, chosen["params"])
    return chosen["validation"]


def print_choice(config: StudyConfig, chosen: dict, gauntlet: dict) -> None:
    overall = chosen["validation"]["overall"]
    scored = all("score" in f for f in chosen["finalists"])  # choices recorded before scores: win rates
    print(f"chosen for export: {chosen['label']}, win rate {_fmt_ci(overall['win_rate'], overall['win_rate_ci'])} "
          f"over {overall['games']} held-out games ({len(chosen['finalists'])} finalists, "
          + ("score over the baseline: " if scored else "win rate: ")
          + ", ".join(f"{f['label']} " + (f"{f['score']:+.1%}" if scored else f"{f['win_rate']:.1%}")
                      for f in chosen["finalists"]) + ")")
    print(f"gauntlet on fresh held-out seeds, {gauntlet['games_per_opponent']} games per opponent: "
          f"{chosen['label']} against the baseline (trial 0)")
    for line in Gauntlet.from_json(gauntlet).table():
        print("  " + line)
    if gauntlet["regressions"]:
        print(f"warning: the chosen bot is significantly worse than the baseline against "
              f"{', '.join(gauntlet['regressions'])}")


def check_programs(config: StudyConfig, space, limits: TimeLimits) -> None:
    """Every program of the study (the tuned one, opponents) plays one game first; UserError if one cannot."""
    tuned = trial_bot(config, space.baseline(), "the tuned bot")
    programs = [("bot", tuned)] if not tuned.in_engine else []
    for field in ("opponents", "validation_opponents", "held_out_opponents"):
        for name in getattr(config, field):
            if name.startswith(PROGRAM_PREFIX) and (field, name) not in [(f, b.name) for f, b in programs]:
                programs.append((field, study_bot(config, name)))
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


def run_tune(config: StudyConfig, trials: Optional[int] = None, timeout: Optional[float] = None, jobs: int = 1,
             progress: Optional[bool] = None) -> RunSummary:
    _quiet_optuna()
    space = SearchSpace.for_config(config)
    limits = TimeLimits(config.first_timeout, config.turn_timeout)
    check_programs(config, space, limits)
    where = f"{config.path}: {config.storage_source}"
    storage = open_storage(config.storage, where, heartbeat=Heartbeat(config.heartbeat_interval, config.grace_period))
    sampler = build_sampler(config, space)
    lock = study_lock(config.storage_url, storage, config.name)
    with lock:  # one worker creates the study and enqueues the baseline
        study = open_or_create_study(config, storage, space, sampler)
    artifact_store = open_artifact_store(config.artifacts)

    done = count_trials(study)["COMPLETE"]
    if trials is None and config.trials is not None:
        to_run = max(0, config.trials - done)
    else:
        to_run = trials
    plan = Plan(target=config.trials if trials is None else None, count=trials, timeout=timeout)
    print(f"study {config.name!r} in {describe_storage(config.storage)}: {done} finished trials"
          + (f", running {to_run} more" if to_run is not None else "")
          + (f" (time budget {timeout:g}s)" if timeout is not None else ""))

    runner = GameRunner(config.league, jobs, limits)
    seeds = np.array(game_seeds(config.seed, config.pairs, "search"), dtype=np.int64)
    summary = RunSummary(0, 0, 0.0, 0, False, None, None)
    try:
        if to_run == 0:
            if config.trials is not None and trials is None:
                print(f"the study has its {config.trials} trials (raise 'trials', or pass --trials N to run more)")
        else:
            runner.warm_up()
            warm_up_replays(config.league, limits)
            population = population_size(config, len(space))

            def bot_of(values: dict, name: str) -> Bot:
                return trial_bot(config, values, name)

            pool = OpponentPool(config, bot_of(space.baseline(), "baseline"), bot_of)
            current_best = best_trial(study, config)
            gains = config.objectives == "min-gain"
            bar = Progress(config.name, to_run, runner, progress,
                           best=None if current_best is None else
                           current_best.value if gains else current_best.user_attrs.get("win_rate"),
                           best_number=None if current_best is None else current_best.number,
                           value_name="min gain" if gains else "win rate")
            stop = StopFlag(notify=bar.write)
            storage_text = shown_storage(config)

            tuned = tuned_bot(config)
            baseline_bot = tuned.bot(space.baseline(), "baseline")

            def on_new_best(trial, values: dict, record: TrialRecord, value: float) -> None:
                t = record.tally
                bar.write(f"trial {trial.number}: new best, "
                          + (f"min gain {value:+.1%} over the baseline, " if gains else "")
                          + f"win rate {_fmt_ci(t.win_rate, t.win_rate_ci)} over {t.games} games")
                bot = tuned.bot(values, f"study:{config.path}#{trial.number}",
                                {"study": config.name, "trial": trial.number})
                origin = origin_lines(config, storage_text, trial.number, t.win_rate, t.win_rate_ci, t.games, None)
                problems = upload_new_best(artifact_store, trial, bot, baseline_bot, config.league,
                                           export_header(config.league, origin, "`tuner tune`, new best trial"),
                                           config.name, int(seeds[0]), limits)
                if problems:
                    trial.set_user_attr("artifact_error", "; ".join(problems))
                    for problem in problems:
                        bar.write(f"trial {trial.number}: {problem}; the study goes on")

            player = BatchPlayer(config, pool, runner, stop, seeds, bot_of, _record_versions(study),
                                 on_new_best=on_new_best, notify=bar.write)
            loop = WorkerLoop(study, storage, lock, player, stop, space.distributions, space.full, population,
                              config.heartbeat_interval, notify=bar.write,
                              on_outcomes=lambda outcomes: [bar.trial_finished(o) for o in outcomes])
            stop.install()
            try:
                loop.run(plan)
            except (Interrupted, KeyboardInterrupt):
                summary.interrupted = True
            finally:
                summary.interrupted = summary.interrupted or stop.requested
                stop.restore()
                bar.close()
            summary.trials, summary.pruned, summary.seconds, summary.games = (bar.done, bar.pruned, bar.seconds,
                                                                              bar.games)
            print(f"{'interrupted' if summary.interrupted else 'done'}: {bar.done} trials ({bar.pruned} pruned) in "
                  f"{bar.seconds:.0f}s, {bar.games:,} games ({bar.games_per_second():,.0f} games/s; "
                  f"{bar.where_games_ran()}); the study has "
                  f"{count_trials(study)['COMPLETE']} finished trials")
        best = best_trial(study, config)
        if best is None:
            print("no finished trial yet")
            return summary
        summary.best_number = best.number
        print_best(config, best)
        if summary.interrupted:
            print("choice and gauntlet skipped (interrupted); run the same command again to resume the study")
        elif config.validation_pairs > 0:
            summary.validation = finish(config, runner, study, space, sampler)
        else:
            print_parameters(space, trial_params(config, best))
        print_export_hint(config)
        return summary
    finally:
        runner.close()
        _leave_snapshot(storage)


def _leave_snapshot(storage) -> None:
    """A snapshot of a compact journal at its end, so that the commands that follow (export, report, the next
    run) replay nothing. A cache: it never fails the run (an unwritable cache, or a journal another program
    damaged meanwhile, which the next command reports)."""
    try:
        save_snapshot(storage)
    except (OSError, UserError):
        pass
