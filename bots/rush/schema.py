"""The `rush` bot's parameters, in the order its policy reads them. Day-dependent ones count the days left
after today (0 on the last day), so one parameter set plays the 24 days of Bronze+ and the 6 of Wood 1.

The ranges keep the style whatever a tuner finds: completing starts by day 11 of 24 at the latest, at most 3
size-3 trees are kept, at most 12 trees owned, seeds cost at most 2.
The defaults come from a 10-minute CMA-ES run of `tuner tune` (Bronze+) against the heuristic and greedy,
inside these ranges."""
from __future__ import annotations

from bots.contract.schema import Param, Schema

PARAMS = [
    Param("complete_max_left", "int", 12, 23, 12,
          "complete a size-3 tree as soon as it can once at most this many days are left (16: from day 7 of 24)"),
    Param("keep3", "int", 0, 3, 2, "size-3 trees kept (not completed) before the last days"),
    Param("keep_until_left", "int", 0, 23, 1, "from this many days left on, no size-3 tree is kept"),
    Param("last_margin", "float", -5.0, 10.0, -1.5,
          "last day: complete when nutrients + richness bonus exceed the sun bonus lost by this much"),
    Param("grow_w_size", "float", 0.0, 20.0, 14.6,
          "GROW score per size of the tree (large first: the nearer size 3, the sooner a COMPLETE)"),
    Param("grow_w_rich", "float", 0.0, 10.0, 6.7, "GROW score per richness point of the tree's cell"),
    Param("grow_w_cost", "float", 0.0, 5.0, 2.27, "GROW score penalty per sun point it costs"),
    Param("grow_spare_days", "int", 0, 6, 0,
          "grow a tree only while it can still reach size 3 and be completed with this many days to spare"),
    Param("seed_max_trees", "int", 1, 12, 7, "seed only while owning fewer trees than this (seeds included)"),
    Param("seed_max_cost", "int", 0, 2, 0, "seed only when a seed costs at most this many sun points"),
    Param("seed_min_left", "int", 0, 23, 0, "seed only while at least this many days are left"),
    Param("seed_min_dist", "int", 1, 4, 2, "seed only at this distance or more from its own trees"),
]

SCHEMA = Schema("rush", PARAMS)
