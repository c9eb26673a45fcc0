"""A game as the official referee runs it, frame by frame, with the text protocol.

Frames follow the referee: GATHERING (day start), ACTIONS (one simultaneous turn) until both players sleep,
SUN_MOVE (day end), and so on until the last day ends or at most one player is still active. Each frame
produces a record in the format of the referee's recorded games (`shared/referee/README.md` §3), so a game
played here can be written as a trace and replayed like a recorded one.

Answers come from a callback ``ask(player, lines) -> str | None`` (None: no answer in time), given the
input's lines, or with ``play_frame(ask, encoded=True)`` the input's text as bytes (what a program reads:
the referee's fast path). ``play_frame(ask, record=False)`` skips building the record.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from engine import frames, rules
from engine.geometry import CELLS
from engine.leagues import League
from engine.leagues import league as league_by_number
from engine.maps import map_record, official_map
from engine.protocol import TIMEOUT_REASON, Command, global_input, parse_command, rejection_message
from engine.records import STATE_DTYPE, new_state_array

GATHERING = "GATHERING"
ACTIONS = "ACTIONS"
SUN_MOVE = "SUN_MOVE"

Ask = Callable[[int, "list | bytes"], Optional[str]]
WAIT_COMMAND = Command(rules.WAIT)  # the move of a player not asked
TIMEOUT_COMMAND = Command(rules.NO_ACTION, invalid=TIMEOUT_REASON, label="TIMEOUT")  # no answer in time

# Where each state field sits in the state record seen as int64s (every field is an int64 or an array of them).
_AT = {name: offset // 8 for name, (_, offset) in STATE_DTYPE.fields.items()}
SUN, SCORE, WAITING, ACTIVE = _AT["sun"], _AT["score"], _AT["waiting"], _AT["active"]
NUTRIENTS, DAY = _AT["nutrients"], _AT["day"]


@dataclass
class Outcome:
    """How a game ended: final scores, bonuses and the winner (None for a draw)."""

    final_scores: list
    score_before_bonus: list
    sun_bonus: list
    tree_bonus: list
    winner: Optional[int]
    deactivated: list = field(default_factory=list)


class Game:
    def __init__(self, seed: int, league_number: int):
        self.seed = seed
        self.league: League = league_by_number(league_number)
        self.maps = official_map(seed, league_number)
        self.map = self.maps[0]
        self.states = new_state_array()
        self.state = self.states[0]
        rules.new_game(self.map, self.state)
        self.rng = int(self.map["rng_after_init"])
        self.frame = 0
        self.phase = GATHERING
        self.executions = 0
        self.deactivated: list[dict] = []
        self.over = False
        self._moves = np.zeros(rules.MAX_MOVES, dtype=np.int64)
        self._texts = np.zeros((2, frames.MAX_INPUT_BYTES), dtype=np.uint8)
        self._values = self.states.view(np.int64)  # the state's fields as one int64 array
        self._rows = np.zeros((CELLS, 4), dtype=np.int64)
        self._global_text: Optional[bytes] = None

    # ---- what players see -------------------------------------------------------------------------------
    def global_input(self) -> list[str]:
        return global_input(self.map["richness"].tolist())

    def global_input_text(self) -> bytes:
        """The initialization lines as a program reads them."""
        if self._global_text is None:
            self._global_text = ("\n".join(self.global_input()) + "\n").encode()
        return self._global_text

    def trees(self) -> list[tuple[int, int, int, int]]:
        """(cell, size, owner, dormant) for every tree, by cell."""
        return [tuple(row) for row in self._tree_rows()]

    def _tree_rows(self) -> list[list[int]]:
        count = frames.tree_rows(self.states, self._rows)
        return self._rows[:count].tolist()

    def input_text(self, p: int) -> bytes:
        """Player p's input for this frame as a program reads it; draws the possible moves' order from the game
        RNG as the referee does."""
        length, self.rng = frames.input_text(self.maps, self.states, p, self.rng, self._moves, self._texts[p])
        return self._texts[p, :length].tobytes()

    def frame_input(self, p: int) -> list[str]:
        """input_text() as lines."""
        return self.input_text(p).decode().split("\n")[:-1]

    # ---- records -------------------------------------------------------------------------------------------
    def state_record(self, values: Optional[list] = None) -> dict:
        v = values if values is not None else self._values.tolist()
        return {
            "nutrients": v[NUTRIENTS],
            "players": [
                {"sun": v[SUN + p], "score": v[SCORE + p], "waiting": bool(v[WAITING + p]),
                 "active": bool(v[ACTIVE + p])}
                for p in range(2)
            ],
            "trees": self._tree_rows(),
        }

    def orientation(self) -> int:
        day = int(self.state["day"])
        return min(day, self.league.max_days - 1) % 6

    def header(self, p0: str, p1: str, timeouts_ms: list[int], sdk_duration_quota: bool = False) -> dict:
        record = map_record(self.seed, self.league.number)
        return {
            "t": "header", "seed": self.seed, "league": self.league.number, "p0": p0, "p1": p1,
            "max_days": self.league.max_days, "timeouts_ms": list(timeouts_ms),
            "sdk_duration_quota": sdk_duration_quota,
            "map": {k: record[k] for k in ("cells", "starting_trees", "rng_after_init")},
            "global_input": self.global_input(),
        }

    # ---- frames --------------------------------------------------------------------------------------------
    def play_frame(self, ask: Ask, encoded: bool = False, record: bool = True) -> Optional[dict]:
        """Play the next frame; return its record (None with record=False). `ask` gets each asked player's
        input as lines, or as the text's bytes with encoded=True."""
        if self.over:
            raise RuntimeError("the game is over")
        self.frame += 1
        if self.phase == GATHERING:
            result = self._gathering(record)
            self.phase = ACTIONS
        elif self.phase == ACTIONS:
            result = self._actions(ask, encoded, record)  # SUN_MOVE next once both players sleep
        else:
            result = self._sun_move(record)
            self.phase = GATHERING
        return result

    def _gathering(self, record: bool) -> Optional[dict]:
        if not record:
            self.over = bool(frames.gathering(self.maps, self.states)[2])
            return None
        s = self.state
        sun_before = [int(s["sun"][0]), int(s["sun"][1])]
        gained0, gained1, over = frames.gathering(self.maps, self.states)
        self.over = bool(over)
        shade = []
        if self.map["shadows"]:
            at_least1, at_least2, at_least3 = (int(b) for b in frames.shadows(self.states, int(s["day"]) % 6))
            for c in range(CELLS):
                if at_least1 >> c & 1:
                    shade.append([c, 3 if at_least3 >> c & 1 else 2 if at_least2 >> c & 1 else 1])
        return {
            "t": GATHERING, "turn": self.frame, "day": int(s["day"]), "sun_orientation": int(s["day"]) % 6,
            "nutrients": int(s["nutrients"]), "sun_before": sun_before, "gained": [int(gained0), int(gained1)],
            "sun_after": [int(s["sun"][0]), int(s["sun"][1])], "shadows": shade,
        }

    def _actions(self, ask: Ask, encoded: bool, record: bool) -> Optional[dict]:
        if record:
            values = self._values.tolist()
            result = {"t": ACTIONS, "turn": self.frame, "day": values[DAY], "sun_orientation": values[DAY] % 6,
                      "rng": self.rng, "before": self.state_record(values)}
        length0, length1, self.rng = frames.frame_inputs(self.maps, self.states, self.rng, self._moves, self._texts)
        texts = [None if length0 < 0 else self._texts[0, :length0].tobytes(),
                 None if length1 < 0 else self._texts[1, :length1].tobytes()]
        inputs = [None if t is None else t.decode().split("\n")[:-1] for t in texts] if record or not encoded \
            else texts
        outputs: list = [None, None]
        actions: list = [None, None]
        errors: list = [None, None]
        moves = [WAIT_COMMAND, WAIT_COMMAND]
        for p in (0, 1):
            if texts[p] is None:
                continue
            self.executions += 1
            line = ask(p, texts[p] if encoded else inputs[p])
            command = moves[p] = TIMEOUT_COMMAND if line is None else parse_command(line, self.league)
            if command.invalid is not None:  # kind NO_ACTION
                frames.disqualify(self.states, p)
                self.deactivated.append({"player": p, "turn": self.frame, "reason": command.invalid})
            if record:
                outputs[p], actions[p], errors[p] = line, command.name, command.invalid
        m0, m1 = moves
        code0, x0, y0, code1, x1, y1, conflict, over, day_done = frames.actions(
            self.maps, self.states, m0.kind, m0.a, m0.b, m1.kind, m1.a, m1.b)
        self.over = bool(over)
        if day_done:
            self.phase = SUN_MOVE
        if not record:
            return None
        for p, (code, x, y) in enumerate(((code0, x0, y0), (code1, x1, y1))):
            if errors[p] is None and texts[p] is not None:
                errors[p] = rejection_message(int(code), int(x), int(y))
        result.update({"input": inputs, "output": outputs, "action": actions, "error": errors,
                       "seed_conflict": None if conflict < 0 else int(conflict), "after": self.state_record()})
        return result

    def _sun_move(self, record: bool) -> Optional[dict]:
        day_before = int(self.state["day"])
        self.over = bool(frames.sun_move(self.maps, self.states))
        if not record:
            return None
        return {"t": SUN_MOVE, "turn": self.frame, "day_before": day_before, "day_after": int(self.state["day"]),
                "sun_orientation": self.orientation()}

    # ---- the end ------------------------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        s = self.state
        final0, final1, sun0, sun1, trees0, trees1 = (int(v) for v in frames.final_scores(self.states))
        winner = 0 if final0 > final1 else 1 if final1 > final0 else None
        return Outcome([final0, final1], [int(s["score"][0]), int(s["score"][1])], [sun0, sun1], [trees0, trees1],
                       winner, list(self.deactivated))

    def end_record(self, sdk_duration_quota: bool = False) -> dict:
        outcome = self.outcome()
        return {
            "t": "END", "turns": self.frame, "day": int(self.state["day"]), "player_executions": self.executions,
            "sdk_duration_quota": sdk_duration_quota, "quota_exceeded_at_execution": None, "sdk_failure": None,
            "deactivated": outcome.deactivated, "state": self.state_record(),
            "score_before_bonus": outcome.score_before_bonus, "sun_bonus": outcome.sun_bonus,
            "tree_bonus": outcome.tree_bonus, "final_scores": outcome.final_scores,
            "end_screen_scores": list(outcome.final_scores), "winner": outcome.winner,
            "draw": outcome.winner is None,
        }
