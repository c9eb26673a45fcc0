"""Looking at studies and games: optuna-dashboard on a study, the report's tables and plots, and game replays as
self-contained web pages (`render_replay`)."""
from tuner.view.replay_page import read_trace, render_replay, replay_data, write_replay

__all__ = ["read_trace", "render_replay", "replay_data", "write_replay"]
