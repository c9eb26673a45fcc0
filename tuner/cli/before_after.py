"""The last lines of `tuner tune`: the start, the chosen bot and the bot's own defaults on the same fresh held-out
seeds at the playing budget, one row per opponent, a player's before and after at a glance.

The columns come from the gauntlets the finals record (`tuner.search.finals.gauntlets`): `gauntlet` plays the
chosen bot and the baseline (the study's start), `gauntlet_defaults` the bot's shipped defaults on the same seeds
when the start is another set of values (a first draft). A column whose bot is the start (nothing beat it) is left
out, and a cell whose opponent plays as the column's bot reads "itself": no row compares a bot with itself.
"""
from __future__ import annotations

from typing import Optional

from tuner.play.gauntlet import HELD_OUT, IN_POOL, Gauntlet

ITSELF = "itself"
GROUP_TITLES = {IN_POOL: "the pool's:", HELD_OUT: "held out (no trial met them):"}


def _cell(tally, itself: bool) -> str:
    if itself:
        return ITSELF
    low, high = tally.win_rate_ci
    return f"{tally.win_rate:6.1%} ({low:.0%}-{high:.0%})"


def before_after_lines(start: str, chosen: Optional[str], gauntlet: dict, defaults: Optional[dict] = None
                       ) -> list[str]:
    """The table's lines: a header, then per opponent (the pool's, then the held-out ones) each bot's win rate with
    its 95% interval. `start` names the baseline's column, `chosen` the chosen bot's (None when nothing beat the
    start: no column)."""
    played = Gauntlet.from_json(gauntlet)
    columns = [(start, [(r.baseline, r.baseline_itself) for r in played.rows])]
    if chosen is not None:
        columns.append((chosen, [(r.bot, r.itself) for r in played.rows]))
    if defaults is not None:
        columns.append(("defaults", [(r.bot, r.itself) for r in Gauntlet.from_json(defaults).rows]))
    width = max([len("opponent")] + [len(r.opponent) for r in played.rows]) + 2
    cell = max([20] + [len(name) + 2 for name, _ in columns])
    lines = [f"  {'opponent':<{width}}" + "".join(f"{name:<{cell}}" for name, _ in columns).rstrip()]
    group = None
    for i, row in enumerate(played.rows):
        if row.group and row.group != group:
            group = row.group
            lines.append("  " + GROUP_TITLES.get(group, group))
        cells = "".join(f"{_cell(*column[i]):<{cell}}" for _, column in columns).rstrip()
        lines.append(f"  {row.opponent:<{width}}{cells}")
    return lines
