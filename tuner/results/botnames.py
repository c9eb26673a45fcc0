"""Bot names in the tuner: every name of `bots.contract.names`, `study:STUDY.toml[#N]`, the best trial (or trial
N) of a tuning study, and `cpp:SOURCE.cpp [arguments]`, a C++ source built as CodinGame builds it
(`tuner.programs.program_build`). In a study file, files in names (`heuristic:FILE.json`, `study:OTHER.toml`,
a program's path) are relative to it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from bots.contract.names import Bot, parse_bot
from tuner.studyfile.entries import CPP_PREFIX, STUDY_PREFIX, relative_bot

if TYPE_CHECKING:
    from tuner.studyfile.config import StudyConfig

STUDY_NAMES = f"{STUDY_PREFIX}STUDY.toml[#N]"
CPP_NAMES = f"{CPP_PREFIX}SOURCE.cpp [arguments]"


def parse_bot_name(text: str, league: int = 3) -> Bot:
    """The bot a name describes (BotSpecError with one line when it cannot be built; a `cpp:` source is built
    here)."""
    text = text.strip()
    if text.startswith(STUDY_PREFIX):
        from tuner.results.picks import bot_from_study  # Optuna and the storages: loaded for a study's bot only

        return bot_from_study(text, text[len(STUDY_PREFIX):], league)
    if text.startswith(CPP_PREFIX):
        from tuner.programs.program_build import cpp_bot

        return cpp_bot(text)
    return parse_bot(text, league, extra_known=(STUDY_NAMES, CPP_NAMES))


def study_bot(config: StudyConfig, name: str) -> Bot:
    """A bot named in a study file (its files relative to the study file), for the study's league: built the first
    time it is asked for, the same bot after."""
    if name not in config.bots:
        config.bots[name] = parse_bot_name(relative_bot(name, config.path.parent), config.league)
    return config.bots[name]
