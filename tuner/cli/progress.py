"""Progress on a terminal, silence elsewhere: what every command that can take more than a few seconds shows.

A bar (tqdm) on stderr when it is a terminal; nothing in pipes, files and CI, whose output stays the results.
The first command that plays games on a new version of the sources compiles the engine (Numba): it says so.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional

from tqdm import tqdm


def on_terminal() -> bool:
    return sys.stderr.isatty()


@contextmanager
def games_bar(total: int, what: str) -> Iterator[Optional[callable]]:
    """A progress callback `step(games)` for `total` games, or None when stderr is not a terminal."""
    if not on_terminal():
        yield None
        return
    with tqdm(total=total, desc=what, unit="game", file=sys.stderr, leave=False, dynamic_ncols=True) as bar:
        yield bar.update


def announce_compile() -> None:
    """Say that the engine compiles, once, when its compiled cache for these sources is empty (a terminal only)."""
    if not on_terminal():
        return
    from engine.jit import cache_directory  # loaded here: it imports Numba, which `tuner --help` need not

    directory = cache_directory()
    if not directory.is_dir() or not any(directory.glob("*.nbi")):
        print(f"compiling the engine for these sources: once, about 1 to 2 minutes (cached in {directory})",
              file=sys.stderr, flush=True)
