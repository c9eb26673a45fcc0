"""What a study records with each trial, as one typed record: written by the search, read by the ranking, the
report, the export and the dashboard text.

A trial's user attributes hold:
  `worker`      host:pid of the process that runs it (set when it starts, so a running trial names its worker)
  `win_rate`    its win rate over all its games (draws count 1/2): what the dashboard lists and filters on;
                with `opponent_shares`, the mean over opponents of its win rate against each (its score)
  `pruned`      true for a trial the race dropped before it played every seed pair (its value is an estimate)
  `bot_params`  its full parameter set (the study file's fixed parameters included), to rebuild its bot
  `result`      everything else, in one attribute: games, wins, draws, losses, the win rate's 95% interval,
                the Elo difference and its interval, the mean score margin, the seed pairs it played, its
                results per opponent, its disqualifications (programs), the pairs' seeds as a reference to the
                study's `search_seeds` (with `order`, the first trial of its race), the versions' key in the
                study's `versions`, the date. A dropped trial's estimate is relative to the best fully played
                trial of its race (`race_best`)
  `baseline`    true for trial 0 (the defaults), `interrupted` for a trial stopped by Ctrl-C
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from tuner.play.stats import Tally

RESULT = "result"
PER_OPPONENT_KEYS = ("games", "wins", "draws", "losses", "win_rate")


@dataclass
class OpponentResult:
    """A trial's results against one opponent (a pool entry, or one member of the hall of fame)."""

    entry: str  # the pool entry it comes from: "heuristic", "hall-of-fame:3"
    games: int
    wins: int
    draws: int
    losses: int
    disqualified: int = 0  # games lost to a disqualification of this trial's bot (programs)
    opponent_disqualified: int = 0  # games won by the opponent's disqualification (programs)
    first_disqualification: Optional[dict] = None  # {"side", "seed", "reason", "stderr"}

    @property
    def win_rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def to_json(self) -> dict:
        out = {"entry": self.entry, "games": self.games, "wins": self.wins, "draws": self.draws,
               "losses": self.losses, "win_rate": round(self.win_rate, 6)}
        if self.disqualified or self.opponent_disqualified:
            out.update(disqualified=self.disqualified, opponent_disqualified=self.opponent_disqualified,
                       first_disqualification=self.first_disqualification)
        return out

    @classmethod
    def from_json(cls, data: dict) -> OpponentResult:
        return cls(data["entry"], data["games"], data["wins"], data["draws"], data["losses"],
                   data.get("disqualified", 0), data.get("opponent_disqualified", 0),
                   data.get("first_disqualification"))


@dataclass
class TrialRecord:
    """One trial's results and provenance."""

    bot_params: dict
    tally: Tally
    opponents: dict  # opponent name -> OpponentResult
    pairs_played: int
    pairs: int  # the study's seed pairs per opponent (the trial played the first `pairs_played` of its order)
    seed: int  # the study's seed: the pairs' seeds are tuner.play.seeds.game_seeds(seed, pairs, "search")
    order: int  # the race whose seed order the trial played (the order is derived from the study seed and it)
    pruned: bool = False
    versions: str = ""  # the key of the versions it ran with, in the study's user attribute `versions`
    date: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.tally.win_rate

    def entry_win_rates(self) -> dict:
        """Win rate per pool entry (the members of the hall of fame pooled under their entry)."""
        pooled: dict = {}
        for result in self.opponents.values():
            games, points = pooled.get(result.entry, (0, 0.0))
            pooled[result.entry] = (games + result.games, points + result.wins + result.draws / 2)
        return {entry: points / games if games else 0.0 for entry, (games, points) in pooled.items()}

    def to_attrs(self) -> dict:
        t = self.tally
        result = {
            "games": t.games, "wins": t.wins, "draws": t.draws, "losses": t.losses,
            "win_rate_ci": [round(x, 6) for x in t.win_rate_ci], "elo": round(t.elo, 1),
            "elo_ci": [round(x, 1) for x in t.elo_ci], "mean_margin": round(t.mean_margin, 3),
            "margin_ci": [round(x, 3) for x in t.margin_ci],
            "pairs_played": self.pairs_played,
            "opponents": {name: r.to_json() for name, r in self.opponents.items()},
            "seeds": {"seed": self.seed, "stream": "search", "pairs": self.pairs, "played": self.pairs_played,
                      "order": self.order},
            "versions": self.versions, "date": self.date, **self.extra,
        }
        return {"win_rate": round(t.win_rate, 6), "pruned": self.pruned, "bot_params": self.bot_params,
                RESULT: result}

    @classmethod
    def from_trial(cls, trial) -> Optional[TrialRecord]:
        """The record of a finished trial, or None for a trial without one (running, failed, foreign)."""
        attrs = trial.user_attrs
        if RESULT not in attrs or "bot_params" not in attrs:
            return None
        r = attrs[RESULT]
        tally = Tally(r["games"], r["wins"], r["draws"], r["losses"], attrs["win_rate"], tuple(r["win_rate_ci"]),
                      r["elo"], tuple(r["elo_ci"]), r["mean_margin"], tuple(r.get("margin_ci", (0.0, 0.0))))
        known = {"games", "wins", "draws", "losses", "win_rate_ci", "elo", "elo_ci", "mean_margin", "margin_ci",
                 "pairs_played", "opponents", "seeds", "versions", "date"}
        return cls(attrs["bot_params"], tally,
                   {name: OpponentResult.from_json(o) for name, o in r["opponents"].items()},
                   r["pairs_played"], r["seeds"]["pairs"], r["seeds"]["seed"], r["seeds"].get("order", 0),
                   bool(attrs.get("pruned", False)), r.get("versions", ""), r.get("date", ""),
                   {k: v for k, v in r.items() if k not in known})

    def summary(self) -> dict:
        """A flat view for tables: the figures a user compares trials by."""
        t = self.tally
        return {"win rate": t.win_rate, "95% CI": f"{t.win_rate_ci[0]:.1%} - {t.win_rate_ci[1]:.1%}",
                "games": t.games, "Elo": round(t.elo, 1), "pruned": self.pruned}


def opponent_results(record: TrialRecord) -> dict:
    """Per opponent, the figures of `PER_OPPONENT_KEYS` (for JSON output)."""
    return {name: {k: getattr(r, k) for k in PER_OPPONENT_KEYS} for name, r in record.opponents.items()}


__all__ = ["RESULT", "OpponentResult", "TrialRecord", "asdict", "opponent_results"]
