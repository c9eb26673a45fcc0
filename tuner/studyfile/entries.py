"""Bot names as a study file writes them: `hall-of-fame:K` (the pool's best earlier trials), `study:STUDY.toml[#N]`,
each name checked without opening any study, and files in names made relative to the study file's folder."""
from __future__ import annotations

import shlex
from pathlib import Path

from bots.contract.names import PROGRAM_PREFIX, BotSpecError, parse_bot
from tuner.programs import CPP_PREFIX, CPP_SUFFIXES
from tuner.studyfile.problems import FieldProblem

HALL_OF_FAME = "hall-of-fame"
STUDY_PREFIX = "study:"


def hall_of_fame_entry(entry: str, pool: bool, earlier: list) -> str:
    """A pool's `hall-of-fame:K` entry, checked: in 'opponents' only, K in [1, 50], once."""
    if not pool:
        raise FieldProblem(f"{entry!r} is allowed in 'opponents' only")
    kind, sep, k = entry.partition(":")
    if kind != HALL_OF_FAME or not sep or not k.isdigit() or not 1 <= int(k) <= 50:
        raise FieldProblem(f"{entry!r} must be hall-of-fame:K with K in [1, 50]")
    if any(o.startswith(HALL_OF_FAME) for o in earlier):
        raise FieldProblem("give hall-of-fame:K once")
    return f"{HALL_OF_FAME}:{int(k)}"


def check_bot_name(name: str, league: int):
    """The bot a study file's name describes, checked without opening any study or building any program: None for
    `study:` names (their file must exist; the study is opened when the run starts) and `cpp:` names (their source
    must exist; it is built when the run starts)."""
    if name.startswith(CPP_PREFIX):
        words = _words(name, CPP_PREFIX)
        if not words or not words[0].lower().endswith(CPP_SUFFIXES):
            raise BotSpecError(f"bot {name!r}: expected {CPP_PREFIX}SOURCE.cpp [arguments] (a C++ source the tuner "
                               f"builds: {', '.join(CPP_SUFFIXES)})")
        if not Path(words[0]).is_file():
            raise BotSpecError(f"bot {name!r}: no such C++ source {words[0]}")
        return None
    if name.startswith(STUDY_PREFIX):
        target = name[len(STUDY_PREFIX):].rpartition("#")[0] if "#" in name else name[len(STUDY_PREFIX):]
        if not target:
            raise BotSpecError(f"bot {name!r}: expected study:STUDY.toml or study:STUDY.toml#TRIAL")
        if not Path(target).is_file():
            raise BotSpecError(f"bot {name!r}: no such study file {target}")
        return None
    return parse_bot(name, league, extra_known=(f"{STUDY_PREFIX}STUDY.toml[#N]",
                                                f"{CPP_PREFIX}SOURCE.cpp [arguments]"))


def _words(name: str, prefix: str) -> list:
    try:
        return shlex.split(name[len(prefix):])
    except ValueError as error:
        raise BotSpecError(f"bot {name!r}: cannot split the command line into words ({error})") from None


def relative_bot(name: str, folder: Path) -> str:
    """Files in bot names (`heuristic:FILE.json`, `study:OTHER.toml`, a program's own path in `cmd:...`) are
    relative to the study file's folder."""
    for prefix in (PROGRAM_PREFIX, CPP_PREFIX):
        if name.startswith(prefix):
            from tuner.programs.program import program_paths_relative_to  # pydantic: loaded for a program's name only

            command = name[len(prefix):].strip()
            return prefix + program_paths_relative_to(command, folder, prefix == CPP_PREFIX) if command else name
    kind, sep, arg = name.partition(":")
    if sep and arg and name + ":" != PROGRAM_PREFIX and kind + ":" not in (PROGRAM_PREFIX, CPP_PREFIX) and \
            (kind + ":" == STUDY_PREFIX or arg.endswith(".json")):
        target, hash_, trial = arg.partition("#")
        if not Path(target).is_absolute():
            candidate = folder / target
            if candidate.exists() or not Path(target).exists():
                return f"{kind}:{candidate}{hash_}{trial}"
    return name

