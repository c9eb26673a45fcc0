"""The `seeder` bot's parameters, in the order its policy reads them. Day-dependent ones count the days left
after today (0 on the last day), so one parameter set plays the 24 days of Bronze+ and the 6 of Wood 1.

The ranges keep the style whatever a tuner finds: no COMPLETE before the last 8 days (but the last day's),
seeds bought at a cost of 1 or more, room for 8 trees or more, no strong preference for large trees, and
seeds drawn to the opponent's shadow lines (never pushed away from them).
The defaults come from CMA-ES runs of `tuner tune` (Bronze+) against the heuristic and greedy, the last one
inside these ranges."""
from __future__ import annotations

from bots.contract.schema import Param, Schema

PARAMS = [
    Param("complete_max_left", "int", 0, 8, 8,
          "sell-off: no COMPLETE (but on the last day) while more days than this are left (8: from day 15 of 24)"),
    Param("sell_ratio", "float", 0.0, 4.0, 1.47,
          "sell-off: complete while size-3 trees >= sell_ratio * days left (0: always)"),
    Param("sell_sun", "int", 4, 99, 23,
          "sell-off: also complete whenever it holds at least this many sun points (its forest is grown)"),
    Param("last_margin", "float", -5.0, 10.0, 0.87,
          "last day: complete when nutrients + richness bonus exceed the sun bonus lost by this much"),
    Param("grow_w_size", "float", -10.0, 4.0, 3.26,
          "GROW score per size of the tree (negative: the small ones first, a broad forest)"),
    Param("grow_w_rich", "float", -5.0, 10.0, 2.15, "GROW score per richness point of the tree's cell"),
    Param("grow_w_cost", "float", 0.0, 5.0, 0.01, "GROW score penalty per sun point it costs"),
    Param("grow_spare_days", "int", 0, 6, 1,
          "grow a tree only while it can still reach size 3 and be completed with this many days to spare"),
    Param("seed_max_cost", "int", 1, 6, 1, "seed only when a seed costs at most this many sun points"),
    Param("seed_max_trees", "int", 8, 37, 28, "seed only while owning fewer trees than this (seeds included)"),
    Param("seed_min_left", "int", 0, 23, 0, "seed only while at least this many days are left"),
    Param("seed_min_dist", "int", 1, 4, 2, "seed only at this distance or more from its own trees"),
    Param("seed_w_rich", "float", -5.0, 10.0, 3.08, "seed score per richness point of the target cell"),
    Param("seed_w_block", "float", -10.0, 10.0, 1.08,
          "seed score for a cell the opponent's trees could seed next (taking it from them)"),
    Param("seed_w_shade", "float", 0.0, 10.0, 1.06,
          "seed score per opponent tree on the target's shadow lines (distance <= 3: a tree there shades them)"),
    Param("seed_w_own", "float", -10.0, 10.0, 9.5,
          "seed score penalty per own tree on the target's shadow lines"),
    Param("seed_first", "int", 0, 1, 0, "1: seed before growing; 0: grow first"),
]

SCHEMA = Schema("seeder", PARAMS)
