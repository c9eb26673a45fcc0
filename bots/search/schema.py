"""The `search` bot's parameters, in the order the compiled policy reads them from `seat.params`."""
from __future__ import annotations

from bots.contract.schema import Param, Schema

OPPONENT_MODELS = ("heuristic", "sunrate", "both")

PARAMS = [
    Param("budget", "int", 1, 10000, 40,
          "simulated turns per move (playouts to the end of the game; `search:N` sets it)", perturbed=False),
    Param("min_gain", "float", 0.0, 50.0, 0.0,
          "an alternative replaces the base move only when its playout's margin is better by more than this"),
    Param("max_alternatives", "int", 0, 200, 200, "alternatives to the base move tried per move at most",
          perturbed=False),
    Param("bank_cap", "int", 1, 100, 4, "unspent budget saved for later moves, in moves' worth", perturbed=False),
    Param("opponent", "choice", None, None, "both",
          "how the playouts move the opponent: as the default heuristic, as the default sunrate, or both (a move's "
          "value is the mean of its two playouts); `heuristic` is the search of old, which any deviation from the "
          "default heuristic fooled", choices=OPPONENT_MODELS, perturbed=False),
]

SCHEMA = Schema("search", PARAMS)
