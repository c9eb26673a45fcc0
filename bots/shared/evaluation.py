"""The value of a position for a bot that plans (`beam`), in sun points: player p's value minus its opponent's.

Each player's value counts what it has and what its trees promise, as the `sunrate` bot scores a move, so that
the change in value a move makes is close to that bot's score of the move (whose weights CMA-ES tuned):

    points     its points, each worth `ev_point` sun on the last day and `ev_point_left` less per day left
               (sun spent early brings more sun);
    sun        its sun in hand, `ev_sun` each;
    income     the sun its trees harvest a day, averaged over the sun's directions of the next `ev_horizon` days
               with today's shadows, counted for `ev_income_days` days (at most the days left): a tree that grows
               adds its own yield and the shadows it casts, a tree that shades the opponent's takes from it;
    growth     for each tree that can still reach size 3 and be completed, `ev_grown1` + ... + `ev_grownK` for its
               size K, times the points a COMPLETE would score now (nutrients + its cell's bonus);
    places     each tree (a seed included) `ev_place` + `ev_place_rich` per richness point of its cell -
               `ev_place_line` per own tree on its shadow lines (the shade it grows in, the shade it casts).

On the last day a position is worth its final margin: nothing is left to harvest or grow. The weights are
parameters of the bot (`evaluation_params`), read from its parameter vector from index `first` on.

Why not weights fitted to game outcomes: least squares on 72,000 positions of games between varied bots
predicts the final margin of heuristic self-play well (R^2 0.88), but the moves it prefers are no better than
the heuristic bot's own (tried on the choice among day plans: the fitted value's choice lost more points than
the heuristic's); a feature's correlation with the outcome is not the value of a move that changes it.
"""
from __future__ import annotations

from bots.contract.schema import Param
from bots.shared.simulation import final_margin
from bots.shared.sunlight import LINES, sun_of
from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount

EV_POINT, EV_POINT_LEFT, EV_SUN, EV_HORIZON, EV_INCOME_DAYS, EV_GROWN, EV_PLACE, EV_PLACE_RICH, EV_PLACE_LINE = (
    0, 1, 2, 3, 4, 5, 8, 9, 10)
EVALUATION_PARAMS = 11
FIRST_EVALUATION_PARAM = "ev_point"  # where a bot's schema holds the evaluation's weights


def evaluation_params() -> list[Param]:
    """The evaluation's weights as parameters, in the order `evaluate` reads them (one bot's copy). The defaults
    come from tuning the `beam` bot (its schema says how), starting from the `sunrate` bot's values for the same
    terms."""
    return [
        Param("ev_point", "float", 0.5, 8.0, 5.10, "evaluation: sun a point is worth on the last day"),
        Param("ev_point_left", "float", 0.0, 0.5, 0.153, "evaluation: sun a point is worth less, per day left"),
        Param("ev_sun", "float", 0.0, 3.0, 1.415, "evaluation: value of a sun point in hand"),
        Param("ev_horizon", "int", 1, 6, 1, "evaluation: days ahead whose sun directions the income is averaged over"),
        Param("ev_income_days", "float", 0.0, 23.0, 11.08,
              "evaluation: days the daily income (own trees' yield under the shadows) is counted for"),
        Param("ev_grown1", "float", 0.0, 5.0, 0.131,
              "evaluation: per point a COMPLETE would score, for a size-1 tree (if it can still be completed)"),
        Param("ev_grown2", "float", 0.0, 5.0, 0.520, "evaluation: the same, added for a size-2 tree"),
        Param("ev_grown3", "float", 0.0, 5.0, 1.469, "evaluation: the same, added for a size-3 tree"),
        Param("ev_place", "float", -20.0, 20.0, 8.86,
              "evaluation: value of a tree (a seed included) before its cell's terms"),
        Param("ev_place_rich", "float", -5.0, 10.0, 2.41, "evaluation: value of a tree per richness point of its cell"),
        Param("ev_place_line", "float", -10.0, 10.0, 3.85,
              "evaluation: value of a tree less, per own tree on its shadow lines"),
    ]


@kernel
def daily_income(mp, s, horizon):
    """Each player's harvest a day, averaged over the sun's directions of the next `horizon` days with today's
    trees and shadows: (p0's, p1's)."""
    t1 = s.trees[1]
    t2 = s.trees[2]
    t3 = s.trees[3]
    if not mp.shadows:
        return float(sun_of(s.mine[0], t1, t2, t3)), float(sun_of(s.mine[1], t1, t2, t3))
    total0 = 0
    total1 = 0
    for h in range(1, horizon + 1):
        spooky1, spooky2, spooky3 = rules.shadows(s, (s.day + h) % 6)
        sunny1 = t1 & ~spooky1
        sunny2 = t2 & ~spooky2
        sunny3 = t3 & ~spooky3
        total0 += sun_of(s.mine[0], sunny1, sunny2, sunny3)
        total1 += sun_of(s.mine[1], sunny1, sunny2, sunny3)
    return total0 / horizon, total1 / horizon


@hot
def growth_value(mp, s, q, params, first, left):
    """What player q's trees that can still be completed are worth toward their COMPLETE."""
    value = 0.0
    grown = 0.0
    for k in range(1, 4):
        grown += params[first + EV_GROWN + k - 1]
        if left >= 3 - k:
            bits = s.mine[q] & s.trees[k]
            while bits:
                c = lowest_bit(bits)
                bits &= bits - 1
                value += grown * (s.nutrients + rules.RICHNESS_BONUS[mp.richness[c]])
    return value


@hot
def place_value(mp, s, q, params, first):
    """What the cells of player q's trees are worth: their richness, less the own trees on their shadow lines."""
    mine = s.mine[q]
    bits = mine
    value = 0.0
    while bits:
        c = lowest_bit(bits)
        bits &= bits - 1
        value += params[first + EV_PLACE] + params[first + EV_PLACE_RICH] * mp.richness[c]
        value -= params[first + EV_PLACE_LINE] * popcount(LINES[c] & mine)
    return value


@hot
def player_value(mp, s, q, params, first, left, income):
    point = max(params[first + EV_POINT] - params[first + EV_POINT_LEFT] * left, 0.1)
    value = point * s.score[q] + params[first + EV_SUN] * s.sun[q]
    value += min(params[first + EV_INCOME_DAYS], float(left)) * income
    return value + growth_value(mp, s, q, params, first, left) + place_value(mp, s, q, params, first)


@kernel
def evaluate(mp, s, p, params, first):
    """Player p's value minus its opponent's, in sun points, for a position of a game that is not over. On the
    last day, the final margin if the game ended there."""
    left = mp.max_days - 1 - s.day
    if left <= 0:
        return float(final_margin(s, p))
    income0, income1 = daily_income(mp, s, min(max(int(params[first + EV_HORIZON]), 1), left))
    value0 = player_value(mp, s, 0, params, first, left, income0)
    value1 = player_value(mp, s, 1, params, first, left, income1)
    if p == 0:
        return value0 - value1
    return value1 - value0
