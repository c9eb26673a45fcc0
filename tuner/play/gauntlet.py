"""A gauntlet: one bot, and a baseline on the same seeds, against a panel of opponents, one row per opponent.

Each row gives the bot's win rate with its 95% interval (Wilson), Elo and mean score margin, the same for the
baseline, and their difference: the mean paired difference of their points on the same seed pairs (win 1,
draw 1/2, loss 0, averaged over the pair's two games) with a 95% interval (Student's t over the pairs:
common random numbers make it much narrower than comparing two independent win rates). A row where the
interval lies wholly below zero is a regression: the bot is significantly worse than the baseline there.

The panel may be in groups: a tuned bot's gauntlet shows the opponents of its tuning pool apart from the held-out
ones no trial met, each group with its mean gain, and the ratio of the held-out gain to the in-pool one: how
much of what the tuning gained survives against opponents it never saw.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from bots.contract.names import Bot
from tuner.play.runner import GameRunner
from tuner.play.stats import Tally, elo_difference, pair_points, tally


@dataclass
class Difference:
    mean: float  # bot's mean points per pair minus the baseline's, in win-rate units
    ci: tuple
    elo: float  # the bot's Elo minus the baseline's (from their win rates)

    @property
    def regression(self) -> bool:
        return self.ci[1] < 0

    @property
    def improvement(self) -> bool:
        return self.ci[0] > 0

    def to_json(self) -> dict:
        return {"mean": round(self.mean, 6), "ci": [round(x, 6) for x in self.ci], "elo": round(self.elo, 1),
                "regression": self.regression, "improvement": self.improvement}


IN_POOL, HELD_OUT = "in the pool", "held out"


@dataclass
class GauntletRow:
    opponent: str
    bot: Tally
    baseline: Optional[Tally] = None
    difference: Optional[Difference] = None
    disqualified: int = 0  # games the bot lost to a disqualification (programs)
    opponent_disqualified: int = 0  # games the bot won by the opponent's disqualification: they measure nothing
    group: str = ""  # IN_POOL, HELD_OUT, or "" for a panel without groups
    baseline_disqualified: int = 0  # games the baseline lost to a disqualification
    itself: bool = False  # the opponent plays as the bot does: a row that measures nothing
    baseline_itself: bool = False  # the same for the baseline

    def to_json(self) -> dict:
        out = {"opponent": self.opponent, "bot": self.bot.to_json(), "disqualified": self.disqualified,
               "opponent_disqualified": self.opponent_disqualified}
        if self.group:
            out["group"] = self.group
        out.update({name: True for name in ("itself", "baseline_itself") if getattr(self, name)})
        if self.baseline is not None:
            out["baseline"] = self.baseline.to_json()
            out["difference"] = self.difference.to_json()
            out["baseline_disqualified"] = self.baseline_disqualified
        return out


@dataclass(frozen=True)
class GroupGain:
    """A group's gains over the baseline: the mean paired difference (win-rate units) and the mean Elo gain."""

    opponents: int
    difference: float
    elo: float

    def to_json(self) -> dict:
        return {"opponents": self.opponents, "difference": round(self.difference, 6), "elo": round(self.elo, 1)}


@dataclass
class Gauntlet:
    bot: str
    baseline: Optional[str]
    pairs: int
    rows: list = field(default_factory=list)

    @property
    def regressions(self) -> list:
        return [r.opponent for r in self.rows if r.difference is not None and r.difference.regression]

    @property
    def always_disqualified(self) -> list:
        """The programs disqualified in every game they played here, whose games measure nothing: the bot and the
        baseline (in every row), then the opponents (in theirs)."""
        bot = [self.bot] if self.rows and all(r.disqualified == r.bot.games for r in self.rows) else []
        baseline = [self.baseline] if self.rows and all(
            r.baseline is not None and r.baseline_disqualified == r.baseline.games for r in self.rows) else []
        return bot + baseline + [r.opponent for r in self.rows if r.opponent_disqualified == r.bot.games]

    @property
    def mean_elo_gain(self) -> Optional[float]:
        """The bot's Elo over the baseline's, averaged over the panel (None without a baseline)."""
        gains = [r.difference.elo for r in self.rows if r.difference is not None]
        return sum(gains) / len(gains) if gains else None

    def group_gains(self) -> dict:
        """Per group of the panel (in the pool, held out), its gains over the baseline: {} without groups or a
        baseline."""
        out = {}
        for group in (IN_POOL, HELD_OUT):
            rows = [r for r in self.rows if r.group == group and r.difference is not None]
            if rows:
                out[group] = GroupGain(len(rows), sum(r.difference.mean for r in rows) / len(rows),
                                       sum(r.difference.elo for r in rows) / len(rows))
        return out

    @property
    def transfer(self) -> Optional[float]:
        """The held-out group's mean difference over the in-pool group's (None without both, or without an
        in-pool gain to divide by)."""
        gains = self.group_gains()
        if IN_POOL not in gains or HELD_OUT not in gains or gains[IN_POOL].difference <= 0:
            return None
        return gains[HELD_OUT].difference / gains[IN_POOL].difference

    @classmethod
    def from_json(cls, data: dict) -> Gauntlet:
        rows = []
        for r in data["rows"]:
            row = GauntletRow(r["opponent"], Tally.from_json(r["bot"]), disqualified=r.get("disqualified", 0),
                              opponent_disqualified=r.get("opponent_disqualified", 0), group=r.get("group", ""),
                              baseline_disqualified=r.get("baseline_disqualified", 0),
                              itself=r.get("itself", False), baseline_itself=r.get("baseline_itself", False))
            if "baseline" in r:
                d = r["difference"]
                row.baseline = Tally.from_json(r["baseline"])
                row.difference = Difference(d["mean"], tuple(d["ci"]), d["elo"])
            rows.append(row)
        return cls(data["bot"], data["baseline"], data["pairs"], rows)

    def to_json(self) -> dict:
        out = {"bot": self.bot, "baseline": self.baseline, "pairs": self.pairs, "games_per_opponent": 2 * self.pairs,
               "rows": [r.to_json() for r in self.rows], "regressions": self.regressions,
               "mean_elo_gain": None if self.mean_elo_gain is None else round(self.mean_elo_gain, 1)}
        groups = self.group_gains()
        if groups:
            out["groups"] = {name: gain.to_json() for name, gain in groups.items()}
            out["transfer"] = None if self.transfer is None else round(self.transfer, 4)
        return out

    def table(self) -> list[str]:
        """The gauntlet as text lines (a table with one row per opponent)."""
        def rate(t: Tally) -> str:
            return (f"{t.win_rate:6.1%} ({t.win_rate_ci[0]:.1%}-{t.win_rate_ci[1]:.1%}) {t.elo:+5.0f} "
                    f"{t.mean_margin:+6.1f}")

        width = max([len(r.opponent) for r in self.rows] + [8])
        head = f"{'opponent':<{width}}  {'bot: win rate (95% CI)  Elo  margin':<38}"
        if self.baseline is not None:
            head += f"  {'baseline: win rate (95% CI)  Elo  margin':<38}  difference (95% CI)   Elo"
        lines = [head]
        group = ""
        for r in sorted(self.rows, key=lambda r: r.group == HELD_OUT):
            if r.group != group:
                group = r.group
                lines.append(f"{group}:" + (" (no trial met them)" if group == HELD_OUT else ""))
            line = f"{r.opponent:<{width}}  {rate(r.bot):<38}"
            if r.baseline is not None:
                d = r.difference
                flag = "  REGRESSION" if d.regression else ("  better" if d.improvement else "")
                line += (f"  {rate(r.baseline):<38}  {d.mean:+6.1%} ({d.ci[0]:+.1%} {d.ci[1]:+.1%})"
                         f" {d.elo:+5.0f}{flag}")
            if r.disqualified:
                line += f"  [{r.disqualified} disqualified]"
            if r.baseline_disqualified:
                line += f"  [baseline: {r.baseline_disqualified} disqualified]"
            if r.opponent_disqualified:
                line += f"  [opponent disqualified in {r.opponent_disqualified}]"
            lines.append(line)
        if self.mean_elo_gain is not None:
            lines.append(f"mean Elo gain over the baseline across the {len(self.rows)} opponents: "
                         f"{self.mean_elo_gain:+.0f}; {2 * self.pairs} games per opponent and bot"
                         + (f"; regressions: {', '.join(self.regressions)}" if self.regressions else "; no regression"))
        for name, gain in self.group_gains().items():
            lines.append(f"{name}: mean difference {gain.difference:+.1%}, mean Elo gain {gain.elo:+.0f} "
                         f"({gain.opponents} opponent{'s' if gain.opponents > 1 else ''})")
        if self.group_gains():
            lines.append("held-out gain / in-pool gain: " + ("-" if self.transfer is None else f"{self.transfer:.2f}")
                         + " (mean differences)")
        return lines


def paired_difference(bot_margins: np.ndarray, baseline_margins: np.ndarray) -> tuple[float, tuple]:
    """Mean and 95% t-interval of the per-pair points difference; margins (pairs, 2) on the same seeds."""
    diff = pair_points(bot_margins) - pair_points(baseline_margins)
    mean = float(diff.mean())
    if len(diff) < 2 or not diff.std(ddof=1):
        return mean, (mean, mean)
    from scipy import stats  # 1.5 s of imports: not for every command that imports this module (export)

    half = float(stats.t.ppf(0.975, len(diff) - 1) * diff.std(ddof=1) / math.sqrt(len(diff)))
    return mean, (mean - half, mean + half)


def _plays_alike(bot: Bot, other: Bot) -> bool:
    """Whether two bots play the same games on the same seeds: in-engine seats of the same bot with the same
    parameters and jitter (a study whose chosen bot is its baseline). Their games are played once."""
    return (bot.in_engine and other.in_engine and bot.plugin == other.plugin and bot.jitter == other.jitter
            and np.array_equal(bot.seat, other.seat))


def _disqualified_per_row(played, rows: int, pairs: int, candidate: bool) -> list[int]:
    """Per opponent (row), the games of `played` lost to a disqualification by the candidate, or by its opponent."""
    counts = [0] * rows
    for d in played.disqualifications:
        if d.candidate == candidate:
            counts[d.unit // pairs] += 1
    return counts


def run_gauntlet(runner: GameRunner, bot: Bot, opponents: dict, pair_seeds, baseline: Optional[Bot] = None,
                 held_out: tuple = ()) -> Gauntlet:
    """Play `bot` (and `baseline`, on the same seeds) against every opponent ({name: Bot}); with `held_out` (names
    among the opponents) the panel is in two groups, those and the others (the tuning pool's)."""
    names = list(opponents)
    n = len(pair_seeds)
    played = runner.play(bot, [opponents[k] for k in names], pair_seeds)
    margins = played.margins.reshape(len(names), n, 2)
    lost, opponent_lost = (_disqualified_per_row(played, len(names), n, side) for side in (True, False))
    base_margins = None
    base_lost = [0] * len(names)
    if baseline is not None and _plays_alike(bot, baseline):
        base_margins = margins
    elif baseline is not None:
        base_played = runner.play(baseline, [opponents[k] for k in names], pair_seeds)
        base_margins = base_played.margins.reshape(len(names), n, 2)
        base_lost = _disqualified_per_row(base_played, len(names), n, True)
    rows = []
    for i, name in enumerate(names):
        group = (HELD_OUT if name in held_out else IN_POOL) if held_out else ""
        row = GauntletRow(name, tally(margins[i]), disqualified=lost[i], opponent_disqualified=opponent_lost[i],
                          group=group, baseline_disqualified=base_lost[i], itself=_plays_alike(bot, opponents[name]),
                          baseline_itself=baseline is not None and _plays_alike(baseline, opponents[name]))
        if base_margins is not None:
            row.baseline = tally(base_margins[i])
            mean, ci = paired_difference(margins[i], base_margins[i])
            games = 2 * n
            row.difference = Difference(mean, ci, elo_difference(row.bot.win_rate, games)
                                        - elo_difference(row.baseline.win_rate, games))
        rows.append(row)
    return Gauntlet(bot.name, None if baseline is None else baseline.name, n, rows)
