"""`tuner play`: one game between two bots (in-engine or programs) through the text-protocol referee."""
from __future__ import annotations

from tuner.cli import arguments
from tuner.cli.outputs import check_output
from tuner.errors import UserError


def register(commands) -> None:
    parser = commands.add_parser("play", help="play one game between two bots and print the result")
    parser.add_argument("bot_a", metavar="A", help="player 0 (bot names: docs/bots.md)")
    parser.add_argument("bot_b", metavar="B", help="player 1")
    parser.add_argument("--seed", type=arguments.seed, default=0,
                        help="game seed (a Java long; default 0): the map and every random draw, printed with the "
                             "result and written in the trace")
    parser.add_argument("--league", type=arguments.league, default=3, help="1, 2 or 3 (default 3)")
    parser.add_argument("--trace", type=arguments.file_path, metavar="OUT.jsonl",
                        help="write the game in the referee's record format (replayable with `tuner replay`)")
    parser.add_argument("--html", type=arguments.file_path, metavar="GAME.html",
                        help="write a page that replays the game")
    arguments.add_time_limits(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from bots.contract.names import BotSpecError  # loaded when the command runs (tuner/cli/__init__.py), as below
    from bots.running.player import player_for
    from engine.players import PlayerStartError, TimeLimits
    from engine.referee import play_refereed_game
    from tuner.results.botnames import parse_bot_name
    from tuner.view import write_replay

    check_output(args.trace, "--trace")
    check_output(args.html, "--html", {"the --trace file": args.trace})
    try:
        bots = [parse_bot_name(args.bot_a, args.league), parse_bot_name(args.bot_b, args.league)]
    except BotSpecError as error:
        raise UserError(str(error)) from None
    limits = TimeLimits(args.first_timeout, args.turn_timeout)
    try:
        report = play_refereed_game(args.seed, args.league, [player_for(bot) for bot in bots], limits, args.trace)
    except PlayerStartError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot write trace {args.trace}: {error.strerror or error}") from None
    outcome = report.outcome
    winner = "draw" if outcome.winner is None else f"player {outcome.winner} ({bots[outcome.winner].name})"
    print(f"seed {args.seed}, league {args.league}: {bots[0].name} {outcome.final_scores[0]} - "
          f"{outcome.final_scores[1]} {bots[1].name}; winner: {winner}; {report.turns} frames")
    for entry in outcome.deactivated:
        print(f"  player {entry['player']} disqualified at frame {entry['turn']}: {short_reason(entry['reason'])}")
    for p, player in enumerate(report.players):
        if player.note or player.stderr_tail:
            print(f"  player {p} ({player.name}): {player.note or 'finished'}")
            for line in player.stderr_tail[-5:]:
                print(f"    stderr: {line}")
    if args.trace:
        print(f"  trace written to {args.trace}")
    if args.html:
        write_replay(args.html, report.records)
        print(f"  replay page written to {args.html}")
    return 0


def short_reason(reason: str, limit: int = 200) -> str:
    """A referee's reason fit for one line (it quotes the offending answer, which may be megabytes long)."""
    return reason if len(reason) <= limit else reason[:limit - 3] + "..."
