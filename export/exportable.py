"""Which bots export, and in which language: `exportable_for` gives the plug-in of a bot that exports in a
language, or says why it does not (`ExportError`), and `parameter_values` its parameters in schema order."""
from __future__ import annotations

from bots.contract.names import Bot
from bots.registry import REGISTERED, plugin
from export.languages import LANGUAGES


class ExportError(ValueError):
    """A bot that cannot be exported, or a file that cannot be written."""


def exportable_for(bot: Bot, lang: str = "python"):
    """The plug-in of a bot exportable in `lang`, or ExportError saying which bots are."""
    if not bot.in_engine:
        raise ExportError(f"bot {bot.name!r} is a program, not an in-engine bot: nothing to export")
    if bot.jitter:
        raise ExportError(f"bot {bot.name!r} is a distribution of bots (its parameters drawn anew for each game): "
                          f"export one of them, {bot.name.rpartition('~')[0]!r} or a parameter file")
    found = plugin(REGISTERED[int(bot.seat[0]["kind"])])
    if not found.exportable:
        exportable = [name for name in REGISTERED if plugin(name).exportable]
        reason = f": {found.not_exportable}" if found.not_exportable else ""
        raise ExportError(f"bot {bot.name!r} cannot be exported{reason} (exportable: {', '.join(exportable)})")
    if lang not in found.languages:
        reason = f": {found.not_exportable}" if found.not_exportable else ""
        raise ExportError(f"bot {bot.name!r} cannot be exported in {LANGUAGES[lang]}{reason} (it exports in "
                          f"{', '.join(LANGUAGES[other] for other in found.languages)}: --lang "
                          f"{' or '.join(found.languages)})")
    return found


def parameter_values(bot: Bot, found) -> tuple[list, list]:
    """(names, values) of the bot's parameters, in schema order."""
    names = [p.name for p in found.schema] if found.schema is not None else []
    return names, [float(v) for v in bot.seat[0]["params"][: len(names)]]
