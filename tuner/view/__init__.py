"""Game replays as web pages: `render_replay` turns a game's records into one self-contained HTML file."""
from tuner.view.replay_page import read_trace, render_replay, replay_data, write_replay

__all__ = ["read_trace", "render_replay", "replay_data", "write_replay"]
