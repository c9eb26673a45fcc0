"""The `seeder` bot: plays for board control. It seeds whenever a seed is cheap, spread out from its own trees,
on cells that deny the opponent its next seeds and that put its trees on the opponent's shadow lines; it grows
broadly (its cheapest trees first) and completes late, selling its size-3 trees off in the last days."""
from bots.contract.plugin import BotPlugin
from bots.seeder.policy import seeder_move
from bots.seeder.schema import SCHEMA

PLUGIN = BotPlugin("seeder", "plays for board control", seeder_move, SCHEMA)
