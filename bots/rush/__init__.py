"""The `rush` bot: races the opponent for nutrients. It grows its largest trees first, on the richest cells,
toward size 3, completes a size-3 tree as soon as it can afford to once the game is past its opening (the
nutrients are still high), keeps only a small stock of size-3 trees, and seeds little: a few trees, far apart,
on rich cells."""
from bots.contract.plugin import BotPlugin
from bots.rush.policy import rush_move
from bots.rush.schema import SCHEMA

PLUGIN = BotPlugin("rush", "races the opponent for nutrients", rush_move, SCHEMA)
