"""What an exported bot file says about where it came from: the study, the trial, its win rates, the date."""
from __future__ import annotations

from typing import Optional

from engine.leagues import league as league_info
from export.cpp.build import codingame_build
from export.languages import FIRST_TURN_FACTOR
from tuner.results.chosen import chosen_gauntlet
from tuner.results.picks import Pick, load_pick, validation_key
from tuner.results.records import TrialRecord
from tuner.storage import describe_storage
from tuner.studyfile.file import StudyConfig
from tuner.studyfile.program_budget import budget_record
from tuner.studyfile.tunable import tuned_bot
from tuner.versions import package_version


def origin_lines(config: StudyConfig, storage_text: str, number: int, win_rate: float, ci, games: int,
                 validation: Optional[dict], date: Optional[str] = None, pruned: bool = False) -> list:
    """Where an exported bot came from, for the docstring of its file."""
    lines = [f"Study: {config.name} ({config.path.name}), storage {storage_text}",
             f"Trial: {number}" + (" (pruned: its games stopped early)" if pruned else "")
             + (f", {date}" if date else ""),
             f"Search: win rate {win_rate:.1%} (95% CI {ci[0]:.1%} - {ci[1]:.1%}) over {games} games against "
             f"{', '.join(config.opponents)}"]
    if validation:
        overall = validation["overall"]
        lo, hi = overall["win_rate_ci"]
        lines.append(f"Validation: win rate {overall['win_rate']:.1%} (95% CI {lo:.1%} - {hi:.1%}) over "
                     f"{overall['games']} held-out games against {', '.join(validation['per_opponent'])} "
                     f"({validation.get('date', 'date unknown')})")
    else:
        lines.append("Validation: not measured yet (`tuner tune` measures it at the end of a run)")
    return lines


def shown_storage(config: StudyConfig) -> str:
    """The storage as an exported file names it: a file's name only (no path of this machine), a URL without
    its password."""
    url = config.storage_url
    return url.file.name if url.file is not None else describe_storage(config.storage)


def export_header(league: int, origin: list, how: str = "`tuner export`", lang: str = "python",
                  time_ms: Optional[int] = None) -> list:
    """The docstring lines of an exported bot file: what it is, where it came from, how to use it."""
    lines = [f"Photosynthesis bot for CodinGame (Spring Challenge 2021), league {league} "
             f"({league_info(league).name}).",
             f"Exported by photosynthesis-tuner {package_version()} ({how}).", *origin]
    if lang == "cpp":
        if time_ms is not None:
            lines.append(f"Search budget: {time_ms} ms of wall-clock time a move ({FIRST_TURN_FACTOR * time_ms} ms on "
                         f"the first turn), instead of its fixed budget.")
        return lines + ["Paste this whole file into the CodinGame IDE (language: C++). C++17, standard library only.",
                        "Build it as CodinGame does (no -O flag: the file carries its optimisation): "
                        + " ".join(codingame_build("bot.cpp", "bot"))]
    return lines + ["Paste this whole file into the CodinGame IDE (language: Python 3). Standard library only."]


def export_source_from_study(config: StudyConfig, trial: Optional[int], league: Optional[int]):
    """(bot, league, origin lines) for `tuner export STUDY.toml [--trial N]`."""
    study, chosen = load_pick(config, trial)
    bot = _bot(config, chosen)
    storage_text = shown_storage(config)
    if chosen.trial is not None:
        record = TrialRecord.from_trial(chosen.trial)
        t = record.tally
        validation = study.user_attrs.get(validation_key(chosen.number))
        origin = origin_lines(config, storage_text, chosen.number, t.win_rate, t.win_rate_ci, t.games, validation,
                              record.date, record.pruned)
    else:
        origin = [f"Study: {config.name} ({config.path.name}), storage {storage_text}", f"Bot: {chosen.label}"]
    if chosen.chosen is not None:
        origin.append(f"Chosen: {chosen.chosen.how} ({chosen.chosen.date or 'date unknown'})")
        gauntlet = chosen_gauntlet(study, chosen.chosen)
        if gauntlet is not None:
            origin.append(f"Gauntlet against the baseline (trial 0), {2 * gauntlet.pairs} held-out games per "
                          f"opponent:")
            origin += ["  " + line for line in gauntlet.table()]
    chosen_league = league or config.league
    if chosen_league != config.league:
        origin.append(f"Tuned in league {config.league}, exported for league {chosen_league}.")
    return bot, chosen_league, origin


def _bot(config: StudyConfig, chosen: Pick):
    pruned = chosen.trial is not None and bool(chosen.trial.user_attrs.get("pruned"))
    return tuned_bot(config).bot(chosen.params, f"study:{config.path}" + (f"#{chosen.number}"
                                                                            if chosen.number is not None else ""),
                                 {"study": config.name, "trial": chosen.number, "label": chosen.label,
                                  "pruned": pruned})


def _trial_source(config: StudyConfig, study, trial, exported: Optional[str] = None) -> dict:
    """Where a trial's values came from, as JSON: the study, the trial, its win rates, the dates."""
    record = TrialRecord.from_trial(trial)
    t = record.tally
    source = {"study": config.name, "study_file": config.path.name, "storage": describe_storage(config.storage),
              "trial": trial.number, "date": record.date, "league": config.league,
              "opponents": list(config.opponents), "win_rate": t.win_rate, "win_rate_ci": list(t.win_rate_ci),
              "games": t.games, "pruned": record.pruned}
    validation = study.user_attrs.get(validation_key(trial.number))
    if validation:
        source["validation"] = validation["overall"]
    if exported:
        source["exported"] = exported
    return source


def trial_values(config: StudyConfig, trial: Optional[int], exported: Optional[str] = None):
    """(every parameter's value, where they came from) of a study's chosen bot, or of trial `trial`: what
    `tuner export STUDY.toml --template SOURCE` fills in and `-o FILE.json` writes for a program bot. The values
    are the ones to submit: a trial's at the playing budget (`[playing_budget]`: a program's `time_ms` at 90, not at the
    search's 5), which `source["budget"]` states with its limits."""
    study, chosen = load_pick(config, trial)
    source = _trial_source(config, study, chosen.trial, exported) if chosen.trial is not None else \
        {"study": config.name, "study_file": config.path.name, "label": chosen.label, "exported": exported}
    if chosen.chosen is not None:
        source["chosen"] = {"label": chosen.label, "how": chosen.chosen.how,
                            "validation": chosen.chosen.validation["overall"]}
    # A program's values without its bot: the export builds no program.
    values = config.at_playing_budget(config.program.values(chosen.params)) if config.program is not None else \
        dict(_bot(config, chosen).params or {})
    budget = budget_record(config, values)
    if budget:
        source["budget"] = budget
    return values, source
