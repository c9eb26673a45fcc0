"""Looking at studies and games: optuna-dashboard on a study, the report's tables and plots."""
