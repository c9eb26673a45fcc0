"""`search[:N]`: rollout improvement over the heuristic bot. At each decision a few candidate moves are played out
to the end of the game (the bot then following the default heuristic, its opponent the default heuristic in one
playout and the default sunrate bot in another) within a budget of N simulated turns per move, and the move whose
playouts end with the best mean score margin is played (`policy`).

Exported in C++ only (`tuner export --bot search --lang cpp [--time-ms T]`): its playouts in plain Python would not
fit CodinGame's 100 ms a turn. With a time limit, it plays out candidates while the move's deadline is ahead
(`bots.contract.budget.within_budget`) instead of within its budget of simulated turns."""
from bots.contract.plugin import BotPlugin, Setup, int_argument
from bots.search.policy import search_move
from bots.search.schema import SCHEMA


def _budget(name: str, arg: str, league: int) -> Setup:
    budget = SCHEMA.by_name["budget"]
    return Setup({"budget": int_argument(arg, "budget", name, budget.low, budget.high)})


PLUGIN = BotPlugin("search", "playouts of candidate moves to the end of the game, the bot on the default "
                   "heuristic, its opponent on the default heuristic and on sunrate, within a budget of simulated "
                   "turns per move", search_move, SCHEMA, argument="N", parse_argument=_budget, languages=("cpp",),
                   not_exportable="its playouts in plain Python would not fit CodinGame's 100 ms a turn")
