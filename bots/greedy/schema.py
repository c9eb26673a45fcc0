"""The `greedy` bot's two parameters (the speed yardstick's bot: `shared/bench/README.md` section 5)."""
from __future__ import annotations

from bots.contract.schema import Param, Schema

# complete_day by league when not given: Wood 2 is a single day, Wood 1 six days.
DEFAULT_COMPLETE_DAY = {1: 0, 2: 3, 3: 12}

SCHEMA = Schema("greedy", [
    Param("complete_day", "int", 0, 100, 12, "COMPLETE from this day on (default by league: 0, 3, 12)"),
    Param("max_seeds", "int", 0, 37, 2, "SEED only while owning fewer seeds than this"),
])
