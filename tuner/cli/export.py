"""`tuner export`: write a tuned bot as one standalone Python or C++ file to paste into CodinGame.

    tuner export --params FILE.json -o bots/tuned/NAME.py     a parameter file (heuristic)
    tuner export STUDY.toml [--trial N] -o FILE               a study's best (or given) trial
    tuner export --bot NAME -o FILE                           any exportable bot name
    tuner export ... [--time-ms [T]] -o FILE.cpp              in C++ (a search bot: T ms a move, 10 T the first);
                                                              --lang cpp|python whatever the file's name
    tuner export STUDY.toml [--trial N] --template SOURCE -o OUT
                                                              the trial's values written into a program's
                                                              own source (its `tuner: NAME` lines); a `cpp:`
                                                              study's source is the template of -o OUT.cpp
"""
from __future__ import annotations

import sys
from pathlib import Path

from export.languages import DEFAULT_TIME_MS, FIRST_TURN_FACTOR, LANGUAGES
from tuner.cli import arguments
from tuner.cli.outputs import check_output
from tuner.errors import UserError

CPP_SUFFIXES = (".cpp", ".cc", ".cxx")


def register(commands) -> None:
    parser = commands.add_parser("export", help="export a bot as one standalone Python or C++ file for CodinGame")
    parser.add_argument("study", nargs="?", metavar="STUDY.toml", help="export the best trial of this study")
    parser.add_argument("--trial", type=int, metavar="N", help="with a study: export trial N instead of the best")
    parser.add_argument("--params", type=arguments.file_path, metavar="FILE.json",
                        help="a parameter file (any bot with parameters)")
    parser.add_argument("--bot", help="any exportable bot name (default: heuristic with its schema defaults)")
    parser.add_argument("--league", type=arguments.league,
                        help="league the bot plays (default: the parameter file's or study's league, else 3)")
    parser.add_argument("--template", type=arguments.file_path, metavar="SOURCE",
                        help="with a study: write SOURCE (a program bot's own source) with its `tuner: NAME` lines "
                             "set to the trial's values (default for -o FILE.cpp: a cpp: study's own source)")
    parser.add_argument("--lang", choices=sorted(LANGUAGES),
                        help="python or cpp: one C++17 file, standard library only, for the search bots and full "
                             "speed (default: cpp for an output named *.cpp, *.cc or *.cxx, else python)")
    parser.add_argument("--time-ms", type=arguments.search_time_ms, nargs="?", const=DEFAULT_TIME_MS, metavar="T",
                        help=f"with --lang cpp, a search bot: spend T ms a move (default {DEFAULT_TIME_MS}; "
                             f"{FIRST_TURN_FACTOR} T on the first turn) instead of its fixed budget")
    parser.add_argument("-o", "--output", type=arguments.file_path, required=True, metavar="FILE", help="file to write")
    parser.add_argument("--params-out", type=arguments.file_path, metavar="FILE.json",
                        help="also write the bot's parameters as a parameter file (`NAME:FILE.json` bot names)")
    parser.set_defaults(run=run)


def _resolve(args, config):
    """The bot to export, its league and a description of where it came from."""
    from bots.contract.paramfile import (
        read_param_file,  # loaded when the command runs (tuner/cli/__init__.py), as below
    )
    from bots.contract.schema import ParamError
    from tuner.results.botnames import parse_bot_name
    from tuner.results.origin import export_source_from_study

    chosen = [name for name, value in (("STUDY.toml", args.study), ("--params", args.params), ("--bot", args.bot))
              if value is not None]
    if len(chosen) > 1:
        raise UserError(f"give one of STUDY.toml, --params or --bot, not {' and '.join(chosen)}")
    if args.trial is not None and args.study is None:
        raise UserError("--trial needs a STUDY.toml")
    if args.study is not None:
        return export_source_from_study(config, args.trial, args.league)
    if args.params is not None:
        try:
            params_file = read_param_file(args.params)
        except ParamError as error:
            raise UserError(str(error)) from None
        league = args.league or params_file.league
        bot = parse_bot_name(f"{params_file.bot}:{args.params}", league)
        origin = [f"Parameters: {args.params} (bot {params_file.bot}, league {params_file.league})"]
        origin += [f"  {key}: {value}" for key, value in params_file.source.items()]
        return bot, league, origin
    league = args.league or 3
    bot = parse_bot_name(args.bot or "heuristic", league)
    return bot, league, [f"Bot: {bot.name}" + (" (schema defaults)" if args.bot in (None, "heuristic") else "")]


def export_template(config, trial, template: Path, output: Path) -> str:
    """`tuner export STUDY.toml [--trial N] --template SOURCE -o OUT`: the source with the trial's values."""
    from tuner.programs.template import TemplateError, write_filled_template
    from tuner.results.origin import trial_values

    values, _ = trial_values(config, trial)
    try:
        text = write_filled_template(template, values, output)
    except TemplateError as error:
        raise UserError(str(error)) from None
    print(f"wrote {output} ({len(text):,} characters: {template} with the values of "
          f"{'trial ' + str(trial) if trial is not None else 'the best trial'} of {config.path})")
    return text


def export_program_params(config, trial, output: Path) -> dict:
    """`tuner export STUDY.toml [--trial N] -o FILE.json` for a program bot: the trial's values and where they
    came from (study, trial, win rates, dates) as JSON."""
    from bots.contract.paramfile import now_iso
    from tuner.programs.template import write_program_params
    from tuner.results.origin import trial_values

    values, source = trial_values(config, trial, exported=now_iso())
    data = write_program_params(output, values, source)
    print(f"wrote {output} (trial {source['trial']} of {config.path}: {len(values)} parameters)")
    return data


def _bot_file_options(args) -> tuple:
    """The options that shape an exported bot's file: (name, value or None)."""
    return ("--lang", args.lang), ("--time-ms", args.time_ms), ("--params-out", args.params_out)


def check_outputs(args, config) -> None:
    """Before any work: -o and --params-out are files that can be written without destroying what the export
    reads (the study file, its journal and baseline file, the parameter file, the template) or each other."""
    from tuner.storage.url import StorageURL

    journal = StorageURL(config.storage).file if config is not None else None
    baseline = config.path.parent / config.file.baseline if config is not None and config.file.baseline else None
    inputs = {"the study file": args.study, "the study's storage": journal, "the study's baseline file": baseline,
              "the parameter file": args.params, "the template": args.template}
    check_output(args.output, "-o", inputs)
    check_output(args.params_out, "--params-out", {**inputs, "the file -o writes": args.output})


def language(args) -> str:
    """`--lang`, else the output file's suffix: a C++ source's name asks for C++."""
    if args.lang is not None:
        return args.lang
    return "cpp" if args.output.suffix.lower() in CPP_SUFFIXES else "python"


def run(args) -> int:
    from bots.contract.names import BotSpecError
    from bots.contract.paramfile import ParamFile, now_iso, write_param_file
    from bots.contract.schema import ParamError
    from export.exportable import ExportError
    from export.standalone import export_bot
    from tuner.results.origin import export_header
    from tuner.studyfile.file import read_study_file

    config = read_study_file(Path(args.study)) if args.study is not None else None
    source = config.program.source if config is not None and config.program is not None else None
    if source is not None and args.template is None and args.output.suffix.lower() in CPP_SUFFIXES and \
            not any(value is not None for _, value in _bot_file_options(args)):
        args.template = source  # a `cpp:` study's own source is its template
    check_outputs(args, config)
    if args.template is not None:
        wrong = [name for name, value in (("--params", args.params), ("--bot", args.bot), ("--league", args.league),
                                          *_bot_file_options(args)) if value is not None]
        if args.study is None or wrong:
            why = f", not {' and '.join(wrong)}" if wrong else " (the study whose trial's values it fills in)"
            raise UserError(f"--template takes STUDY.toml [--trial N] -o OUT{why}")
        export_template(config, args.trial, args.template, args.output)
        return 0
    if config is not None and config.program is not None:
        wrong = [name for name, value in (("--league", args.league), *_bot_file_options(args)) if value is not None]
        if wrong:
            raise UserError(f"{' and '.join(wrong)} {'apply' if len(wrong) > 1 else 'applies'} to an exported bot; "
                            f"a program study exports its "
                            f"parameters as JSON (-o FILE.json), or into its source with --template")
        if args.output.suffix.lower() != ".json":
            raise UserError(f"-o {str(args.output)!r}: a program study exports its parameters as JSON: give -o "
                            f"FILE.json (or --template SOURCE to write them into the program's source)")
        export_program_params(config, args.trial, args.output)
        return 0
    args.lang = language(args)
    try:
        bot, league, origin = _resolve(args, config)
        text = export_bot(bot, league, args.output, export_header(league, origin, lang=args.lang, time_ms=args.time_ms),
                          args.lang, args.time_ms)
        if args.params_out is not None:
            write_param_file(args.params_out, ParamFile(bot.plugin, league, bot.params or {},
                                                        {**bot.source, "exported": now_iso()}))
    except (BotSpecError, ExportError, ParamError) as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot write {args.params_out}: {error.strerror or error}") from None
    print(f"wrote {args.output} ({len(text):,} characters, league {league}, {LANGUAGES[args.lang]})")
    if args.params_out is not None:
        print(f"wrote {args.params_out} (the parameters of {bot.name})")
    if bot.source.get("pruned"):
        print(f"warning: trial {bot.source.get('trial')} was dropped by the race before it played every seed pair: "
              f"its results are an estimate (export a fully played trial, or no --trial for the study's chosen bot)",
              file=sys.stderr)
    return 0
