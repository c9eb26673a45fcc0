"""What a new best trial leaves in the study's artifact store, for optuna-dashboard to list and offer for download:
its bot as a file to paste into CodinGame (an exportable in-engine bot) or its parameter file (a program, or a bot
that cannot be exported, such as the search bots), and one game of it against the baseline as a replay page
(`tuner.view.render_replay`) to watch in a browser.

These are by-products: a failure is recorded on the trial (`artifact_error`) and the study goes on.
"""
from __future__ import annotations

import json

from bots.contract.names import parse_bot
from bots.registry import plugin
from bots.running.player import player_for
from engine.players import TimeLimits
from engine.referee import play_refereed_game
from export.exportable import ExportError
from export.python.bot_file import bot_source
from tuner.storage import artifact_file_name, upload_text
from tuner.view import render_replay

PYTHON, JSON, HTML = "text/x-python", "application/json", "text/html"


def upload_new_best(store, trial, bot, baseline, league: int, header: list, study_name: str, seed: int,
                    limits: TimeLimits) -> list[str]:
    """Upload a new best trial's files; returns what could not be made (one line each)."""
    problems = []
    base = artifact_file_name(study_name, trial.number)[: -len(".py")]
    try:
        if bot.in_engine and plugin(bot.plugin).exports_in("python"):
            upload_text(store, trial, f"{base}.py", bot_source(bot, league, header), PYTHON)
        else:
            upload_text(store, trial, f"{base}.json", json.dumps({"params": bot.params}, indent=2) + "\n", JSON)
    except (ExportError, OSError) as error:
        problems.append(f"its bot file could not be written ({error})")
    try:
        report = play_refereed_game(seed, league, [player_for(bot), player_for(baseline)], limits)
        title = f"{study_name}: trial {trial.number} vs the baseline, seed {seed}"
        upload_text(store, trial, f"{base}-vs-baseline.html", render_replay(report.records, title), HTML)
    except Exception as error:  # a by-product: a program that cannot play a game is reported, not raised
        problems.append(f"its replay page could not be made ({type(error).__name__}: {error})".splitlines()[0])
    return problems


def warm_up_replays(league: int, limits: TimeLimits) -> None:
    """Compile (or load from the cache) what a new best's replay game runs: the referee's game with its records,
    between in-engine bots. The first new best comes right after the study's first trial: compiled then, in a
    fresh install, it would hold the search up for about half a minute, its progress frozen."""
    greedy = parse_bot("greedy", league)
    play_refereed_game(1, league, [player_for(greedy), player_for(greedy)], limits)
