"""The `mcts` bot's parameters, in the order its policy reads them from `seat.params`: first its rollout policy's
(the heuristic bot's parameters, same names and defaults, so that a tuned heuristic's file carries over by name),
then the search's and the shortlist's caps (`bots.shared.shortlist`)."""
from __future__ import annotations

from dataclasses import replace

from bots.contract.schema import Param, Schema
from bots.heuristic.schema import PARAMS as HEURISTIC_PARAMS
from bots.shared.shortlist import shortlist_params

ROLLOUT_PARAMS = [replace(p, doc=f"rollouts: {p.doc}") for p in HEURISTIC_PARAMS]

SEARCH_PARAMS = [
    Param("iterations", "int", 1, 100_000, 2,
          "iterations per move (each: down the tree, one new node, a rollout; `mcts:N` sets it)", perturbed=False),
    Param("bank_cap", "int", 1, 20, 3,
          "iterations saved from moves that need none (one move to consider), in moves' worth", perturbed=False),
    Param("reuse", "int", 0, 1, 1, "1: keep the tree from one move to the next where the game followed it",
          perturbed=False),
    Param("exploration", "float", 0.0, 5.0, 1.0,
          "weight of the exploration term (PUCT: prior times sqrt(N) / (1 + n))"),
    Param("prior", "float", 0.0, 1.0, 0.5,
          "share of the prior on the rollout policy's move among the bot's own moves (the rest shared by the others)"),
    Param("first_play", "float", -1.0, 1.0, -0.5,
          "an untried move of the bot's: the node's mean reward minus this (negative: tried before a tried one)"),
    Param("opponent_prior", "float", 0.0, 1.0, 0.8, "the same share among the opponent's moves"),
    Param("opponent_first_play", "float", -1.0, 1.0, 0.2, "the same for an untried move of the opponent's"),
    Param("reward_scale", "float", 0.5, 50.0, 8.0,
          "score margin that makes a reward of 3/4 (rewards: 1/2 + margin / (2 (|margin| + scale)))"),
    Param("compact", "int", 0, 1, 1, "a kept tree more than half full: 1 keeps the subtree of the position "
          "played, slid down in place; 0 starts again", perturbed=False),
    Param("rollout_epsilon", "float", 0.0, 0.5, 0.05,
          "rollouts: the chance of a random shortlisted move instead of the rollout policy's, per decision"),
    Param("rollout_jitter", "float", 0.0, 0.5, 0.05, "rollouts: each float weight of the rollout policy that "
          "is not 0 moved at random by up to this share of its range, for each rollout"),
    Param("search_forced", "int", 0, 1, 0, "1: search also where the bot has one move, for the tree it keeps "
          "(a timed C++ export's first turn); 0: save those iterations (`bank_cap`)", perturbed=False),
]

PARAMS = ROLLOUT_PARAMS + SEARCH_PARAMS + shortlist_params()

SCHEMA = Schema("mcts", PARAMS)
