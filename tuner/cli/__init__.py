"""`tuner`: the command line. Each command lives in its own module of this package, with `register` (its
arguments) and `run`; a command loads what it runs only when it runs, so that `tuner --help` and quick commands
do not import Optuna, pandas or the tuning loop."""
from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys

# One BLAS thread: the tuner's parallelism is its threads and processes (--jobs); OpenBLAS threads would fight
# them for the cores (a 31 x 31 eigendecomposition in CMA-ES took 25 ms instead of 0.2 ms on a busy 2-core
# machine). Set before NumPy is first imported (the commands import it), inherited by the worker processes.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from tuner.errors import EXIT_INTERRUPTED, EXIT_UNAVAILABLE, EXIT_USAGE, StorageUnavailable, UserError  # noqa: E402

COMMANDS = ["map", "replay", "play", "view", "bench", "match", "gauntlet", "league", "params", "export", "tune",
            "dashboard", "report", "storage"]


PLAYING = {"play", "match", "gauntlet", "league", "bench", "tune"}  # commands that play games: they may compile

# A full disk or a failing device under the output (`tuner map > /dev/full`): not the user's input, exit 1.
WRITE_ERRORS = {errno.ENOSPC, errno.EIO, getattr(errno, "EDQUOT", errno.ENOSPC)}
EXIT_WRITE_ERROR = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """`--version`, its version read when asked for (reading the package's metadata takes a third of `--help`)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from tuner.versions import package_version

        print(f"tuner (photosynthesis-tuner) {package_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tuner", description="Photosynthesis (CodinGame Spring Challenge 2021): engine, bots "
                                               "and an Optuna tuner for bots: the built-in ones or your own program.")
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"tuner.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"tuner.cli.{name}":
                continue
            raise
        module.register(commands)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # `tuner` alone: what it can do, and a usage error's exit status (nothing was done)
        parser.print_help()
        return EXIT_USAGE
    try:
        if args.command in PLAYING and not getattr(args, "compiles_for_its_bots", False):
            from tuner.cli.command_progress import compile_engine_first  # tqdm (and Numba): for commands that play

            compile_engine_first()
        status = int(args.run(args) or 0)
        sys.stdout.flush()  # a full output fails here, not in the interpreter's flush at exit
        return status
    except UserError as error:
        print(f"tuner {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except StorageUnavailable as error:  # a database or disk that stayed away: the same command resumes later
        print(f"tuner {args.command}: error: {error}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    except ValueError as error:  # a bot's name, parameters or registration that a command did not word itself
        from bots.contract.plugin import BotSpecError
        from bots.contract.schema import ParamError

        if not isinstance(error, (BotSpecError, ParamError)):
            raise
        print(f"tuner {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"tuner {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _discard_stdout()
        return 0
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        print(f"tuner {args.command}: error: cannot write {error.filename or 'the output'}: {error.strerror}",
              file=sys.stderr)
        _discard_stdout()
        return EXIT_WRITE_ERROR


def _discard_stdout() -> None:
    """Standard output sent to the null device, so that the interpreter's flush at exit does not fail again on
    what is left in its buffer (as Python's documentation advises for a broken pipe)."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
