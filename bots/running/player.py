"""Bots as players of the text-protocol referee: an in-engine bot, or a program (`engine.players`)."""
from __future__ import annotations

from typing import Optional

import numpy as np

from bots.contract.seat import start_seat
from bots.running.dispatch import decide_in
from engine.players import Player, ProgramPlayer
from engine.protocol import format_move


class BotPlayer(Player):
    """An in-engine bot deciding from the game state with the same compiled policy the arena runs."""

    def __init__(self, name: str, seat: np.ndarray):
        self.name = name
        self.seats = seat.copy().reshape(1)

    def start(self, game, index: int) -> None:
        super().start(game, index)
        start_seat(self.seats[0], game.seed, index)

    def answer(self, lines: list, limit_s: float) -> Optional[str]:
        return format_move(*decide_in(self.game.maps, self.game.states, self.index, self.seats))


def player_for(bot) -> Player:
    """The referee's player for a `bots.contract.names.Bot`."""
    if bot.in_engine:
        return BotPlayer(bot.name, bot.seat)
    return ProgramPlayer(bot.name, bot.command, bot.limits)
