"""`tuner match`: N games between two bots, each seed twice with sides swapped, with honest error bars."""
from __future__ import annotations

import json
import sys
from typing import Optional

from tuner.cli import arguments
from tuner.cli.play import short_reason
from tuner.errors import UserError


def register(commands) -> None:
    parser = commands.add_parser("match", help="play N games between two bots and compare them")
    parser.add_argument("bot_a", metavar="A", help="the bot to evaluate")
    parser.add_argument("bot_b", metavar="B", help="its opponent")
    arguments.add_paired_games(
        parser, "number of games, even: N/2 seeds, each played twice with sides swapped (default 1000)",
        "picks the game seeds (default 0)", "print one JSON object, with every game")
    parser.set_defaults(run=run, compiles_for_its_bots=True)


def run(args) -> int:
    from bots.contract.names import BotSpecError  # loaded when the command runs (tuner/cli/__init__.py), as below
    from engine.players import PlayerStartError, TimeLimits
    from tuner.cli.command_progress import compile_engine_first, games_bar
    from tuner.play.matches import run_match
    from tuner.results.botnames import parse_bot_name
    from tuner.versions import versions

    arguments.check_even_games(args.games)
    try:
        bot_a, bot_b = parse_bot_name(args.bot_a, args.league), parse_bot_name(args.bot_b, args.league)
    except BotSpecError as error:
        raise UserError(str(error)) from None
    compile_engine_first(played_kinds(bot_a, bot_b))
    limits = TimeLimits(args.first_timeout, args.turn_timeout)
    try:
        with games_bar(args.games, "match") as step:
            result = run_match(bot_a, bot_b, args.games, args.league, args.seed, args.jobs, limits, step)
    except PlayerStartError as error:
        raise UserError(str(error)) from None
    always = [name for bot, name in (("A", result.bot_a), ("B", result.bot_b))
              if len(result.disqualifications(bot)) == len(result.results)]
    if args.json:
        print(json.dumps({**result.to_json(), "versions": versions()}))
        return EXIT_ALWAYS_DISQUALIFIED if always else 0
    s = result.stats
    print(f"{result.bot_a} vs {result.bot_b}: {s.games} games in league {result.league} (seed {result.seed})")
    print(f"  wins {s.wins}, draws {s.draws}, losses {s.losses}")
    print(f"  win rate {s.win_rate:.1%} (95% CI {s.win_rate_ci[0]:.1%} - {s.win_rate_ci[1]:.1%})")
    print(f"  Elo difference {s.elo:+.0f} (95% CI {s.elo_ci[0]:+.0f} to {s.elo_ci[1]:+.0f})")
    print(f"  mean score margin {s.mean_margin:+.2f} (95% CI {s.margin_ci[0]:+.2f} to {s.margin_ci[1]:+.2f})")
    for bot, name in (("A", result.bot_a), ("B", result.bot_b)):
        print_disqualifications(name, result.disqualifications(bot))
    if always:
        print(f"error: {' and '.join(always)} {'were' if len(always) > 1 else 'was'} disqualified in every game: "
              f"the match measured nothing",
              file=sys.stderr)
        return EXIT_ALWAYS_DISQUALIFIED
    return 0


EXIT_ALWAYS_DISQUALIFIED = 3


def played_kinds(*bots) -> Optional[frozenset]:
    """The seat kinds of in-engine bots playing each other (what a first match compiles), or None when a program
    plays (its games go through the referee, which needs the whole engine)."""
    if not all(bot.in_engine for bot in bots):
        return None
    return frozenset(int(bot.seat[0]["kind"]) for bot in bots)


def print_disqualifications(name: str, games: list) -> None:
    """A program that broke a rule or a time limit lost those games: say so, since timeouts depend on load."""
    if not games:
        return
    seed, first = games[0]
    note = f" ({first['note']})" if first.get("note") else ""
    print(f"  {name} was disqualified in {len(games)} game(s), first in seed {seed} at frame {first['turn']}: "
          f"{short_reason(first['reason'])}{note}")
    for line in first.get("stderr", []):
        print(f"    stderr: {line}")
    if any(d.get("slow") for _, d in games):  # slow, not dead
        print("  (time limits depend on the machine's load: --turn-timeout MS gives a slow machine slack)")
