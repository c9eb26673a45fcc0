"""The `beam` bot's parameters, in the order its policy reads them from `seat.params`: the beam's, the shortlist's
caps (`bots.shared.shortlist`) and the evaluation's weights (`bots.shared.evaluation`).

The defaults of the shortlist and of the evaluation come from a CMA-ES run of `tuner tune` (Bronze+, seed 7022,
sigma 0.15, population 16, 1,600 trials of 60 seed pairs against heuristic, sunrate, heuristic~0.3 and
sunrate~0.3, width 4 and depth 6 held; 4 minutes on one core), started from the `sunrate` bot's values for the
evaluation's terms: its chosen trial won 87.5% of 800 held-out games against that pool, the starting point 45.5%
against the heuristic and 37.5% against sunrate on 200 held-out games each."""
from __future__ import annotations

from bots.contract.schema import Param, Schema
from bots.shared.evaluation import evaluation_params
from bots.shared.shortlist import MAX_SHORTLIST, shortlist_params

MAX_WIDTH = 16
MAX_REPLIES = MAX_SHORTLIST  # the opponent's first moves: those of its shortlist at most

PARAMS = [
    Param("width", "int", 1, MAX_WIDTH, 4, "day plans kept at each step of the beam", perturbed=False),
    Param("depth", "int", 1, 12, 6, "actions planned for the rest of the day at most", perturbed=False),
    *shortlist_params(max_moves=11, seed_max_cost=0, complete_max_left=11),
    *evaluation_params(),
    Param("rollout_days", "int", 0, 24, 0, "days each candidate first move is played out for, both players following "
          "their day plans (deepened 1, 2, 4 ... while the budget lasts; a timed export: until its deadline); 0: "
          "no rollouts, the plan's first move", perturbed=False, since="0.2"),
    Param("rollout_candidates", "int", 1, 16, 4, "first moves played out: those of the best day plans",
          perturbed=False, since="0.2"),
    Param("rollout_width", "int", 1, MAX_WIDTH, 2, "the day plans' beam width in rollouts", perturbed=False,
          since="0.2"),
    Param("rollout_replies", "int", 1, MAX_REPLIES, 1, "each candidate is played out once against each of the "
          "opponent's first moves of its best day plans, and valued by their mean; 1: against its plan's move",
          perturbed=False, since="0.2"),
    Param("rollout_samples", "int", 1, 4096, 1, "passes of rollouts (each candidate played out again against each "
          "reply), the opponent's later moves drawn among the first moves of its rollout_spread best day plans; a "
          "timed export: until its deadline; 1: one pass, its plans' moves", perturbed=False, since="0.2"),
    Param("rollout_spread", "int", 1, MAX_REPLIES, 1, "the opponent's best day plans a sampled rollout draws its "
          "later moves from", perturbed=False, since="0.2"),
]

SCHEMA = Schema("beam", PARAMS)
