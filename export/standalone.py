"""Export an in-engine bot as one standalone file to paste into CodinGame, in Python (`export/python/`) or C++
(`export/cpp/`): the language's checks, CodinGame's size limit and the file written."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from bots.contract.names import Bot
from bots.contract.searches import asks_within_budget
from bots.contract.seat import SEAT_DTYPE, seat_dtype
from bots.registry import REGISTERED, plugin
from engine.files import write_atomically
from export.cpp.bot_file import cpp_source
from export.exportable import ExportError, exportable_for, parameter_values
from export.languages import LANGUAGES
from export.python.bot_file import bot_source

CODINGAME_LIMIT = 100_000


def export_source(bot: Bot, league: int, header_lines: list, lang: str = "python",
                  time_ms: Optional[int] = None) -> str:
    """The text of the standalone file for `bot` in `lang`; `time_ms`: a search bot's wall-clock budget per move
    (C++ only), instead of the fixed budget of its parameters."""
    if lang not in LANGUAGES:
        raise ExportError(f"no export to {lang!r} (languages: {', '.join(LANGUAGES)})")
    if time_ms is not None and lang != "cpp":
        raise ExportError("--time-ms applies to the C++ export (--lang cpp): a Python search would not fit "
                          "CodinGame's 100 ms a turn")
    if lang == "python":
        return bot_source(bot, league, header_lines)
    found = exportable_for(bot, lang)
    if time_ms is not None:
        if time_ms <= 0:
            raise ExportError(f"--time-ms must be a positive number of milliseconds, got {time_ms}")
        if not asks_within_budget(found.policy):
            searching = [name for name in REGISTERED if plugin(name).exports_in("cpp")
                         and asks_within_budget(plugin(name).policy)]
            raise ExportError(f"bot {bot.name!r} has no budget of work per move to spend as time (its policy never "
                              f"asks within_budget): --time-ms applies to {', '.join(searching)}")
    names, values = parameter_values(bot, found)
    seat = SEAT_DTYPE
    if time_ms is not None:
        timed = clock_values(found, names, values, league)
        values = [float(timed.get(name, value)) for name, value in zip(names, values)]
        seat = seat_dtype(**found.timed.seat)
        header_lines = header_lines + timed_header(found, timed)
    options = dict(seat=seat, stats=found.stats, bot=found.name)
    text = cpp_source(found.policy, names, values, league, header_lines, time_ms, **options)
    if len(text) >= CODINGAME_LIMIT:
        text = cpp_source(found.policy, names, values, league, header_lines, time_ms, comments=False, **options)
    return text


def clock_values(found, names: list, values: list, league: int) -> dict:
    """The values the plug-in sets for a move ended by the clock (`TimedExport.params`), for those of the bot's
    parameters still at their defaults: a study's or a parameter file's own value is kept."""
    defaults = found.defaults(league)
    own = dict(zip(names, values))
    return {name: value for name, value in found.timed.params.items() if own[name] == float(defaults[name])}


def timed_header(found, timed: dict) -> list:
    """The header's lines on what a timed export changes: its seat's arrays, the parameters set for the clock."""
    lines = []
    if found.timed.seat:
        sizes = ", ".join(f"{name} {size:,}" for name, size in found.timed.seat.items())
        lines.append(f"Its seat's arrays are sized for the time it has (the engine's are smaller): {sizes}.")
    if timed:
        changed = ", ".join(f"{name} = {value:g}" for name, value in timed.items())
        lines.append(f"Parameters set for a move ended by the clock, in place of their defaults: {changed}.")
    return lines


def export_bot(bot: Bot, league: int, path: Path, header_lines: list, lang: str = "python",
               time_ms: Optional[int] = None) -> str:
    """Write the standalone file (atomically; a Python file executable) and return its text."""
    text = export_source(bot, league, header_lines, lang, time_ms)
    if len(text) >= CODINGAME_LIMIT:
        raise ExportError(f"the exported file has {len(text)} characters; CodinGame accepts fewer than "
                          f"{CODINGAME_LIMIT}")
    try:
        write_atomically(Path(path), text, mode=0o755 if lang == "python" else 0o644)
    except OSError as error:
        raise ExportError(f"cannot write {path}: {error.strerror or error}") from None
    return text
