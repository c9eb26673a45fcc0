"""`tuner report STUDY.toml [--out DIR]`: the top trials as a table, and the study's plots as HTML files."""
from __future__ import annotations

from tuner.cli import arguments
from tuner.cli.outputs import check_output_folder


def register(commands) -> None:
    parser = commands.add_parser("report", help="print a study's top trials and write its plots as HTML")
    parser.add_argument("study", type=arguments.file_path, metavar="STUDY.toml", help="the study file")
    parser.add_argument("--out", type=arguments.file_path, metavar="DIR",
                        help="folder for the HTML plots, made if missing; its files of the same names are replaced "
                             "(default: <study file name>-report/ beside the study file)")
    parser.add_argument("--top", type=arguments.positive_int, default=10, metavar="N",
                        help="trials in the table (default 10)")
    parser.add_argument("--no-plots", action="store_true", help="print the tables only")
    parser.add_argument("--storage", metavar="URL", help="storage instead of the study file's")
    parser.set_defaults(run=run)


def run(args) -> int:
    import pandas as pd  # loaded when the command runs (tuner/cli/__init__.py), as the two below

    from tuner.studyfile.file import read_study_file
    from tuner.view.report import build_report, default_out_dir

    config = read_study_file(args.study, args.storage)
    out = args.out or default_out_dir(config)
    if not args.no_plots:
        check_output_folder(out, "--out", {"the study file": config.path,
                                           "the study's storage": config.storage_url.file})
    report = build_report(config, out, args.top, plots=not args.no_plots)
    c = report.counts
    print(f"study {config.name!r}: {c['trials']} trials ({c['fully played']} fully played, {c['pruned']} pruned, "
          f"{c['failed']} failed)")
    if report.table.empty:
        print("no fully played trial yet")
    else:
        with pd.option_context("display.width", 200, "display.max_columns", 50, "display.float_format",
                               "{:.4g}".format):
            shown = report.table.copy()
            for column in shown.columns:
                if column == "win rate" or column == "validation" or column.startswith("vs "):
                    shown[column] = shown[column].map(lambda v: "-" if v is None or v != v else f"{v:.1%}")
                if column == "min gain":
                    shown[column] = shown[column].map(lambda v: "-" if v is None or v != v else f"{v:+.1%}")
            print(f"\ntop {len(shown)} trials:")
            print(shown.to_string(index=False, na_rep="-"))
            print("\nparameters (baseline and the top trials):")
            print(report.params.to_string(na_rep="-"))
    if report.chosen is not None:
        print(f"\nchosen for export: {report.chosen.label} ({report.chosen.how})")
    if report.gauntlet is not None:
        print(f"gauntlet against the baseline, {2 * report.gauntlet.pairs} held-out games per opponent:")
        for line in report.gauntlet.table():
            print("  " + line)
    if report.files:
        print(f"\nplots: {', '.join(str(f) for f in report.files)}")
    for plot, reason in report.skipped:
        print(f"no {plot} plot: {reason}")
    return 0
