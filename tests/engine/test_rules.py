"""Rules the records show, checked on hand-made positions."""
import numpy as np

from engine import rules
from engine.geometry import DISTANCE, MIRROR, cells_of
from engine.maps import official_map
from engine.records import new_state_array


def position(trees, sun=(0, 0), league=3, seed=1, nutrients=20, day=0):
    """A state with the given trees [(cell, size, owner, dormant)] on the map of `seed` (holes removed)."""
    mp = official_map(seed, league)
    mp[0]["richness"][:] = np.where(mp[0]["richness"] == 0, 1, mp[0]["richness"])
    mp[0]["by_richness"][:] = [sum(1 << c for c in range(37) if mp[0]["richness"][c] == r) for r in range(4)]
    s = new_state_array()
    rules.new_game(mp[0], s[0])
    s[0]["trees"][:] = 0
    s[0]["mine"][:] = 0
    for cell, size, owner, dormant in trees:
        s[0]["trees"][size] |= 1 << cell
        s[0]["mine"][owner] |= 1 << cell
        if dormant:
            s[0]["dormant"] |= 1 << cell
    s[0]["sun"][:] = sun
    s[0]["nutrients"] = nutrients
    s[0]["day"] = day
    return mp[0], s[0]


def test_seed_conflict_plants_nothing_refunds_and_keeps_sources_dormant():
    mp, s = position([(19, 2, 0, 0), (22, 2, 1, 0), (0, 0, 0, 0)], sun=(5, 5))
    target = 8
    assert DISTANCE[19 * 37 + target] <= 2 and DISTANCE[22 * 37 + target] <= 2
    result = rules.resolve_turn(mp, s, rules.SEED, 19, target, rules.SEED, 22, target)
    assert result[6] == target
    assert list(s["sun"]) == [5, 5]
    assert not s["trees"][0] >> target & 1
    assert s["dormant"] >> 19 & 1 and s["dormant"] >> 22 & 1
    assert list(s["waiting"]) == [0, 0]


def test_seed_cost_is_paid_after_planting_and_counts_own_seeds():
    mp, s = position([(19, 2, 0, 0), (20, 0, 0, 0), (21, 0, 0, 0)], sun=(2, 0))
    assert rules.seed_cost(s, 0) == 2
    rules.resolve_turn(mp, s, rules.SEED, 19, 7, rules.WAIT, 0, 0)
    assert s["sun"][0] == 0 and s["trees"][0] >> 7 & 1 and s["mine"][0] >> 7 & 1 and s["dormant"] >> 7 & 1


def test_simultaneous_completes_score_the_same_nutrients_and_drop_two():
    mp, s = position([(0, 3, 0, 0), (19, 3, 1, 0)], sun=(4, 4), nutrients=1)
    rules.resolve_turn(mp, s, rules.COMPLETE, 0, 0, rules.COMPLETE, 19, 0)
    assert list(s["score"]) == [1 + 4, 1 + 0]
    assert s["nutrients"] == 0
    assert s["trees"][3] == 0


def test_grow_costs_count_own_trees_of_the_target_size():
    mp, s = position([(1, 2, 0, 0), (2, 3, 0, 1), (3, 3, 1, 0)], sun=(8, 0))
    assert rules.grow_cost(s, 0, 2) == 7 + 1
    code = rules.resolve_turn(mp, s, rules.GROW, 1, 0, rules.WAIT, 0, 0)[0]
    assert code == rules.OK and s["sun"][0] == 0 and s["trees"][3] >> 1 & 1


def test_rejected_action_sleeps_and_changes_nothing_else():
    mp, s = position([(1, 2, 0, 0)], sun=(3, 0))
    before = s.copy()
    code, x, y = rules.resolve_turn(mp, s, rules.GROW, 1, 0, rules.WAIT, 0, 0)[:3]
    assert (code, x, y) == (rules.NOT_ENOUGH_SUN, 7, 3)
    assert s["waiting"][0] == 1 and s["sun"][0] == 3 and s["dormant"] == before["dormant"]


def test_check_order_of_a_seed_follows_the_referee():
    mp, s = position([(19, 0, 0, 0), (20, 1, 1, 0), (21, 2, 0, 1)], sun=(9, 9))
    check = lambda a, b: rules.check_action(mp, s, 0, rules.SEED, a, b)[:3]
    assert check(40, 50) == (rules.CELL_NOT_FOUND, 50, 0)
    assert check(40, 5) == (rules.CELL_NOT_FOUND, 40, 0)
    assert check(19, 20) == (rules.CELL_NOT_EMPTY, 20, 0)
    assert check(5, 6) == (rules.TREE_NOT_FOUND, 5, 0)
    assert check(19, 6) == (rules.IS_SEED, 19, 0)
    assert check(20, 6) == (rules.NOT_OWNER, 20, 0)
    assert check(21, 6) == (rules.DORMANT, 21, 0)


def test_shadows_are_spooky_only_on_trees_not_taller():
    mp, s = position([(0, 2, 0, 0), (1, 1, 1, 0), (8, 3, 1, 0)], day=0)  # the sun points to direction 0
    gained = rules.start_day(mp, s)
    # cell 1 is one step from 0 in direction 0 (shadow 2 >= 1: spooky); 7 is two steps (the shadow ends at 1 + 2)
    assert gained == (2, 3)


def test_end_bonuses_sun_then_trees_on_a_tie_and_none_for_the_disqualified():
    mp, s = position([(1, 1, 0, 0), (2, 1, 0, 0), (3, 1, 1, 0)], sun=(5, 3))
    s["score"][:] = (10, 11)
    assert rules.final_scores(s) == (11, 12, 1, 1, 0, 0)  # no tie: no tree bonus
    s["score"][:] = (10, 10)
    assert rules.final_scores(s) == (11 + 2, 11 + 1, 1, 1, 2, 1)  # tied on points: one point per tree
    rules.disqualify(s, 1)
    assert rules.final_scores(s) == (11 + 2, -1, 1, 0, 2, 0)  # one active player: always a "tie"


def test_mirror_is_an_involution_and_opposite():
    assert all(MIRROR[MIRROR[c]] == c for c in range(37))
    assert MIRROR[0] == 0 and MIRROR[1] == 4 and MIRROR[7] == 13 and MIRROR[19] == 28
    assert cells_of(0b1011) == [0, 1, 3]
