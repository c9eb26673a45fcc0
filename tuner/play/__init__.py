"""Playing games and measuring bots: the thread and process pools, seeds, compiled batches against opponents,
matches with honest statistics, the gauntlet and the speed benchmark."""
from tuner.play.matches import GameResult, MatchResult, run_match
from tuner.play.pools import ProcessPool, split
from tuner.play.runner import Evaluation, GameRunner, evaluate
from tuner.play.seeds import game_seeds, paired_schedule
from tuner.play.stats import Tally, elo_difference, pair_points, pair_value, tally, wilson_interval

__all__ = ["Evaluation", "GameResult", "GameRunner", "MatchResult", "ProcessPool", "Tally", "elo_difference",
           "evaluate", "game_seeds", "pair_points", "pair_value", "paired_schedule", "run_match", "split", "tally",
           "wilson_interval"]
