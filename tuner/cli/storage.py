"""`tuner storage`: a study's journal file as other tools need it, and what it holds.

    tuner storage info STUDY.toml                       format, size, trials, bytes per trial, snapshot
    tuner storage export-plain STUDY.toml OUT.journal [--replace]
                                                        the plain Optuna journal of the study's journal (what
                                                        `optuna-dashboard OUT.journal` and any Optuna program read)
    tuner storage import-plain PLAIN.journal OUT.journal [--replace]
                                                        the compact journal of a plain one (point the study's
                                                        `storage` at OUT, or rename it over the plain one)

An existing OUT (maybe a study's journal) is replaced only with --replace, never the study file or the journal
being read; a file is written whole or not at all (a temporary file renamed over it).
"""
from __future__ import annotations

from tuner.cli import arguments
from tuner.cli.outputs import check_output, reported_write_errors


def register(commands) -> None:
    parser = commands.add_parser("storage", help="a study's journal: its size, a plain Optuna copy, conversion")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    parser.set_defaults(run=lambda args: usage(parser))  # `tuner storage` alone: its actions
    info = actions.add_parser("info", help="the study's storage: format, size, trials, bytes per trial, snapshot")
    info.add_argument("study", type=arguments.file_path, metavar="STUDY.toml", help="the study file")
    info.add_argument("--storage", metavar="PATH", help="storage instead of the study file's")
    info.set_defaults(run=run_info)
    export = actions.add_parser("export-plain", help="write the study's journal as a plain Optuna journal file")
    export.add_argument("study", type=arguments.file_path, metavar="STUDY.toml", help="the study file")
    export.add_argument("out", type=arguments.file_path, metavar="OUT.journal",
                        help="the plain journal to write: a new file, unless --replace is given")
    export.add_argument("--storage", metavar="PATH", help="journal instead of the study file's")
    add_replace(export)
    export.set_defaults(run=run_export_plain)
    convert = actions.add_parser("import-plain", help="write the compact journal of a plain Optuna journal file")
    convert.add_argument("plain", type=arguments.file_path, metavar="PLAIN.journal", help="a plain Optuna journal file")
    convert.add_argument("out", type=arguments.file_path, metavar="OUT.journal",
                         help="the compact journal to write: a new file, unless --replace is given")
    add_replace(convert)
    convert.set_defaults(run=run_import_plain)


def add_replace(parser) -> None:
    parser.add_argument("--replace", action="store_true",
                        help="replace OUT.journal if it exists (it may be a study's journal, whose trials are lost)")


def usage(parser) -> int:
    from tuner.errors import EXIT_USAGE

    parser.print_help()
    return EXIT_USAGE


def _journal_of(args) -> tuple:
    from tuner.errors import UserError
    from tuner.studyfile.file import read_study_file

    config = read_study_file(args.study, args.storage)
    if not config.storage_is_journal_file:
        raise UserError(f"{config.path}: {config.storage_source} is {config.storage_url}, not a journal file")
    path = config.storage_url.file
    if path is None or not path.is_file():
        raise UserError(f"{config.path}: {config.storage_source}: {path} does not exist yet (run `tuner tune` on "
                        f"the study first)")
    return config, path


def _check_out(args, inputs: dict) -> None:
    """OUT can be written without destroying an input, and replaces an existing file only with --replace."""
    from tuner.errors import UserError

    check_output(args.out, "OUT.journal", inputs)
    if args.out.exists() and not args.replace:
        raise UserError(f"{args.out} exists already (a study's journal?): give a new file, or --replace to "
                        f"replace it")


def run_export_plain(args) -> int:
    import shutil

    from engine.files import replaced_atomically
    from tuner.errors import UserError
    from tuner.storage.compact_codec import file_kind
    from tuner.storage.convert import export_plain
    from tuner.storage.journal import DamagedJournal, check_journal_file

    config, path = _journal_of(args)
    _check_out(args, {"the study file": config.path, "the journal being read": path})
    kind = file_kind(str(path))
    try:
        with reported_write_errors(args.out, "OUT.journal"):
            if kind == "plain":
                check_journal_file(path)
                with replaced_atomically(args.out) as handle, open(path, "rb") as source:
                    shutil.copyfileobj(source, handle)
                print(f"{path} is a plain Optuna journal already: copied to {args.out}")
                return 0
            records = export_plain(str(path), str(args.out))
    except DamagedJournal as error:
        raise UserError(f"{config.path}: {config.storage_source}: {error}") from None
    print(f"{args.out}: {records} records, {args.out.stat().st_size:,} bytes (a plain Optuna journal of {path})")
    return 0


def run_import_plain(args) -> int:
    from tuner.errors import UserError
    from tuner.storage.compact_codec import file_kind
    from tuner.storage.convert import import_plain
    from tuner.storage.journal import DamagedJournal, check_journal_file

    if args.plain.is_dir():
        raise UserError(f"{args.plain} is a folder, not a plain Optuna journal file")
    if not args.plain.is_file():
        raise UserError(f"{args.plain}: no such file")
    _check_out(args, {"the journal being read": args.plain})
    if file_kind(str(args.plain)) != "plain":
        raise UserError(f"{args.plain} is not a plain Optuna journal file (it does not start with a JSON record)")
    try:
        check_journal_file(args.plain)
    except DamagedJournal as error:
        raise UserError(str(error)) from None
    with reported_write_errors(args.out, "OUT.journal"):
        records = import_plain(str(args.plain), str(args.out))
    before, after = args.plain.stat().st_size, args.out.stat().st_size
    print(f"{args.out}: {records} records, {after:,} bytes ({before:,} as plain JSON lines)")
    return 0


def run_info(args) -> int:
    from tuner.optuna_internals import journal_backend
    from tuner.storage import open_storage, snapshots
    from tuner.storage.compact_codec import file_kind

    config, path = _journal_of(args)
    kind = file_kind(str(path))
    storage = open_storage(config.storage, f"{config.path}: {config.storage_source}", create=False)
    size = path.stat().st_size
    print(f"{path}: {'compact' if kind == 'compact' else 'plain Optuna'} journal, {size:,} bytes")
    every = 0
    for study in storage.get_all_studies():
        trials = storage.get_all_trials(storage.get_study_id_from_name(study.study_name), deepcopy=False)
        every += len(trials)
        states: dict = {}
        for t in trials:
            states[t.state.name] = states.get(t.state.name, 0) + 1
        shown = ", ".join(f"{n} {s.lower()}" for s, n in sorted(states.items()))
        print(f"  study {study.study_name!r}: {len(trials)} trials ({shown})")
    if every:
        print(f"  {size / every:,.0f} bytes a trial")
    if kind == "compact":
        cached = snapshots.snapshot_path(str(path))
        if cached.is_file():
            state = "up to date" if journal_backend(storage).snapshot_is_current() else "older than the journal's end"
            print(f"  snapshot (a cache, not part of the study): {cached}, {cached.stat().st_size:,} bytes, {state}")
        else:
            print("  no snapshot (a cache, made by `tuner tune` and by opening a big journal)")
    return 0
