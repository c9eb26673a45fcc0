"""Progress on a terminal, silence elsewhere: what every command that can take more than a few seconds shows.

A bar (tqdm) on stderr when it is a terminal; nothing in pipes, files and CI, whose output stays the results.
The first command that plays games on a new version of the sources compiles the engine (Numba): it shows that.
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


def compile_engine_first(kinds: Optional[frozenset] = None) -> None:
    """Compile what the engine lacks for these sources before a command plays (`bots.running.warmup`): a bar on a
    terminal, one line elsewhere, nothing when the cache has it all. `kinds`: the seat kinds of the in-engine bots a
    command plays alone, when it plays no program (what they need is compiled, not the whole engine)."""
    from bots.running.warmup import CompileError, compile_engine  # loaded here: it imports Numba, which `tuner --help`
    from tuner.errors import UserError  # need not

    bar: list = []

    def announce(pieces: int, processes: int):
        if on_terminal():
            bar.append(tqdm(total=pieces, desc="compiling the engine for these sources (once)", unit="piece",
                            file=sys.stderr, leave=False, dynamic_ncols=True))
            return lambda name: (bar[0].set_postfix_str(name, refresh=False), bar[0].update())
        print(f"compiling the engine for these sources (once): {pieces} pieces on {processes} processes",
              file=sys.stderr, flush=True)
        return lambda name: None

    def waiting() -> None:
        print("another process is compiling the engine for these sources: waiting for it", file=sys.stderr,
              flush=True)

    try:
        seconds = compile_engine(announce=announce, waiting=waiting, kinds=kinds)
    except CompileError as error:
        raise UserError(str(error)) from None
    finally:
        if bar:
            bar[0].close()
    if seconds is not None and bar:
        print(f"compiled the engine in {seconds:.0f} s (cached for these sources)", file=sys.stderr, flush=True)
