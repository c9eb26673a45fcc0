"""The `search` bot: legal moves only in every league (through the text-protocol referee and decision by
decision), the same game from the same seed whatever came before, a budget that changes its play, its bot name
and parameters, and no blind spot that a heuristic tuned against the search of old still finds."""
import numpy as np
import pytest

from bots.contract.names import BotSpecError, bot_with_params, parse_bot
from bots.contract.seat import new_seat_array
from bots.registry import kind_of
from bots.running.arena import play_batch
from bots.running.player import player_for
from bots.search.schema import SCHEMA
from engine.players import TimeLimits
from engine.referee import play_refereed_game
from tests.bots.checked_game import play_checked
from tests.conftest import ROOT

LIMITS = TimeLimits(first_ms=60000, turn_ms=60000)  # the first decision may wait for the compiler


@pytest.mark.parametrize("league", [1, 2, 3])
@pytest.mark.parametrize("opponent, side", [("heuristic", 0), ("random:3", 1)])
def test_the_referee_accepts_every_move_of_the_search_bot(league, opponent, side):
    bots = [player_for(parse_bot("search", league)), player_for(parse_bot(opponent, league))]
    if side:
        bots.reverse()
    report = play_refereed_game(40 + league, league, bots, LIMITS)
    assert report.outcome.deactivated == []
    actions = [r for r in report.records if r["t"] == "ACTIONS"]
    answered = [r for r in actions if r["output"][side] is not None]
    assert len(answered) > {1: 3, 2: 10, 3: 40}[league]
    assert [r["error"][side] for r in answered if r["error"][side]] == []
    assert any(r["action"][side] != "WAIT" for r in answered)


@pytest.mark.parametrize("league", [1, 2, 3])
def test_every_decision_is_legal_and_the_batch_plays_the_same_games(league):
    opponents = ["heuristic", "greedy", "random:5", "search:20"]
    for g, opponent in enumerate(opponents):
        me = parse_bot("search", league).seat
        other = parse_bot(opponent, league).seat
        seed = 300 + g
        scores = play_checked(seed, league, [me.copy(), other.copy()]).scores
        seats = new_seat_array(2)
        seats[0], seats[1] = me[0], other[0]
        batch = play_batch(np.array([seed], np.int64), league, seats)
        assert batch.score[0].tolist() == scores


def test_a_seed_plays_the_same_game_whatever_was_played_before():
    seats = new_seat_array(2)
    seats[0] = parse_bot("search", 3).seat[0]
    seats[1] = parse_bot("random:9", 3).seat[0]
    seeds = np.array([11, 12, 13, 11, 13, 12], np.int64)
    first = play_batch(seeds, 3, seats)
    again = play_batch(seeds[::-1].copy(), 3, seats)
    scores = {int(seed): tuple(score) for seed, score in zip(seeds, first.score.tolist())}
    assert [scores[int(seed)] for seed in seeds] == [tuple(s) for s in first.score.tolist()]
    assert [scores[int(seed)] for seed in seeds[::-1]] == [tuple(s) for s in again.score.tolist()]
    seats[1] = parse_bot("heuristic", 3).seat[0]
    assert play_batch(seeds, 3, seats).score.tolist() == play_batch(seeds, 3, seats).score.tolist()


def test_the_budget_changes_the_play():
    seeds = np.arange(1, 11, dtype=np.int64)
    results = []
    for name in ("search:1", "search"):
        seats = new_seat_array(2)
        seats[0] = parse_bot(name, 3).seat[0]
        seats[1] = parse_bot("heuristic", 3).seat[0]
        results.append(play_batch(seeds, 3, seats).score.tolist())
    assert results[0] != results[1]


def test_search_beats_the_heuristic_it_plays_out():
    seats = new_seat_array(2)
    seats[0] = parse_bot("search", 3).seat[0]
    seats[1] = parse_bot("heuristic", 3).seat[0]
    seeds = np.arange(1, 31, dtype=np.int64)
    both = np.concatenate([seeds, seeds])
    swapped = np.arange(len(both)) >= len(seeds)
    result = play_batch(both, 3, seats, swapped)
    assert np.mean(result.winner == swapped.astype(np.int64)) > 0.7


def win_rate(bot: str, opponent: str, seeds) -> float:
    """The bot's win rate against the opponent, each seed played twice with the sides swapped (a draw: half)."""
    seats = new_seat_array(2)
    seats[0] = parse_bot(bot, 3).seat[0]
    seats[1] = parse_bot(opponent, 3).seat[0]
    both = np.concatenate([seeds, seeds])
    swapped = np.arange(len(both)) >= len(seeds)
    winner = play_batch(both, 3, seats, swapped).winner
    return float(np.mean(np.where(winner == 2, 0.5, winner == swapped)))


def test_a_heuristic_tuned_against_the_search_of_old_gains_little_against_the_search():
    """`tests/data/search_exploiter.json`: the heuristic tuned by CMA-ES against the search of old alone (its file
    says how), which won 49% against it where the default heuristic won 5% (1,000 games), but lost to the default
    heuristic itself (34%). Against the search of old (`opponent=heuristic`: its playouts move the opponent as the
    default heuristic) it still gains more than 30 points over the default heuristic here; against the search, whose
    playouts also move the opponent as sunrate, less than 15 (a third of that gain: on these seeds 48.7 points and
    3.2; a new exploiter tuned the same way gains about half as much as against the search of old)."""
    exploiter = f"heuristic:{ROOT / 'tests' / 'data' / 'search_exploiter.json'}"
    seeds = np.arange(2001, 2151, dtype=np.int64)
    for search, low, high in (("search:opponent=heuristic", 0.30, 1.0), ("search", -1.0, 0.15)):
        gain = win_rate(exploiter, search, seeds) - win_rate("heuristic", search, seeds)
        assert low < gain < high, (search, gain)


def test_bot_names_and_parameters():
    bot = parse_bot("search:250", 3)
    assert bot.seat[0]["kind"] == kind_of("search")
    assert bot.seat[0]["params"][SCHEMA.index("budget")] == 250
    assert parse_bot("search", 3).seat[0]["params"][SCHEMA.index("budget")] == SCHEMA.by_name["budget"].default
    for bad in ("search:0", "search:x", "search:100000"):
        with pytest.raises(BotSpecError, match="budget"):
            parse_bot(bad, 3)
    assert parse_bot("search:opponent=heuristic", 3).seat[0]["params"][SCHEMA.index("opponent")] == 0
    with pytest.raises(BotSpecError, match="'opponent' must be one of"):
        parse_bot("search:opponent=greedy", 3)
    made = bot_with_params("search", {"min_gain": 5.0}, "search", {})
    assert made.seat[0]["params"][SCHEMA.index("min_gain")] == 5.0
    assert made.seat[0]["params"][SCHEMA.index("budget")] == SCHEMA.by_name["budget"].default
