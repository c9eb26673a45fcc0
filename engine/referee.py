"""The referee: plays one game between two players through the text protocol, as CodinGame does."""
from __future__ import annotations

import gc
import json
import threading
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from engine.cores import one_core
from engine.files import replaced_atomically
from engine.game import Game, Outcome
from engine.players import Ending, Player, PlayerReport, ProgramPlayer, TimeLimits


@dataclass(frozen=True)
class Disqualification:
    """A player the referee took out of the game: its reason as the trace records it ("Timeout!" for any
    missing answer, as CodinGame shows it), and what became of the program, which names a crash."""

    player: int
    turn: int  # the frame
    reason: str
    report: PlayerReport

    @property
    def ending(self) -> Ending:
        return self.report.ending

    def describe(self) -> str:
        """The reason, and the program's ending when there is more to say: "Timeout! (exited with code 1)"."""
        if self.ending is Ending.FINISHED:
            return self.reason
        return f"{self.reason} ({self.report.describe()})"


@dataclass
class GameReport:
    seed: int
    league: int
    outcome: Outcome
    players: list  # PlayerReport, by player index
    turns: int  # frames played
    records: list  # the game's records (header, frames, END); empty when play_refereed_game(records=False)
    disqualifications: list = field(default_factory=list)  # Disqualification, in the order they happened
    executions: int = 0  # answers asked of the players


_pause_lock = threading.Lock()
_pauses = 0
_collector_was_enabled = False


@contextmanager
def cycle_collector_paused():
    """A game's records are thousands of small acyclic lists and dicts. Kept alive, they make the cycle
    collector run a full collection every few games, each walking the whole heap (Numba's objects included)
    for nothing: more than half of a recorded game's cost. Reference counting frees them all the same;
    cycles made meanwhile wait for the collector's return. Several games at once (threads) pause it once."""
    global _pauses, _collector_was_enabled
    with _pause_lock:
        if _pauses == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _collector_was_enabled:
                gc.enable()


def play_refereed_game(seed: int, league: int, players: list[Player], limits: TimeLimits = TimeLimits(),
                       trace: Optional[Path] = None, records: bool = True) -> GameReport:
    """Play one game; write its records to `trace` (JSON lines) if given. Programs never outlive the game, and a
    game with one plays on a core of its own (`engine.cores`). records=False (and no trace) skips building the
    records: the cheapest game. A player with limits of its own (`Player.limits`: a program playing a short
    budget) is judged by them, the others by `limits`; the records' header gives `limits`."""
    keep = records or trace is not None
    with one_core() if any(isinstance(player, ProgramPlayer) for player in players) else nullcontext():
        if keep:
            with cycle_collector_paused():
                return _play(seed, league, players, limits, trace, True)
        return _play(seed, league, players, limits, None, False)


def _play(seed: int, league: int, players: list[Player], limits: TimeLimits, trace: Optional[Path],
          keep: bool) -> GameReport:
    game = Game(seed, league)
    kept = [game.header(players[0].name, players[1].name, [int(limits.first_ms), int(limits.turn_ms)])] if keep \
        else []
    own = [player.limits or limits for player in players]  # a player's own limits, else the game's
    limit = [own[0].for_turn(True), own[1].for_turn(True)]  # each player's first answer, then later ones
    later = [own[0].for_turn(False), own[1].for_turn(False)]

    def ask(p: int, text: bytes) -> Optional[str]:
        line = players[p].answer(text, limit[p])
        limit[p] = later[p]
        return line

    reports: list[PlayerReport] = []
    try:
        for p, player in enumerate(players):
            player.start(game, p)
        while not game.over:
            record = game.play_frame(ask, encoded=True, record=keep)
            if keep:
                kept.append(record)
        if keep:
            kept.append(game.end_record())
    finally:
        for player in players:
            reports.append(player.finish())
    if trace is not None:
        write_trace(trace, kept)
    outcome = game.outcome()
    disqualified = [Disqualification(d["player"], d["turn"], d["reason"], reports[d["player"]])
                    for d in outcome.deactivated]
    return GameReport(seed, league, outcome, reports, game.frame, kept, disqualified, game.executions)


def write_trace(path: Path, records: list) -> None:
    with replaced_atomically(path) as handle:
        for record in records:
            handle.write((json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8"))
