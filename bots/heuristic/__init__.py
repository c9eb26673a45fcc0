"""`heuristic`: the parameterised bot the tuner tunes first (33 parameters; `tuner params`)."""
from bots.contract.plugin import BotPlugin
from bots.heuristic.policy import heuristic_seat
from bots.heuristic.schema import SCHEMA

PLUGIN = BotPlugin(
    "heuristic",
    "COMPLETE on a stock schedule, GROW by size priority, cost, richness and sun income over the coming days' "
    "shadows, SEED when cheap, away from its own trees (33 parameters)",
    heuristic_seat, SCHEMA,
)
