"""Starting a program in its own session: what the referee's programs and their watchdog are started with."""
from __future__ import annotations

import os


def spawn_in_new_session(path: str, argv: list, file_actions: list) -> int:
    """posix_spawn (PATH searched) in a new session, or in a new process group where sessions are not supported.

    The environment passed is os.environ's own dict of bytes where there is one: given os.environ itself,
    posix_spawn decodes and encodes every variable through Python code, 100 us and more a start."""
    env = getattr(os.environ, "_data", None)
    if not isinstance(env, dict):
        env = os.environ
    try:
        return os.posix_spawnp(path, argv, env, file_actions=file_actions, setsid=True)
    except NotImplementedError:
        return os.posix_spawnp(path, argv, env, file_actions=file_actions, setpgroup=0)
