import json

import pytest

from engine.javarandom import JavaRandom, seed_state
from engine.maps import map_record
from tests.conftest import run_tuner


def test_all_900_referee_maps(referee_maps):
    assert len(referee_maps) == 900
    mismatches = [(m["seed"], m["league"]) for m in referee_maps if map_record(m["seed"], m["league"]) != m]
    assert mismatches == []


def test_leagues_differ_as_the_referee_says(referee_maps):
    by_league = {league: [m for m in referee_maps if m["league"] == league] for league in (1, 2, 3)}
    for league, count, size in ((1, 12, 3), (2, 8, 1), (3, 4, 1)):
        for record in by_league[league]:
            assert len(record["starting_trees"]) == count
            assert {t["size"] for t in record["starting_trees"]} == {size}
    assert all(c["richness"] > 0 for m in by_league[1] + by_league[2] for c in m["cells"])
    assert any(c["richness"] == 0 for m in by_league[3] for c in m["cells"])


@pytest.mark.parametrize("seed", [0, -1, 2**63 - 1, -(2**63), 123456789012345])
def test_extreme_seeds_give_a_map_with_mirrored_starting_trees(seed):
    record = map_record(seed, 3)
    owners = {t["cell"]: t["owner"] for t in record["starting_trees"]}
    assert sorted(owners.values()) == [0, 0, 1, 1]
    assert all(c["richness"] > 0 for c in record["cells"] if c["index"] in owners)


def test_java_random_matches_known_jdk_values():
    # new java.util.Random(42).nextInt(10) x 5 gives 0, 3, 8, 4, 0 on every JDK
    rng = JavaRandom(42)
    assert [rng.next_int(10) for _ in range(5)] == [0, 3, 8, 4, 0]
    assert seed_state(42) == (42 ^ 0x5DEECE66D)


def test_map_command_prints_a_maps_jsonl_record(referee_maps):
    for record in (referee_maps[0], referee_maps[450], referee_maps[899]):
        result = run_tuner("map", "--seed", str(record["seed"]), "--league", str(record["league"]))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == record


@pytest.mark.parametrize("args, needle", [
    (["--seed", "abc"], "seed must be an integer"),
    (["--seed", str(2**63)], "not a 64-bit signed integer"),
    (["--seed", "1", "--league", "4"], "league must be 1"),
])
def test_map_command_rejects_bad_input(args, needle):
    result = run_tuner("map", *args)
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr
