"""`beam[:W]`: a day planner. At each decision, a beam search (W plans wide) over its own actions for the rest of
the day, the opponent assumed to wait, each position valued by its points, sun, the harvest its trees will bring
under the coming days' shadows and what its trees may become (`policy`); with `rollout_days` > 0, its best first
moves played out for days by both players' day plans (against the opponent's `rollout_replies` best first moves),
the best rollout's played; with `rollout_samples` and `rollout_spread`, passes of rollouts in which the opponent's
later moves are drawn among its best plans.

Exported in C++ only (`tuner export --bot beam --lang cpp [--time-ms T]`): a beam of game states per move in plain
Python would strain CodinGame's 100 ms a turn. Its work per move is fixed by its width, depth, rollout days and
passes; with a time limit, its rollouts deepen, then its passes go on, until the move's deadline
(`bots.contract.budget.within_budget`)."""
from bots.beam.policy import I_HORIZON, I_PASSES, I_ROLLOUT_DAYS, beam_move
from bots.beam.schema import MAX_WIDTH, SCHEMA
from bots.contract.plugin import BotPlugin, Setup, int_argument


def _width(name: str, arg: str, league: int) -> Setup:
    return Setup({"width": int_argument(arg, "width", name, 1, MAX_WIDTH)})


PLUGIN = BotPlugin("beam", "a day planner: beam search over its own actions for the rest of the day, positions valued "
                   "by points, sun, projected harvest under the coming shadows and tree potential; W plans wide; "
                   "its best first moves played out by both players' plans for up to rollout_days days (timed: "
                   "until its deadline)",
                   beam_move, SCHEMA, argument="W", parse_argument=_width, languages=("cpp",),
                   stats=(("horizon", I_HORIZON), ("rollout_days", I_ROLLOUT_DAYS), ("passes", I_PASSES)),
                   not_exportable="a beam of game states a move in plain Python would strain CodinGame's 100 ms a turn")
