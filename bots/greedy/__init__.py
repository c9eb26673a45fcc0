"""`greedy[:complete_day,max_seeds]`: the speed yardstick's bot. COMPLETE from complete_day, else GROW the largest
affordable size, else SEED where it is free and not next to its own trees, else WAIT."""
from bots.contract.plugin import BotPlugin, BotSpecError, Setup, int_argument
from bots.greedy.policy import greedy_seat
from bots.greedy.schema import DEFAULT_COMPLETE_DAY, SCHEMA


def _positional(name: str, arg: str, league: int) -> Setup:
    parts = arg.split(",")
    if len(parts) != 2:
        raise BotSpecError(f"bot {name!r}: expected greedy:complete_day,max_seeds (for example greedy:12,2)")
    day, seeds = (SCHEMA.by_name[n] for n in ("complete_day", "max_seeds"))
    return Setup({"complete_day": int_argument(parts[0], "complete_day", name, day.low, day.high),
                  "max_seeds": int_argument(parts[1], "max_seeds", name, seeds.low, seeds.high)})


PLUGIN = BotPlugin(
    "greedy",
    "the speed yardstick's bot: COMPLETE from complete_day, else GROW the largest, else SEED where free "
    "(defaults by league: complete_day 0, 3, 12; max_seeds 2)",
    greedy_seat, SCHEMA, argument="complete_day,max_seeds", parse_argument=_positional,
    league_defaults=lambda league: {"complete_day": DEFAULT_COMPLETE_DAY[league]},
)
