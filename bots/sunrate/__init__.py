"""The `sunrate` bot: every legal move scored one move ahead by what it does to the sun income of the coming
days (its own yield, the shadows it casts on its own and on the opponent's trees, for the sun directions of
those days), minus its cost; COMPLETE when the points it secures now beat the income the tree would still
bring (nutrients fall as the game goes on), or when the size-3 trees outnumber the days left to sell them."""
from bots.contract.plugin import BotPlugin
from bots.sunrate.policy import sunrate_move
from bots.sunrate.schema import SCHEMA

PLUGIN = BotPlugin("sunrate", "every legal move scored one move ahead by the sun income it adds over the coming days, "
                   "minus its cost; COMPLETE on a schedule of nutrients and days left", sunrate_move, SCHEMA)
