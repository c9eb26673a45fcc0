"""play_refereed_game without records plays the same game; with records, the cycle collector pauses for the game
only."""
import gc

from bots.contract.names import parse_bot
from bots.running.player import player_for
from engine.players import Player, TimeLimits
from engine.referee import play_refereed_game
from tests.conftest import program


class Watcher(Player):
    """Plays WAIT and notes whether the cycle collector was running at each answer."""

    name = "watcher"

    def __init__(self):
        self.seen = set()

    def answer(self, lines, limit_s):
        self.seen.add(gc.isenabled())
        return "WAIT"


def test_a_game_without_records_is_the_same_game():
    bots = [program("behave.py"), "greedy"]
    limits = TimeLimits(3000, 1000)
    full = play_refereed_game(7, 3, [player_for(parse_bot(b)) for b in bots], limits)
    bare = play_refereed_game(7, 3, [player_for(parse_bot(b)) for b in bots], limits, records=False)
    assert bare.records == [] and full.records[-1]["t"] == "END"
    assert bare.outcome == full.outcome and bare.turns == full.turns
    assert bare.executions == full.executions == full.records[-1]["player_executions"]


def test_the_cycle_collector_pauses_during_a_recorded_game_only():
    assert gc.isenabled()
    watcher = Watcher()
    play_refereed_game(3, 3, [watcher, player_for(parse_bot("greedy"))])
    assert watcher.seen == {False} and gc.isenabled()
    watcher = Watcher()
    play_refereed_game(3, 3, [watcher, player_for(parse_bot("greedy"))], records=False)
    assert watcher.seen == {True}
    gc.disable()
    try:
        play_refereed_game(3, 3, [Watcher(), player_for(parse_bot("greedy"))])
        assert not gc.isenabled()  # the caller's choice stands
    finally:
        gc.enable()
