"""The `sunrate` bot's parameters, in the order its policy reads them. Values are in sun points: a move's
score is the sun it adds over the coming days, plus what a grown tree is worth toward a COMPLETE, minus what
it costs; the best score above zero is played, else WAIT.

The defaults come from CMA-ES runs of `tuner tune` (Bronze+): 15 minutes against the heuristic, then 10 with
the horizon held at 3, then 15 against the heuristic, rush and seeder together."""
from __future__ import annotations

from bots.contract.schema import Param, Schema

PARAMS = [
    Param("horizon", "int", 1, 6, 2,
          "days ahead whose sun directions the projected income is averaged over (1: tomorrow only)"),
    Param("grow_days", "float", 0.0, 12.0, 4.32,
          "days a GROW's change in daily sun income is counted for (at most the days left)"),
    Param("w_opp", "float", -2.0, 6.0, 1.18, "score per sun point a move takes from the opponent (its shadows)"),
    Param("w_cost", "float", 0.0, 5.0, 0.868, "score penalty per sun point a move costs"),
    Param("prog1", "float", 0.0, 5.0, 0.149,
          "score per point a COMPLETE would earn (nutrients + richness bonus) for growing a seed to size 1"),
    Param("prog2", "float", 0.0, 5.0, 0.496, "the same for growing a size-1 tree to size 2"),
    Param("prog3", "float", 0.0, 5.0, 0.612, "the same for growing a size-2 tree to size 3"),
    Param("sun_per_point", "float", 0.5, 6.0, 3.62, "sun a point is worth on the last day"),
    Param("sun_per_point_left", "float", 0.0, 0.5, 0.154,
          "sun a point is worth less per day left (sun invested early brings more sun)"),
    Param("drop", "float", 0.0, 4.0, 3.29,
          "nutrients expected to be lost per day left: the points a COMPLETE secures by not waiting"),
    Param("complete_max_left", "int", 0, 23, 11,
          "no COMPLETE (before the last day and the sell-off) while more days than this are left"),
    Param("complete_bias", "float", -30.0, 30.0, -10.7, "added to the score of a COMPLETE before the last day"),
    Param("sell_ratio", "float", 0.0, 4.0, 2.81,
          "sell-off: complete while size-3 trees >= sell_ratio * days left (0: always)"),
    Param("last_margin", "float", -5.0, 10.0, -0.34,
          "last day: complete when nutrients + richness bonus exceed the sun bonus lost by this much"),
    Param("seed_max_cost", "int", 0, 6, 0, "seed only when a seed costs at most this many sun points"),
    Param("seed_min_left", "int", 0, 23, 1, "seed only while at least this many days are left"),
    Param("seed_base", "float", -20.0, 20.0, -3.31, "score of a SEED before its cell's terms"),
    Param("seed_w_rich", "float", -5.0, 10.0, 4.62, "seed score per richness point of the target cell"),
    Param("seed_w_line", "float", -10.0, 10.0, 6.44,
          "seed score penalty per own tree on the target's shadow lines (it would shade them or be shaded)"),
]

SCHEMA = Schema("sunrate", PARAMS)
