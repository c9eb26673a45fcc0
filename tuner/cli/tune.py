"""`tuner tune STUDY.toml`: run (or resume) a tuning study, then print and validate its best trial."""
from __future__ import annotations

from tuner.cli import arguments
from tuner.errors import EXIT_INTERRUPTED


def register(commands) -> None:
    parser = commands.add_parser("tune", help="run or resume an Optuna study described by a study file")
    parser.add_argument("study", type=arguments.file_path, metavar="STUDY.toml", help="the study file (see studies/)")
    parser.add_argument("--trials", type=arguments.non_negative_int, metavar="N",
                        help="run N more trials now (default: until the study has the study file's 'trials')")
    parser.add_argument("--timeout", type=arguments.positive_float, metavar="S",
                        help="time budget of this run in seconds (default: the study file's 'timeout')")
    arguments.add_jobs(parser, "; a study's results do not depend on it")
    parser.add_argument("--storage", metavar="URL",
                        help="storage instead of the study file's: a journal file path or an Optuna storage URL")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (status lines instead)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from tuner.cli.tune_report import TuneReport, print_export_hint  # loaded when the command runs (as below)
    from tuner.search.tune import RunReport, run_tune
    from tuner.studyfile.file import read_study_file

    config = read_study_file(args.study, args.storage)
    timeout = args.timeout if args.timeout is not None else config.timeout
    report: RunReport = TuneReport(config, args.trials, timeout, False if args.no_progress else None)
    summary = run_tune(config, report, args.trials, timeout, args.jobs)
    if summary.best_number is not None:
        print_export_hint(config)
    return EXIT_INTERRUPTED if summary.interrupted else 0
