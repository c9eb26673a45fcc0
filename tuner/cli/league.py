"""`tuner league`: every pair of bots on common seeds, every game kept in a SQLite file, and a table of ratings."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tuner.cli import arguments
from tuner.cli.outputs import check_output, reported_write_errors
from tuner.errors import EXIT_INTERRUPTED, UserError

if TYPE_CHECKING:
    from tuner.league.league import Standings


def register(commands) -> None:
    parser = commands.add_parser("league", help="play every pair of bots and rank them (games kept in a SQLite file)")
    parser.add_argument("bots", nargs="+", metavar="BOT", help="two bots or more (any bot name, cmd: programs too)")
    parser.add_argument("--games", type=arguments.games_count, default=None,
                        help="games per pair, even: N/2 seeds, each twice with sides swapped (default: the "
                             "database's last run, 100 for a new one)")
    parser.add_argument("--db", type=arguments.file_path, default=Path("league.db"), metavar="FILE",
                        help="the league's SQLite file; a run plays only the games it does not hold yet "
                             "(default league.db)")
    parser.add_argument("--league", type=arguments.league, default=None,
                        help="1, 2 or 3, fixed when the database is created (default 3)")
    parser.add_argument("--seed", type=arguments.seed, default=None,
                        help="picks the game seeds, fixed when the database is created (default 0)")
    arguments.add_jobs(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", type=arguments.file_path, metavar="FILE.png",
                        help="write the win-rate matrix as a heatmap (.png, .svg, .pdf, ...; .png is added to a "
                             "name without an extension)")
    arguments.add_time_limits(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from bots.contract.names import BotSpecError  # loaded when the command runs (tuner/cli/__init__.py), as below
    from engine.players import PlayerStartError, TimeLimits
    from tuner.league.league import LeagueDatabase, Standings, check_bots, league_settings, play_league
    from tuner.results.botnames import parse_bot_name
    from tuner.versions import versions

    if args.games is not None and args.games % 2:
        raise UserError(f"--games must be even (each seed is played twice with sides swapped), got {args.games}")
    plot = plot_file(args.plot, args.db)
    settings = league_settings(args.db, args.league, args.seed, args.games)
    try:
        bots = [parse_bot_name(name, settings.league) for name in args.bots]
    except BotSpecError as error:
        raise UserError(str(error)) from None
    check_bots(bots)
    limits = TimeLimits(args.first_timeout, args.turn_timeout)
    db = LeagueDatabase.open(args.db, settings)
    stored = db.game_count()
    try:
        ids = db.register(bots)
        progress = _Progress()
        try:
            played = play_league(db, bots, ids, args.jobs, limits, progress.update, progress.start)
        except PlayerStartError as error:
            raise UserError(str(error)) from None
        except KeyboardInterrupt:
            progress.close()
            print(f"tuner league: interrupted; {db.game_count() - stored} new games are kept in {args.db} "
                  f"({db.game_count()} in all): the same command plays the rest", file=sys.stderr)
            return EXIT_INTERRUPTED
        finally:
            progress.close()
        standings = Standings.of(db, bots, ids)
    finally:
        db.close()
    if plot is not None:
        from tuner.view.league_plot import plot_win_rates

        with reported_write_errors(plot, "--plot"):
            plot_win_rates(standings.matrix(), plot,
                           f"league {settings.league}, seed {settings.seed}, {settings.games} games per pair")
    if args.json:
        report = standings.to_json()
        report["settings"].update({"database": str(args.db), "first_timeout_ms": limits.first_ms,
                                   "turn_timeout_ms": limits.turn_ms})
        print(json.dumps({**report, "played": played, "versions": versions()}))
        return 0
    print_table(standings, args.db, played)
    if plot is not None:
        print(f"win-rate matrix written to {plot}")
    return 0


def plot_file(path: Optional[Path], db: Path) -> Optional[Path]:
    """The picture `--plot` writes, checked before any game: `path`, with .png added to a name without an
    extension (as matplotlib does), in a format matplotlib writes."""
    if path is None:
        return None
    from matplotlib.backend_bases import FigureCanvasBase  # only for --plot, as tuner.view.league_plot

    check_output(path, "--plot", {"the league database": db})
    picture = path if path.suffix else path.with_name(path.name + ".png")
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    if picture.suffix[1:].lower() not in formats:
        raise UserError(f"--plot {str(path)!r}: {picture.suffix} is not a picture format; give a file name "
                        f"ending in .{', .'.join(formats)}")
    if picture != path:
        check_output(picture, "--plot", {"the league database": db})
    return picture


class _Progress:
    """A tqdm bar of the games to play, on a terminal only (quiet in pipes and files)."""

    def __init__(self):
        self.bar = None

    def start(self, total: int) -> None:
        if total and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="league", unit="game", file=sys.stderr, dynamic_ncols=True,
                            mininterval=0.5)

    def update(self, games: int) -> None:
        if self.bar is not None:
            self.bar.update(games)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def print_table(standings: Standings, db: Path, played: int) -> None:
    s = standings.settings
    total = int(standings.results.games.sum() // 2)
    print(f"League {s.league}, seed {s.seed}: {len(standings.names)} bots, {s.games} games per pair "
          f"({s.games // 2} seeds, each twice with sides swapped), {total} games; {played} played now, "
          f"{total - played} from {db}")
    print("Ratings: Bradley-Terry (Elo scale, mean 0, draws 1/2); 95% intervals: bootstrap over seeds")
    print()
    board = standings.leaderboard()
    dq = bool(board["disqualified"].any())
    separated = standings.separated()
    marked = {name for pair in separated for name in pair}
    width = max(4, *(len(name) for name in board["name"]))
    print(f"rank  {'bot':<{width}}  rating  95% CI            games  win rate" + ("  disqualified" if dq else ""))
    for rank, row in board.iterrows():
        ci = f"{row.ci_low:+.0f} to {row.ci_high:+.0f}" + (" *" if row["name"] in marked else "")
        print(f"{rank:>4}  {row['name']:<{width}}  {row.rating:>+6.0f}  {ci:<16}  {row.games:>5}  {row.win_rate:>8.1%}"
              + (f"  {row.disqualified:>12}" if dq else ""))
    print()
    print("Win rate of the row's bot against the column's (by rank):")
    matrix = standings.matrix()
    matrix.index = [f"{k} {name}" for k, name in enumerate(matrix.index, 1)]
    matrix.columns = [str(k) for k in range(1, len(matrix.columns) + 1)]
    print(matrix.to_string(na_rep="-", float_format=lambda x: f"{x:.0%}"))
    if separated:
        shown = ", ".join(f"{a} > {b}" for a, b in separated[:3]) + (", ..." if len(separated) > 3 else "")
        print(f"\n* won or lost every game against some bot ({len(separated)} pair(s): {shown}): no number of "
              f"such games measures that gap, which rests on one virtual draw per pair (a lower bound), so these "
              f"ratings and intervals are rough; the matrix is the measurement")
    if dq:
        print("\n(disqualified: games a program lost by a timeout or a broken rule; time limits depend on the "
              "machine's load: --turn-timeout MS gives a slow machine slack)")
