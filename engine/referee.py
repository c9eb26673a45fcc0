"""The referee: plays one game between two players through the text protocol, as CodinGame does."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from engine.game import Game, Outcome
from engine.players import Player, PlayerReport, TimeLimits


@dataclass
class GameReport:
    seed: int
    league: int
    outcome: Outcome
    players: list
    turns: int
    records: list


def play_game(seed: int, league: int, players: list[Player], limits: TimeLimits = TimeLimits(),
              trace: Optional[Path] = None) -> GameReport:
    """Play one game; write its records to `trace` (JSON lines) if given. Programs never outlive the game."""
    game = Game(seed, league)
    records = [game.header(players[0].name, players[1].name, [int(limits.first_ms), int(limits.turn_ms)])]
    answered = [False, False]

    def ask(p: int, lines: list) -> Optional[str]:
        first = not answered[p]
        answered[p] = True
        return players[p].answer(lines, limits.for_turn(first))

    reports: list[PlayerReport] = []
    try:
        for p, player in enumerate(players):
            player.start(game, p)
        while not game.over:
            records.append(game.play_frame(ask))
        records.append(game.end_record())
    finally:
        for player in players:
            reports.append(player.finish())
    if trace is not None:
        write_trace(trace, records)
    return GameReport(seed, league, game.outcome(), reports, game.frame, records)


def write_trace(path: Path, records: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    tmp.replace(path)
