"""A game as the official referee runs it, frame by frame, with the text protocol.

Frames follow the referee: GATHERING (day start), ACTIONS (one simultaneous turn) until both players sleep,
SUN_MOVE (day end), and so on until the last day ends or at most one player is still active. Each frame
produces a record in the format of the referee's recorded games (`shared/referee/README.md` §3), so a game
played here can be written as a trace and replayed like a recorded one.

Answers come from a callback ``ask(player, lines) -> str | None`` (None: no answer in time).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from engine import rules
from engine.geometry import CELLS
from engine.leagues import League, league as league_by_number
from engine.maps import map_record, official_map
from engine.protocol import TIMEOUT_REASON, format_move, global_input, parse_command, rejection_message
from engine.records import new_state_array

GATHERING = "GATHERING"
ACTIONS = "ACTIONS"
SUN_MOVE = "SUN_MOVE"

Ask = Callable[[int, list], Optional[str]]


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

    # ---- what players see -------------------------------------------------------------------------------
    def global_input(self) -> list[str]:
        return global_input(self.map["richness"])

    def trees(self) -> list[tuple[int, int, int, int]]:
        """(cell, size, owner, dormant) for every tree, by cell."""
        s = self.state
        by_size = [int(bits) for bits in s["trees"]]
        mine1 = int(s["mine"][1])
        dormant = int(s["dormant"])
        out = []
        for c in range(CELLS):
            for size in range(4):
                if by_size[size] >> c & 1:
                    out.append((c, size, mine1 >> c & 1, dormant >> c & 1))
        return out

    def possible_moves(self, p: int) -> list[str]:
        """The shuffled possible-moves list for player p; draws from the game RNG as the referee does."""
        count, self.rng = rules.possible_moves(self.map, self.state, p, self.rng, self._moves)
        return [format_move(*(int(v) for v in rules.decode_move(int(m)))) for m in self._moves[:count]]

    def frame_input(self, p: int) -> list[str]:
        s = self.state
        o = 1 - p
        lines = [
            str(int(s["day"])),
            str(int(s["nutrients"])),
            f"{int(s['sun'][p])} {int(s['score'][p])}",
            f"{int(s['sun'][o])} {int(s['score'][o])} {int(s['waiting'][o])}",
        ]
        trees = self.trees()
        lines.append(str(len(trees)))
        lines.extend(f"{c} {size} {1 if owner == p else 0} {dormant}" for c, size, owner, dormant in trees)
        moves = self.possible_moves(p)
        lines.append(str(len(moves)))
        lines.extend(moves)
        return lines

    def asked(self) -> list[bool]:
        """Which players get input this frame: active and awake."""
        s = self.state
        return [bool(s["active"][p]) and not bool(s["waiting"][p]) for p in range(2)]

    # ---- records -------------------------------------------------------------------------------------------
    def state_record(self) -> dict:
        s = self.state
        return {
            "nutrients": int(s["nutrients"]),
            "players": [
                {"sun": int(s["sun"][p]), "score": int(s["score"][p]), "waiting": bool(s["waiting"][p]),
                 "active": bool(s["active"][p])}
                for p in range(2)
            ],
            "trees": [list(t) for t in self.trees()],
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
    def play_frame(self, ask: Ask) -> dict:
        """Play the next frame and return its record."""
        if self.over:
            raise RuntimeError("the game is over")
        self.frame += 1
        if self.phase == GATHERING:
            record = self._gathering()
            self.phase = ACTIONS
        elif self.phase == ACTIONS:
            record = self._actions(ask)
            if self.state["waiting"][0] and self.state["waiting"][1]:
                self.phase = SUN_MOVE
        else:
            record = self._sun_move()
            self.phase = GATHERING
        self.over = bool(rules.game_over(self.map, self.state))
        return record

    def _gathering(self) -> dict:
        s = self.state
        sun_before = [int(s["sun"][0]), int(s["sun"][1])]
        gained = [int(g) for g in rules.start_day(self.map, s)]
        shade = []
        if self.map["shadows"]:
            at_least1, at_least2, at_least3 = (int(b) for b in rules.shadows(s, int(s["day"]) % 6))
            for c in range(CELLS):
                if at_least1 >> c & 1:
                    shade.append([c, 3 if at_least3 >> c & 1 else 2 if at_least2 >> c & 1 else 1])
        return {
            "t": GATHERING, "turn": self.frame, "day": int(s["day"]), "sun_orientation": int(s["day"]) % 6,
            "nutrients": int(s["nutrients"]), "sun_before": sun_before, "gained": gained,
            "sun_after": [int(s["sun"][0]), int(s["sun"][1])], "shadows": shade,
        }

    def _actions(self, ask: Ask) -> dict:
        s = self.state
        record = {"t": ACTIONS, "turn": self.frame, "day": int(s["day"]), "sun_orientation": int(s["day"]) % 6,
                  "rng": self.rng, "before": self.state_record()}
        asked = self.asked()
        inputs = [self.frame_input(p) if asked[p] else None for p in range(2)]
        outputs: list = [None, None]
        actions: list = [None, None]
        errors: list = [None, None]
        moves = [(rules.WAIT, 0, 0), (rules.WAIT, 0, 0)]
        for p in range(2):
            if inputs[p] is None:
                continue
            self.executions += 1
            line = ask(p, inputs[p])
            outputs[p] = line
            if line is None:
                actions[p], errors[p] = "TIMEOUT", TIMEOUT_REASON
            else:
                command = parse_command(line, self.league)
                actions[p], errors[p] = command.name, command.invalid
                moves[p] = (command.kind, command.a, command.b)
            if errors[p] is not None:
                rules.disqualify(s, p)
                moves[p] = (rules.NO_ACTION, 0, 0)
                self.deactivated.append({"player": p, "turn": self.frame, "reason": errors[p]})
        (kind0, a0, b0), (kind1, a1, b1) = moves
        code0, x0, y0, code1, x1, y1, conflict = (int(v) for v in rules.resolve_turn(
            self.map, s, kind0, a0, b0, kind1, a1, b1))
        for p, (code, x, y) in enumerate(((code0, x0, y0), (code1, x1, y1))):
            if errors[p] is None and inputs[p] is not None:
                errors[p] = rejection_message(code, x, y)
        record.update({"input": inputs, "output": outputs, "action": actions, "error": errors,
                       "seed_conflict": None if conflict < 0 else conflict, "after": self.state_record()})
        return record

    def _sun_move(self) -> dict:
        day_before = int(self.state["day"])
        rules.end_day(self.map, self.state)
        return {"t": SUN_MOVE, "turn": self.frame, "day_before": day_before, "day_after": int(self.state["day"]),
                "sun_orientation": self.orientation()}

    # ---- the end ------------------------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        s = self.state
        final0, final1, sun0, sun1, trees0, trees1 = (int(v) for v in rules.final_scores(s))
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
