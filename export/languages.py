"""What `tuner export` offers: its languages and a C++ search's time budget. No compiled code is imported here, so
the command line can list them before anything is compiled."""
from __future__ import annotations

LANGUAGES = {"python": "Python", "cpp": "C++"}  # `--lang`: the name it is written in
DEFAULT_TIME_MS = 90  # `--time-ms` alone: CodinGame allows 100 ms a turn, the rest is the margin for the pipes
FIRST_TURN_FACTOR = 10  # the first turn's budget, in turns' budgets (CodinGame: 1,000 ms, then 100 ms)
