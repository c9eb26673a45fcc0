"""Studies: the study file, the search space, bot names (with `study:`), trials ranked and rebuilt as bots, and
the origin lines of exported files."""
from tuner.study.botnames import parse_bot_name, study_bot
from tuner.study.bots import Pick, best_trial, bot_for_trial, load_existing_study, load_pick, pick, trial_params
from tuner.study.file import StudyConfig, StudyFileError, read_study_file
from tuner.study.ranking import fully_played, ranked_trials
from tuner.study.space import SearchSpace, seat_of

__all__ = ["SearchSpace", "StudyConfig", "StudyFileError", "best_trial", "bot_for_trial", "fully_played",
           "load_existing_study", "load_pick", "pick", "Pick", "parse_bot_name", "ranked_trials", "read_study_file",
           "seat_of",
           "study_bot", "trial_params"]
