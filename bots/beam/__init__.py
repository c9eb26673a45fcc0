"""`beam[:W]`: a day planner. At each decision, a beam search (W plans wide) over its own actions for the rest of
the day, the opponent assumed to wait, each position valued by its points, sun, the harvest its trees will bring
under the coming days' shadows and what its trees may become (`policy`).

Not exportable yet: a beam of game states per move in plain Python would strain CodinGame's 100 ms a turn, and
its scratch states have no counterpart in the exported Python file (the C++ export is to play it on CodinGame)."""
from bots.beam.policy import beam_move
from bots.beam.schema import MAX_WIDTH, SCHEMA
from bots.plugin import BotPlugin, Setup, int_argument


def _width(name: str, arg: str, league: int) -> Setup:
    return Setup({"width": int_argument(arg, "width", name, 1, MAX_WIDTH)})


PLUGIN = BotPlugin("beam", "a day planner: beam search over its own actions for the rest of the day, positions valued "
                   "by points, sun, projected harvest under the coming shadows and tree potential; W plans wide",
                   beam_move, SCHEMA, argument="W", parse_argument=_width, exportable=False,
                   not_exportable="a beam of game states a move in plain Python would strain CodinGame's 100 ms a turn")
