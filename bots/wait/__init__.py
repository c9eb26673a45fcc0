"""`wait`: always WAIT."""
from bots.plugin import BotPlugin
from bots.wait.policy import wait_move

PLUGIN = BotPlugin("wait", "always WAIT", wait_move, exportable=False)
