"""What differs between the three leagues (the official referee's `Game.init`)."""
from __future__ import annotations

from dataclasses import dataclass

LEAGUE_NAMES = {1: "Wood 2", 2: "Wood 1", 3: "Bronze+"}


@dataclass(frozen=True)
class League:
    number: int
    max_days: int
    can_grow: bool
    can_seed: bool
    shadows: bool
    holes: bool
    starting_pairs: int
    starting_size: int
    starting_distance: int
    starting_on_edge: bool

    @property
    def name(self) -> str:
        return LEAGUE_NAMES[self.number]

    @property
    def expected_commands(self) -> str:
        """The grammar the referee quotes when it rejects a line."""
        if not self.can_grow and not self.can_seed:
            return "COMPLETE <idx> | WAIT"
        if not self.can_seed:
            return "GROW <idx> | COMPLETE <idx> | WAIT"
        return "SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT"


LEAGUES = {
    1: League(1, 1, False, False, False, False, 6, 3, 0, False),
    2: League(2, 6, True, False, False, False, 4, 1, 1, False),
    3: League(3, 24, True, True, True, True, 2, 1, 2, True),
}


def league(number: int) -> League:
    try:
        return LEAGUES[number]
    except KeyError:
        raise ValueError(f"league {number!r} does not exist (allowed: 1 = Wood 2, 2 = Wood 1, 3 = Bronze+)") from None
