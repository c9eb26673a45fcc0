"""The `heuristic` bot's parameters: the tuner's search space, the parameter files' validation and `tuner params`.

Day-dependent values are written against `left`, the number of days after today (0 on the last day), so one
parameter set plays every league: league 2 has 6 days (left 5..0), league 1 a single day (left 0). Values
given at a few knots of `left` are interpolated linearly between them and held constant outside.

The compiled policy (`bots/heuristic/policy.py`) reads the parameters by index, in this order.
"""
from __future__ import annotations

from bots.contract.schema import Param, Schema

# The knots of `left` (days after today) where day-dependent parameters are given.
KNOTS = (1, 4, 8, 12)


def _knots(name: str, low: float, high: float, defaults, doc: str) -> list:
    return [Param(f"{name}_left{k}", "float", low, high, d, f"{doc} when {k} day(s) are left (interpolated)")
            for k, d in zip(KNOTS, defaults)]


PARAMS = [
    # COMPLETE: when to turn size-3 trees into points.
    Param("complete_max_left", "int", 0, 23, 11,
          "no COMPLETE (before the last day) while more days than this are left (11: from day 12 of 24)"),
    *_knots("keep3", 0.0, 15.0, (0.0, 0.3, 2.75, 7.25), "size-3 trees kept before completing one"),
    Param("keep3_per_opp3", "float", -2.0, 2.0, 0.0,
          "kept size-3 trees added per opponent size-3 tree (negative: race the opponent for nutrients)"),
    Param("keep3_per_lost_nutrient", "float", -1.0, 1.0, 0.05,
          "kept size-3 trees added per nutrient point already lost (negative: complete sooner as nutrients fall)"),
    Param("sell_ratio", "float", 0.0, 4.0, 1.45,
          "sell-off: complete while size-3 trees >= sell_ratio * days left (0: always)"),
    Param("complete_last_margin", "float", -5.0, 10.0, 0.9,
          "last day: complete when nutrients + richness bonus exceed the sun bonus lost by this much"),
    # GROW: which tree, and until when.
    Param("grow_min_left0", "int", 0, 23, 2, "grow a seed only while at least this many days are left"),
    Param("grow_min_left1", "int", 0, 23, 3, "grow a size-1 tree only while at least this many days are left"),
    Param("grow_min_left2", "int", 0, 23, 1, "grow a size-2 tree only while at least this many days are left"),
    Param("grow_prio0", "float", -20.0, 20.0, -5.4, "score bonus for growing a seed"),
    Param("grow_prio1", "float", -20.0, 20.0, 1.0, "score bonus for growing a size-1 tree"),
    Param("grow_prio2", "float", -20.0, 20.0, 2.0, "score bonus for growing a size-2 tree"),
    Param("grow_w_cost", "float", 0.0, 5.0, 0.38, "score penalty per sun point a GROW costs"),
    Param("grow_w_rich", "float", -5.0, 10.0, 2.5, "score per richness point of the grown tree's cell"),
    Param("grow_w_sun", "float", 0.0, 5.0, 1.5,
          "score per sun point a day the GROW adds to its own income (projected shadows, own trees included)"),
    Param("grow_w_sun_left", "float", 0.0, 1.0, 0.08,
          "extra score per sun point a day of own income gain, per day left"),
    Param("grow_w_opp", "float", -5.0, 10.0, 1.8,
          "score per sun point a day the GROW takes from the opponent (its new shadows)"),
    Param("grow_horizon", "int", 0, 6, 1, "days of shadows projected for a GROW (0: none)"),
    Param("grow_min_score", "float", -30.0, 30.0, -10.0, "grow only when the best score reaches this"),
    # SEED: when and where.
    Param("seed_max_cost", "int", 0, 6, 0, "seed only when a seed costs at most this many sun points"),
    Param("seed_min_left", "int", 0, 23, 5, "seed only while at least this many days are left"),
    Param("seed_max_trees", "int", 1, 37, 12, "seed only while owning fewer trees than this (seeds included)"),
    Param("seed_min_dist", "int", 1, 4, 2, "seed only at this distance or more from its own trees"),
    Param("seed_w_rich", "float", -5.0, 10.0, 0.5, "seed score per richness point of the target cell"),
    Param("seed_w_own_line", "float", -10.0, 10.0, 2.5,
          "seed score penalty per own tree on the target's shadow lines (same line, distance <= 3)"),
    Param("seed_w_opp_line", "float", -10.0, 10.0, 0.0,
          "seed score penalty per opponent tree on the target's shadow lines"),
    Param("seed_min_score", "float", -30.0, 30.0, -7.3, "seed only when the best target's score reaches this"),
    Param("seed_first", "int", 0, 1, 0, "1: seed before growing (the source stays free of a GROW); 0: after"),
    # Added in 0.2 (0 keeps the play of earlier versions, whose parameter files may omit them).
    Param("grow_w_points", "float", 0.0, 3.0, 0.0,
          "GROW score per point a COMPLETE of the tree would earn now (nutrients + richness bonus), while it can "
          "still reach size 3 in the days left", since="0.2"),
    Param("seed_w_sun", "float", -3.0, 6.0, 0.0,
          "seed score per sun point a day a tree there would add to its owner and deny the opponent (shadows of "
          "the six coming sun directions, the other trees as they are)", since="0.2"),
]

SCHEMA = Schema("heuristic", PARAMS)
