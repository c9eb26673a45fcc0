"""`tuner dashboard STUDY.toml [--port P]`: optuna-dashboard on the study's storage and artifacts."""
from __future__ import annotations

import argparse

from tuner.cli import arguments


def host(text: str) -> str:
    """An address to listen on: an empty one would be every interface, which only 0.0.0.0 asks for."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected an address to listen on (127.0.0.1: this machine only; "
                                         f"0.0.0.0: every interface), got {text!r}")
    return text


def register(commands) -> None:
    parser = commands.add_parser("dashboard", help="open a study in optuna-dashboard (prints the URL)")
    parser.add_argument("study", type=arguments.file_path, metavar="STUDY.toml", help="the study file")
    parser.add_argument("--port", type=arguments.port, default=8080, metavar="P",
                        help="port to listen on (default 8080; 0 picks a free one)")
    parser.add_argument("--host", type=host, default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every interface)")
    parser.add_argument("--storage", metavar="URL", help="storage instead of the study file's")
    parser.add_argument("--all-trials", action="store_true",
                        help="list every trial whole (a study of thousands of trials is then slow to show: by "
                             "default its older pruned trials are left out, the others listed without parameters)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from tuner.studyfile.file import read_study_file  # loaded when the command runs (tuner/cli/__init__.py)
    from tuner.view.dashboard import serve

    config = read_study_file(args.study, args.storage)
    serve(config, args.host, args.port, args.all_trials)
    return 0
