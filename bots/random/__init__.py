"""`random[:seed]`: a uniformly random legal move, WAIT included, from its own seeded generator."""
from bots.contract.plugin import JAVA_LONG_MAX, JAVA_LONG_MIN, BotPlugin, Setup, int_argument
from bots.random.policy import random_move


def _seed(name: str, arg: str, league: int) -> Setup:
    return Setup({}, int_argument(arg, "seed", name, JAVA_LONG_MIN, JAVA_LONG_MAX))


PLUGIN = BotPlugin("random", "a uniformly random legal move, WAIT included", random_move, argument="seed",
                   parse_argument=_seed, exportable=False)
