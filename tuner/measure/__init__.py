"""Playing games and measuring bots: the process pool, seeds, compiled batches against opponents, matches with
honest statistics, and the speed benchmark."""
from tuner.measure.game_pools import ProcessPool, split
from tuner.measure.matches import GameResult, MatchResult, run_match
from tuner.measure.runner import Evaluation, GameRunner, evaluate
from tuner.measure.seeds import game_seeds, paired_schedule
from tuner.measure.stats import Tally, elo_difference, pair_points, pair_value, tally, wilson_interval

__all__ = ["Evaluation", "GameResult", "GameRunner", "MatchResult", "ProcessPool", "Tally", "elo_difference",
           "evaluate", "game_seeds", "pair_points", "pair_value", "paired_schedule", "run_match", "split", "tally",
           "wilson_interval"]
