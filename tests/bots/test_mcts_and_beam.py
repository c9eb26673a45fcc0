"""The `mcts` and `beam` bots: legal moves only in every league (decision by decision, and through the text-protocol
referee), the same game from the same seed whatever the seat played or held before, parameters that reach the
play, the tree kept from one move to the next, and their names, parameters and export refusal."""
import json

import numpy as np
import pytest

from bots.beam.policy import (
    F_FIRSTS,
    I_CANDIDATES,
    I_FIRST_COUNT,
    I_FIRSTS,
    I_HORIZON,
    I_PASSES,
    I_REPLIES,
    I_REPLY_COUNT,
    I_RNG,
    I_ROLLOUT_DAYS,
    P_ROLLOUT_WIDTH,
    P_WIDTH,
    plan,
    rollout,
)
from bots.contract.names import BotSpecError, parse_bot
from bots.contract.seat import new_seat_array
from bots.mcts.tree import (
    CHILD,
    COUNT0,
    COUNT1,
    EDGES,
    I_CAP_NODES,
    I_COMPACTED,
    I_ITERATIONS,
    I_MOVE_ITERATIONS,
    I_MOVES,
    I_NODES,
    I_REUSED,
    I_ROOT,
    KEY,
    SIBLING,
    at,
    compact,
)
from bots.registry import kind_of, schema_for
from bots.running.arena import play_batch, play_results
from bots.running.dispatch import decide
from bots.running.player import player_for
from bots.shared.draws import seed_draws, uniform
from bots.shared.evaluation import FIRST_EVALUATION_PARAM, evaluate
from bots.shared.simulation import final_margin, step
from engine import rules
from engine.game import Game
from engine.javarandom import seed_state
from engine.maps import generate_map
from engine.players import TimeLimits
from engine.records import new_map_array, new_state_array
from engine.referee import play_refereed_game
from tests.bots.checked_game import play_checked
from tests.conftest import run_tuner

LIMITS = TimeLimits(first_ms=60000, turn_ms=60000)  # the first decision may wait for the compiler
BOTS = ("mcts", "beam")


def seats_of(*names: str, league: int = 3) -> np.ndarray:
    seats = new_seat_array(len(names))
    for i, name in enumerate(names):
        seats[i] = parse_bot(name, league).seat[0]
    return seats


def scores(names, seeds, league: int = 3, seats=None) -> list:
    """Each seed's final scores, the first bot as player 0 (its seat reused from game to game, as a batch does)."""
    seats = seats_of(*names, league=league) if seats is None else seats
    return play_batch(np.asarray(seeds, np.int64), league, seats).score.tolist()


@pytest.mark.parametrize("bot", [*BOTS, "beam:rollout_days=3"])
@pytest.mark.parametrize("league", [1, 2, 3])
def test_every_decision_is_legal_and_the_batch_plays_the_same_games(bot, league):
    decisions = 0
    for g, opponent in enumerate(["heuristic", "random:5", bot, "search:20", "beam" if bot == "mcts" else "mcts"]):
        for seed in (500 + 7 * g, 501 + 7 * g):
            names = (bot, opponent) if seed % 2 else (opponent, bot)
            seats = seats_of(*names, league=league)
            checked = play_checked(seed, league, [seats[:1].copy(), seats[1:].copy()])
            decisions += checked.decisions
            assert scores(names, [seed], league) == [checked.scores]
    assert decisions > {1: 40, 2: 200, 3: 800}[league]


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("league", [1, 3])
def test_the_referee_accepts_every_move(bot, league):
    side = league % 2
    players = [player_for(parse_bot(bot, league)), player_for(parse_bot("heuristic", league))]
    if side:
        players.reverse()
    report = play_refereed_game(60 + league, league, players, LIMITS)
    assert report.outcome.deactivated == []
    answered = [r for r in report.records if r["t"] == "ACTIONS" and r["output"][side] is not None]
    assert len(answered) > {1: 3, 3: 40}[league]
    assert [r["error"][side] for r in answered if r["error"][side]] == []
    assert any(r["action"][side] != "WAIT" for r in answered)


@pytest.mark.parametrize("bot", BOTS)
def test_a_seed_plays_the_same_game_whatever_the_seat_played_or_held_before(bot):
    seeds = [21, 22, 23, 24]
    first = dict(zip(seeds, map(tuple, scores((bot, "heuristic"), seeds))))
    backwards = dict(zip(seeds[::-1], map(tuple, scores((bot, "heuristic"), seeds[::-1]))))
    assert first == backwards
    assert len(set(first.values())) > 1
    seats = seats_of(bot, "heuristic")
    rng = np.random.default_rng(5)
    seats[0]["memory"] = rng.integers(-1000, 1000, seats[0]["memory"].shape)  # another game's tree, say
    seats[0]["memory_floats"] = rng.random(seats[0]["memory_floats"].shape)
    seats[0]["states"] = np.frombuffer(rng.bytes(seats[0]["states"].nbytes), seats[0]["states"].dtype)
    assert dict(zip(seeds, map(tuple, scores((bot, "heuristic"), seeds, seats=seats)))) == first


def test_mcts_keeps_its_tree_from_one_move_to_the_next():
    """With reuse, the visits found in the tree at its moves add up over a game; without, there are none, and the
    same iterations play other games."""
    counts = {}
    for reuse in (1, 0):
        seats = seats_of(f"mcts:iterations=4,reuse={reuse}", "heuristic")
        reused, iterations, games = [], [], []
        for seed in (31, 32, 33):
            games.append(play_results(np.array([seed], np.int64), 3, seats, [0], [1])[0, :2].tolist())
            reused.append(int(seats[0]["ints"][I_REUSED]))
            iterations.append(int(seats[0]["ints"][I_ITERATIONS]))
        counts[reuse] = (reused, iterations, games)
    (reused, iterations, games), (none, same_iterations, other_games) = counts[1], counts[0]
    assert min(reused) > 50 and none == [0, 0, 0]
    assert all(n > 0 for n in iterations) and all(n > 0 for n in same_iterations)
    assert games != other_games


def subtree(seat, node) -> tuple:
    """The subtree of `node` as plain values, whatever the indices: its key, each edge's move and statistics, and
    its children's subtrees in the order of their keys."""
    memory, floats = seat["memory"], seat["memory_floats"]
    first, count = memory[at(node, EDGES)], memory[at(node, COUNT0)] + memory[at(node, COUNT1)]
    edges = [(int(memory[seat["ints"][I_MOVES] + e]), float(floats[2 * e]), float(floats[2 * e + 1]))
             for e in range(first, first + count)]
    children, child = [], memory[at(node, CHILD)]
    while child >= 0:
        children.append(subtree(seat, child))
        child = memory[at(child, SIBLING)]
    return int(memory[at(node, KEY)]), int(memory[at(node, COUNT0)]), edges, sorted(children)


def size(tree: tuple) -> int:
    return 1 + sum(size(child) for child in tree[3])


def test_mcts_compacts_the_subtree_it_keeps_when_its_tree_fills():
    """At 300 iterations a move the engine's 512 nodes fill in a move or two: a game compacts the kept subtree
    rather than starting again; compacting slides the subtree down to the start of the memory, every node and
    edge statistic kept (checked on a tree grown without compaction, whose statistics are the search's own)."""
    seats = seats_of("mcts:300", "heuristic")
    play_results(np.array([7], np.int64), 3, seats, [0], [1])
    assert seats[0]["ints"][I_CAP_NODES] == 512 and seats[0]["ints"][I_COMPACTED] > 5
    players = [player_for(parse_bot("mcts:iterations=300,compact=0", 3)), player_for(parse_bot("heuristic", 3))]
    game = Game(7, 3)
    for p, player in enumerate(players):
        player.start(game, p)
    seat = players[0].seats[0]
    ints = seat["ints"]
    while game.state["day"] < 10 or ints[I_MOVE_ITERATIONS] == 0:  # mid-game, just after a search
        game.play_frame(lambda p, text: players[p].answer(text, 60.0), encoded=True, record=False)
    assert ints[I_COMPACTED] == 0
    children, child = [], seat["memory"][at(int(ints[I_ROOT]), CHILD)]
    while child >= 0:
        children.append(child)
        child = seat["memory"][at(child, SIBLING)]
    child = max(children, key=lambda c: size(subtree(seat, c)))  # the root's largest subtree
    kept = subtree(seat, child)
    assert size(kept) > 10 and child > 0
    assert compact(seat, child) == 0
    assert ints[I_NODES] == size(kept) and ints[I_COMPACTED] == 1
    key, counts, edges, children = subtree(seat, 0)
    assert (counts, edges, children) == kept[1:]


@pytest.mark.parametrize("bot, changed", [
    ("mcts", "grow_w_rich=-3"),  # its rollout policy's
    ("mcts", "iterations=6,opponent_first_play=-0.5"),  # its search's
    ("mcts", "sl_max_moves=2"),  # its shortlist's
    ("mcts", "iterations=6,rollout_epsilon=0.3"),  # its rollouts' randomness
    ("mcts", "iterations=6,rollout_jitter=0.3"),
    ("beam", "ev_sun=0.2"),  # its evaluation's
    ("beam", "width=1"),
    ("beam", "sl_max_seeds=0"),
    ("beam", "rollout_days=2"),  # its rollouts'
    ("beam", "rollout_days=2,rollout_candidates=2"),
    ("beam", "rollout_days=2,rollout_width=1"),
    ("beam:rollout_days=2", "rollout_days=8"),
    ("beam:rollout_days=2", "rollout_days=2,rollout_replies=3"),
    ("beam:rollout_days=2,rollout_replies=3", "rollout_days=2,rollout_replies=3,rollout_samples=3,rollout_spread=3"),
])
def test_the_parameters_reach_the_play(bot, changed):
    seeds = list(range(41, 47))
    name = bot.split(":")[0]
    assert scores((f"{name}:{changed}", "heuristic"), seeds) != scores((bot, "heuristic"), seeds)


def test_a_beam_file_from_before_the_rollouts_plays_as_it_did(tmp_path):
    """The rollout parameters came after the first beam files (`Param.since`): a file without them loads and plays
    the plain day planner, one without `rollout_replies` plays against the opponent's plan's move, one without
    `rollout_samples` and `rollout_spread` plays one pass of rollouts; a parameter the first files had is still
    required."""
    schema = schema_for("beam")
    added = [p.name for p in schema if p.since]
    assert added == ["rollout_days", "rollout_candidates", "rollout_width", "rollout_replies", "rollout_samples",
                     "rollout_spread"]

    def file_of(values, name):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"bot": "beam", "league": 3, "params": values}))
        return f"beam:{path}"

    seeds = list(range(41, 45))
    plain = {name: value for name, value in schema.defaults().items() if name not in added}
    assert scores((file_of(plain, "plain"), "heuristic"), seeds) == scores(("beam", "heuristic"), seeds)
    rolled = {**plain, "rollout_days": 2, "rollout_candidates": 4, "rollout_width": 2}
    assert (scores((file_of(rolled, "rolled"), "heuristic"), seeds)
            == scores(("beam:rollout_days=2,rollout_replies=1", "heuristic"), seeds))
    replied = {**rolled, "rollout_replies": 3}
    assert (scores((file_of(replied, "replied"), "heuristic"), seeds)
            == scores(("beam:rollout_days=2,rollout_replies=3", "heuristic"), seeds))
    with pytest.raises(BotSpecError, match="missing parameter 'width'"):
        parse_bot(file_of({name: value for name, value in plain.items() if name != "width"}, "no-width"), 3)


@pytest.mark.parametrize("one", ["rollout_samples=1,rollout_spread=4", "rollout_samples=6,rollout_spread=1"])
def test_a_beam_draws_the_opponents_moves_only_with_passes_and_a_spread(one):
    """More passes of rollouts need the opponent's moves drawn among several of its plans (`rollout_spread` > 1):
    with one pass, or a spread of one plan, the beam plays its deterministic rollouts' games."""
    seeds = list(range(41, 45))
    rolled = "beam:rollout_days=2,rollout_replies=3"
    assert scores((f"{rolled},{one}", "heuristic"), seeds) == scores((rolled, "heuristic"), seeds)


def test_bot_names_and_parameters():
    mcts = parse_bot("mcts:16", 3)
    assert mcts.seat[0]["kind"] == kind_of("mcts")
    assert mcts.params["iterations"] == 16 and parse_bot("mcts", 3).params["iterations"] == 2
    assert parse_bot("beam:8", 3).params["width"] == 8
    for bad in ("mcts:0", "mcts:x", "beam:17", "beam:0"):
        with pytest.raises(BotSpecError, match="iterations|width"):
            parse_bot(bad, 3)
    heuristic = schema_for("heuristic")
    mcts_schema = schema_for("mcts")
    assert [p.name for p in mcts_schema][:len(heuristic)] == [p.name for p in heuristic]  # its rollout policy first
    listed = run_tuner("params", "--bot", "mcts")
    assert listed.returncode == 0 and "opponent_first_play" in listed.stdout and "grow_w_rich" in listed.stdout


def test_the_search_bots_are_refused_by_the_python_export_with_one_line(tmp_path):
    """They export in C++ only (`tests/export/test_export_cpp.py`): the error says so."""
    for bot in BOTS:
        result = run_tuner("export", "--bot", bot, "-o", str(tmp_path / "out.py"))
        assert result.returncode == 2 and "cannot be exported in Python" in result.stderr, result.stderr
        assert "--lang cpp" in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.py").exists()


def game_of_seed_9():
    """The first position of the Bronze+ game of seed 9: (map, state) arrays of one."""
    mp, s = new_map_array(), new_state_array()
    generate_map(seed_state(9), 3, mp[0])
    rules.new_game(mp[0], s[0])
    rules.start_day(mp[0], s[0])
    return mp, s


def test_the_evaluation_is_zero_sum_and_exact_on_the_last_day():
    params = parse_bot("beam", 3).seat[0]["params"]
    first = schema_for("beam").index(FIRST_EVALUATION_PARAM)
    mp, s = game_of_seed_9()
    seats = seats_of("heuristic", "sunrate")
    values = []
    while True:
        if s[0]["day"] == mp[0]["max_days"] - 1:
            assert evaluate(mp[0], s[0], 0, params, first) == final_margin(s[0], 0)
        values.append(evaluate(mp[0], s[0], 0, params, first))
        assert evaluate(mp[0], s[0], 1, params, first) == pytest.approx(-values[-1])
        moves = [bot_move(seats, mp, s, p) for p in range(2)]
        if step(mp[0], s[0], *moves[0], *moves[1]):
            break
    assert len(set(values)) > 20


def a_few_days_in():
    """A game of seed 9 a few turns in, seeds and grows to choose from: (map, state) arrays of one."""
    mp, s = game_of_seed_9()
    for _ in range(4):
        moves = [bot_move(seats_of("heuristic", "sunrate"), mp, s, p) for p in range(2)]
        step(mp[0], s[0], *moves[0], *moves[1])
    return mp, s


def test_the_beams_rollouts_deepen_1_2_4_up_to_their_days_and_play_their_best():
    """At a fixed budget (the engine's) the beam plays its candidates out at each horizon of the schedule up to
    `rollout_days` (1, 2, 4, then 6: 3 candidates x 13 days), and its move is one of the candidates: the one whose
    6-day rollout ends best, which the same rollouts, replayed, confirm."""
    mp, s = a_few_days_in()
    seats = seats_of("beam:rollout_days=6,rollout_candidates=3")
    seat = seats[0]
    kind, a, b = bot_move(seats, mp, s, 0)
    ints = seat["ints"]
    assert ints[I_HORIZON] == 6 and ints[I_ROLLOUT_DAYS] == 3 * (1 + 2 + 4 + 6)
    candidates = [int(m) for m in ints[I_FIRSTS:I_FIRSTS + 3]]
    assert len(set(candidates)) == 3 and rules.encode_move(kind, a, b) in candidates
    values = [rollout(mp[0], s[0], 0, seat, m, -1, 6, int(seat["params"][P_ROLLOUT_WIDTH]), 1)[0] for m in candidates]
    assert candidates[values.index(max(values))] == rules.encode_move(kind, a, b)


def test_the_beams_rollouts_begin_with_the_opponents_best_replies_and_value_a_candidate_by_their_mean():
    """With `rollout_replies` R, each candidate is played out R times, the opponent's first move in each being one
    of the first moves of its R best day plans, and the candidate played is the one whose rollouts end best on
    average (3 candidates x 3 replies x (1 + 2) days), at every decision of a game; at some of them, a single reply
    would have chosen another."""
    mp, s = game_of_seed_9()
    seats = seats_of("beam:rollout_days=2,rollout_candidates=3,rollout_replies=3", "sunrate")
    seat, checked, changed = seats[0], 0, 0
    ints, params = seat["ints"], seat["params"]
    width = int(params[P_ROLLOUT_WIDTH])
    while True:
        moves = [bot_move(seats, mp, s, p) for p in range(2)]
        if not s[0]["waiting"][0] and not s[0]["waiting"][1] and ints[I_HORIZON] == 2 and ints[I_REPLY_COUNT] == 3:
            assert ints[I_ROLLOUT_DAYS] <= 3 * 3 * (1 + 2)
            candidates = [int(m) for m in ints[I_FIRSTS:I_FIRSTS + 3]]
            replies = [int(m) for m in ints[I_REPLIES:I_REPLIES + 3]]
            plan(mp[0], s[0], 1, seat, int(params[P_WIDTH]), True)  # the opponent's plans, by first move
            count = ints[I_FIRST_COUNT]
            best = dict(zip(ints[I_FIRSTS:I_FIRSTS + count].tolist(), seat["floats"][F_FIRSTS:F_FIRSTS + count]))
            assert len(set(replies)) == 3 and [best[r] for r in replies] == sorted(best.values(), reverse=True)[:3]
            values = [[rollout(mp[0], s[0], 0, seat, m, r, 2, width, 1)[0] for r in replies] for m in candidates]
            means = [np.mean(v) for v in values]
            assert candidates[int(np.argmax(means))] == rules.encode_move(*moves[0])
            changed += any(int(np.argmax([v[j] for v in values])) != int(np.argmax(means)) for j in range(3))
            checked += 1
        if step(mp[0], s[0], *moves[0], *moves[1]):
            break
    assert checked > 20 and changed > 0


def test_the_beams_sampled_passes_draw_the_opponents_later_moves_and_sum_the_passes():
    """With `rollout_samples` S and `rollout_spread` K, S - 1 passes follow the deterministic one, each playing every
    candidate out once more against each reply, the opponent's later moves drawn among the first moves of its K best
    day plans; the move played is the candidate whose passes sum highest. Replayed here from the bot's random state at
    every decision of a game: the same draws, the same choice; at some decisions the deterministic pass alone would
    have chosen another."""
    mp, s = game_of_seed_9()
    bot = "beam:rollout_days=2,rollout_candidates=3,rollout_replies=2,rollout_samples=3,rollout_spread=3"
    seats = seats_of(bot, "sunrate")
    seat, checked, changed = seats[0], 0, 0
    ints, params = seat["ints"], seat["params"]
    width = int(params[P_ROLLOUT_WIDTH])

    def mean_over_replies(move, replies, spread):
        value = 0.0
        for reply in replies:
            value += rollout(mp[0], s[0], 0, seat, move, reply, 2, width, spread)[0] / len(replies)
        return value

    while True:
        before = int(ints[I_RNG])
        moves = [bot_move(seats, mp, s, p) for p in range(2)]
        if not s[0]["waiting"][0] and ints[I_HORIZON] == 2 and ints[I_PASSES] == 3:
            after = int(ints[I_RNG])
            plan(mp[0], s[0], 0, seat, int(params[P_WIDTH]), True)
            candidates = [int(m) for m in ints[I_CANDIDATES:I_CANDIDATES + min(3, int(ints[I_FIRST_COUNT]))]]
            replies = [int(m) for m in ints[I_REPLIES:I_REPLIES + ints[I_REPLY_COUNT]]]
            ints[I_RNG] = before
            seed_draws(mp[0], s[0], 0, seat, I_RNG)
            first = [mean_over_replies(m, replies, 1) for m in candidates]
            sums = list(first)
            for _ in range(2):
                for i, m in enumerate(candidates):
                    sums[i] += mean_over_replies(m, replies, 3)
            assert int(ints[I_RNG]) == after
            assert candidates[int(np.argmax(sums))] == rules.encode_move(*moves[0])
            changed += int(np.argmax(first)) != int(np.argmax(sums))
            checked += 1
        if step(mp[0], s[0], *moves[0], *moves[1]):
            break
    assert checked > 20 and changed > 0


def test_a_bots_random_state_is_seeded_at_its_first_draw_of_a_game_only():
    """`seed_draws` seeds a zeroed state (a game's start) from the player's view, and leaves a state that has drawn
    alone: reseeding at every move would replay the same draws move after move."""
    mp, s = game_of_seed_9()
    seat = seats_of("beam")[0]
    seat["ints"][I_RNG] = 0
    seed_draws(mp[0], s[0], 0, seat, I_RNG)
    seeded = int(seat["ints"][I_RNG])
    uniform(seat, I_RNG)
    drawn = int(seat["ints"][I_RNG])
    seed_draws(mp[0], s[0], 0, seat, I_RNG)
    assert seeded != 0 and drawn != seeded and int(seat["ints"][I_RNG]) == drawn


def bot_move(seats, mp, s, p):
    if s[0]["waiting"][p]:
        return rules.WAIT, 0, 0
    return tuple(int(v) for v in decide(mp[0], s[0], p, seats[p]))
