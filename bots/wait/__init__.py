"""`wait`: always WAIT."""
from bots.contract.plugin import BotPlugin
from bots.wait.policy import wait_move

PLUGIN = BotPlugin("wait", "always WAIT", wait_move, exportable=False)
