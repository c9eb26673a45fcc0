"""`tuner gauntlet BOT --against A B C ... [--held-out D E ...] [--baseline BOT2]`: one bot (and a baseline, on the
same seeds) against a panel of opponents, with win rates, Elo, margins and the paired difference per opponent;
regressions flagged. With `--held-out`, the panel is in two groups (the tuning pool's opponents and the held-out
ones), each with its mean gain, and how much of the in-pool gain survives on the held-out group."""
from __future__ import annotations

import json
import sys

from tuner.cli import arguments
from tuner.cli.match import EXIT_ALWAYS_DISQUALIFIED
from tuner.errors import UserError


def register(commands) -> None:
    parser = commands.add_parser("gauntlet", help="play a bot (and a baseline) against a panel of opponents")
    parser.add_argument("bot", metavar="BOT", help="the bot to evaluate")
    parser.add_argument("--against", nargs="+", required=True, metavar="OPPONENT",
                        help="the panel (bot names): with --held-out, the opponents of the bot's tuning pool")
    parser.add_argument("--held-out", nargs="+", default=[], metavar="OPPONENT",
                        help="opponents the bot's tuning never met, reported as a group of their own")
    parser.add_argument("--baseline", metavar="BOT2", help="a bot to compare with, on the same seeds")
    arguments.add_paired_games(
        parser, "games per opponent and bot, even: each seed twice, sides swapped (default 1000)",
        "picks the game seeds (the `tuner match` stream: never a study's search seeds)", "print one JSON object")
    parser.set_defaults(run=run)


def run(args) -> int:
    from bots.contract.names import BotSpecError  # loaded when the command runs (tuner/cli/__init__.py), as below
    from engine.players import PlayerStartError, TimeLimits
    from tuner.play.gauntlet import run_gauntlet
    from tuner.play.runner import GameRunner
    from tuner.play.seeds import game_seeds
    from tuner.results.botnames import parse_bot_name
    from tuner.versions import versions

    arguments.check_even_games(args.games)
    panel = args.against + args.held_out
    if len(set(panel)) != len(panel):
        raise UserError("--against, --held-out: an opponent is listed twice")
    try:
        bot = parse_bot_name(args.bot, args.league)
        baseline = parse_bot_name(args.baseline, args.league) if args.baseline else None
        opponents = {name: parse_bot_name(name, args.league) for name in panel}
    except BotSpecError as error:
        raise UserError(str(error)) from None
    runner = GameRunner(args.league, args.jobs, TimeLimits(args.first_timeout, args.turn_timeout))
    try:
        gauntlet = run_gauntlet(runner, bot, opponents, game_seeds(args.seed, args.games // 2, "match"), baseline,
                                tuple(args.held_out))
    except PlayerStartError as error:
        raise UserError(str(error)) from None
    finally:
        runner.close()
    if args.json:
        print(json.dumps({**gauntlet.to_json(), "league": args.league, "seed": args.seed, "versions": versions()}))
    else:
        print(f"{bot.name}" + (f" and {baseline.name}" if baseline else "") + f": {args.games} games against each "
              f"of {len(opponents)} opponents in league {args.league} (seed {args.seed})")
        for line in gauntlet.table():
            print("  " + line)
    always = gauntlet.always_disqualified
    if always:
        print(f"error: {' and '.join(always)} {'was' if len(always) == 1 else 'were'} disqualified in every game: "
              f"the gauntlet measured nothing there", file=sys.stderr)
        return EXIT_ALWAYS_DISQUALIFIED
    return 1 if gauntlet.regressions else 0
